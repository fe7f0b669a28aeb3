"""The table's choices wrapped evenly (`ui/even.py`), evened out again as the table does at every step."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.base import EventLoop

import ui.even
from ui.boards import paint
from ui.even import balanced, even

# The desert race's rolls and Targi's end of actions, at 120% at 800x480: two columns of 170 px.
TEXTS = ["3: to Sandstorm Wall (16)", "4: to Mirage Pool (17)", "6: to Pyramid's Base (19)",
         "Finish my actions this round"]
SIZES = [26.4] * len(TEXTS)


def test_choices_evened_out_again_are_not_measured_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step, a page or a resize evens the table's choices out again, mostly the same texts in the same width:
    each label balanced again measured every run of its words and wrapped it at each width tried (about a third
    of a step's CPU in the random-taps and memory tests), for the same lines as before."""
    EventLoop.ensure_window()  # texts are measured by rendering them
    with monkeypatch.context() as each_time:
        each_time.setattr(ui.even, "balanced", getattr(balanced, "__wrapped__", balanced))
        fresh = even(TEXTS, SIZES, 2, 170.0, 1 / 1.2)
    assert any(len(wrap.lines) > 1 for wrap in fresh)  # labels really wrapped, at widths tried
    assert even(TEXTS, SIZES, 2, 170.0, 1 / 1.2) == fresh
    measured: list[Any] = []
    real = paint.measure

    def counted(*args: Any, **kwargs: Any) -> Any:
        measured.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(paint, "measure", counted)  # wrap_at_spaces's
    monkeypatch.setattr(ui.even, "measure", counted)  # balanced's runs of words
    assert even(TEXTS, SIZES, 2, 170.0, 1 / 1.2) == fresh
    assert measured == [], f"{len(measured)} texts measured again for the same choices"
