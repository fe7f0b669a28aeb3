"""Which legal actions become buttons: pure arithmetic over action lists, no window needed."""

from __future__ import annotations

from tests.core.test_choice_walk import placements
from ui.choices import EVERYWHERE, LIST_LIMIT, PAGE, arrange, die_pad, face_label, place_word, reveal


def test_the_place_word_is_the_games_own() -> None:
    assert place_word(placements(2, 1)) == "hex"
    assert place_word([{"type": "change", "slot": 3}]) == "slot"


def test_a_short_list_is_shown_whole() -> None:
    few = placements(4, 2)
    shown = arrange(few)
    assert shown.buttons == few and not shown.hint and shown.pages == 1
    assert shown.marked == {(q, 0) for q in range(4)}  # listed whole, and lit on the map too
    assert not arrange(few, can_point=False).marked
    here = arrange(few, focus=(2, 0))  # a tap on a lit hex narrows even a short list to that hex
    assert here.buttons == [a for a in few if a["hex"] == [2, 0]] and here.can_go_back


def test_a_long_list_with_places_asks_for_a_tap_and_keeps_the_placeless_actions() -> None:
    many = [*placements(60, 5), {"type": "pass", "text": "pass"}]
    shown = arrange(many)
    assert shown.buttons == [{"type": "pass", "text": "pass"}]
    assert shown.marked == {(q, 0) for q in range(60)}
    assert "300 choices at 60 marked hexes" in shown.hint and shown.can_list_all


def test_a_tapped_place_lists_only_its_actions() -> None:
    shown = arrange(placements(60, 5), focus=(7, 0))
    assert [a["colour"] for a in shown.buttons] == ["c0", "c1", "c2", "c3", "c4"]
    assert shown.focus == (7, 0) and len(shown.marked) == 60 and shown.can_go_back


def test_a_tap_beside_the_marks_changes_nothing() -> None:
    assert arrange(placements(60, 5), focus=(99, 0)) == arrange(placements(60, 5))


def test_without_a_tappable_board_a_long_list_comes_in_pages_that_wrap() -> None:
    many = placements(40, 5)
    first = arrange(many, can_point=False)
    assert first.buttons == many[:PAGE] and first.pages == 4 and "Page 1 of 4" in first.hint
    assert arrange(many, page=3, can_point=False).buttons == many[3 * PAGE :]
    assert arrange(many, page=4, can_point=False).buttons == many[:PAGE]  # 'Next page' on the last wraps


def test_list_all_pages_through_everything() -> None:
    many = placements(60, 5)
    pages = [arrange(many, focus=EVERYWHERE, page=p).buttons for p in range(5)]
    assert [a for page in pages for a in page] == many
    assert len(many) > LIST_LIMIT


def test_reveal_brings_the_highlighted_action_on_screen() -> None:
    many = [*placements(60, 5), {"type": "pass", "text": "pass"}]
    assert reveal(many, {"type": "pass", "text": "pass"}) == (None, 0)  # already listed: nothing moves
    target = many[123]
    focus, page = reveal(many, target)
    assert focus == tuple(target["hex"]) and target in arrange(many, focus, page).buttons
    assert reveal(many, many[7], focus=(1, 0)) == ((1, 0), 0)  # the open place shows it already
    focus, page = reveal(many[:300], many[250], can_point=False)
    assert (focus, page) == (None, 4)
    assert reveal(many, None, focus=(3, 0), page=2) == ((3, 0), 2)


def temple_faces() -> list[dict]:
    """The temple die as the game offers it: X, then red and white 1-7 interleaved."""
    faces = [{"type": "roll", "value": "X", "face": {"colour": "white"}, "text": "Die shows X"}]
    for n in range(1, 8):
        for colour in ("red", "white"):
            faces.append({"type": "roll", "value": n, "face": {"colour": colour}, "text": f"Die shows {colour} {n}"})
    return faces


def test_a_die_of_many_faces_becomes_a_pad_with_its_numbers_in_columns() -> None:
    play = {"type": "ahkinchil", "pawn": "red1", "text": "Play the Ah Kinchil card: Red 1 forward"}
    pad = die_pad([*temple_faces(), play])
    assert pad is not None and pad.rest == [play] and pad.columns == 8
    labels = [[face_label(a) if a else "" for a in row] for row in pad.rows]
    assert labels == [["X", *map(str, range(1, 8))], ["", *map(str, range(1, 8))]]
    for row in pad.rows:  # one colour to a row, so the label needs only the number
        assert len({a["face"]["colour"] for a in row if a}) == 1
    assert sorted((a for row in pad.rows for a in row if a), key=str) == sorted(temple_faces(), key=str)
    assert pad.labels == ["Die shows white", "Die shows red"]  # each row's caption: its texts without the numbers


def test_a_pad_row_whose_texts_share_no_start_is_captioned_by_its_colour() -> None:
    faces = [{"type": "roll", "value": n, "face": {"colour": c}, "text": f"{n} ({c})"} for n in range(1, 5)
             for c in ("red", "blue")]  # fmt: skip
    pad = die_pad(faces)
    assert pad is not None and pad.labels == ["Red faces", "Blue faces"]
    bare = [{"type": "roll", "value": n} for n in range(1, 9)]  # no colour, no text: one row, nothing to name
    assert die_pad(bare).labels == [""]


def test_six_faces_keep_their_full_labels() -> None:
    rolls = [{"type": "roll", "value": n, "text": f"Oracle shows {n}"} for n in range(1, 7)]
    assert die_pad(rolls) is None
    # a roll that says where it leads is a move, not a bare face: it keeps its words
    moves = [{"type": "roll", "value": n, "to": n, "text": f"Rolled {n}: move"} for n in range(1, 8)]
    assert die_pad(moves) is None
