"""The rulebook search finds a clause by the form of a word the referee types.

"tied" found nothing in Blackpool, Targi or the temple game while "tie" found
the tie clauses; "moved", "paid" and "camels" missed "move", "pay" and
"camel" the same way. And, the words matched anywhere, "card" found every
"discard" and "end" every "depends" and "sends".
"""

from __future__ import annotations

import pytest

from companion.registry import create, game_classes
from companion.wordforms import stem

FORMS = [
    ("tie", "tied", "ties", "tying"),
    ("move", "moved", "moves", "moving"),
    ("camel", "camels"),
    ("pay", "pays", "paid", "paying"),
    ("win", "wins", "won", "winning"),
    ("roll", "rolls", "rolled", "rolling"),
    ("place", "placed", "places", "placing"),
    ("oasis", "oases"),
    ("six", "sixes"),
    ("stop", "stopped"),
    ("party", "parties"),
]


@pytest.mark.parametrize("forms", FORMS, ids=lambda forms: forms[0])
def test_the_forms_of_a_word_share_one_stem(forms: tuple[str, ...]) -> None:
    assert {stem(w) for w in forms} == {stem(forms[0])}


@pytest.mark.parametrize(("one", "other"), [("one", "on"), ("use", "us"), ("pass", "pa"), ("bonus", "bonu"),
                                            ("thing", "th"), ("agreed", "agre")])
def test_a_short_or_unlike_word_keeps_its_ending(one: str, other: str) -> None:
    assert stem(one) != stem(other)


@pytest.mark.parametrize(("game", "words"), [
    ("blackpool", ["tie", "tied", "ties"]), ("targi", ["tie", "tied", "ties"]), ("temple", ["tie", "tied", "ties"]),
    ("targi", ["pay", "paid", "pays"]), ("ttd", ["camel", "camels"]), ("blackpool", ["move", "moved", "moves"]),
])
def test_every_form_finds_the_clauses_of_the_word(game: str, words: list[str]) -> None:
    book = create(game).rulebook
    found = [[c.id for c in book.search(w)] for w in words]
    assert found[0] and all(f == found[0] for f in found), dict(zip(words, found, strict=True))


def test_a_word_is_found_at_the_start_of_a_word_not_inside_one() -> None:
    """Typed letter by letter, "cam" already finds the camels; "card" no longer finds "discard" alone."""
    assert create("ttd").rulebook.search("cam") == create("ttd").rulebook.search("camel")
    targi = create("targi").rulebook
    assert "TG-Q28" not in [c.id for c in targi.search("card")]  # it says "discard", never "card"
    assert [c.id for c in create("blackpool").rulebook.search("end")] == [
        c.id for c in create("blackpool").rulebook.search("ended")]


@pytest.mark.parametrize("game", sorted(game_classes()))
def test_a_clause_id_still_finds_exactly_that_clause(game: str) -> None:
    book = create(game).rulebook
    for clause in book.clauses:
        assert [c.id for c in book.search(clause.id)] == [clause.id]
        assert [c.id for c in book.search(clause.id.lower())] == [clause.id]


def test_words_that_are_not_plain_letters_are_found_as_typed() -> None:
    """A number or an id among words ("BP-Q1 six") is looked for as typed, anywhere, as before."""
    book = create("blackpool").rulebook
    assert {c.id for c in book.search("bp-q1 six")} <= {c.id for c in book.search("six")}
    assert all("bp-q1" in c.id.lower() for c in book.search("bp-q1 six"))


@pytest.mark.parametrize(("game", "typed", "clause"), [
    ("ttd", "who wins a tie", "TTD-4e"), ("ttd", "reach an oasis", "TTD-4b"), ("desert", "gain a life", "DR-27"),
    ("temple", "roll the x", "RU-9"), ("blackpool", "ride on a traveller", "BP-C4"),
])
def test_a_function_word_does_not_drop_the_clause_the_phrase_asks_for(game: str, typed: str, clause: str) -> None:
    """Every word must match, and the winner's clause holds no word starting with "a" or "who": it was dropped."""
    assert clause in [c.id for c in create(game).rulebook.search(typed)]


@pytest.mark.parametrize(("game", "typed", "content"), [
    ("desert", "miss a turn", "miss turn"), ("targi", "end of a round", "end round"),
    ("blackpool", "out of the centre", "out centre"), ("temple", "send a pawn back", "send pawn back"),
    ("desert", "miss a", "miss"), ("desert", "the guardian's test", "guardian's test"),
])
def test_function_words_among_other_words_are_left_out(game: str, typed: str, content: str) -> None:
    """"miss a" (the "a" perhaps the start of a word still being typed) lists what "miss" does, never fewer."""
    book = create(game).rulebook
    assert book.search(content) and book.search(typed) == book.search(content)


def test_a_function_word_alone_is_still_searched_as_a_word() -> None:
    """Typed alone, "a" may be the start of "auction": it narrows the list as any word does, and only function
    words together ("of the") are all searched."""
    desert = create("desert").rulebook
    alone = [c.id for c in desert.search("a")]
    assert "DR-2" in alone and "DR-27" not in alone  # "Gain one Life." has no word starting with "a"
    ttd = create("ttd").rulebook
    assert 0 < len(ttd.search("in")) < len(ttd.clauses)
    both = ttd.search("of the")
    # The same clauses, in the order of their own ranking for both words.
    assert both and {c.id for c in both} == {c.id for c in ttd.search("of") if c in ttd.search("the")}
    assert [c.id for c in desert.search("DR-24 DR-27")] == ["DR-24", "DR-27"]


def test_the_clauses_holding_a_word_are_remembered_and_the_memory_is_bounded() -> None:
    """A question typed whole looks up each word in every clause, again on each letter typed; a protocol client
    sending endless new words must not grow what is remembered without end."""
    from companion.rulebook import HELD_REMEMBERED, Rulebook

    house = create("desert").rulebook
    book = Rulebook(house.game, house.title, house.clauses)  # a fresh one: the registry's is shared by the tests
    question = "scared sent me back to the start does that count as a lap"
    first = [c.id for c in book.search(question)]
    assert first and [c.id for c in book.search(question)] == first
    for n in range(HELD_REMEMBERED + 50):
        book.search(f"zq{n}")
    assert 0 < len(book._held) <= HELD_REMEMBERED
    assert [c.id for c in book.search(question)] == first


@pytest.mark.parametrize(("game", "typed", "clause"), [
    ("desert", "do I forfeit the Golden Compass?", "DR-Q17"),
    ("ttd", "Is the longest-caravan bonus split when two players have caravans of equal length?", "TTD-4d"),
    ("temple", "what happens when I roll an X?", "RU-9"),
])
def test_a_question_s_punctuation_and_contractions_do_not_hide_its_words(game: str, typed: str, clause: str) -> None:
    """"compass?" was looked for as typed, anywhere: no clause holds it, and the question lost its subject; the
    Compass's clause came third behind the Sand Thief, and "x?" left the temple's X out of the first four."""
    assert clause in [c.id for c in create(game).rulebook.search(typed)][:2]


@pytest.mark.parametrize(("game", "typed", "clause"), [
    ("targi", "silversmth", "TG-B5"), ("blackpool", "what does freese do", "BP-C10"),
    ("desert", "hiden oassis", "DR-7"), ("ttd", "how many points is an oassis worth", "TTD-4b"),
    ("temple", "kinchill", "RU-21"), ("ttd", "waterholes", "TTD-4a"),
])
def test_a_slip_of_the_finger_or_two_words_run_together_still_find_the_clause(game: str, typed: str,
                                                                                clause: str) -> None:
    """A word no clause holds is taken for the rulebook's word one slip away ("silversmth" found nothing at all),
    or for the two words it joins ("waterholes")."""
    assert clause in [c.id for c in create(game).rulebook.search(typed)][:3]


def test_a_word_the_rulebook_does_use_elsewhere_is_not_mended_into_another() -> None:
    """"same" is not in Blackpool's rules, but it is no slip for "game" or "name"; and a word found as typed is
    never mended ("pass" stays "pass", not "past")."""
    book = create("blackpool").rulebook
    assert [w for w, _held, _weight in book._senses("same") if w in ("game", "name")] == []
    assert [w for w, _held, _weight in create("desert").rulebook._senses("pass")] == ["pass"]


@pytest.mark.parametrize(("game", "typed", "clause"), [
    ("blackpool", "why did my man go backwards", "BP-5"), ("blackpool", "center", "BP-C4"),
    ("blackpool", "what color is my camp", "BP-Q3"),
    ("desert", "can I give some of my lives to my friend", "DR-11"),
    ("ttd", "can my camel go next to her camel if they're the same colour", "TTD-3b"),
    ("targi", "is it over when someone has twelve cards", "TG-END2"),
    ("desert", "the card that makes you miss your go", "DR-24"),
    ("targi", "tableau", "TG-T4"), ("temple", "staircase", "RU-22"),
])
def test_the_table_s_own_words_find_what_the_rulebook_names_otherwise(game: str, typed: str, clause: str) -> None:
    """A man: a traveller; a friend: another player; give: trade; next to: beside; over: the end; "center" and
    "color" as an American table spells them; "twelve cards" and "the twelfth card"; a card's clause that never
    says "card" (the Whisper: "You lose your next turn.") has it as a keyword."""
    assert clause in [c.id for c in create(game).rulebook.search(typed)][:3]


def test_the_word_typed_outranks_the_table_s_word_for_it() -> None:
    """"next" finds "beside" too, but a clause saying "next" counts more than one saying "beside" only."""
    book = create("ttd").rulebook
    senses = dict((w, weight) for w, _held, weight in book._senses("next"))
    assert senses["next"] == 1.0 and 0 < senses["beside"] < 1.0


def test_a_question_s_words_rank_the_clauses_rather_than_filter_them() -> None:
    """Only TTD-3a held every word of the camel question (and the leader question only the start player's and
    the turn's clauses): the clause that settles it was cut from the list."""
    book = create("ttd").rulebook
    found = book.lookup("can my camel go next to her camel if they're the same colour")
    assert not found.every and "TTD-3b" in [c.id for c in found.clauses][:3]
    assert book.lookup("camel colour").every  # two words still filter, as the screen narrows a search typed


@pytest.mark.parametrize(("game", "typed", "clause"), [
    ("blackpool", "can I choose not to move", "BP-Q33"), ("desert", "can two pieces stand on the same space", "DR-Q25"),
    ("temple", "where does my pawn go when it gets knocked back", "RU-18"),
    ("ttd", "can my two camels be different colours", "TTD-3"),
    ("desert", "does a space count if I just walk past it", "DR-Q30"),
    ("targi", "what happens when the robber reaches a corner", "TG-R2"),
    ("temple", "can I turn the card around", "RU-Q9"),
    ("blackpool", "how many travellers can fit on one square", "BP-Q12"),
])
def test_a_word_finds_the_word_it_comes_from_without_a_keyword_for_it(game: str, typed: str, clause: str) -> None:
    """Each of these was found only by keywords echoing the question ("choose not to", "same space", "knocked
    back", "different colours"), and the last four by keywords echoing theirs ("walk past", "reaches", "turn
    around", "how many fit"): the clause says "by choice", "share", "sent back", "differ", "passed over", "lands
    on", "rotating" and "holds". Without its keywords (as in a café's own rulebook) the clause is still found."""
    from companion.rulebook import Clause, Rulebook

    house = create(game).rulebook
    bare = Rulebook(game, house.title, [Clause(c.id, c.title, c.text, c.section, c.see) for c in house.clauses])
    assert clause in [c.id for c in bare.search(typed)][:3]


def test_a_clause_id_with_punctuation_round_it_still_finds_exactly_that_clause() -> None:
    """"DR-24?" (asked) or "(TTD-3a)," (copied from a ruling) found nothing, looked for as typed."""
    assert [c.id for c in create("desert").rulebook.search("DR-24?")] == ["DR-24"]
    assert [c.id for c in create("ttd").rulebook.search("(TTD-3a), TTD-T.")] == ["TTD-3a", "TTD-T"]


def test_a_number_is_one_of_a_clause_s_numbers_or_its_word_never_part_of_an_id() -> None:
    """"roll a 6" listed BP-Q36, BP-C6 and BP-Q6 (their ids hold a 6) and no clause about a six."""
    book = create("blackpool").rulebook
    found = [c.id for c in book.search("what happens if i roll a 6")]
    assert {"BP-8", "BP-C7", "BP-Q18"} & set(found[:3]) and "BP-Q36" not in found[:3]
    assert [c.id for c in book.search("6")] == [c.id for c in book.search("six")]
    assert "RU-27" in [c.id for c in create("temple").rulebook.search("roll a 1")][:2]


@pytest.mark.parametrize(("game", "typed", "clause"), [
    ("blackpool", "what does diagonal step down do", "BP-Q25"), ("blackpool", "Gust of Force card", "BP-Q24"),
    ("desert", "desert whisper card", "DR-24"), ("desert", "what does the guardian's test do", "DR-15"),
    ("temple", "what is the ah kinchil card", "RU-25"), ("targi", "what does fata morgana do", "TG-B4"),
])
def test_a_printed_name_typed_whole_counts_as_one_word_held_whole(game: str, typed: str, clause: str) -> None:
    """"diagonal step down" is one card, not a question of three words: its clause came first, but among "12
    closest clauses", as if no clause held every word; now the clauses holding the name and the other words."""
    found = create(game).rulebook.lookup(typed)
    assert found.every and found.clauses[0].id == clause, [c.id for c in found.clauses[:4]]


def test_a_question_naming_a_card_among_other_words_still_ranks() -> None:
    """A name is one word of the question: with two more it is a question, ranked and not filtered."""
    book = create("desert").rulebook
    found = book.lookup("can the sand thief take my golden compass")
    assert not found.every and "DR-23" in [c.id for c in found.clauses][:3]
    assert not book.lookup("roll whisper secret").every  # words of two names, neither typed whole
