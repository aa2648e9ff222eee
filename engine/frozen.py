"""A quicker ``__init__`` for the events: frozen slotted dataclasses, made thousands of times a second.

The ``__init__`` that ``dataclasses`` writes for a frozen class sets each field with
``object.__setattr__(self, name, value)`` (a name lookup and a generic call per field); :func:`quicken`
gives such a class an ``__init__`` that calls each slot's own setter instead, about 40 % quicker for an
event of four fields. Nothing else changes: the same parameters, the same fields, still frozen (assigning
a field afterwards raises ``FrozenInstanceError``), equal and hashed as before. A class it cannot treat
alike (defaults, ``__post_init__``, no slots, or compiled by mypyc, which already sets slots natively) is
left as it is.

Quicker still, for the engine's own hot path (``Game.emit``): :data:`MAKERS` maps each such event class
(its first fields ``seq`` and ``command``) to a *maker*, a function that makes an instance of a plain
slotted class with the same slots, assigns them as an ordinary object does (one store per field, no
call; the fields after ``command`` unpacked from one tuple, as ``emit`` receives them) and turns it into
an instance of the frozen class (``__class__`` assignment, allowed between classes of the same layout). ``MAKERS[cls](seq, command,
fields)`` returns exactly what ``cls(seq, command, *fields)`` returns (same type, fields, equality, hash,
repr; frozen afterwards), about twice as quick for an event of six fields; a wrong number of fields raises
(``ValueError``, ``TypeError`` for an event of no further fields).
"""

from __future__ import annotations

import dataclasses
import keyword
from collections.abc import Callable, Iterable
from types import FunctionType
from typing import Any

MAKERS: dict[type, Callable[..., Any]] = {}
"""Each event class :func:`quicken` treated -> its maker (see the module)."""

_TWINS: dict[type, type | None] = {}


def twin(cls: type) -> type | None:
    """A plain slotted class with the very slots of ``cls`` (a frozen slotted dataclass), or None when
    ``cls`` is not one whose instance may be built as a twin and then become a ``cls``; made once per class.

    Code that makes many ``cls`` (:data:`MAKERS`, the journal's record builders in engine/records.py)
    fills a twin's slots by plain assignment (a frozen class refuses it: its ``__init__`` sets each field
    with ``object.__setattr__``, about three times slower) and then sets the instance's ``__class__`` to
    ``cls``, which Python allows only between classes of the same layout: the result is exactly the object
    ``cls(...)`` makes (its type, its fields, equal and hashed alike, frozen afterwards). Not for a class
    with a ``__post_init__`` (it would not run), a base other than ``object``, fields that are not its
    slots, or a class compiled by mypyc (its fields are native attributes, its constructor quick already)."""
    if cls in _TWINS:
        return _TWINS[cls]
    found: type | None = None
    if dataclasses.is_dataclass(cls):
        slots = cls.__dict__.get("__slots__")
        names = tuple(f.name for f in dataclasses.fields(cls))
        if (cls.__bases__ == (object,) and not hasattr(cls, "__post_init__") and slots == names
                and all(type(cls.__dict__.get(n)).__name__ == "member_descriptor" for n in names)):
            candidate = type(f"{cls.__name__}Twin", (), {"__slots__": slots, "__module__": cls.__module__,
                                                         "__doc__": f"A {cls.__name__} being made."})
            try:
                probe: object = object.__new__(candidate)
                probe.__class__ = cls  # the same layout, or TypeError
                found = candidate
            except TypeError:
                pass
    _TWINS[cls] = found
    return found


def quicken(classes: Iterable[type]) -> None:
    """Give each frozen slotted dataclass of ``classes`` the quicker ``__init__`` (see the module)."""
    for cls in classes:
        init = cls.__dict__.get("__init__")
        params = cls.__dict__.get("__dataclass_params__")
        if type(init) is not FunctionType or params is None or not params.frozen or hasattr(cls, "__post_init__"):
            continue
        fields = dataclasses.fields(cls)
        names = [f.name for f in fields]
        if (any(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
                or not f.init or f.kw_only for f in fields)
                or any(keyword.iskeyword(n) or n.startswith("_") for n in names)
                or any(type(cls.__dict__.get(n)).__name__ != "member_descriptor" for n in names)):
            continue
        setters = ", ".join(f"_set_{n}=_setters[{i}]" for i, n in enumerate(names))
        body = "".join(f"    _set_{n}(self, {n})\n" for n in names) or "    pass\n"
        source = f"def __init__(self, {', '.join(names)}{', ' if names else ''}*, {setters}):\n{body}"
        namespace: dict[str, Any] = {"_setters": [cls.__dict__[n].__set__ for n in names]}
        exec(source, namespace)  # the source is made above from the field names alone
        quick = namespace["__init__"]
        quick.__qualname__ = f"{cls.__qualname__}.__init__"
        quick.__module__ = cls.__module__
        quick.__doc__ = init.__doc__
        cls.__init__ = quick  # type: ignore[misc]
        maker = _maker(cls, names)
        if maker is not None:
            MAKERS[cls] = maker


def _maker(cls: type, names: list[str]) -> Callable[..., Any] | None:
    """The maker of ``cls`` (see the module), or None when its layout is not the plain one it needs (or its
    first fields are not ``seq`` and ``command``)."""
    blank = twin(cls)
    if blank is None or names[:2] != ["seq", "command"]:
        return None
    rest = names[2:]
    body = "    self = _new(_Maker)\n    self.seq = seq\n    self.command = command\n"
    if rest:
        body += f"    {', '.join(f'self.{n}' for n in rest)}{',' if len(rest) == 1 else ''} = fields\n"
    else:
        body += "    if fields:\n        raise TypeError(f'{_frozen.__name__} takes no fields after seq and command')\n"
    body += "    self.__class__ = _frozen\n    return self\n"
    namespace: dict[str, Any] = {"_frozen": cls, "_Maker": blank, "_new": object.__new__}
    exec(f"def make(seq, command, fields):\n{body}", namespace)  # made from the field names
    maker: Callable[..., Any] = namespace["make"]
    maker.__qualname__ = f"{cls.__qualname__}.make"
    maker.__module__ = cls.__module__
    values = list(range(len(names)))
    try:  # a layout __class__ assignment refuses: no maker
        probe = maker(values[0], values[1], tuple(values[2:]))
    except TypeError:
        return None
    if type(probe) is not cls or [getattr(probe, n) for n in names] != values:
        return None
    return maker
