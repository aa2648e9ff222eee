"""A card refusal (:func:`ui.cardrecord.resolve`) or a sticker-writing refusal as a sentence in one language.

The keys and parameters are the ones the touch screen shows through its presenter (ui/touch/screens/
present.py renders them the same way): a ``*_key`` parameter is itself a catalog key, said in the language
and given to the sentence under its name without ``_key`` (``kind_key`` -> ``{kind}``); ``edition`` is an
edition id, said by its ``edition.<id>`` entry; ``reason_key`` is a sentence of its own, filled with every
other parameter and given as ``{reason}``. Every word comes from the catalogs, never an English fragment.
"""

from __future__ import annotations

from collections.abc import Iterable

from ui.i18n import Translator


def render_params(params: Iterable[tuple[str, object]], tr: Translator) -> dict[str, str]:
    """``params`` as display strings in ``tr``'s language (see the module docstring)."""
    pairs = tuple(params)
    out: dict[str, str] = {}
    for name, value in pairs:
        if name == "reason_key":
            continue
        if name.endswith("_key") and isinstance(value, str):
            out[name.removesuffix("_key")] = out[name] = tr(value)
        elif name == "edition" and isinstance(value, str) and tr.has(f"edition.{value}", "en"):
            out[name] = tr(f"edition.{value}")
        else:
            out[name] = str(value)
    reason_key = dict(pairs).get("reason_key")
    if isinstance(reason_key, str):
        out["reason"] = tr(reason_key, **out)
    return out


def render(key: str, params: Iterable[tuple[str, object]], lang: str) -> str:
    """The sentence of ``key`` with ``params`` in ``lang`` (en, ru, ro, ja)."""
    tr = Translator(lang)
    return tr(key, **render_params(params, tr))
