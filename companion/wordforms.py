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
})

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
