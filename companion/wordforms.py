"""Word forms for the rulebook search: "tied", "ties" and "tying" all find "tie".

A referee types the word as it comes to mind ("who moved first", "paid the
raid", "two camels"), and the clause may say "move", "pay" or "camel": a
search for "tied" found nothing in Blackpool, Targi or the temple game while
"tie" found the tie clauses. A full stemmer (Porter, Snowball) would be a new
dependency for five short rulebooks; these few rules cover the English
endings the rulebooks use, and are kept cautious so that a search does not
flood: a short word keeps its ending ("one" is not "on", "use" stays "use").
"""

from __future__ import annotations

import re

# Forms no suffix rule reaches, mapped to the form the rules below reduce as their base word.
IRREGULAR = {
    "paid": "pay", "laid": "lay", "said": "say",
    "tying": "tie", "dying": "die", "lying": "lie", "dice": "die",
    "won": "win", "lost": "lose", "drew": "draw", "drawn": "draw",
    "took": "take", "taken": "take", "gave": "give", "given": "give",
    "chose": "choose", "ran": "run", "goes": "go", "went": "go", "gone": "go",
    "sold": "sell", "bought": "buy", "held": "hold", "kept": "keep", "sent": "send",
    "oases": "oasis", "men": "man", "used": "use", "frozen": "freeze", "chosen": "choose",
    # "Lives" is the plural of "Life" (the desert's "gain a life", "lose 2 Lives"), not of "live".
    "lives": "life", "winner": "win", "winners": "win",
    # A table in America types its own spelling; the house rulebooks are in British English.
    "center": "centre", "centers": "centre", "color": "colour", "colors": "colour", "colored": "coloured",
    "traveler": "traveller", "travelers": "traveller", "neighbor": "neighbour", "neighbors": "neighbour",
    # "the twelfth card" and "twelve cards" are one question (first and second mean more than a count).
    "third": "three", "fourth": "four", "fifth": "five", "sixth": "six", "seventh": "seven", "eighth": "eight",
    "ninth": "nine", "tenth": "ten", "eleventh": "eleven", "twelfth": "twelve",
}

# Words that carry the grammar of a typed question, not its subject ("miss a turn", "who wins the tie").
# A search needs every word it is given, so each of these only lost clauses: "a" matched the start of almost
# every word and "the" of most, and the few clauses with neither were dropped ("gain a life" missed the
# desert's "Gain one Life", "who wins a tie" the Through the Desert winner). English only, as the house
# rulebooks are; a word that says something about a rule ("no", "not", "out", "off", "one") is not here. The
# words of asking ("what happens", "would it") are here too: a question names its subject with other words.
FUNCTION_WORDS = frozenset({
    "a", "an", "the", "of", "to", "in", "on", "at", "by", "for", "from", "with", "into", "onto",
    "is", "are", "was", "be", "it", "its", "and", "or", "if", "as", "so", "do", "does", "can",
    "i", "me", "my", "we", "you", "your", "what", "when", "where", "who", "which", "why", "how",
    "that", "this", "there", "happen", "happens", "happened", "will", "would", "could", "should",
    "did", "done", "has", "have", "had", "am", "were", "been", "he", "she", "her", "him", "his", "they", "them",
    "their", "our", "us", "many", "much", "some", "just", "than", "may", "might", "shall", "else", "too",
    # Contractions typed without their apostrophe ("cant pay", "theyre tied"); with it they are cut in `terms`.
    "cant", "dont", "doesnt", "didnt", "isnt", "arent", "wont", "im", "ive", "youre", "theyre", "thats", "whats",
})

# Words a table says for what the rulebooks name otherwise: "my guy" is a Targi, a pawn or a traveller, "her
# camel" belongs to another player, "next to" is "beside". A typed word (as its stem) also finds these words,
# weighed a little below the word itself (`Rulebook.lookup`), so that a clause saying what was typed still
# comes first. One way only: "over" (the game is over) finds "end", but "end" never "over".
_PIECES = ("piece", "pawn", "traveller", "explorer", "targi", "meeple")
_PLAYERS = ("player", "opponent", "rival")
_NEXT_TO = ("beside", "adjacent", "next", "touch", "neighbour")
_SQUARES = ("space", "square", "hex", "cell")
_EQUAL = ("same", "equal", "tie", "level")
_SYNONYMS: dict[str, tuple[str, ...]] = {
    **{w: _PIECES for w in ("man", "guy", "figure", "counter", "piece", "pawn", "traveller", "explorer", "meeple")},
    **{w: _PLAYERS for w in ("friend", "someone", "somebody", "anyone", "anybody", "opponent", "rival", "enemy")},
    **{w: _NEXT_TO for w in (*_NEXT_TO, "alongside")},
    **{w: _SQUARES for w in (*_SQUARES, "spot")},
    # Two pieces on "the same card" are one on a card "already" holding "another" (Targi's TG-P3).
    **{w: _EQUAL for w in _EQUAL}, "same": (*_EQUAL, "share", "another", "already"), "jump": ("pass",),
    "hop": ("pass",),
    # A word and the word it comes from, which no suffix rule reaches: "walk past" a space "passed over", "choose"
    # not to move and move "by choice", "different colours" and colours that "differ", "knocked back" and "sent".
    "past": ("pass", "over"), "choose": ("choice",), "choice": ("choose",), "different": ("differ",),
    "differ": ("different",), **{w: ("send",) for w in ("knock", "bump", "kick")},
    "give": ("trade", "swap", "exchange"), "trade": ("swap", "exchange"), "swap": ("trade", "exchange", "replace"),
    "exchange": ("trade", "swap"),
    "backward": ("back",), "backwards": ("back",), "back": ("backward",),
    "over": ("end", "finish"), "finish": ("end",), "end": ("finish",),
    "start": ("begin",), "begin": ("start",), "put": ("place", "lay", "stand"), "place": ("put", "lay"),
    # Going first is starting: "who goes first" and the "start player" (Targi), "who begins" (the temple).
    "first": ("start", "begin"),
    "middle": ("centre",), "centre": ("middle",), "throw": ("roll",), "miss": ("lose", "skip"),
    "point": ("vp",), "vp": ("point",), "money": ("gold", "coin"), "price": ("cost",),
    "tableau": ("display",), "staircase": ("stairway",),
    # Words in place of keywords that only echoed one question each ("walk past", "reaches", "turn around",
    # "how many fit"): moving past a space passes over it, the robber reaching a corner lands on it, a card turned
    # around is rotated or flipped, and what fits on a square is what it holds or may share.
    "reach": ("land", "arrive", "enter"), "arrive": ("land", "reach"),
    "around": ("rotate", "flip", "orientation"), "fit": ("hold", "share", "room"),
    # A roll "split" between pieces is the question a rule answers with "a single pawn" or "one traveller".
    "split": ("divide", "single"), "divide": ("split", "single"),
    "through": ("cross", "pass"),
    # What a player cannot "afford" they cannot pay.
    "afford": ("pay", "cost"),
    # A referee's words for what the summaries say otherwise: "only one stairway" is a lone one, a space entered
    # "twice" is entered a second time, a stairway taken "again" repeats, a pile "empty" has run out.
    "only": ("lone",), "twice": ("second",), "again": ("repeat", "chain"), "empty": ("runs out", "run out"),
    # A count at zero has run out: "lives reach zero" asks what running out of Lives does (the desert's DR-6), and
    # listed DR-Q21 first, the short "Lives never go below 0" holding the same two words. "0" counts as "zero".
    "zero": ("runs out", "run out", "running out"),
}

# Words a table puts into almost any question ("who goes first", "how do I get out", "who starts the game"):
# they say that something moves or comes about, or that the question is about the game, not what it is about.
# In a question of other words they rank a clause a little (`Rulebook.lookup`), so that a clause saying "goes"
# is not taken for the answer for that word alone: Targi's "the card goes to its leftmost free place" came first
# for "who goes first" (the start player's clause seventh). Typed alone, or with only little words, they are
# the subject and weigh as any word.
LIGHT_WORDS = frozenset({"go", "goes", "going", "went", "gone", "get", "gets", "getting", "got", "game"})

# Little words that still say something of what is asked, looked for only as these words, weighed as a
# synonym is, ranking and never filtering (`Rulebook.lookup`): "someone else's traveller" is another player's
# ("else" as itself found Blackpool's "if nothing else can move" first), "too many" goods are over a limit, more
# than "at most" (as itself, "too" found "if that is equal too" and, as a word's start, "took").
HINTS = {"else": ("other", "another"), "too": ("limit", "most")}

# The words of asking that name what the answer is: "who goes first" asks for a player ("the start player",
# "whoever rolls highest"), "where can I put my leader" for a place ("Where a leader may stand"). In a question
# they are looked for as themselves and as these words, weighed as a synonym is (`Rulebook.lookup`); they rank
# and never filter. Typed alone, "who" is a word like any other.
ASKING = {"who": ("player", "whoever", "whose"), "where": ()}


WORD = re.compile(r"[^\W\d_]+")  # letters of any alphabet: a café's own rulebook may be German


def words(text: str) -> list[str]:
    """The words of a text, lower case, split at anything not a letter ("path-card's" is three, "TTD-3a" two)."""
    return WORD.findall(text.lower())


def _undouble(word: str) -> str:
    """"stopp" (from "stopped") back to "stop"; "roll", "pass" and "buzz" keep their double letter."""
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeioulsz":
        return word[:-1]
    return word


def stem(word: str) -> str:
    """The part of a lower-case word its forms share: "moved", "moves", "moving" and "move" give "mov".

    Only what the two forms compared both reduce to matters, never that the
    stem is a word: "place" and "placed" both give "plac".
    """
    word = IRREGULAR.get(word, word)
    if word.endswith(("ies", "ied")):
        # "parties"/"carried" to "party"/"carry"; "ties"/"tied"/"dies" (four letters) to "tie"/"die"
        word = word[:-3] + "y" if len(word) > 4 else word[:-1]
    elif word.endswith("sses"):
        word = word[:-2]  # "passes" to "pass"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]  # "camels", "pays", "moves"; not "pass", "bonus", "this"
    elif len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        word = _undouble(word[:-2])  # "moved" to "mov", "stopped" to "stop"; not "agreed"
    elif len(word) > 5 and word.endswith("ing"):
        word = _undouble(word[:-3])  # "moving" to "mov", "running" to "run"; not "bring", "thing"
    if len(word) > 3 and word.endswith("e") and not word.endswith("ee"):
        word = word[:-1]  # "move" and "moves" to "mov", as "moved" gave; "tie" (three letters) stays
    return word


# A number typed as a figure or as a word is the same number ("roll a 6": "six squares", "a roll of 1").
NUMBERS = dict(enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                          "eleven", "twelve")))
NUMBER_WORDS = {**{str(n): word for n, word in NUMBERS.items()}, **{word: str(n) for n, word in NUMBERS.items()}}

# The synonyms by the stem of the word typed, so that "guys", "friends" and "putting" find them as well.
SYNONYMS = {stem(word): others for word, others in _SYNONYMS.items()}

_CUT = re.compile(r"^[^\w]+|[^\w]+$")  # punctuation round a typed word: "compass?", "(ring", "colour,"
_NOT = {"can't": "can", "won't": "will", "shan't": "shall"}
_ENDING = re.compile(r"(n['’]t|['’](s|t|re|ll|ve|d|m))$")  # "doesn't", "opponent's", "they're", "I'll"


def bare(token: str) -> str:
    """A typed word without the punctuation round it: "compass?" is "compass", "(TTD-3a)," is "TTD-3a"."""
    return _CUT.sub("", token)


def terms(typed: str) -> list[str]:
    """The words of a search as typed, lower case, without the punctuation a question carries.

    A question typed whole ends in "?", and "compass?" was looked for as
    typed, anywhere: no clause holds it, so the clause about the Compass lost
    its most telling word. "opponent's" and "they're" lose their endings, and
    words joined by a hyphen or apostrophe ("longest-caravan") are taken one
    by one. Anything with a digit ("bp-q1", "4+", "10") is kept as typed, as a
    clause id or a number is looked for as written.
    """
    found: list[str] = []
    for token in typed.lower().split():
        token = bare(token)
        if any(ch.isdigit() for ch in token):
            found.append(token)
            continue
        token = _NOT.get(token.replace("’", "'"), token)
        found.extend(words(_ENDING.sub("", token)))
    return found


def slips(one: str, other: str, most: int) -> int:
    """How many slips of the finger turn one word into the other (a letter wrong, missing, extra, or two letters
    swapped), counted only up to ``most`` + 1: "oassis" is one from "oasis", "silversmth" one from "silversmith".
    """
    before: list[int] | None = None
    row = list(range(len(other) + 1))
    for i, a in enumerate(one, 1):
        now = [i] + [0] * len(other)
        for j, b in enumerate(other, 1):
            now[j] = min(row[j] + 1, now[j - 1] + 1, row[j - 1] + (a != b))
            if before is not None and i > 1 and j > 1 and a == other[j - 2] and one[i - 2] == b:
                now[j] = min(now[j], before[j - 2] + 1)
        if min(now) > most:
            return most + 1
        before, row = row, now
    return row[-1]


_TOKEN = re.compile(r"[^\W_]+")  # words and figures: "2 VP", "three cards"


def counted(text: str) -> frozenset[str]:
    """The stems of the things a text gives a number of: "kept at three cards" and "take 2 VP" give "card", "vp".

    The word after a number, or the one after that ("two Collection cards"), so that a count question finds
    the clause stating the count (`counting`). Not after "one": "take one card out of a slot" says "a card",
    and ranked the temple's path change above the hand of three.
    """
    tokens = _TOKEN.findall(text.lower())
    return frozenset(stem(w) for at, n in enumerate(tokens) if n in NUMBER_WORDS and n not in ("1", "one")
                     for w in tokens[at + 1:at + 3] if w.isalpha())


def counting(found: list[str]) -> str:
    """What a count question asks the number of: "how many cards should I have" asks for "cards"; "" if none.

    The word after "how many" or "how much", unless a little word ("how much is a water hole worth"). "How
    many times can I try" counts tries: after "times", the next word not a little one ("three tries").
    """
    for at in range(len(found) - 2):
        if found[at] == "how" and found[at + 1] in ("many", "much") and found[at + 2] not in FUNCTION_WORDS:
            if found[at + 2] in ("time", "times"):
                return next((w for w in found[at + 3:] if w not in FUNCTION_WORDS), found[at + 2])
            return found[at + 2]
    return ""
