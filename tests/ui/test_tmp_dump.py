from typing import Any
from fixtures.views import SCREENS
from test_legible import show

def test_dump(ui_app: Any) -> None:
    import sys
    from kivy.uix.label import Label
    ui_app.set_language("ja")
    for name in ("classic_board", "table8", "standings"):
        show(ui_app, name, SCREENS[name])
        for w in ui_app.root.walk(restrict=True):
            if isinstance(w, Label) and getattr(w, "shorten", False):
                sys.stderr.write(f"{name} {type(w).__name__} {w.text!r} box {w.width:.0f}x{w.height:.0f} tex {w.texture_size} fs {w.font_size} pad {w.padding} wrap {getattr(w,'wrap',None)} parent {type(w.parent).__name__} {w.parent.size}\n")
