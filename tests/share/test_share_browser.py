"""The live page in a real browser (headless Chromium from Debian's ``chromium`` package): a whole classic
game played through ``boardbank headless --share`` while the page is open. The page must show every
event once (its ``data-seen`` count equals the journal's events), the players, the board with owners,
houses, hotels and mortgages, and the standings at the end; screenshots at 360x740 and 1280x800 in en, ru
and ja go to ``$BOARDBANK_SHARE_SHOTS`` (default: a temporary folder).

The game: tests/engine/taps/classic/whole_game.tap (docs/rules-classic.md 1, 3-9). Skipped, with the
reason, where Chromium is not installed (``apt-get install chromium``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from browser import CHROMIUM
from test_share_game import ROOT, Reader, headless

GAME = ROOT / "tests" / "engine" / "taps" / "classic" / "whole_game.tap"

DEPS = ROOT / "scripts" / "install-system-deps.sh"


@pytest.fixture
def chromium() -> None:
    """Skip without Chromium, with the reason; but ``make test`` installs it (the test apt list), so in CI
    (``CI`` set) a missing Chromium is a failure, never a silent skip."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("no chromium in CI: scripts/install-system-deps.sh test installs it")
        pytest.skip("no chromium (Debian: apt-get install chromium; `make test` installs it as root)")


def test_make_test_installs_chromium_and_zbar_but_running_does_not() -> None:
    def listed(flag: str) -> set[str]:
        done = subprocess.run(["bash", str(DEPS), flag], capture_output=True, text=True, timeout=30, check=True)
        return set(done.stdout.split())

    assert {"chromium", "zbar-tools"} <= listed("--list-test") - listed("--list-run")


def wait_page(page: object, expression: str, timeout: float = 30.0) -> object:
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)  # type: ignore[attr-defined]
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never got {expression}")
        time.sleep(0.1)


@contextmanager
def served_page(tmp_path: Path, lang: str, *args: str) -> Iterator[tuple[Any, Any, Any, Path]]:
    """``boardbank headless --share`` (with ``args``) and a 360x740 browser page on it in ``lang``, live:
    (the process, its output's reader, the page, the screenshots' folder: ``$BOARDBANK_SHARE_SHOTS`` or
    ``tmp_path``); both closed after."""
    from browser import Browser

    shots = Path(os.environ.get("BOARDBANK_SHARE_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    proc = headless(tmp_path, *args)
    out = Reader(proc)
    out.start()
    assert out.ready.wait(30)
    page = Browser(out.url + f"?lang={lang}")
    try:
        page.resize(360, 740)
        wait_page(page, "document.body.dataset.live === 'yes'")
        assert proc.stdin is not None
        yield proc, out, page, shots
    finally:
        page.close()
        proc.stdin.close() if proc.stdin else None
        proc.wait(30)


def test_a_whole_game_on_the_page_in_a_browser(tmp_path: Path, chromium: None) -> None:
    with served_page(tmp_path, "en", "--edition", "classic-us") as (proc, out, page, shots):
        lines = GAME.read_text().splitlines()
        for number, line in enumerate(lines):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            if number == len(lines) * 2 // 3:  # mid-game: owners, houses, a mortgage
                time.sleep(0.5)
                page.screenshot(shots / "share-mid-360x740-en.png")
                page.call("Runtime.evaluate", expression="document.getElementById('board').scrollIntoView()")
                page.screenshot(shots / "share-mid-board-360x740-en.png")
                page.call("Runtime.evaluate", expression="window.scrollTo(0, 0)")
        out.quiet()
        total = max(out.printed)
        assert sorted(out.printed) == list(range(1, total + 1)) and total > 50
        wait_page(page, f"document.body.dataset.seq === '{total}'")
        assert page.evaluate("document.body.dataset.seen") == str(total)  # every event once
        wait_page(page, "!document.getElementById('standings-box').hidden")
        players = page.evaluate("[...document.querySelectorAll('#players li .name')].map(e => e.textContent)")
        assert len(players) == 3
        owned = page.evaluate("document.querySelectorAll('#board .own .dot').length")
        assert owned >= 1
        assert page.evaluate("document.querySelectorAll('#payments li').length") >= 5
        assert page.evaluate("document.querySelectorAll('#chart polyline').length") == 3
        for lang in ("en", "ru", "ja"):
            page.navigate(out.url + f"?lang={lang}")
            wait_page(page, "!document.getElementById('standings-box').hidden")
            assert page.evaluate("document.documentElement.lang") == lang
            for width, height in ((360, 740), (1280, 800)):
                page.resize(width, height)
                time.sleep(0.3)
                page.screenshot(shots / f"share-{width}x{height}-{lang}.png")
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= width, f"{lang} at {width} px scrolls sideways ({wide} px)"
        errors = page.evaluate("window.__errors || 0")
        assert not errors


def test_the_tokens_on_the_page_when_the_unit_keeps_them(tmp_path: Path, chromium: None) -> None:
    """tests/engine/taps/positions/whole_game.tap (docs/flows.md "The unit keeps the tokens"): the page
    marks each token on its square."""
    with served_page(tmp_path, "ru") as (proc, out, page, shots):
        lines = (ROOT / "tests" / "engine" / "taps" / "positions" / "whole_game.tap").read_text().splitlines()
        proc.stdin.write("\n".join(lines[:len(lines) // 2]) + "\n")
        proc.stdin.flush()
        out.quiet(1.0)
        wait_page(page, f"document.body.dataset.seq === '{max(out.printed)}'")
        assert page.evaluate("document.querySelectorAll('#board .here .dot').length") == 2
        page.call("Runtime.evaluate", expression="document.querySelector('#board .here').scrollIntoView()")
        page.screenshot(shots / "share-positions-360x740-ru.png")


ULTIMATE_GAME = ROOT / "tests" / "engine" / "taps" / "whole_game.tap"
BARE = r"/^[^:：]+ » [^:：]+[:：] \S+$/"  # a payment without what it was for ("Chiara » Bank: M100")


def test_an_ultimate_game_at_360_px_tells_levels_payments_receipts_and_the_bankruptcy(tmp_path: Path, chromium: None) -> None:
    """tests/engine/taps/whole_game.tap (docs/rules.md 1.3-1.9, 1.15, 6.2) at 360x740: the board shows each
    owned deed's rent level and rent, every payment says what it was for, the bankruptcy that ends the game
    is a payment with the creditor's two amounts, and touching a payment opens its receipt; screenshots in
    en, ru and ja with a receipt open."""
    with served_page(tmp_path, "en") as (proc, out, page, shots):
        proc.stdin.write(ULTIMATE_GAME.read_text())
        proc.stdin.flush()
        out.quiet(1.0)
        total = max(out.printed)
        wait_page(page, f"document.body.dataset.seq === '{total}'")
        wait_page(page, "!document.getElementById('standings-box').hidden")
        levels = page.evaluate("[...document.querySelectorAll('#board .lvl')].map(e => e.textContent)")
        rents = page.evaluate("[...document.querySelectorAll('#board .rent')].map(e => e.textContent)")
        assert levels and all(text.startswith("level ") for text in levels), levels
        assert len(rents) == len(levels) and all(text.startswith("rent M") for text in rents), rents
        texts = page.evaluate("[...document.querySelectorAll('#payments li')].map(e => e.textContent)")
        assert len(texts) >= 5
        assert not page.evaluate(f"[...document.querySelectorAll('#payments summary')].some(e => {BARE}.test(e.textContent))")
        bankrupt = page.evaluate("document.querySelector('#payments li.k-bankruptcy summary').textContent")
        assert "M740" in bankrupt and "M70 " in bankrupt + " ", bankrupt  # the cash and the Bank's share
        for lang in ("en", "ru", "ja"):
            if lang != "en":
                page.navigate(out.url + f"?lang={lang}")
                wait_page(page, "!document.getElementById('standings-box').hidden")
            wait_page(page, "document.querySelector('#payments li.k-bankruptcy details') !== null")
            assert page.evaluate("document.querySelector('#payments .receipt').checkVisibility()") is False  # closed
            page.tap("#payments li.k-bankruptcy summary")
            wait_page(page, "document.querySelector('#payments li.k-bankruptcy details').open", 10)
            shown = page.evaluate("document.querySelector('#payments li.k-bankruptcy .receipt').checkVisibility()")
            text = page.evaluate("document.querySelector('#payments li.k-bankruptcy .receipt').textContent")
            assert shown is True and ("=" in text or "＝" in text), text
            time.sleep(0.2)
            page.screenshot(shots / f"share-receipt-360x740-{lang}.png")
            page.call("Runtime.evaluate", expression="document.getElementById('board').scrollIntoView()")
            page.screenshot(shots / f"share-levels-360x740-{lang}.png")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= 360, f"{lang} at 360 px scrolls sideways ({wide} px)"
        assert not page.evaluate("window.__errors || 0")
