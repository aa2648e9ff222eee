"""JSON records of commands and events, for the journal, exports and headless output.

:func:`event_to_record` / :func:`event_from_record` (and the same pair for commands) convert to and from
JSON-safe dicts with a ``"type"`` key; tuples become lists and come back as tuples, so they round-trip
exactly. Decoding looks the type up among the shared classes (engine/commands.py, engine/events.py) and
the ruleset's own, found through the ruleset registry (engine/rulesets/registry.py).
"""

from __future__ import annotations

import ast
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields, is_dataclass
from functools import cache
from pathlib import Path

from engine import commands as _commands
from engine import events as _events
from engine.commands import CORE_COMMANDS, Command
from engine.errors import EditionError, RecordError
from engine.events import CORE_EVENTS, Event
from engine.frozen import twin as frozen_twin

_SHARED_NAMES: dict[str, object] = {**vars(_commands), **vars(_events), "Mapping": Mapping}

# ----------------------------------------------------------------------------------------------------
# JSON records

_Decoder = Callable[[object, str], object]
_ENCODERS: dict[type, tuple[tuple[str, bool], ...]] = {}
_DECODERS: dict[type, tuple[tuple[str, type | None, _Decoder], ...]] = {}


_AS_IS = frozenset({int, str, bool, float, type(None), list})
"""Exact classes :func:`_encode` hands back as they are (what its general path does with them), found by one
set look-up: a field that may be None or a number, the usual deep field, then costs no ABC check."""


def _encode(value: object) -> object:
    if type(value) in _AS_IS:
        return value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if type(value) is dict:  # before the dataclass and ABC checks, which an exact dict passes through
        return {str(k): _encode(v) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


def _decoder(tp: object) -> _Decoder:
    """A function turning a JSON value back into ``tp`` (raising RecordError with the field's path)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is int or tp is str or tp is bool:
        want = typing.cast(type, tp)

        def prim(v: object, where: str) -> object:
            if not isinstance(v, want) or (want is int and isinstance(v, bool)):
                raise RecordError(f"{where}: expected {want.__name__}, got {v!r}")
            return v

        return prim
    if tp is object:
        return lambda v, where: v
    if origin is tuple:
        item = _decoder(args[0])
        exact = args[0] if args[0] in _PRIMITIVES else None

        def tup(v: object, where: str) -> object:
            if not isinstance(v, list | tuple):
                raise RecordError(f"{where}: expected a list, got {v!r}")
            if exact is not None and all(x.__class__ is exact for x in v):  # the usual case: no per-item call
                return tuple(v)
            return tuple(item(x, f"{where}[{i}]") for i, x in enumerate(v))

        return tup
    if origin in (Mapping, dict, typing.Mapping) or (origin is not None and origin.__name__ == "Mapping"):
        val = _decoder(args[1])

        def mapping(v: object, where: str) -> object:
            if not isinstance(v, dict):
                raise RecordError(f"{where}: expected an object, got {v!r}")
            return {str(k): val(x, f"{where}.{k}") for k, x in v.items()}

        return mapping
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        allows_none = len(options) != len(args)
        decs = [_decoder(a) for a in options]

        def union(v: object, where: str) -> object:
            if v is None and allows_none:
                return None
            for dec in decs:
                try:
                    return dec(v, where)
                except RecordError:
                    continue
            raise RecordError(f"{where}: expected {tp}, got {v!r}")

        return union
    if isinstance(tp, type) and is_dataclass(tp):
        return lambda v, where: _from_fields(tp, v, where)
    raise TypeError(f"no record decoder for {tp!r}")


_Plan = tuple[tuple[str, type | None, _Decoder], ...]  # field, its primitive type (or None), its decoder
_PRIMITIVES = (int, str, bool)


def _source_annotations(module_file: str, name: str) -> dict[str, str] | None:
    """The annotations of class ``name`` as written in the Python source beside ``module_file`` (a compiled
    module ``x.cpython-311-....so`` has its ``x.py`` next to it), or None if there is none."""
    path = Path(module_file)
    source = path.with_name(path.name.split(".", 1)[0] + ".py")
    if not source.is_file():
        return None
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return {item.target.id: ast.unparse(item.annotation) for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
    return None


def _hints(cls: type) -> dict[str, typing.Any]:
    """The field types of record class ``cls``. A class compiled with mypyc (scripts/build_fast.py) keeps
    only erased runtime types (``tuple`` for ``tuple[int, ...]``), so for a compiled module the annotations
    are read from its Python source, which the build keeps beside it."""
    module = sys.modules[cls.__module__]
    namespace = {**_SHARED_NAMES, **vars(module)}
    module_file = getattr(module, "__file__", None) or ""
    if not module_file.endswith(".py"):
        written = _source_annotations(module_file, cls.__name__)
        if written is not None and all(f.name in written for f in fields(cls)):
            holder = type(cls.__name__, (), {"__annotations__": written, "__module__": cls.__module__})
            return typing.get_type_hints(holder, globalns=namespace)
    return typing.get_type_hints(cls, globalns=namespace)


def _plan(cls: type) -> _Plan:
    """How to decode each field of ``cls`` (computed once per class)."""
    plan = _DECODERS.get(cls)
    if plan is None:
        hints = _hints(cls)
        plan = tuple(
            (f.name, hints[f.name] if hints[f.name] in _PRIMITIVES else None, _decoder(hints[f.name]))
            for f in fields(cls)
        )
        _DECODERS[cls] = plan
    return plan


def _from_fields(cls: type, data: object, where: str) -> object:
    if not isinstance(data, dict):
        raise RecordError(f"{where}: expected an object for {cls.__name__}, got {data!r}")
    values: list[object] = []
    for name, prim, dec in _plan(cls):
        try:
            v = data[name]
        except KeyError:
            raise RecordError(f"{where}: {cls.__name__} record lacks field {name!r}: {data!r}") from None
        if prim is not None:
            if type(v) is not prim:  # exact: a bool is not an int here
                raise RecordError(f"{where}.{name}: expected {prim.__name__}, got {v!r}")
            values.append(v)
        else:
            values.append(dec(v, f"{where}.{name}"))
    return cls(*values)


def _encoder(cls: type) -> tuple[tuple[str, bool], ...]:
    """(field, needs deep encoding) per field of ``cls`` (computed once per class)."""
    plan = _ENCODERS.get(cls)
    if plan is None:
        plan = tuple((name, prim is None) for name, prim, _ in _plan(cls))
        _ENCODERS[cls] = plan
    return plan


_RECORDERS: dict[type, Callable[[object], dict[str, object]]] = {}


def _to_record(obj: object) -> dict[str, object]:
    recorder = _RECORDERS.get(type(obj))
    if recorder is None:
        recorder = _RECORDERS[type(obj)] = _recorder(type(obj))
    return recorder(obj)


def _recorder_of(cls: type) -> Callable[[object], dict[str, object]]:
    recorder = _RECORDERS[cls] = _recorder(cls)
    return recorder


def _recorder(cls: type) -> Callable[[object], dict[str, object]]:
    """The record maker of ``cls``, compiled once per class: one dict display, ``"type"`` first, then the
    fields in their order (deep ones through ``_encode``), as the loop over :func:`_encoder` made it."""
    plan = _encoder(cls)
    if not all(name.isidentifier() for name, _ in plan):  # not expected of a dataclass; the loop takes it

        def loop(obj: object) -> dict[str, object]:
            record: dict[str, object] = {"type": cls.__name__}
            for name, deep in plan:
                value = getattr(obj, name)
                record[name] = _encode(value) if deep else value
            return record

        return loop
    items = "".join(f", {name!r}: " + (f"_encode(o.{name})" if deep else f"o.{name}") for name, deep in plan)
    namespace: dict[str, object] = {"_encode": _encode, "_name": cls.__name__}
    exec(f"def record(o):\n    return {{'type': _name{items}}}\n", namespace)  # made from the field names
    return typing.cast(Callable[[object], dict[str, object]], namespace["record"])


def _from_record(record: Mapping[str, object], table: dict[str, type], kind: str) -> object:
    if not isinstance(record, Mapping):
        raise RecordError(f"expected a {kind} record (an object with 'type'), got {record!r}")
    name = record.get("type")
    cls = table.get(name) if isinstance(name, str) else None
    if cls is None:
        raise RecordError(f"unknown {kind} type {name!r}; expected one of {sorted(table)}")
    return _from_fields(cls, record if isinstance(record, dict) else dict(record), name)  # type: ignore[arg-type]


class _Slow(Exception):
    """A record the compiled builder does not take as it is: the general decoder then decides (and names
    what is wrong)."""


def _builder_source(cls: type, env: dict[str, object], checked: bool) -> str:
    """The text of ``build(d)`` (``checked``: ``build(d, s, n)``, which also refuses a record whose ``seq``
    is not ``s`` or whose ``command`` is not ``n``): see :func:`_builder`."""
    twin = frozen_twin(cls)
    lines, checks, args = [], [], []
    if twin is not None:
        env["_twin"], env["_new"] = twin, object.__new__
        lines.append("    o = _new(_twin)")
    for i, (name, prim, dec) in enumerate(_plan(cls)):
        if prim is str:
            env[f"p{i}"], env["_intern"] = prim, sys.intern
            value = f"_intern(d[{name!r}])"
            checks.append(f"v{i}.__class__ is not p{i}")
        elif prim is not None:
            env[f"p{i}"] = prim
            value = f"d[{name!r}]"
            checks.append(f"v{i}.__class__ is not p{i}")
        else:
            env[f"d{i}"] = dec
            value = f"d{i}(d[{name!r}], {cls.__name__ + '.' + name!r})"
        lines.append(f"    o.{name} = v{i} = {value}" if twin is not None else f"    v{i} = {value}")
        args.append(f"v{i}")
    if checked:
        if [name for name, _, _ in _plan(cls)[:2]] != ["seq", "command"]:
            raise TypeError(f"{cls.__name__}: an event's first fields are seq and command")
        checks += ["v0 != s", "v1 != n"]
    if checks:
        lines.append(f"    if {' or '.join(checks)}:\n        raise _Slow")
    if twin is not None:
        lines.append("    o.__class__ = _cls\n    return o")
    else:
        lines.append(f"    return _cls({', '.join(args)})")
    return f"def build(d{', s, n' if checked else ''}):\n" + "\n".join(lines) + "\n"


def _builder(cls: type, checked: bool = False) -> Callable[..., object]:
    """A constructor of ``cls`` from its record compiled once per class: the fields read by name, the
    primitive ones checked by their exact class (as :func:`_from_fields` does), the others decoded by their
    decoder; it raises (anything) where :func:`_from_fields` might refuse, so the caller then asks it. The
    object is built as a twin of ``cls`` (:func:`engine.frozen.twin`) where it can be, else by ``cls(...)``. Its text fields
    are interned: a journal's thousands of ``"p1"`` become one string (a 100,000-event game loads in 14 MiB
    instead of 23), equal to what was parsed."""
    env: dict[str, object] = {"_cls": cls, "_Slow": _Slow}
    source = _builder_source(cls, env, checked)
    exec(compile(source, f"<record builder {cls.__name__}>", "exec"), env)  # our own text, from the fields
    return typing.cast(Callable[..., object], env["build"])


@cache
def event_builders(ruleset: str = "ultimate") -> dict[str, Callable[[dict[str, object]], object]]:
    """Event type name -> its compiled constructor (see :func:`_builder`), for ``ruleset``: for long runs
    (a journal's load). A constructor builds exactly the event :func:`event_from_record` would; where that
    one could refuse the record, the constructor raises (anything), and the caller asks it what is wrong."""
    return {name: _builder(cls) for name, cls in record_types(ruleset)[0].items()}


@cache
def event_loaders(ruleset: str = "ultimate") -> dict[str, Callable[[dict[str, object], int, int], object]]:
    """Event type name -> ``build(record, seq, command)``: the constructor of :func:`event_builders` that
    also raises when the record's ``seq`` is not ``seq`` or its ``command`` not ``command`` (a journal's
    load checks them on every event)."""
    return {name: _builder(cls, checked=True) for name, cls in record_types(ruleset)[0].items()}


@cache
def event_decoder(ruleset: str = "ultimate") -> Callable[[dict[str, object]], Event]:
    """A decoder of event records of ``ruleset``: the same events and the same :class:`RecordError` as
    :func:`event_from_record`, through the compiled constructors of :func:`event_builders`."""
    builders = event_builders(ruleset)

    def decode(record: dict[str, object]) -> Event:
        try:
            return typing.cast(Event, builders[record["type"]](record))  # type: ignore[index]
        except Exception:  # anything unusual: the general decoder's answer (or its error)
            return event_from_record(record, ruleset)

    return decode


def event_to_record(event: Event) -> dict[str, object]:
    """The event as a JSON-safe dict with its class name under ``"type"``."""
    return _to_record(event)


def event_records(events: Iterable[Event]) -> list[dict[str, object]]:
    """``[event_to_record(e) for e in events]``, each event's record maker looked up in place (no two calls
    per event on the way to it)."""
    get = _RECORDERS.get
    return [(get(type(e)) or _recorder_of(type(e)))(e) for e in events]


def event_from_record(record: Mapping[str, object], ruleset: str = "ultimate") -> Event:
    """The event a record of :func:`event_to_record` describes, among the shared events and ``ruleset``'s
    own; raise :class:`RecordError` if malformed or of a type that ruleset does not know."""
    return typing.cast(Event, _from_record(record, record_types(ruleset)[0], "event"))


def command_to_record(command: Command) -> dict[str, object]:
    """The command as a JSON-safe dict with its class name under ``"type"``."""
    return _to_record(command)


def command_from_record(record: Mapping[str, object], ruleset: str = "ultimate") -> Command:
    """The command a record of :func:`command_to_record` describes (shared commands and ``ruleset``'s own);
    raise :class:`RecordError` if malformed."""
    return _from_record(record, record_types(ruleset)[1], "command")


@cache
def record_types(ruleset: str) -> tuple[dict[str, type], dict[str, type]]:
    """(event types, command types) by class name: the shared ones and ``ruleset``'s own."""
    from engine.rulesets.registry import get_ruleset  # the registry imports rulesets lazily too

    try:
        rs = get_ruleset(ruleset)
    except EditionError as exc:
        raise RecordError(str(exc)) from None
    events = {cls.__name__: cls for cls in (*CORE_EVENTS, *rs.events)}
    commands = {cls.__name__: cls for cls in (*CORE_COMMANDS, *rs.commands)}
    return events, commands
