"""The four catalogs: the same keys, the same placeholders, every key the code uses, and no user-facing
literal in the screens' code or kv files (everything on screen goes through the catalogs)."""

from __future__ import annotations

import ast
import re
import string
import tomllib
from pathlib import Path

import pytest

from engine.banker.table import BUTTONS, BankerState
from engine.editions import list_editions, load_edition
from engine.rulesets.ultimate.options import Options
from reader.registry import KIND_LIMITS
from ui.i18n import LANGUAGES, I18nError, load_catalog
from ui.money import CURRENCIES

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui" / "touch"
SCREEN_CODE = sorted([UI / "app.py", *(UI / "screens").glob("*.py"), *(UI / "widgets").glob("*.py")])
KV_FILES = sorted((UI / "kv").glob("*.kv"))
KEY = re.compile(r"^[a-z_]+(\.[a-z0-9_\-]+)+$")
TEXT_PROPS = ("text", "title", "hint_text")
FILES = (".kv", ".py", ".png", ".wav", ".po")


def catalog(lang: str) -> dict[str, str]:
    return dict(load_catalog(lang))


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_every_key_translated() -> None:
    en = catalog("en")
    assert len(en) > 200
    for lang in LANGUAGES:
        keys = set(catalog(lang))
        assert keys == set(en), f"{lang}: missing {sorted(set(en) - keys)}, extra {sorted(keys - set(en))}"


def test_translations_keep_the_placeholders() -> None:
    en = catalog("en")
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            assert placeholders(text) == placeholders(en[key]), f"{lang} {key}: {text!r} vs {en[key]!r}"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(I18nError, match="expected a language"):
        load_catalog("de")


def _keys_in_python(path: Path, prefixes: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    keys = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                and KEY.match(node.value) and node.value.split(".")[0] in prefixes
                and not node.value.endswith(FILES)):
            keys.add(node.value)
    return keys


def _keys_in_kv(path: Path) -> set[str]:
    return set(re.findall(r"app\.t\(\s*'([^']+)'", path.read_text(encoding="utf-8")))


def _engine_literal_keys(prefix: str) -> set[str]:
    found = set()
    for path in (ROOT / "engine" / "banker").glob("*.py"):
        found |= set(re.findall(rf"\"({prefix}\.[a-z_]+)\"", path.read_text(encoding="utf-8")))
    return found


def dynamic_keys() -> set[str]:
    """Keys built at run time from the banker, the editions, the options and the registry."""
    keys = {f"action.{b}" for b in BUTTONS} | {f"prompt.{s.value}" for s in BankerState}
    keys |= _engine_literal_keys("prompt") | _engine_literal_keys("error") | _engine_literal_keys("choice")
    keys |= {f"option.{name}" for name in Options().as_dict()}
    from engine.rulesets.classic.options import Options as ClassicOptions

    keys |= {f"option.{name}" for name in ClassicOptions().as_dict()}  # the classic setup's options
    from engine.errors import REFUSAL_KEYS

    keys |= {f"reason.{k}" for k in REFUSAL_KEYS}  # the engine's refusals, said in the screen's language
    keys |= {"phase.setup", "phase.play", "phase.auction", "phase.event", "phase.debt", "phase.over"}
    keys |= {f"money.{c}" for c in CURRENCIES} | {f"cardkind.{k}" for k in KIND_LIMITS}
    keys |= {f"enroll.tap_{k}" for k in KIND_LIMITS}
    from engine.banker.view import TOKENS

    keys |= {f"token.{t}" for t in TOKENS}
    for edition_id in list_editions():
        ed = load_edition(edition_id)
        keys.add(f"edition.{edition_id}")
        keys |= {f"colour.{colour}" for colour in ed.colour_sets}
        keys |= {f"space.{space.kind}" for space in ed.spaces if space.kind != "deed"}
        if ed.ruleset == "classic":  # Chance and Community Chest (ui/touch/screens/card.py), and their decks
            keys |= {f"event.{card.key}" for card in ed.events} | {f"event.{card.key}.text" for card in ed.events}
            keys |= {f"deck.{card.deck}" for card in ed.events}
            keys |= {f"board.about.{space.kind}" for space in ed.spaces if space.kind in ("chance", "chest", "tax")}
            continue
        for card in ed.events:
            keys |= {f"event.{card.key}", f"event.{card.key}.text", f"choose.{card.choice}"}
            if card.choice in ("colour_set", "side", "other_player"):
                keys.add(f"choice.{card.choice}")
    return keys


def test_every_key_used_exists_in_all_catalogs() -> None:
    prefixes = {key.split(".")[0] for key in catalog("en")}
    used: set[str] = set()
    for path in [*SCREEN_CODE, UI / "script.py", ROOT / "ui" / "money.py"]:
        used |= _keys_in_python(path, prefixes)
    for path in KV_FILES:
        used |= _keys_in_kv(path)
    used |= dynamic_keys()
    assert len(used) > 150
    for lang in LANGUAGES:
        missing = sorted(used - set(catalog(lang)))
        assert not missing, f"{lang} catalog lacks {missing}"


def test_the_ultimate_board_event_keys_are_the_editions() -> None:
    data = tomllib.loads((ROOT / "engine" / "editions" / "board-ultimate.toml").read_text(encoding="utf-8"))
    assert {f"event.{e['key']}" for e in data["events"]} <= set(catalog("ja"))


def test_the_classic_cards_are_said_in_every_language_with_the_editions_figures() -> None:
    """docs/rules-classic.md 3: every Chance and Community Chest card of the classic board has a title and
    a text of our own in each language; a text names the figures its card prints (its target square, its
    amount, its repair prices, its steps) as placeholders, so every edition's own names and money show."""
    data = tomllib.loads((ROOT / "engine" / "editions" / "board-classic.toml").read_text(encoding="utf-8"))
    needs = {"target": "place", "amount": "amount", "per_house": "per_house", "per_hotel": "per_hotel",
             "steps": "steps"}
    for lang in LANGUAGES:
        texts = catalog(lang)
        for card in data["cards"]:
            key = f"event.{card['key']}"
            assert key in texts and f"{key}.text" in texts, (lang, key)
            wanted = {name for field, name in needs.items() if field in card and card[field] != 0}  # GO is named
            said = placeholders(texts[f"{key}.text"]) | placeholders(texts[key])
            assert wanted <= said, (lang, key, wanted - said)
            if lang != "en":
                assert texts[f"{key}.text"] != catalog("en")[f"{key}.text"], (lang, key)


# -- no literals --------------------------------------------------------------------------------------
def _has_words(text: str) -> bool:
    return any(ch.isalpha() for ch in text) and not KEY.match(text)


def literal_problems_in_python(source: str, name: str = "<source>") -> list[str]:
    """User-facing literals in Python: ``text=``/``title=`` arguments, ``.text = ...``, ``toast(...)``."""
    tree = ast.parse(source)
    found = []

    def bad(value: ast.expr) -> bool:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return _has_words(value.value)
        if isinstance(value, ast.JoinedStr):
            return any(isinstance(v, ast.Constant) and _has_words(str(v.value)) for v in value.values)
        if isinstance(value, ast.BinOp):
            return bad(value.left) or bad(value.right)
        if isinstance(value, ast.IfExp):
            return bad(value.body) or bad(value.orelse)
        return False

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in TEXT_PROPS and bad(kw.value):
                    found.append(f"{name}:{node.lineno}: {kw.arg}= literal")
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "toast" and node.args and bad(node.args[0]):
                found.append(f"{name}:{node.lineno}: toast literal")
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr in TEXT_PROPS and bad(node.value):
                    found.append(f"{name}:{node.lineno}: .{target.attr} = literal")
    return found


def literal_problems_in_kv(source: str, name: str = "<kv>") -> list[str]:
    """User-facing literals in kv: a ``text:`` whose expression holds a quoted string with letters that is
    not the key argument of ``app.t(...)``."""
    found = []
    for number, line in enumerate(source.splitlines(), start=1):
        m = re.match(r"\s*(text|title|hint_text)\s*:\s*(.+)$", line)
        if not m:
            continue
        expr = re.sub(r"app\.t\(\s*'[^']*'", "app.t(KEY", m.group(2))
        expr = re.sub(r"app\.t\(KEY,\s*'[a-z]{2}'\)", "app.t(KEY)", expr)  # a fixed language: lang.en etc.
        expr = re.sub(r"i18n\.native_name\(\s*'[a-z]{2}'\s*\)", "i18n.native_name(LANG)", expr)  # its catalog's
        for literal in re.findall(r"'([^']*)'|\"([^\"]*)\"", expr):
            text = literal[0] or literal[1]
            if _has_words(text):
                found.append(f"{name}:{number}: literal {text!r}")
    return found


def test_no_user_facing_literal_in_screen_code() -> None:
    found = []
    for path in SCREEN_CODE:
        found += literal_problems_in_python(path.read_text(encoding="utf-8"), path.name)
    assert not found, "\n".join(found)


def test_no_user_facing_literal_in_kv() -> None:
    found = []
    for path in KV_FILES:
        found += literal_problems_in_kv(path.read_text(encoding="utf-8"), path.name)
    assert not found, "\n".join(found)


def test_the_literal_scanners_catch_literals() -> None:
    python = '''
label = Label(text="Balance")
label.text = f"Player {n}"
self.toast("Wrong card")
ok = Label(text=app.t("keypad.ok"))
digits = Button(text="7")
'''
    found = literal_problems_in_python(python)
    assert len(found) == 3, found
    kv = """
    text: 'Start game'
    text: app.t('nav.back', app.lang)
    text: root.name + ' owes'
    text: '1'
"""
    found = literal_problems_in_kv(kv)
    assert len(found) == 2, found
