"""The input lines of ``boardbank headless`` (ui/cli/headless.py says the protocol): an optional input id
(``id=ID`` or a JSON object) and a step's text; a line that cannot be one raises :class:`BadLine` with why."""

from __future__ import annotations

import json

from engine.banker.inputs import valid_id

MAX_LINE_BYTES = 4096  # a longer input line is refused whole (the rest of it is skipped, never read in full)


class BadLine(ValueError):
    """An input line that cannot be a step (not UTF-8, a control character, a bad id or JSON form)."""


def _quote(text: str, limit: int = 40) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def decode_line(raw: bytes | str) -> tuple[str | None, str]:
    """An input line as (input id or None, the step's text); :class:`BadLine` says why it cannot be one."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_LINE_BYTES + 1:
            raise BadLine(f"the line is {len(raw)} bytes long; at most {MAX_LINE_BYTES}")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadLine(f"the line is not valid UTF-8 (byte {exc.start})") from None
    text = raw.rstrip("\r\n")
    input_id: str | None = None
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            raise BadLine(f"expected a JSON object such as {{\"id\": \"7\", \"line\": \"tap 04A1\"}}, got {_quote(text)}") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("line"), str) or set(obj) - {"id", "line"}:
            raise BadLine(f"a JSON line needs \"line\" (text) and may have \"id\", got {_quote(text)}")
        got = obj.get("id")
        if got is not None and (isinstance(got, bool) or not isinstance(got, str | int)):
            raise BadLine(f"an input id is text or a whole number, got {_quote(repr(got))}")
        input_id, text = (None if got is None else str(got)), obj["line"]
    else:
        words = text.split(None, 1)
        if words and words[0].startswith("id="):
            input_id, text = words[0][3:], words[1] if len(words) > 1 else ""
    if input_id is not None and not valid_id(input_id):
        raise BadLine(f"an input id is 1 to 64 printable ASCII characters without spaces, got {_quote(input_id)}")
    bad = next((ch for ch in text if (not ch.isprintable() and ch != "\t") or "\ud800" <= ch <= "\udfff"), None)
    if bad is not None:
        raise BadLine(f"the line holds the control character {bad!r}; expected text")
    return input_id, text


__all__ = ["MAX_LINE_BYTES", "BadLine", "decode_line"]
