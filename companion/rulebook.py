"""Each game's rulebook: clause ids with summaries written in our own words.

Rulings cite clause ids; the rulebook is what turns an id back into an
explanation at the table, so every cited id must exist here.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import BadRequest, quoted
from companion.schema import ListOf, Obj, Str, header, label
from companion.wordforms import (
    ASKING,
    FUNCTION_WORDS,
    HINTS,
    LIGHT_WORDS,
    NUMBER_WORDS,
    SYNONYMS,
    bare,
    counted,
    counting,
    slips,
    stem,
    terms,
    words,
)

# The most words whose clauses a rulebook remembers (`Rulebook._holders`): far more than a day's searches use.
HELD_REMEMBERED = 2048

# From this many words (the little words aside) a search is a question, whose words rank the clauses and no
# longer filter them: a clause need not hold every word of a question to be the one that answers it.
QUESTION_WORDS = 3

# A printed name in a rulebook: two or more capitalised words, perhaps joined by "of" or "the" ("Diagonal Step
# Down", "Gust of Force", "Camel's Blessing", "Secret Passage"). A sentence's first word may run into one ("The
# Guardian's Test"); its little words are dropped with the rest (`_names`).
NAME = re.compile(r"\b[A-Z][\w'’]*(?:[ -]+(?:of |the )?[A-Z][\w'’]*)+")

# How much finding the table's word for a thing ("guy" for a pawn) counts against finding the word typed.
SYNONYM_WEIGHT = 0.7

# How much a light word ("goes", "get", "game") counts in a question of other words, against the word of its subject.
LIGHT_WEIGHT = 0.3

# How strongly a question's clause is ranked by the share of the question's words it holds (`Rulebook.lookup`): its
# score is multiplied by that share to this power. 0 was the old ranking, where a short clause holding one rare word
# ("Challenge reached by ...", for "lives reach zero") outranked one holding two of the three; at 1 a clause holding
# a word typed in passing ("two" in "put two of my targi on the same card") outranked the one answering it.
COVERAGE_POWER = 0.75

# The most characters of one keyword: a word or two a referee types into the search ("skip", "miss a turn").
KEYWORD_LIMIT = 30


def Keyword() -> Any:  # noqa: N802 - schema constructors read like types
    """A clause's search word: text, not empty, and short, since a sentence there would match too much."""
    text = Str()

    def check(value: Any, path: str) -> list[str]:
        problems = text(value, path)
        if not problems and len(value) > KEYWORD_LIMIT:
            return [
                f"{label(path)}: {value[:40]!r} is {len(value)} characters long; a keyword is a word or two a referee "
                f"would type into the search, at most {KEYWORD_LIMIT}; split it or shorten it"
            ]
        return problems

    return check


CLAUSE_SCHEMA = Obj(
    {"id": Str(), "title": Str(), "text": Str()},
    {"section": Str(), "see": ListOf(Str()), "keywords": ListOf(Keyword())},
)


def rulebook_schema(game: str) -> Any:
    return Obj(
        {**header(game, "rulebook"), "title": Str(), "clauses": ListOf(CLAUSE_SCHEMA, 1, unique_by="id")},
        {"source": Str()},
    )


@dataclass(frozen=True)
class Clause:
    id: str
    title: str
    text: str
    section: str = ""
    see: tuple[str, ...] = ()
    # Words a referee would type that the summary does not use ("skip" for a lost turn): searched, never shown.
    keywords: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "title": self.title, "text": self.text}
        if self.section:
            out["section"] = self.section
        if self.see:
            out["see"] = list(self.see)
        if self.keywords:
            out["keywords"] = list(self.keywords)
        return out

    def searched(self) -> str:
        """The text a search looks in: id, title, summary and keywords."""
        return " ".join((self.id, self.title, self.text, *self.keywords))


def _names(clauses: list[Clause]) -> frozenset[tuple[str, ...]]:
    """The printed names of the rulebook's cards, spaces and pieces, as the stems of their words (`NAME`).

    In a summary, a name starting a sentence loses its first word, capitalised
    for the sentence ("Passing the Guardian moves..." names the Guardian). A
    title wholly in capitals is one ("Desert Whisper"), but for a first word
    saying what is done with it: "Placing Targi" is about placing, and "place a
    targi on the robber" is a question of three words, no search for one thing.
    """
    found: set[tuple[str, ...]] = set()
    for clause in clauses:
        title = NAME.fullmatch(clause.title.rstrip("!?."))
        names = [title.group()] if title else []
        if names and names[0].split()[0].endswith("ing"):
            names = [names[0].split(None, 1)[-1]]
        for match in NAME.finditer(clause.text):
            name = match.group()
            if not clause.text[:match.start()].strip() or clause.text[:match.start()].rstrip()[-1] in ".!?":
                name = name.split(None, 1)[-1]
            names.append(name)
        for name in names:
            held = tuple(stem(w) for w in terms(name) if w not in FUNCTION_WORDS and len(w) > 1)
            if len(held) > 1:
                found.add(held)
    return frozenset(found)


@dataclass(frozen=True)
class Found:
    """What a rules search found: the clauses, best first, and whether they hold every word typed.

    `every` is false when the clauses are the closest ones, holding some of the
    words (no clause held them all, or a question's words ranked rather than
    filtered them): the screen and the terminal say so.
    """
    clauses: list[Clause]
    every: bool


def _id_key(clause_id: str) -> str:
    """A clause id with case, hyphens, spaces and brackets aside: 'DR 11', 'dr11' and '[DR-11]' read alike."""
    return re.sub(r"[^0-9a-z]", "", clause_id.casefold())


class Rulebook:
    def __init__(self, game: str, title: str, clauses: list[Clause], game_title: str = "") -> None:
        self.game = game
        self.title = title
        # The game as the table knows it ("Through the Desert"): "ttd has no rule clause" named it by the id
        # only a protocol client types.
        self.game_title = game_title or game
        self.clauses = clauses
        self._by_id = {c.id: c for c in clauses}
        # Each clause's words, made once: the screen searches again on every letter typed.
        self._words = [frozenset(words(c.searched())) for c in clauses]
        # Each title's words (its little words aside) as typed and as stems: a title holding the words typed
        # ranks its clause up, and a question naming the whole title most of all.
        self._titles = [tuple(w for w in words(c.title) if w not in FUNCTION_WORDS) for c in clauses]
        self._title_stems = [frozenset(map(stem, t)) for t in self._titles]
        # The things each clause gives a number of ("three cards", "2 VP"), as stems: what a count question asks.
        self._counted = [counted(" ".join((c.title, c.text, *c.keywords))) for c in clauses]
        self._held: dict[str, frozenset[int]] = {}
        self._senses_of: dict[str, list[tuple[str, frozenset[int], float]]] = {}
        # Every word of the clauses, with the clauses holding it and by its stem: a word typed is looked up in
        # these, not in each clause in turn (a long question cost 7 to 10 ms a search before it was remembered).
        self._by_word: dict[str, set[int]] = {}
        self._by_stem: dict[str, set[int]] = {}
        for i, held in enumerate(self._words):
            for w in held:
                self._by_word.setdefault(w, set()).add(i)
        for w, holders in self._by_word.items():  # each word's stem made once: most words recur clause to clause
            self._by_stem.setdefault(stem(w), set()).update(holders)
        self._vocabulary = sorted(self._by_word)
        self._names = _names(clauses)

    @classmethod
    def from_data(cls, game: str, data: Mapping[str, Any], game_title: str = "") -> Rulebook:
        clauses = [
            Clause(
                c["id"], c["title"], c["text"], c.get("section", ""), tuple(c.get("see", ())),
                tuple(c.get("keywords", ())),
            )
            for c in data["clauses"]
        ]
        return cls(game, data["title"], clauses, game_title)

    def __contains__(self, clause_id: str) -> bool:
        return clause_id in self._by_id

    def clause(self, clause_id: str) -> Clause:
        try:
            return self._by_id[clause_id]
        except KeyError:
            raise BadRequest(f"{self.game_title} has no rule clause {quoted(clause_id)}") from None

    def typed(self, clause_id: str) -> Clause:
        """A clause by its id as a person types it, in any case: 'bp-c5' is as clear as 'BP-C5'; and, when only
        one clause fits, with its hyphen left out or typed as a space ('dr11', 'DR 11') or in the brackets a
        ruling cites it in ('[BP-Q5]', copied from the terminal's answer). Those were "no rule clause".

        The terminal's `rule` took any case while `companion rules blackpool bp-c5` refused the same id.
        """
        wanted = clause_id.strip().lower()
        exact = next((c.id for c in self.clauses if c.id.lower() == wanted), None)
        if exact is None:
            loose = [c.id for c in self.clauses if _id_key(c.id) == _id_key(wanted)]
            exact = loose[0] if len(loose) == 1 and _id_key(wanted) else None
        return self.clause(exact or clause_id)

    def search(self, words: str) -> list[Clause]:
        """The clauses a search finds, best first: see `lookup`."""
        return self.lookup(words).clauses

    def lookup(self, words: str) -> Found:
        """Clauses for the words typed, best first, for the rulebook screen, the terminal and the protocol.

        Words that are all clause ids ("bp-q1", "TTD-3a TTD-T": what a ruling
        cites; "DR-24?" or "(TTD-3a)," too) give exactly those clauses, in the
        order typed: as words, "BP-Q1" also matched BP-Q10 to BP-Q19, and the
        clause a referee looked up was one of eleven on the screen.

        Function words ("a", "the", "who") are left out when other words are
        given: "who wins a tie" is looked up as "wins tie", since a clause
        saying "equal top totals share the victory" holds no word starting
        with "a" or "who" and was dropped. Typed alone ("a", the start of
        "auction"), or with only other function words, they are searched as
        any word is; and leaving out a word typed last only widens the list,
        which the next letters narrow again ("miss a" lists what "miss" does).

        A word is found in any of its forms, by the table's own words for what
        the rulebook names otherwise ("my guy": a pawn; `SYNONYMS`), and, when
        no clause holds it as typed, with a slip of the finger mended
        ("oassis", "freese") or split in two ("waterholes"): see `_senses`.

        Words holding no letter or digit ("", blanks, "?", "--") search for
        nothing: every clause in the rulebook's order, ``every`` true.

        The clauses holding every word come first, the one that holds the rarer
        words (and holds them in its title) before the others; when none holds
        them all, the clauses holding the most telling of them, `every` false.
        A player types the question as it is argued ("can I jump over other
        travellers"): as a filter needing every word it found nothing for 42 of
        50 such questions, and where it found the clause, it listed the
        rulebook's first clauses before it ("when does the game end": TTD-1).
        From `QUESTION_WORDS` words on, every clause holding any of them is
        ranked, since holding every word of a question is no sign of answering
        it; `every` is then false unless all those listed hold every word. A
        printed name typed whole ("diagonal step down", "gust of force") counts
        as one word (`_named`): it names one card, and is no question.
        """
        if not any(ch.isalnum() for ch in words):
            # No word at all ("", blanks, "?", "--"): nothing to narrow by, so the whole book in its order, as an
            # empty search field shows it. "" and "-" listed every clause while "?" and "!!" listed none.
            return Found(list(self.clauses), True)
        typed = [w for w in (bare(w).lower() for w in words.split()) if w]
        by_id = {c.id.lower(): c for c in self.clauses}
        if typed and all(t in by_id for t in typed):
            return Found(list({by_id[t].id: by_id[t] for t in typed}.values()), True)
        found = terms(words) or typed
        asked = list(dict.fromkeys(t for t in found if t not in FUNCTION_WORDS)) or list(dict.fromkeys(found))
        asking: list[str] = []
        senses = [self._senses(t) for t in asked]
        held = [frozenset().union(*(h for _w, h, _f in s)) for s in senses]
        every = set(range(len(self.clauses))).intersection(*held)
        if asked != found:
            # "who goes first" asks for a player, "where can I put my leader" for a place: the words of asking
            # rank the clauses naming one ("Where a leader may stand"), and never filter them; they make a question
            # of two other words, whose words rank too ("who goes first": Blackpool's first player never says "go").
            asking = [t for t in dict.fromkeys(found) if t in ASKING and t not in asked]
            senses += [self._senses(t) + [(w, self._holders(w), SYNONYM_WEIGHT) for w in ASKING[t]] for t in asking]
        if len(asked) > 1:  # "who goes first": "goes" says little next to "first"; typed alone it is the subject
            senses = [[(w, h, f * LIGHT_WEIGHT) for w, h, f in s] if t in LIGHT_WORDS else s
                      for t, s in zip(asked + asking, senses, strict=True)]
        if asked:  # "someone else's", "too many": what the little word means ranks, never the word itself
            senses += [[(w, self._holders(w), SYNONYM_WEIGHT) for w in HINTS[t]]
                       for t in dict.fromkeys(found) if t in HINTS]
        score = dict.fromkeys(range(len(self.clauses)), 0.0)
        # The share of the question a clause holds: each word typed (and each word of asking) that some clause holds
        # counts 1, a light word LIGHT_WEIGHT; the hints only rank, and are no words of the question.
        held_share = dict.fromkeys(range(len(self.clauses)), 0.0)
        whole = 0.0
        for n, term_senses in enumerate(senses):
            best: dict[int, float] = {}
            for sense, holders, factor in term_senses:
                # A word held by few clauses tells more than one most clauses hold ("jump" over "can" or "other").
                weight = factor * math.log((len(self.clauses) + 1) / (len(holders) + 0.5))
                for i in holders:
                    value = weight * (1.5 if self._titled(i, sense) else 1.0)
                    best[i] = max(best.get(i, 0.0), value)
            for i, value in best.items():
                score[i] += value
            if best and n < len(asked) + len(asking):
                unit = LIGHT_WEIGHT if n < len(asked) and len(asked) > 1 and asked[n] in LIGHT_WORDS else 1.0
                whole += unit
                for i in best:
                    held_share[i] += unit
        if len(asked) > 1 and whole:
            # A clause holding more of the question answers it more likely than one holding a rarer word of it alone:
            # "can my leader go next to a water hole" listed the water holes' worth (TTD-4a, TD-Q13) before the
            # clauses on where a leader may stand, which hold the leader, the water hole and "beside" alike.
            score = {i: v * (held_share[i] / whole) ** COVERAGE_POWER for i, v in score.items()}
        # A short clause holding the words is about them; a long one may mention them in passing.
        mean = sum(map(len, self._words)) / len(self.clauses) or 1.0  # a café clause may hold no word at all
        score = {i: v / (0.6 + 0.4 * len(self._words[i]) / mean) for i, v in score.items()}
        # A question naming a clause's whole title ("what does the reset card do": "Reset") asks about that
        # clause; the long clause of a card outranked short ones only mentioning it ("Ah Kinchil card in a hand").
        named = {stem(w) for s in senses for sense, _h, _f in s for w in sense.split() if w.isalpha()}
        for i in score:
            if score[i] and self._titles[i] and self._title_stems[i] <= named:
                score[i] *= 1.5
        # A count question ("how many cards should I have") asks for a number of something: the clauses giving
        # one ("a hand is kept at three cards") answer it, not all those only mentioning cards (the hand was 13th).
        thing = counting(found)
        if thing:
            for i in score:
                if score[i] and stem(thing) in self._counted[i]:
                    score[i] *= 2.0
        if every and self._named(asked) + len(asking) < QUESTION_WORDS:
            ranked = sorted(every, key=lambda i: (-score[i], i))
        else:
            # A question's words are not a filter: "where can I put my leader at the start" held every word only
            # in the clauses on the start player and on whose turn it is, and the leader's clause was cut.
            ranked = sorted((i for i in score if score[i] > 0), key=lambda i: (-score[i], i))
        return Found([self.clauses[i] for i in ranked], (bool(every) and every.issuperset(ranked)) or not asked)

    def _named(self, asked: list[str]) -> int:
        """How many things a search names: its words, a printed name typed whole ("diagonal step down") as one.

        "what does diagonal step down do" names one card, and is a search for it,
        not a question of three words that only ranks: it listed the card's clause
        first among "12 closest clauses", as if none held every word.
        """
        stems = [stem(t) for t in asked]
        count, at = 0, 0
        while at < len(stems):
            run = max((len(n) for n in self._names if tuple(stems[at:at + len(n)]) == n), default=1)
            count, at = count + 1, at + run
        return count

    def _senses(self, term: str) -> list[tuple[str, frozenset[int], float]]:
        """What a typed word is looked for as: (words, the clauses holding them, how much a match counts).

        The word itself; the table's words for the same thing (`SYNONYMS`),
        counting a little less. A word no clause holds is a slip ("oassis",
        "silversmth", "freese": they found nothing, and the question lost its
        subject): the rulebook's words one letter away (two for a long word)
        stand in, or two words it was joined from ("waterholes"). Remembered
        with the clauses of each word (`_holders`).
        """
        found = self._senses_of.get(term)
        if found is not None:
            return found
        found = [(term, self._holders(term), 1.0)]
        if term in NUMBER_WORDS:  # "6" and "six" alike, neither counting less
            found.append((NUMBER_WORDS[term], self._holders(NUMBER_WORDS[term]), 1.0))
        if term.isalpha() or term in NUMBER_WORDS:  # "0" as "zero": Lives at 0 have run out, as at zero
            spelt = term if term.isalpha() else NUMBER_WORDS[term]
            found += [(other, self._holders(other), SYNONYM_WEIGHT) for other in SYNONYMS.get(stem(spelt), ())
                      if other != term]
        if term.isalpha() and not found[0][1] and len(term) >= 5:  # "same", not in Blackpool's, is no slip for "game"
            found += [(w, self._holders(w), 1.0) for w in self._near(term)] or self._joined(term)
        if len(self._senses_of) >= HELD_REMEMBERED:
            self._senses_of.clear()
        self._senses_of[term] = found
        return found

    def _near(self, term: str) -> list[str]:
        """The rulebook's words one slip from a word typed: a letter wrong, left out, added or two swapped.

        Two slips for a word of eight letters or more; the first letter is taken as typed, as it nearly always
        is, which keeps a word this rulebook does not use from passing for one it does.
        """
        most = 1 if len(term) < 8 else 2
        return [w for w in self._vocabulary if w[0] == term[0] and abs(len(w) - len(term)) <= most
                and len(w) >= 4 and slips(term, w, most) <= most]

    def _joined(self, term: str) -> list[tuple[str, frozenset[int], float]]:
        """A word typed as two run together ("waterholes", "sandthief"): the clauses holding both parts."""
        for cut in range(3, len(term) - 2):
            head, tail = term[:cut], term[cut:]
            if stem(head) in self._by_stem and stem(tail) in self._by_stem:
                return [(f"{head} {tail}", self._holders(head) & self._holders(tail), 1.0)]
        return []

    def _holders(self, term: str) -> frozenset[int]:
        """The clauses holding a word, remembered: the screen searches again on every letter typed.

        A word of letters matches a word of the clause that begins with it (the
        screen searches as each letter is typed: "cam" already finds "camel")
        or shares its stem ("tied" finds "tie", "paid" finds "pays"). Only at a
        word's start: anywhere in the text, "card" found every "discard" and
        "ends" every "depends". A number ("6") is one of the clause's numbers,
        never a part of its id: "roll a 6" listed BP-Q36, BP-C6 and BP-Q6, and
        no clause about a six. Anything else ("bp-q1") is looked for as typed,
        anywhere in the clause. A clause's keywords count
        as its words: "skip" finds the lost turn the summary calls "lose". The
        words are indexed once, sorted, so a word's start is found by bisection
        rather than by reading every word of every clause.
        """
        found = self._held.get(term)
        if found is None:
            if len(self._held) >= HELD_REMEMBERED:  # a client sending endless new words must not grow it for ever
                self._held.clear()
            if term.isalpha():
                held = set(self._by_stem.get(stem(term), ()))
                at = bisect.bisect_left(self._vocabulary, term)
                while at < len(self._vocabulary) and self._vocabulary[at].startswith(term):
                    held |= self._by_word[self._vocabulary[at]]
                    at += 1
                found = frozenset(held)
            elif term.isdigit():  # a number: a whole number of a clause's words, never part of its id ("BP-Q36")
                number = re.compile(rf"(?<!\d){re.escape(term)}(?!\d)")
                found = frozenset(i for i, c in enumerate(self.clauses)
                                  if number.search(" ".join((c.title, c.text, *c.keywords))))
            else:
                found = frozenset(i for i, c in enumerate(self.clauses) if term in c.searched().lower())
            self._held[term] = found
        return found

    def _titled(self, index: int, sense: str) -> bool:
        """Whether a clause's title holds the word: the clause is about it, not only mentioning it."""
        return any(
            (stem(w) in self._title_stems[index] or any(t.startswith(w) for t in self._titles[index]))
            if w.isalpha() else w in self.clauses[index].title.lower()
            for w in sense.split()
        )

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "clauses": [c.to_dict() for c in self.clauses]}
