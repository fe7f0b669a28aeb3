"""Each game's rulebook: clause ids with summaries written in our own words.

Rulings cite clause ids; the rulebook is what turns an id back into an
explanation at the table, so every cited id must exist here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import BadRequest, quoted
from companion.schema import ListOf, Obj, Str, header, label
from companion.wordforms import FUNCTION_WORDS, stem, words

# The most words whose clauses a rulebook remembers (`Rulebook._holders`): far more than a day's searches use.
HELD_REMEMBERED = 2048

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


@dataclass(frozen=True)
class Found:
    """What a rules search found: the clauses, best first, and whether they hold every word typed.

    `every` is false when no clause held them all and the clauses are the
    closest ones, holding some of the words: the screen and the terminal say so.
    """
    clauses: list[Clause]
    every: bool


class Rulebook:
    def __init__(self, game: str, title: str, clauses: list[Clause], game_title: str = "") -> None:
        self.game = game
        self.title = title
        # The game as the table knows it ("Through the Desert"): "ttd has no rule clause" named it by the id
        # only a protocol client types.
        self.game_title = game_title or game
        self.clauses = clauses
        self._by_id = {c.id: c for c in clauses}
        # Each clause's words and their stems, made once: the screen searches again on every letter typed.
        self._words = [frozenset(words(c.searched())) for c in clauses]
        self._stems = [frozenset(map(stem, w)) for w in self._words]
        # Each title's words (its little words aside) as typed and as stems: a title holding the words typed
        # ranks its clause up, and a question naming the whole title most of all.
        self._titles = [tuple(w for w in words(c.title) if w not in FUNCTION_WORDS) for c in clauses]
        self._title_stems = [frozenset(map(stem, t)) for t in self._titles]
        self._held: dict[str, tuple[int, ...]] = {}

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

    def search(self, words: str) -> list[Clause]:
        """The clauses a search finds, best first: see `lookup`."""
        return self.lookup(words).clauses

    def lookup(self, words: str) -> Found:
        """Clauses for the words typed, best first, for the rulebook screen, the terminal and the protocol.

        Words that are all clause ids ("bp-q1", "TTD-3a TTD-T": what a ruling
        cites) give exactly those clauses, in the order typed: as words,
        "BP-Q1" also matched BP-Q10 to BP-Q19, and the clause a referee looked
        up was one of eleven on the screen.

        Function words ("a", "the", "who") are left out when other words are
        given: "who wins a tie" is looked up as "wins tie", since a clause
        saying "equal top totals share the victory" holds no word starting
        with "a" or "who" and was dropped. Typed alone ("a", the start of
        "auction"), or with only other function words, they are searched as
        any word is; and leaving out a word typed last only widens the list,
        which the next letters narrow again ("miss a" lists what "miss" does).

        The clauses holding every word come first, the one that holds the rarer
        words (and holds them in its title) before the others; when none holds
        them all, the clauses holding the most telling of them, `every` false.
        A player types the question as it is argued ("can I jump over other
        travellers"): as a filter needing every word it found nothing for 42 of
        50 such questions, and where it found the clause, it listed the
        rulebook's first clauses before it ("when does the game end": TTD-1).
        """
        terms = [w.lower() for w in words.split() if w]
        by_id = {c.id.lower(): c for c in self.clauses}
        if terms and all(t in by_id for t in terms):
            return Found(list({by_id[t].id: by_id[t] for t in terms}.values()), True)
        terms = list(dict.fromkeys(t for t in terms if t not in FUNCTION_WORDS)) or terms
        held = [self._holders(t) for t in terms]
        every = set(range(len(self.clauses))).intersection(*map(set, held))
        # A word held by few clauses tells more than one most clauses hold ("jump" over "can" or "other").
        weight = {t: math.log((len(self.clauses) + 1) / (len(h) + 0.5)) for t, h in zip(terms, held, strict=True)}
        score = dict.fromkeys(range(len(self.clauses)), 0.0)
        for term, holders in zip(terms, held, strict=True):
            for i in holders:
                score[i] += weight[term] * (1.5 if self._titled(i, term) else 1.0)
        # A short clause holding the words is about them; a long one may mention them in passing.
        mean = sum(map(len, self._words)) / len(self.clauses) or 1.0  # a café clause may hold no word at all
        score = {i: v / (0.6 + 0.4 * len(self._words[i]) / mean) for i, v in score.items()}
        # A question naming a clause's whole title ("what does the reset card do": "Reset") asks about that
        # clause; the long clause of a card outranked short ones only mentioning it ("Ah Kinchil card in a hand").
        for i in score:
            if score[i] and self._named(i, terms):
                score[i] *= 1.5
        if every:
            ranked = sorted(every, key=lambda i: (-score[i], i))
        else:
            ranked = sorted((i for i in score if score[i] > 0), key=lambda i: (-score[i], i))
        return Found([self.clauses[i] for i in ranked], bool(every) or not terms)

    def _holders(self, term: str) -> tuple[int, ...]:
        """The clauses holding a word, remembered: the screen searches again on every letter typed, and a
        question typed whole looks up each of its words in every clause (4 ms here for a long one, not 0.5)."""
        found = self._held.get(term)
        if found is None:
            if len(self._held) >= HELD_REMEMBERED:  # a client sending endless new words must not grow it for ever
                self._held.clear()
            found = self._held[term] = tuple(i for i in range(len(self.clauses)) if self._holds(i, term))
        return found

    def _named(self, index: int, terms: list[str]) -> bool:
        """Whether the words typed hold every word of a clause's title (its little words aside), in any form."""
        typed = {stem(t) for t in terms if t.isalpha()}
        return bool(self._titles[index]) and self._title_stems[index] <= typed

    def _titled(self, index: int, term: str) -> bool:
        """Whether a clause's title holds the word: the clause is about it, not only mentioning it."""
        if not term.isalpha():
            return term in self.clauses[index].title.lower()
        return stem(term) in self._title_stems[index] or any(w.startswith(term) for w in self._titles[index])

    def _holds(self, index: int, term: str) -> bool:
        """Whether clause ``index`` holds a lower-case search word, in any of its forms.

        A word of letters matches a word of the clause that begins with it (the
        screen searches as each letter is typed: "cam" already finds "camel")
        or shares its stem ("tied" finds "tie", "paid" finds "pays"). Only at a
        word's start: anywhere in the text, "card" found every "discard" and
        "ends" every "depends". Anything else ("bp-q1", "2", "player's") is
        looked for as typed, anywhere in the clause. A clause's keywords count
        as its words: "skip" finds the lost turn the summary calls "lose".
        """
        if not term.isalpha():
            return term in self.clauses[index].searched().lower()
        return stem(term) in self._stems[index] or any(w.startswith(term) for w in self._words[index])

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "clauses": [c.to_dict() for c in self.clauses]}
