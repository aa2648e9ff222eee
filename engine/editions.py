"""Editions: the board, deeds, rents, cards and names of one game box, loaded from TOML data.

Files live in ``engine/editions/``: ``board-<name>.toml`` holds a board shared by several editions (spaces,
deeds with price and rents, colour sets, and the ruleset's own tables such as sides and event cards);
``<edition-id>.toml`` names its board with ``board = "<name>"`` and adds ``id``, ``ruleset``, ``language``,
``currency`` and ``[names]`` (one list of space names per language), and optionally ``[short_names]`` (the
same lists, the board's labels: a name short enough for its square, ``""`` where the name itself fits). An
edition file may also carry the
board tables itself. The fields every edition has are read here; the edition's ruleset (found through
engine/rulesets/registry.py) reads and checks the tables of its own (``Ruleset.parse_edition``). Every amount is an
``int`` in the edition's money unit (``"M"``, or ``"RUB_K"`` = thousands of rubles). An optional ``[options]``
table sets this edition's defaults of the rule options (engine/options.py). A broken file raises
:class:`~engine.errors.EditionError` naming the file and the field.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from engine.errors import EditionError, OptionError

if TYPE_CHECKING:
    from engine.rulesets.api import Ruleset

EDITIONS_DIR = Path(__file__).with_name("editions")
SIDE_NAMES = ("A", "B", "C", "D")


@dataclass(frozen=True, slots=True)
class Space:
    """One board space; ``deed`` is its deed number for a deed space, else ``None``."""

    position: int
    kind: str
    name: str
    deed: int | None = None


@dataclass(frozen=True, slots=True)
class Deed:
    """A title deed: printed ``price`` and ``rents`` in money units (what the rents mean is the ruleset's:
    levels 1..5 in Ultimate Banking). ``kind``, ``house_cost`` and ``mortgage`` (money units) are printed
    on the deeds of rulesets that build and mortgage; 0 where a ruleset has none."""

    number: int
    position: int
    name: str
    colour: str
    price: int
    rents: tuple[int, ...]
    kind: str = "street"
    house_cost: int = 0
    mortgage: int = 0


@dataclass(frozen=True, slots=True)
class EventCard:
    """A card of the edition's deck(s): ``effect`` does it, ``choice`` is what the drawer answers; ``amount``
    in money units; ``deck`` names its deck where a ruleset has several; ``params`` any further figures
    of the effect (the ruleset reads them)."""

    id: int
    key: str
    name: str
    effect: str
    choice: str
    text: str
    amount: int = 0
    deck: str = ""
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition (immutable). ``names`` maps a language to the space names by position; ``events`` are its
    cards and ``sides`` its board sides (deed numbers), as its ruleset reads them; ``extra`` holds the
    ruleset's further tables."""

    id: str
    ruleset: str
    language: str
    currency: str
    spaces: tuple[Space, ...]
    deeds: Mapping[int, Deed]
    colour_sets: Mapping[str, tuple[int, ...]]
    sides: tuple[tuple[int, ...], ...]
    events: tuple[EventCard, ...]
    names: Mapping[str, tuple[str, ...]]
    source: str = ""
    short_names: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """Language -> the board's label of each space by position (``""``: the name itself)."""
    options: Mapping[str, int | bool] = field(default_factory=lambda: MappingProxyType({}))  # option defaults
    extra: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def deed_at(self, position: int) -> Deed | None:
        """The deed on board ``position``, or ``None``."""
        number = self.spaces[position].deed
        return None if number is None else self.deeds[number]

    def card(self, card_id: int) -> EventCard:
        """The event card with id ``card_id`` (1..23); ``KeyError`` if none."""
        for card in self.events:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def side_of(self, deed: int) -> str:
        """The side letter (A-D) of ``deed``."""
        for name, numbers in zip(SIDE_NAMES, self.sides, strict=False):
            if deed in numbers:
                return name
        raise KeyError(deed)


class EditionReader:
    """Typed access to one parsed file, raising EditionError with the file and field path (rulesets use it
    to read their own tables)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.label = path.name  # names the board file too once it is merged in

    def fail(self, where: str, expected: str, got: object) -> EditionError:
        return EditionError(f"{self.label}: field {where}: expected {expected}, got {got!r}")

    def get(self, table: Mapping[str, object], key: str, where: str) -> object:
        if key not in table:
            return self._missing(where)
        return table[key]

    def _missing(self, where: str) -> object:
        raise EditionError(f"{self.label}: missing field {where}")

    def int_(self, table: Mapping[str, object], key: str, where: str, minimum: int = 0) -> int:
        value = self.get(table, key, where)
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            raise self.fail(where, f"a whole number >= {minimum}", value)
        return value

    def str_(self, table: Mapping[str, object], key: str, where: str) -> str:
        value = self.get(table, key, where)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, "a non-empty string", value)
        return value

    def list_(self, table: Mapping[str, object], key: str, where: str) -> list[object]:
        value = self.get(table, key, where)
        if not isinstance(value, list):
            raise self.fail(where, "a list", value)
        return value

    def table(self, value: object, where: str) -> Mapping[str, object]:
        if not isinstance(value, dict):
            raise self.fail(where, "a table", value)
        return value

    def tables(self, data: Mapping[str, object], key: str) -> list[tuple[str, Mapping[str, object]]]:
        """Each item of the list ``key`` of ``data``, which must be a table, with its place (``key[i]``)."""
        return [(f"{key}[{i}]", self.table(item, f"{key}[{i}]")) for i, item in enumerate(self.list_(data, key, key))]

    def cards(self, data: Mapping[str, object], key: str,
              read: Callable[[Mapping[str, object], str, int], EventCard]) -> tuple[EventCard, ...]:
        """The event cards of the list ``key`` of ``data``, as both rulesets' edition files give them: each a
        table with the ids 1, 2, ... in order, read by the ruleset's ``read(table, where, id)`` (its effects
        and figures, then :meth:`card`), their keys unique."""
        cards: list[EventCard] = []
        for i, (where, t) in enumerate(self.tables(data, key)):
            card_id = self.int_(t, "id", f"{where}.id", 1)
            if card_id != i + 1:
                raise self.fail(f"{where}.id", f"ids 1, 2, ... in order (this one {i + 1})", card_id)
            cards.append(read(t, where, card_id))
        if len({c.key for c in cards}) != len(cards):
            raise self.fail(key, "unique keys", [c.key for c in cards])
        return tuple(cards)

    def card(self, t: Mapping[str, object], where: str, card_id: int, effect: str, choice: str, amount: int,
             deck: str = "", params: Mapping[str, object] | None = None) -> EventCard:
        """The card ``card_id`` of the table ``t`` (at ``where``): its ``key``, ``name`` and ``text`` read
        here, the rest as the ruleset read it (``amount`` in money units)."""
        return EventCard(card_id, self.str_(t, "key", f"{where}.key"), self.str_(t, "name", f"{where}.name"),
                         effect, choice, self.str_(t, "text", f"{where}.text"), amount, deck,
                         MappingProxyType(dict(params or {})))


def _parse_toml(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise EditionError(f"{path}: cannot read the edition file ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise EditionError(f"{path.name}: not valid TOML ({exc})") from exc


def _board_data(path: Path, data: dict[str, object], r: EditionReader) -> tuple[dict[str, object], Path]:
    """The edition's data merged over its board file's (the board found next to the file, then built-in)."""
    if "board" not in data:
        return data, path
    board = r.str_(data, "board", "board")
    for folder in (path.parent, EDITIONS_DIR):
        candidate = folder / f"board-{board}.toml"
        if candidate.is_file():
            return {**_parse_toml(candidate), **data}, candidate
    raise EditionError(f"{path.name}: field board: no file board-{board}.toml next to it or built in")


_RawDeed = tuple[int, str, int, tuple[int, ...], str, int, int]  # position, colour, price, rents, kind, house, mortgage


def _deeds(r: EditionReader, data: Mapping[str, object], kinds: list[object], colours: list[object]) -> dict[int, _RawDeed]:
    deeds: dict[int, _RawDeed] = {}
    deed_positions = [p for p, k in enumerate(kinds) if k == "deed"]
    for where, t in r.tables(data, "deeds"):
        number = r.int_(t, "number", f"{where}.number", 1)
        if number in deeds:
            raise EditionError(f"{r.label}: field {where}.number: duplicate deed {number}")
        position = r.int_(t, "position", f"{where}.position")
        if position not in deed_positions:
            raise r.fail(f"{where}.position", f"a deed space (one of {deed_positions})", position)
        colour = r.str_(t, "colour", f"{where}.colour")
        if colour not in colours:
            raise r.fail(f"{where}.colour", f"a colour of {colours}", colour)
        price = r.int_(t, "price", f"{where}.price", 1)
        raw_rents = r.list_(t, "rents", f"{where}.rents")
        rents = [x for x in raw_rents if isinstance(x, int) and not isinstance(x, bool) and x > 0]
        if not raw_rents or len(rents) != len(raw_rents):
            raise r.fail(f"{where}.rents", "positive whole numbers", raw_rents)
        if rents != sorted(rents):
            raise r.fail(f"{where}.rents", "rents rising with the level", raw_rents)
        kind = r.str_(t, "kind", f"{where}.kind") if "kind" in t else "street"
        house_cost = r.int_(t, "house_cost", f"{where}.house_cost") if "house_cost" in t else 0
        mortgage = r.int_(t, "mortgage", f"{where}.mortgage") if "mortgage" in t else 0
        deeds[number] = (position, colour, price, tuple(rents), kind, house_cost, mortgage)
    if sorted(deeds) != list(range(1, len(deed_positions) + 1)):
        raise r.fail("deeds", f"deed numbers 1..{len(deed_positions)}, one per deed space", sorted(deeds))
    if sorted(d[0] for d in deeds.values()) != deed_positions:
        raise r.fail("deeds", "one deed on each deed space", sorted(d[0] for d in deeds.values()))
    return deeds


def _options(r: EditionReader, data: Mapping[str, object], ruleset: Ruleset) -> Mapping[str, int | bool]:
    """The optional ``[options]`` table: rule-option defaults of this edition (the ruleset's option names)."""
    if "options" not in data:
        return MappingProxyType({})
    table = r.table(data["options"], "options")
    try:
        ruleset.options.from_mapping(table)
    except OptionError as exc:
        raise EditionError(f"{r.label}: field options: {exc}") from None
    return MappingProxyType({k: v for k, v in table.items() if isinstance(v, int)})


def load_edition_file(path: str | Path) -> Edition:
    """Load and validate one edition file; raise :class:`EditionError` naming the file and the field."""
    path = Path(path)
    r = EditionReader(path)
    own = _parse_toml(path)
    data, board_path = _board_data(path, own, r)
    if board_path != path:
        r.label = f"{path.name} (with {board_path.name})"
    edition_id = r.str_(data, "id", "id")
    ruleset = r.str_(data, "ruleset", "ruleset")
    language = r.str_(data, "language", "language")
    currency = r.str_(data, "currency", "currency")
    from engine.rulesets.registry import get_ruleset  # rulesets are plug-ins: looked up, not imported

    try:
        rules = get_ruleset(ruleset)
    except EditionError as exc:
        raise EditionError(f"{r.label}: field ruleset: {exc}") from None
    kinds = r.list_(data, "spaces", "spaces")
    for i, kind in enumerate(kinds):
        if kind not in rules.space_kinds:
            raise r.fail(f"spaces[{i}]", f"one of {rules.space_kinds}", kind)
    colours = r.list_(data, "colours", "colours")
    if not colours or not all(isinstance(c, str) for c in colours) or len(set(colours)) != len(colours):
        raise r.fail("colours", "a list of unique colour names", colours)
    deeds = _deeds(r, data, kinds, colours)
    names_table = r.table(r.get(data, "names", "names"), "names")
    names: dict[str, tuple[str, ...]] = {}
    for lang, seq in names_table.items():
        if not isinstance(seq, list) or len(seq) != len(kinds) or not all(isinstance(s, str) and s for s in seq):
            raise r.fail(f"names.{lang}", f"{len(kinds)} non-empty names, one per space", seq)
        names[lang] = tuple(seq)
    if language not in names:
        raise r.fail("names", f"names in the edition's language {language!r}", sorted(names))
    short_names: dict[str, tuple[str, ...]] = {}
    for lang, seq in r.table(data.get("short_names", {}), "short_names").items():
        if not isinstance(seq, list) or len(seq) != len(kinds) or not all(isinstance(s, str) for s in seq):
            raise r.fail(f"short_names.{lang}", f"{len(kinds)} names, one per space (\"\": the name)", seq)
        short_names[lang] = tuple(seq)
    own_names = names[language]
    deed_by_pos = {d[0]: n for n, d in deeds.items()}
    spaces = tuple(Space(p, str(k), own_names[p], deed_by_pos.get(p)) for p, k in enumerate(kinds))
    deed_objs = {n: Deed(n, pos, own_names[pos], colour, price, rents, kind, house, mortgage)
                 for n, (pos, colour, price, rents, kind, house, mortgage) in sorted(deeds.items())}
    colour_sets = {str(c): tuple(n for n, d in deed_objs.items() if d.colour == c) for c in colours}
    for c, members in colour_sets.items():
        if not members:
            raise r.fail("colours", f"every colour used by a deed ({c!r} has none)", colours)
    tables = rules.parse_edition(r, data, deed_objs)
    return Edition(
        id=edition_id, ruleset=ruleset, language=language, currency=currency, spaces=spaces,
        deeds=MappingProxyType(deed_objs), colour_sets=MappingProxyType(colour_sets),
        sides=tables.get("sides", ()), events=tables.get("events", ()), names=MappingProxyType(names),
        short_names=MappingProxyType(short_names), options=_options(r, data, rules), extra=MappingProxyType(dict(tables.get("extra", {}))),
        source=str(path) if board_path == path else f"{path} + {board_path.name}",
    )


def list_editions() -> list[str]:
    """The ids of the built-in editions (files in ``engine/editions`` that are not boards)."""
    return sorted(p.stem for p in EDITIONS_DIR.glob("*.toml") if not p.name.startswith("board-"))


@cache
def edition_ruleset(edition_id: str) -> str:
    """The name of the ruleset the built-in edition ``edition_id`` is played by, read from its file (over its
    board's) without loading the edition, so without importing the ruleset: the banker's setup lists the
    editions of every ruleset, and a table that plays one of them never needs the others' modules
    (about 1.3 MiB of module code for Ultimate's); :class:`EditionError` for an unknown id."""
    if edition_id not in list_editions():
        raise EditionError(f"unknown edition {edition_id!r}; expected one of {list_editions()}")
    path = EDITIONS_DIR / f"{edition_id}.toml"
    r = EditionReader(path)
    data = _parse_toml(path)
    if "ruleset" not in data:  # the edition's own field wins over its board's: the board read only without it
        data, _ = _board_data(path, data, r)
    return r.str_(data, "ruleset", "ruleset")


@cache
def load_edition(edition_id: str) -> Edition:
    """The built-in edition ``edition_id`` (cached); :class:`EditionError` for an unknown id."""
    if edition_id not in list_editions():
        raise EditionError(f"unknown edition {edition_id!r}; expected one of {list_editions()}")
    edition = load_edition_file(EDITIONS_DIR / f"{edition_id}.toml")
    if edition.id != edition_id:
        raise EditionError(f"{edition_id}.toml: field id: expected {edition_id!r}, got {edition.id!r}")
    return edition
