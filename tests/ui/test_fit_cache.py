"""A label's fit is remembered (ui/touch/widgets/fitlabel.py, ``_FITS``): a screen built again or laid out again
fits its labels without measuring text (the classic table's 68 labels took ~45 ms to fit on this machine, in the
frame after each screen change, and a tap made then waited for it: bench/bench_ui.py). A remembered fit must be
the fit measuring would give, for every kind of label: shrunk, cut with an ellipsis, wrapped, Japanese."""

from __future__ import annotations

from typing import Any

import pytest
from ui_driver import pump

pytestmark = pytest.mark.ui

CASES: list[dict[str, Any]] = [
    {"text": "Mediterranean Avenue: owned by Boris, rent M250", "max_font_size": 24, "size": (480, 40)},
    {"text": "Pennsylvania Railroad", "max_font_size": 28, "size": (90, 60), "wrap": True},
    {"text": "Заплатить штраф и выйти из тюрьмы", "max_font_size": 20, "size": (150, 48), "wrap": True},
    {"text": "Strada Victoriei, chiria 1.200", "max_font_size": 18, "size": (60, 24)},
    {"text": "刑務所から釈放されるカードを使う", "max_font_size": 20, "size": (140, 52), "wrap": True},
    {"text": "OK", "max_font_size": 40, "size": (200, 80), "halign": "left"},
]


def _state(label: Any) -> tuple[object, ...]:
    return (label.font_size, tuple(label.text_size), label.shorten, label.font_name, label._display,
            tuple(label.texture_size))


@pytest.mark.parametrize("case", CASES, ids=[c["text"][:12] for c in CASES])
def test_a_remembered_fit_is_the_measured_fit(ui_app: Any, case: dict[str, Any],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.touch.widgets import fitlabel

    def made(**extra: Any) -> Any:
        label = fitlabel.FitLabel(size_hint=(None, None), **{**case, **extra})
        ui_app.root.add_widget(label)
        pump(2)
        label.texture_update()
        return label

    monkeypatch.setattr(fitlabel, "_FITS", {})
    first = made()
    measured = _state(first)
    assert len(fitlabel._FITS) >= 1
    measures: list[str] = []
    real = fitlabel._measure
    monkeypatch.setattr(fitlabel, "_measure", lambda label: measures.append(label.text) or real(label))
    again = made()  # the same label built again: the fit is remembered, no text is measured
    try:
        assert _state(again) == measured
        assert case["text"] not in measures
        again.width += 37  # another box: measured again
        pump(2)
        assert case["text"] in measures
        monkeypatch.setattr(fitlabel, "_FITS", {})
        fresh = made(size=again.size)  # what a fresh measurement of that box gives
        assert _state(fresh)[:5] == _state(again)[:5]
        ui_app.root.remove_widget(fresh)
    finally:
        for label in (first, again):
            ui_app.root.remove_widget(label)


def test_the_remembered_fits_are_bounded(ui_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.touch.widgets import fitlabel

    monkeypatch.setattr(fitlabel, "_FITS", {})
    monkeypatch.setattr(fitlabel, "FIT_CACHE_SIZE", 5)
    label = fitlabel.FitLabel(text="x", size_hint=(None, None), size=(100, 40))
    for n in range(12):
        label.text = f"label {n}"
        label._fit()
        if n == 8:
            label.text = "label 4"  # used again: the least recently used is another
            label._fit()
    assert len(fitlabel._FITS) == 5
    assert [key[0] for key in fitlabel._FITS] == ["label 8", "label 4", "label 9", "label 10", "label 11"]
