"""Questions players argue about, typed whole into the rules search, find the clause that settles them.

Ten a game, phrased as a table phrases them, not in the summaries' words.
The search needed every word typed, so a question found nothing for 42 of
the 50 (the little words left out, "jump", "other" and "travellers" were
still all needed), and where it found the clause it listed the rulebook's
first clauses before it ("when does the game end": TTD-1, then TTD-3f).
Each question is asked through the terminal's `rules` in a game in progress
and must list a clause that settles it among the first three shown.
"""

from __future__ import annotations

import io

import pytest

from companion.session import Session
from companion.terminal import Terminal

PLAYERS = {"blackpool": ["red", "blue"], "desert": ["black", "teal"], "targi": ["white", "black"],
           "temple": ["red", "blue"], "ttd": ["red", "black"]}

# (game, what a player asks, the clauses any one of which settles it)
QUESTIONS = [
    ("blackpool", "what if my roll is the same as the ring's pull", {"BP-Q9"}),
    ("blackpool", "can I land on my own traveller", {"BP-C3"}),
    ("blackpool", "can I jump over other travellers", {"BP-Q11"}),
    ("blackpool", "how do I get out of the middle", {"BP-Q20", "BP-C7", "BP-Q7"}),
    ("blackpool", "does my rider come with me when I reach the edge", {"BP-Q16", "BP-Q13"}),
    ("blackpool", "do I get another roll after a six", {"BP-Q18"}),
    ("blackpool", "can a frozen traveller be carried", {"BP-Q26", "BP-C10"}),
    ("blackpool", "the deck is empty can I still buy a card", {"BP-Q21"}),
    ("blackpool", "can I choose not to move", {"BP-Q33", "BP-C2"}),  # keywords
    ("blackpool", "how many travellers can fit on one square", {"BP-C3", "BP-C4", "BP-Q12"}),
    ("desert", "I landed on the secret passage without the compass", {"DR-17", "DR-Q2"}),
    ("desert", "can I have more than 10 lives", {"DR-5", "DR-Q27"}),
    ("desert", "I failed the challenge three times what now", {"DR-14", "DR-Q5", "DR-Q6"}),
    ("desert", "who picks where the vortex sends me", {"DR-26", "DR-Q13"}),
    ("desert", "can I use the sneakers after I see my roll", {"DR-20", "DR-Q9"}),
    ("desert", "scared sent me back to the start does that count as a lap", {"DR-Q19"}),
    ("desert", "what happens when I hit zero lives", {"DR-6", "DR-Q21"}),
    ("desert", "two of us tied for the highest roll at the start", {"DR-Q24"}),
    ("desert", "does a space count if I just walk past it", {"DR-Q30"}),  # keywords
    ("desert", "can two pieces stand on the same space", {"DR-Q25"}),
    ("targi", "can I put my targi across from my opponent's", {"TG-P5", "TG-Q5"}),
    ("targi", "can I put a targi on a corner card", {"TG-P4"}),
    ("targi", "what if I can't pay the raid", {"TG-R3", "TG-Q34", "TG-Q3"}),
    ("targi", "how many goods can I keep at the end of a round", {"TG-E2"}),
    ("targi", "who wins if points are equal", {"TG-S3", "TG-Q26"}),
    ("targi", "how many times can I trade with the trader", {"TG-Q17", "TG-B6"}),
    ("targi", "when does the game end", {"TG-END1", "TG-END2", "TG-Q25"}),
    ("targi", "what does the silversmith give me", {"TG-B5", "TG-Q16"}),
    ("targi", "what if the deck runs out", {"TG-D1", "TG-Q28"}),
    ("targi", "can I hold two tribe cards", {"TG-T2", "TG-Q13"}),  # keywords
    ("temple", "what happens if I land on someone else's pawn", {"RU-12"}),
    ("temple", "can I move diagonally", {"RU-11"}),
    ("temple", "what happens if I roll an X", {"RU-9"}),
    ("temple", "what happens if I end on the stairs", {"RU-22"}),
    ("temple", "can I play the ah kinchil card after rolling", {"RU-Q27"}),
    ("temple", "what if neither of my pawns can move", {"RU-Q26"}),
    ("temple", "do I have to use the whole roll", {"RU-Q16", "RU-13"}),
    ("temple", "can I swap a card that has my pawn on it", {"RU-Q8"}),  # keywords
    ("temple", "can I turn the card around", {"RU-Q9"}),
    ("temple", "where does my pawn go when it gets knocked back", {"RU-18"}),
    ("ttd", "can my camel touch another player's camel of the same colour", {"TTD-3b", "TD-Q10"}),
    ("ttd", "can I put a camel on a mountain", {"TTD-3c", "TD-Q24"}),
    ("ttd", "what if only one of my camels fits", {"TTD-3f", "TD-Q12"}),
    ("ttd", "when does the game end", {"TTD-5", "TD-Q18"}),
    ("ttd", "do I get points for walling in empty space", {"TTD-4c", "TD-Q16"}),
    ("ttd", "what if two players have equally long caravans", {"TTD-4d", "TD-Q17"}),
    ("ttd", "can a leader go next to a palm", {"TTD-1e", "TD-Q15", "TD-Q7"}),
    ("ttd", "do I score the oasis twice with two caravans", {"TTD-3e", "TD-Q27"}),
    ("ttd", "how much is a water hole worth", {"TTD-4a", "TD-Q13"}),
    ("ttd", "can my two camels be different colours", {"TTD-3"}),  # keywords
]

# Fifty more, written from the rule texts before the questions above were read, since those had tuned the
# search: as a child, a rules lawyer or a loose paraphrase asks, one-word searches, slips of the finger
# ("oassis", "silversmth"), plurals and American spellings, cards and spaces by their printed names. Before the
# search took punctuation, slips and a table's own words into account, 28 came first and 40 among three.
# Two misses were left open, then mended: a card count ("how many cards should I have": "cards" its only telling
# word, the hand of three 13th), found as a count, and the leader question (TTD-1e fourth, after the start player's
# clause holding every word), found by its "where".
FRESH = [
    ("blackpool", "why did my man go backwards", {"BP-5", "BP-4", "BP-6"}),
    ("blackpool", "May a traveller carrying a rider use the full six when the six-move option is chosen?", {"BP-Q10"}),
    ("blackpool", "coins", {"BP-Q21", "BP-8", "BP-C7"}),
    ("blackpool", "Diagonal Step Down", {"BP-Q25", "BP-C9"}),
    ("blackpool", "what does freese do", {"BP-C10", "BP-Q26"}),
    ("blackpool", "can three travelers stand on one square", {"BP-C3", "BP-Q12"}),
    ("blackpool", "how do I get out of the center", {"BP-Q20", "BP-D4", "BP-8", "BP-C7", "BP-C1"}),
    ("blackpool", "do I have to move if all my moves are bad", {"BP-Q33", "BP-C2", "BP-6"}),
    ("blackpool", "what happens to the rider when the bottom one walks onto the edge", {"BP-Q16", "BP-C5", "BP-Q13"}),
    ("blackpool", "which ring pulls hardest", {"BP-4", "BP-C1"}),
    ("desert", "what happens if i land on the yellow scary space", {"DR-12", "DR-Q18"}),
    ("desert", "If my Lives are reduced to zero, do I forfeit the Golden Compass?", {"DR-Q17", "DR-6"}),
    ("desert", "does going past the start count as going round", {"DR-Q10", "DR-1", "DR-Q30"}),
    ("desert", "is the hiden oassis safe", {"DR-7"}),
    ("desert", "who decides where the vortex sends me", {"DR-26", "DR-Q13"}),
    ("desert", "can i use the sneaker after i rolled", {"DR-20", "DR-Q9"}),
    ("desert", "how many goes do i get at the guardian", {"DR-15", "DR-Q7"}),
    ("desert", "the card that makes you miss your go", {"DR-24"}),
    ("desert", "can two people be on the same square", {"DR-Q25"}),
    ("desert", "can I give some of my lives to my friend", {"DR-11", "DR-Q22"}),
    ("targi", "why cant i put my guy across from hers", {"TG-P5", "TG-Q5"}),
    ("targi", "If I cannot pay either raid option in full, does my opponent receive the victory points?",
     {"TG-R3", "TG-Q34", "TG-Q3"}),
    ("targi", "ties", {"TG-S3", "TG-Q26"}),
    ("targi", "silversmth", {"TG-B5", "TG-Q16"}),
    ("targi", "what does fata morgana let me do", {"TG-B4", "TG-Q11"}),
    ("targi", "how much gold can i keep", {"TG-E2"}),
    ("targi", "can i keep more than one card in my hand", {"TG-T2", "TG-Q13"}),
    ("targi", "is it over when someone has twelve cards", {"TG-END2", "TG-Q24"}),
    ("targi", "where does the robber start", {"TG-R1", "TG-Q4"}),
    ("targi", "points for a row of all the same symbol", {"TG-S2"}),
    ("temple", "what if I land on someone", {"RU-12", "RU-18"}),
    ("temple", "Can the Ah Kinchil card be played after rolling an X?", {"RU-Q27"}),
    ("temple", "diagonal", {"RU-11", "RU-Q17"}),
    ("temple", "ah kinchill", {"RU-25", "RU-Q23", "RU-21"}),
    ("temple", "do I need the exact number to get into the treasure chamber", {"RU-15", "RU-Q20"}),
    ("temple", "what are the idols for", {"RU-20", "RU-21"}),
    ("temple", "the card got swapped and now my guy is on a hole", {"RU-17", "RU-Q10", "RU-Q29"}),
    ("temple", "what do i do on a red roll", {"RU-7", "RU-Q7"}),
    ("temple", "what does the secret staircase do", {"RU-22", "RU-24", "RU-Q21"}),
    ("temple", "how many cards should I have", {"RU-4", "RU-26"}),
    ("ttd", "can my camel go next to her camel if they're the same colour", {"TTD-3b", "TD-Q10"}),
    ("ttd", "Is the longest-caravan bonus split when two players have caravans of equal length?", {"TTD-4d", "TD-Q17"}),
    ("ttd", "ties", {"TTD-4e", "TD-Q25", "TD-Q17", "TTD-4d"}),
    ("ttd", "how many points is an oassis worth", {"TTD-4b", "TTD-3e", "TD-Q14"}),
    ("ttd", "what are waterholes worth", {"TTD-4a", "TD-Q13"}),
    ("ttd", "when is the game over", {"TTD-5", "TD-Q18"}),
    ("ttd", "how many camels do I put down each turn", {"TTD-3", "TD-Q9", "TD-Q12"}),
    ("ttd", "where can I put my leader at the start", {"TTD-1e", "TD-Q7"}),
    ("ttd", "do I get points for fencing in empty space", {"TTD-4c", "TD-Q16"}),
    ("ttd", "what if i cant place any camel", {"TTD-3f", "TD-Q12"}),
]

# Who starts, asked as a table asks it: "who" asks for a player, and going first is starting. The start
# player's clause was fifth in Through the Desert, and ninth or missing in Blackpool and the desert race.
WHO_STARTS = [
    ("ttd", "who goes first", {"TD-Q20", "TTD-T"}),
    ("ttd", "who starts the game", {"TD-Q20", "TTD-T"}),
    ("blackpool", "who goes first", {"BP-C11", "BP-Q31"}),
    ("blackpool", "who starts the game", {"BP-C11", "BP-Q31"}),
    ("desert", "who starts the game", {"DR-3", "DR-Q24"}),
    ("temple", "who goes first", {"RU-5", "RU-Q28"}),
    ("targi", "who goes first", {"TG-Q30", "TG-1"}),
]

# Questions a table asks, six a game, written before the search was run on them or on the 112 above (five that
# turned out to repeat one of those were replaced afterwards, and measured on the search as it was before these
# fixes). Before: 19 listed the settling clause first and 24 among the first three; after the light words,
# printed names, word meanings and hints: 24 and 30.
TABLE_ASKS = [
    ("blackpool", "what happens when I land on someone else's traveller", {"BP-7", "BP-Q13"}),
    ("blackpool", "does the water pull me back if I roll low", {"BP-5", "BP-4"}),
    ("blackpool", "can I spend a coin without rolling a six", {"BP-Q21", "BP-C7"}),
    ("blackpool", "what does diagonal step down do", {"BP-Q25"}),
    ("blackpool", "how do I win", {"BP-1", "BP-Q30"}),
    ("blackpool", "can my rider move on its own", {"BP-C5", "BP-Q17"}),
    ("desert", "what happens if my lives reach zero", {"DR-6"}),
    ("desert", "do I have to go round the whole board before the secret passage", {"DR-1", "DR-17", "DR-Q10", "DR-28"}),
    ("desert", "what does the desert whisper card do", {"DR-24"}),
    ("desert", "can I trade when I'm not on a green space", {"DR-11", "DR-Q22"}),
    ("desert", "what happens when I land on a scared space", {"DR-12"}),
    ("desert", "how many times can I try a challenge", {"DR-14", "DR-Q5"}),
    ("targi", "do I lose goods if I have too many", {"TG-E2", "TG-Q18"}),
    ("targi", "can I put my targi opposite my own targi", {"TG-Q6"}),
    ("targi", "what happens if I can't pay the raid", {"TG-R3", "TG-Q34", "TG-Q3"}),
    ("targi", "what do I do with a tribe card I can't afford", {"TG-Q20", "TG-T3"}),
    ("targi", "what does the silversmith do", {"TG-B5"}),
    ("targi", "how do I get a tribe marker", {"TG-M1"}),
    ("temple", "can I play the ah kinchil card after I rolled", {"RU-Q27"}),
    ("temple", "can I walk through my own wall", {"RU-14"}),
    ("temple", "can I split my roll between both pawns", {"RU-10"}),
    ("temple", "what happens if I land on a secret stairway", {"RU-22"}),
    ("temple", "what happens when the draw pile runs out", {"RU-26", "RU-Q25"}),
    ("temple", "where does my pawn go when it gets sent back", {"RU-18"}),
    ("ttd", "how many camels do I place each turn", {"TTD-3", "TD-Q9"}),
    ("ttd", "can two players have the same colour caravans touching", {"TTD-3b", "TD-Q10"}),
    ("ttd", "does my leader count towards the longest caravan", {"TD-Q17", "TTD-4d"}),
    ("ttd", "how much is the longest caravan worth", {"TTD-4d"}),
    ("ttd", "can my camel go on a palm", {"TTD-3c", "TD-Q24"}),
    ("ttd", "do I score for surrounding empty land", {"TTD-4c", "TD-Q16"}),
]

# Two pieces on one place, asked as "the same card": Targi's clause says a card "already holding" a Targi is
# closed to "another" (TG-P3 was 17th, after the row bonuses' "same symbol" and the ties).
SAME_PLACE = [
    ("targi", "can I put two of my targi on the same card", {"TG-P3"}),
]

# What a card, a space or a piece of the board does, asked by its name: the clause named by the question ranks
# first ("Reset", "The Ah Kinchil card"), and a card clause that never says "card" is still a card's.
WHAT_IT_DOES = [
    ("blackpool", "what does the freeze card do", {"BP-Q26", "BP-C10"}),
    ("blackpool", "what does the reset card do", {"BP-Q28"}),
    ("blackpool", "what does the awaken card do", {"BP-Q27"}),
    ("blackpool", "what happens on the edge", {"BP-Q36", "BP-Q13"}),
    ("desert", "what does the whisper card do", {"DR-24"}),
    ("desert", "what does the secret passage do", {"DR-Q2", "DR-17"}),
    ("desert", "what does the guardian do", {"DR-15", "DR-Q7"}),
    ("temple", "what does the ah kinchil card do", {"RU-25"}),
    ("temple", "what does an idol marker do", {"RU-20"}),
    ("targi", "what happens when the robber reaches a corner", {"TG-R2"}),
    ("targi", "what does the noble do", {"TG-B1"}),
    ("ttd", "what does a palm do", {"TTD-1b", "TTD-3e", "TD-Q14"}),
]


# A referee's words for what the summaries say otherwise (session 64's audit of the race and the temple): a lone
# stairway asked about as "only one", a space entered a second time as "twice", a stairway that does not repeat
# as taken "again", a pile run out as "empty". Each clause was fourth or lower, or missing.
REFEREE_WORDS = [
    ("temple", "what if there is only one stairway", {"RU-24"}),
    ("temple", "can I go on the same space twice", {"RU-11"}),
    ("temple", "does the stairway take me again", {"RU-22", "RU-Q21"}),
    ("desert", "what if the collection pile is empty", {"DR-Q16"}),
    # The rule lets a pawn step backwards; RU-11 said only "up, down, left or right", and the wall's clause came first.
    ("temple", "can my pawn go backwards", {"RU-11"}),
]

def listed(game: str, question: str) -> list[str]:
    """The clause ids the terminal lists for `rules QUESTION`, in order, in a game just begun."""
    session = Session.new(game, PLAYERS[game])
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter([f"rules {question}", "q"]))
    ids = {c.id for c in session.game.rulebook.clauses}
    text = out.getvalue().split(f"rules {question}", 1)[-1]
    return [line.split()[0] for line in text.splitlines() if line.startswith("  ") and line.split()[0] in ids]

# A referee's audit of Blackpool and Targi: four more a table asks, which missed the clause settling them among
# the first three (the first listed only the riding clause, BP-7, holding "nobody" and "move"; the third listed
# the ties first). Each clause got the table's word as a keyword: nobody, overshoot, more than, replace.
REFEREE_ASKS = [
    ("blackpool", "what if nobody can move", {"BP-C2"}),
    ("blackpool", "what happens if I overshoot my camp", {"BP-C3"}),
    ("targi", "what if I have more than 3 gold", {"TG-E2"}),
    ("targi", "what replaces a used card", {"TG-Q29"}),
]


@pytest.mark.parametrize(("game", "question", "settles"),
                         QUESTIONS + WHAT_IT_DOES + FRESH + WHO_STARTS + SAME_PLACE + TABLE_ASKS + REFEREE_WORDS
                         + REFEREE_ASKS,
                         ids=lambda v: v if isinstance(v, str) else "")
def test_a_question_typed_whole_lists_its_clause_among_the_first_three(game: str, question: str,
                                                                       settles: set[str]) -> None:
    shown = listed(game, question)
    assert set(shown[:3]) & settles, f"{game}: {question!r} listed {shown[:6]}, wanted one of {sorted(settles)}"


def test_a_question_no_clause_answers_whole_says_the_clauses_are_the_closest() -> None:
    """The list is of clauses holding some of the words, best first; it says so, and nonsense still finds none."""
    session = Session.new("blackpool", PLAYERS["blackpool"])
    out = io.StringIO()
    Terminal(session, lambda: None, out).run(iter(["rules can I jump over other travellers", "rules xyzzy plugh",
                                                   "rules six", "q"]))
    text = out.getvalue()
    assert text.count("No clause holds every word; the closest first:") == 1
    assert "No clause mentions that." in text
    found = session.game.rulebook.lookup("can I jump over other travellers")
    assert not found.every and found.clauses
    assert session.game.rulebook.lookup("six").every


def test_the_command_line_search_lists_the_closest_clauses_and_says_so_on_stderr(capsys: pytest.CaptureFixture[str]
                                                                                  ) -> None:
    from companion.cli import main

    assert main(["rules", "temple", "--search", "can I move diagonally"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].split()[0] == "RU-11" and "the closest first" in err
    assert main(["rules", "temple", "--search", "diagonally"]) == 0
    assert "closest" not in capsys.readouterr().err


def test_a_question_named_by_a_clause_title_lists_that_clause_first() -> None:
    """"Reset" and "The Ah Kinchil card" came after clauses only mentioning the card (fifth for the temple's)."""
    for game, question, clause in [("blackpool", "what does the reset card do", "BP-Q28"),
                                   ("temple", "what does the ah kinchil card do", "RU-25"),
                                   ("targi", "what does the noble do", "TG-B1")]:
        assert listed(game, question)[0] == clause, question


def test_the_words_of_asking_are_left_out_as_the_little_words_are() -> None:
    """"what happens on the edge" needed a clause saying "happens": none did, and the list was only the closest."""
    book = Session.new("blackpool", PLAYERS["blackpool"]).game.rulebook
    for question, content in [("what happens on the edge", "edge"), ("what would happen if I roll a six", "roll six"),
                              ("will my rider come along", "rider come along")]:
        found = book.lookup(question)
        assert found.clauses and found == book.lookup(content), question


def test_the_protocol_search_lists_best_first_and_says_whether_every_word_is_held() -> None:
    from companion.protocol import Referee

    referee = Referee()
    asked = referee.handle({"cmd": "rules", "game": "temple", "search": "can I move diagonally"})
    assert asked["clauses"][0]["id"] == "RU-11" and asked["every"] is False
    assert referee.handle({"cmd": "rules", "game": "temple", "search": "diagonally"})["every"] is True


def test_a_count_question_ranks_the_clauses_giving_that_count() -> None:
    """"how many cards": a clause saying "three cards" answers it; one saying "one card" only means "a card"."""
    book = Session.new("temple", PLAYERS["temple"]).game.rulebook
    shown = [c.id for c in book.search("how many cards should I have")]
    assert shown.index("RU-4") < shown.index("RU-7") and shown.index("RU-4") < 3, shown[:6]


def test_who_alone_is_searched_as_a_word_and_asks_for_a_player_in_a_question() -> None:
    """"who" typed alone is looked for as typed; in a question it adds a player's clauses, it never filters."""
    book = Session.new("blackpool", PLAYERS["blackpool"]).game.rulebook
    from companion.wordforms import words

    holding = {c.id for c in book.clauses if any(w.startswith("who") for w in words(c.searched()))}
    assert {c.id for c in book.search("who")} == holding and book.lookup("who").every
    assert book.search("who goes first")[0].id == "BP-C11"


def test_where_ranks_the_clauses_saying_where_and_never_narrows_a_search() -> None:
    """"Where a leader may stand" answers the leader question first; "where do I start" lists what "start" does."""
    book = Session.new("ttd", PLAYERS["ttd"]).game.rulebook
    assert book.search("where can I put my leader at the start")[0].id == "TTD-1e"
    for game in PLAYERS:
        book = Session.new(game, PLAYERS[game]).game.rulebook
        assert {c.id for c in book.search("where do I start")} == {c.id for c in book.search("start")}, game


def test_a_light_verb_in_a_question_ranks_less_than_the_words_naming_its_subject() -> None:
    """"goes" and "get" say that something happens, not what: Targi listed "the card goes to its leftmost free
    place" first for "who goes first" (the start player's clause seventh) and the tribe marker's clause third for
    "how do I get a tribe marker"; "game" is in nearly every question about the game as a whole."""
    targi = Session.new("targi", PLAYERS["targi"]).game.rulebook
    assert targi.search("who goes first")[0].id == "TG-Q30"
    assert targi.search("how do I get a tribe marker")[0].id == "TG-M1"
    assert Session.new("blackpool", PLAYERS["blackpool"]).game.rulebook.search("who starts the game")[0].id == "BP-C11"
    assert "TTD-3c" in [c.id for c in Session.new("ttd", PLAYERS["ttd"]).game.rulebook.search(
        "can my camel go on a palm")][:3]


def test_how_many_times_counts_what_follows_and_a_hint_word_ranks_by_its_meaning_only() -> None:
    """"how many times can I try" asks for a number of tries; "too" and "else" rank by what they mean ("limit",
    "another"), never as the words themselves: Targi's "if that is equal too" and "took" listed first."""
    from companion.wordforms import counting, terms

    assert counting(terms("how many times can I try a challenge")) == "try"
    assert counting(terms("how many times")) == "times"
    targi = Session.new("targi", PLAYERS["targi"]).game.rulebook
    shown = [c.id for c in targi.search("do I lose goods if I have too many")]
    assert "TG-E2" in shown[:3] and "TG-S3" not in shown[:3], shown[:4]
    assert targi.lookup("too").clauses  # typed alone, a little word is searched as a word
