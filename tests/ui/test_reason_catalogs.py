"""Every refusal of both rulesets is said in every language, with only the figures the refusal carries.

The touch screens show a refused command as ``error.rule`` ("Not allowed: {reason}"), where ``{reason}`` is the
catalog's ``reason.<key>`` rendered with the refusal's own parameters (ui/touch/screens/present.py
``render_params``; engine/banker/context.py ``refusal_params``), and the engine's English sentence only when
the catalog lacks the key. So each key of a ruleset's refusal list (engine/errors.py ``REFUSAL_KEYS`` for
Ultimate, engine/rulesets/classic/ruleset.py ``REFUSAL_KEYS`` for classic) needs a ``reason.<key>`` in the
four catalogs, and a placeholder there must be a parameter that every ``refuse(key, ...)`` call of that
ruleset passes: otherwise the screen shows a dash where a name or an amount should be.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from engine import commands as c
from engine.banker.context import refusal_params as screen_params
from engine.banker.viewmodel import PlayerView, SpaceView, ViewModel
from engine.editions import load_edition
from engine.errors import ILLEGAL
from engine.errors import REFUSAL_KEYS as ULTIMATE_KEYS
from engine.game import Game
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.ruleset import REFUSAL_KEYS as CLASSIC_KEYS
from ui.i18n import LANGUAGES, Translator, load_catalog
from ui.touch.screens.present import Presenter

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
RULESET_KEYS: dict[str, frozenset[str]] = {"classic": CLASSIC_KEYS, "ultimate": ULTIMATE_KEYS}
ALWAYS = frozenset({"command"})  # refusal_params adds the refused command to every refusal's parameters


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a catalog text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def refusal_params(ruleset: str) -> dict[str, frozenset[str] | None]:
    """For each key ``refuse()`` is called with in the ruleset's modules and the engine's shared ones
    (engine/*.py, engine/rulesets/*.py; never the other ruleset), the keyword parameters every such call passes; None when a call
    spreads ``**params`` (its names cannot be read from the source)."""
    paths = [*sorted((ENGINE / "rulesets" / ruleset).rglob("*.py")), *sorted((ENGINE / "rulesets").glob("*.py")),
             *sorted(ENGINE.glob("*.py"))]
    found: dict[str, frozenset[str] | None] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name != "refuse":
                continue
            key = node.args[0].value
            names = frozenset(kw.arg for kw in node.keywords if kw.arg is not None)
            spread = any(kw.arg is None for kw in node.keywords)
            if key in found:
                before = found[key]
                found[key] = None if before is None or spread else before & names
            else:
                found[key] = None if spread else names
    return found


def missing_reasons(keys: frozenset[str], catalogs: Mapping[str, Mapping[str, str]]) -> list[str]:
    """``lang reason.key`` for every refusal key a catalog lacks."""
    return [f"{lang} reason.{key}" for lang, texts in catalogs.items() for key in sorted(keys)
            if f"reason.{key}" not in texts]


def foreign_placeholders(params: Mapping[str, frozenset[str] | None],
                         catalogs: Mapping[str, Mapping[str, str]]) -> list[str]:
    """``lang reason.key {names}`` for every catalog text naming a parameter its refusals do not all pass."""
    found = []
    for key, names in sorted(params.items()):
        if names is None:
            continue
        for lang, texts in catalogs.items():
            extra = placeholders(texts.get(f"reason.{key}", "")) - names - ALWAYS
            if extra:
                found.append(f"{lang} reason.{key} {sorted(extra)}")
    return found


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[str, str]]:
    return {lang: dict(load_catalog(lang)) for lang in LANGUAGES}


@pytest.mark.parametrize("ruleset", sorted(RULESET_KEYS))
def test_every_refusal_has_a_reason_in_every_language(ruleset: str, catalogs: dict[str, dict[str, str]]) -> None:
    assert set(catalogs) == {"en", "ru", "ro", "ja"}
    assert not missing_reasons(RULESET_KEYS[ruleset], catalogs)


@pytest.mark.parametrize("ruleset", sorted(RULESET_KEYS))
def test_every_refusal_key_is_refused_somewhere(ruleset: str) -> None:
    """The parameter check below reads each key's ``refuse()`` calls, so each key must have one (the plain
    ``illegal`` key is built from a bare message and carries no parameter)."""
    params = refusal_params(ruleset)
    assert sorted(RULESET_KEYS[ruleset] - set(params) - {ILLEGAL}) == []


@pytest.mark.parametrize("ruleset", sorted(RULESET_KEYS))
def test_a_reason_names_only_what_its_refusals_carry(ruleset: str, catalogs: dict[str, dict[str, str]]) -> None:
    params = refusal_params(ruleset)
    wanted = {key: names for key, names in params.items() if key in RULESET_KEYS[ruleset]}
    wanted[ILLEGAL] = frozenset()
    assert not foreign_placeholders(wanted, catalogs)


def test_the_classic_reasons_are_translated(catalogs: dict[str, dict[str, str]]) -> None:
    """A translation is not the English text copied (docs: every screen text in each language)."""
    own = CLASSIC_KEYS - ULTIMATE_KEYS
    for lang in ("ru", "ro", "ja"):
        copied = sorted(k for k in own if catalogs[lang][f"reason.{k}"] == catalogs["en"][f"reason.{k}"])
        assert not copied, (lang, copied)
    assert all(any(ord(ch) > 0x3000 for ch in catalogs["ja"][f"reason.{k}"]) for k in own)


def test_the_checks_catch_a_missing_reason_and_a_foreign_placeholder(catalogs: dict[str, dict[str, str]]) -> None:
    params = refusal_params("classic")
    assert params["build_unevenly"] == frozenset({"command", "deed", "colour"})
    assert params["not_the_partner"] == frozenset({"command", "player", "partner"})  # two calls, both pass these
    assert params["bad_offer"] == frozenset({"command"})
    broken = {lang: dict(texts) for lang, texts in catalogs.items()}
    del broken["ru"]["reason.build_unevenly"]
    assert missing_reasons(CLASSIC_KEYS, broken) == ["ru reason.build_unevenly"]
    broken["ja"]["reason.bad_offer"] = "{player}の取引はできません"
    assert foreign_placeholders({"bad_offer": params["bad_offer"]}, catalogs) == []
    assert foreign_placeholders({"bad_offer": params["bad_offer"]}, broken) == ["ja reason.bad_offer ['player']"]


def _view(game: Game) -> ViewModel:
    """Just enough of a view for the screen to name the players and the deeds."""
    players = tuple(PlayerView(p, name, "red", 0, 0) for p, name in (("A", "Ann"), ("B", "Bob")))
    board = tuple(SpaceView(s.position, "deed" if s.deed else s.kind, s.name, s.deed) for s in game.edition.spaces)
    return ViewModel(state="idle", edition=game.edition.id, currency=game.edition.currency, players=players,
                     board=board)


def _classic(positions: bool = False, **options: object) -> Game:
    game = Game(load_edition("classic-us"))
    game.apply(c.StartGame((c.PlayerSpec("A", "Ann"), c.PlayerSpec("B", "Bob")), {"positions": positions, **options},
                           1))
    return game


def _played(*commands: c.Command, **options: object) -> Callable[[], Game]:
    def make() -> Game:
        game = _classic(**options)
        for cmd in commands:
            game.apply(cmd)
        return game
    return make


CLASSIC_REFUSALS = [
    # (key, the game, the refused command, its parameters, the English reason on the screen)
    ("not_enough_cash", _played(start_money=100), c.BuyDeed("A", 28),
     {"command": "BuyDeed", "player": "A", "cash": 100, "deed": 28, "price": 400},
     "Ann has M100; Boardwalk costs M400"),
    ("short_of_cash", _played(c.BuyDeed("A", 1), c.EndTurn("A"), c.BuyDeed("B", 2)),
     cc.ProposeTrade("A", "B", give_cash=5000, take_deeds=(2,)),
     {"command": "ProposeTrade", "player": "A", "cash": 1440, "price": 5000}, "Ann has M1,440; M5,000 is needed"),
    ("bid_below_minimum", _played(c.DeclineDeed("A", 1), c.PlaceBid("B", 10)), c.PlaceBid("A", 10),
     {"command": "PlaceBid", "amount": 10, "high_bid": 10, "min_bid": 11}, "a bid of M10 is too low: at least M11"),
    ("bad_dice_total", _played(c.BuyDeed("A", 8), c.EndTurn("A")), cc.PayUtilityRent("B", 8, 13),
     {"command": "PayUtilityRent", "dice": "13"}, "the dice total must be 2 to 12, got 13"),
    ("bad_dice", _played(positions=True), c.RollDice("A", 0, 7),
     {"command": "RollDice", "die1": "0", "die2": "7"}, "two dice of 1 to 6 are needed, got 0 and 7"),
]


@pytest.mark.parametrize(("key", "make", "cmd", "params", "said"), CLASSIC_REFUSALS,
                         ids=[case[0] for case in CLASSIC_REFUSALS])
def test_a_classic_refusal_carries_what_its_reason_names(key: str, make: Callable[[], Game], cmd: c.Command,
                                                          params: dict[str, object], said: str) -> None:
    """docs/rules-classic.md 14: the refusal's parameters fill every placeholder of its reason, so the screen
    says it in its language with no dash (ui/touch/screens/present.py renders money, names and deeds)."""
    game = make()
    reason = game.check(cmd)
    assert reason is not None and reason.key == key and dict(reason.params) == params
    presenter = Presenter(Translator("en"), _view(game))
    shown = presenter.text("error.rule", tuple(screen_params(reason, type(cmd).__name__).items()))
    assert shown == f"Not allowed: {said}"
    for lang in ("ru", "ro", "ja"):
        presenter.tr.set_language(lang)
        text = presenter.text("error.rule", tuple(screen_params(reason, type(cmd).__name__).items()))
        assert "—" not in text and "{" not in text, (lang, text)
