"""What a phone is sent (ui/share/render.py): money in the phone's language and the edition's format,
payments in words, tokens on the board in positions mode, the chart thinned; and ui/share never imports
Kivy (``headless --share`` runs without it) nor reaches the banker beyond its immutable snapshots."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from sharekit import get
from test_share_game import ROOT, Reader, headless

from engine import events as ev
from engine.banker.viewmodel import PlayerView, SpaceView, StandingView, ViewModel
from ui.share.render import CHART_POINTS, event_message, pick_language, view_message

PLAYERS = (PlayerView("p1", "Ann", "red", 1500, 1700, position=3), PlayerView("p2", "Бори́с", "blue", 20, 20,
                                                                              bankrupt=True, position=3))


def test_money_and_words_in_each_language() -> None:
    view = ViewModel(state="idle", edition="ultimate-ru", currency="RUB_K", players=PLAYERS, phase="play")
    rent = ev.RentPaid(seq=4, command=2, payer="p2", owner="p1", deed=3, amount=1500)  # type: ignore[call-arg]
    assert view_message(view, "ru")["players"][0]["balance"] == "1\u00a0500 тыс. ₽"
    said = event_message(rent, view, "ru")["text"]
    assert "Бори́с" in said and "Ann" in said and "1\u00a0500 тыс. ₽" in said
    assert "Rent" in event_message(rent, view, "en")["text"] and event_message(rent, view, "en")["kind"] == "rent"
    turn = ev.TurnEnded(seq=5, command=3, player="p1", next_player="p2")  # type: ignore[call-arg]
    assert event_message(turn, view, "ja")["kind"] == ""  # no money moved: not a payment on the page
    assert view_message(view, "ja")["edition"] != view_message(view, "en")["edition"]


def test_positions_mode_puts_the_tokens_on_their_squares_and_the_standings_at_the_end() -> None:
    board = (SpaceView(0, "go", "GO"), SpaceView(3, "deed", "Whitechapel Road", deed=2, colour="brown", price=60,
                                                 owner="p1", level=2, rent=20, houses=2))
    history = (("p1", tuple(range(1000))), ("p2", tuple(range(1000))))
    view = ViewModel(state="over", edition="ultimate-uk", currency="M", players=PLAYERS, board=board,
                     positions=True, phase="over", wealth_history=history, turn="p2",
                     standings=(StandingView(1, "p1", 1500, 60, 1560), StandingView(2, "p2", 0, 0, 0)))
    msg = view_message(view, "en")
    assert msg["board"][1]["tokens"] == ["red"]  # the bankrupt player's token is off the board
    assert msg["board"][1]["owner"] == "Ann" and msg["board"][1]["houses"] == 2 and msg["board"][1]["rent"] == "M20"
    assert msg["standings"][0] == {"rank": 1, "name": "Ann", "cash": "M1,500", "deeds": "M60", "total": "M1,560"}
    points = msg["chart"][0]["points"]
    assert len(points) <= CHART_POINTS + 1 and points[0] == 0 and points[-1] == 999
    assert not any(p["turn"] for p in msg["players"])  # no turn mark once the game is over


def test_the_phones_language() -> None:
    assert pick_language(None, "ro-RO,ro;q=0.9,en;q=0.8") == "ro"
    assert pick_language(None, "de;q=1, ja;q=0.5, ru;q=0.7") == "ru"
    assert pick_language("ja", "ru") == "ja" and pick_language("xx", None) == "en"
    assert pick_language(None, "ru;q=0, en;q=0.1") == "en" and pick_language(None, "," * 10000) == "en"


def test_ui_share_imports_no_kivy_and_no_banker_machine() -> None:
    for path in (ROOT / "ui" / "share").glob("*.py"):
        tree = ast.parse(path.read_text())
        names = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not any(n.split(".")[0] == "kivy" or n.startswith("ui.touch") for n in names), path.name
        assert "engine.banker.machine" not in names, path.name
        assert len(path.read_text().splitlines()) <= 400


def test_new_game_changes_the_url_and_the_old_one_serves_nothing(tmp_path: Path) -> None:
    proc = headless(tmp_path)
    out = Reader(proc)
    out.start()
    assert out.ready.wait(30)
    first = out.url
    assert proc.stdin is not None
    game = (ROOT / "tests" / "engine" / "taps" / "standings_new_game.tap").read_text().splitlines()
    upto = next(i for i, line in enumerate(game) if line.startswith("press new_game"))
    proc.stdin.write("\n".join(game[:upto]) + "\n")
    proc.stdin.flush()
    out.quiet(1.0)
    assert out.url == first
    port = int(first.split(":")[2].split("/")[0])
    path = "/" + first.split("/", 3)[3]
    assert get(port, path)[0] == 200
    proc.stdin.write(game[upto] + "\n")
    proc.stdin.flush()
    out.quiet(1.0)
    assert out.url != first
    assert get(port, path)[0] == 404 and get(port, "/" + out.url.split("/", 3)[3])[0] == 200
    proc.stdin.close()
    assert proc.wait(30) == 0


def test_every_interface_is_said(tmp_path: Path) -> None:
    env = {**os.environ, "BOARDBANK_DB": str(tmp_path / "b.sqlite3"), "PYTHONPATH": str(ROOT),
           "BOARDBANK_SHARE": "0.0.0.0:0"}
    done = subprocess.run([sys.executable, "-m", "ui.cli", "headless"], input="", capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and "serving on all addresses (0.0.0.0:" in done.stderr, done.stderr
    assert '"type": "share"' in done.stdout and "http://0.0.0.0" not in done.stdout + done.stderr


def test_share_addresses() -> None:
    import pytest

    from ui.share.address import DEFAULT_PORT, Address, AddressError, parse_address

    assert parse_address("127.0.0.1") == Address("127.0.0.1", DEFAULT_PORT)
    assert parse_address("127.0.0.1:8030") == Address("127.0.0.1", 8030)
    assert parse_address("[::1]:8030") == Address("::1", 8030) and str(Address("::1", 8030)) == "[::1]:8030"
    assert parse_address("127.0.0.1:0", allow_port_zero=True).port == 0
    assert parse_address("0.0.0.0").every_interface and not parse_address("127.0.0.1").every_interface
    for bad in ("localhost", "127.0.0.1:0", "127.0.0.1:x", "[::1", "[::1]8030", "1.2.3.4.5", "127.0.0.1:70000"):
        with pytest.raises(AddressError):
            parse_address(bad)


def test_a_default_name_is_said_in_the_phones_language_everywhere_on_the_page() -> None:
    """The payments said «Игрок 1» while the players, the board's owners, the chart and the standings said
    "Player 1" (the banker's untranslated default name)."""
    board = (SpaceView(3, "deed", "Whitechapel Road", deed=2, colour="brown", price=60, owner="p1", level=1,
                       rent=4),)
    players = (PlayerView("p1", "Player 1", "red", 1500, 1560), PlayerView("p2", "Бори́с", "blue", 20, 20))
    view = ViewModel(state="over", edition="ultimate-uk", currency="M", players=players, board=board, phase="over",
                     wealth_history=(("p1", (1500, 1560)), ("p2", (1500, 20))),
                     standings=(StandingView(1, "p1", 1500, 60, 1560), StandingView(2, "p2", 20, 0, 20)))
    for lang, said in (("ru", "Игрок 1"), ("ja", "プレイヤー1"), ("en", "Player 1")):
        sent = view_message(view, lang)
        shown = (sent["players"][0]["name"], sent["board"][0]["owner"], sent["chart"][0]["name"],
                 sent["standings"][0]["name"])
        assert shown == (said,) * 4, (lang, shown)
        assert sent["players"][1]["name"] == "Бори́с"  # a name the table gave stays as it is
