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
from collections.abc import Mapping
from pathlib import Path

import pytest

from engine.errors import ILLEGAL
from engine.errors import REFUSAL_KEYS as ULTIMATE_KEYS
from engine.rulesets.classic.ruleset import REFUSAL_KEYS as CLASSIC_KEYS
from ui.i18n import LANGUAGES, load_catalog

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
RULESET_KEYS: dict[str, frozenset[str]] = {"classic": CLASSIC_KEYS, "ultimate": ULTIMATE_KEYS}
ALWAYS = frozenset({"command"})  # refusal_params adds the refused command to every refusal's parameters
KNOWN_GAPS: frozenset[str] = frozenset({
    # shared reasons written for Ultimate's parameters; some classic refuse() calls name theirs differently or
    # pass fewer (classic auction.py: high/min; rent.py PayUtilityRent: dice; trade/building/debt: no deed),
    # so the classic screen shows a dash there until those calls pass the same names
    "bad_dice", "bid_too_low", "not_enough_cash",
})
"""Classic keys whose shared ``reason.*`` text names a parameter not every classic refusal passes."""


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
    found = foreign_placeholders(wanted, catalogs)
    gaps = {line.split()[1].removeprefix("reason.") for line in found}
    if ruleset == "classic":  # the known gaps stay exactly these: a new one fails, a fixed one must leave the list
        assert gaps == KNOWN_GAPS, found
    else:
        assert not found


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
