"""The banker's setup callbacks: seating players by their bank cards, the table's choices, and StartGame.

While registering (state SETUP) the table may answer (``choose()``, trigger ``answer``):

- ``name=SEAT:TEXT``: the name of a seated player (1..24 printable characters once trimmed; unique at the
  table, compared without case);
- ``token=SEAT:COLOUR``: a token colour from :data:`TOKEN_PALETTE`, unique at the table;
- ``option=NAME:VALUE``: a rule option (names of :class:`engine.options.Options`; ``VALUE`` a whole number
  or ``on``/``off``), checked with ``Options.from_mapping`` over the edition's defaults;
- ``edition=ID``: one of :func:`engine.editions.list_editions` (the chosen options are kept; the edition's
  own option defaults apply under them).

A bad answer is refused with an error key and changes nothing. ✓ puts all of it in the ``StartGame``
command: ``PlayerSpec(id, name, token)`` per seat, the options chosen, and the edition passed to the
store's ``new_game``. Amounts in options are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from typing import Any

from engine import commands as c
from engine.banker.context import BankerCore, Refusal, input_value
from engine.banker.view import TOKENS, player_id
from engine.banker.viewmodel import Cue
from engine.editions import Edition, list_editions, load_edition
from engine.errors import OptionError
from engine.game import Game
from engine.options import parse_option_text
from engine.rulesets.ultimate.options import Options

TOKEN_PALETTE: tuple[str, ...] = TOKENS
"""The token colours a player may take (one per player at a table); seat ``n`` defaults to the ``n``-th."""

NAME_MAX = 24
"""Longest player name, in characters (after trimming)."""


def default_name(seat: int) -> str:
    """The untranslated default name of a seat (the UI shows it translated)."""
    return f"Player {seat}"


def parse_setup_answer(text: str) -> tuple[str, str, str] | None:
    """``"name=2:Ana"`` -> ``("name", "2", "Ana")``; ``"edition=ultimate-us"`` -> ``("edition", "", "...")``.

    None when ``text`` is not one of the setup answers (``name``, ``token``, ``option``, ``edition``).
    """
    kind, sep, rest = text.partition("=")
    kind = kind.strip().lower()
    if not sep or kind not in ("name", "token", "option", "edition"):
        return None
    if kind == "edition":
        return kind, "", rest.strip()
    key, sep, value = rest.partition(":")
    if not sep or not key.strip():
        return None
    return kind, key.strip(), value


class BankerSetup(BankerCore):
    """Setup: seats, the table's choices (names, tokens, options, edition) and the start of the game."""

    # -- what the table has chosen so far ---------------------------------------------------------------
    @property
    def setup_edition(self) -> Edition:
        """The edition the next game will use (``--edition`` until the table chooses another)."""
        chosen = self._edition_id
        if chosen == self._store.edition.id:
            return self._store.edition
        if self._edition_cache is None or self._edition_cache.id != chosen:
            self._edition_cache = load_edition(chosen)
        return self._edition_cache

    @property
    def chosen_options(self) -> dict[str, object]:
        """The options the next game's ``StartGame`` carries (``--option``, then the table's changes)."""
        return dict(self._options)

    def setup_options(self) -> Options:
        """The options in force for the next game: defaults, the edition's, then the chosen ones."""
        return Options.from_mapping({**self.setup_edition.options, **self._options})

    def seat_name(self, seat: int) -> str:
        """The name of a seated player (the default ``Player N`` until the table names them)."""
        return self._names.get(seat, default_name(seat))

    def seat_token(self, seat: int) -> str:
        """The token colour of a seated player."""
        return self._tokens.get(seat, TOKEN_PALETTE[(seat - 1) % len(TOKEN_PALETTE)])

    # -- seating ----------------------------------------------------------------------------------------------
    def can_seat(self, event: Any) -> bool:
        seat = input_value(event)
        limit = self.setup_options().max_players
        if seat is not None and int(seat) in self._seats:
            self._refusal = Refusal("error.already_seated", {"seat": int(seat)})
            return False
        if len(self._seats) >= limit:
            self._refusal = Refusal("error.too_many_players", {"max": limit})
            return False
        return True

    def do_seat(self, event: Any) -> None:
        seat = int(input_value(event))
        self._seats.append(seat)
        taken = {self._tokens[s] for s in self._seats if s in self._tokens}
        preferred = TOKEN_PALETTE[(seat - 1) % len(TOKEN_PALETTE)]
        free = [t for t in TOKEN_PALETTE if t not in taken]
        self._tokens[seat] = preferred if preferred not in taken else (free[0] if free else preferred)

    def do_clear_seats(self, event: Any) -> None:
        self._seats.clear()
        self._names.clear()
        self._tokens.clear()

    # -- the table's answers ----------------------------------------------------------------------------------
    def setup_answer_valid(self, event: Any) -> bool:
        """Condition of ``answer`` in SETUP: a well-formed, acceptable choice (the refusal says why not)."""
        value = input_value(event)
        if value is None:
            return self._probing
        parsed = parse_setup_answer(str(value))
        if parsed is None:
            self._refusal = Refusal("error.bad_setup", {"answer": str(value)})
            return False
        kind, key, raw = parsed
        refusal = getattr(self, f"_check_{kind}")(key, raw)
        if refusal is not None:
            self._refusal = refusal
            return False
        return True

    def do_setup_answer(self, event: Any) -> None:
        parsed = parse_setup_answer(str(input_value(event)))
        assert parsed is not None
        kind, key, raw = parsed
        if kind == "name":
            self._names[int(key)] = raw.strip()
        elif kind == "token":
            self._tokens[int(key)] = raw.strip().lower()
        elif kind == "option":
            name, value = parse_option_text(f"{key}={raw}")
            self._options[name] = value
        else:
            self._edition_id = raw

    def _seated(self, key: str) -> int | Refusal:
        if not key.isdigit() or int(key) not in self._seats:
            return Refusal("error.not_seated", {"seat": key})
        return int(key)

    def _check_name(self, key: str, raw: str) -> Refusal | None:
        seat = self._seated(key)
        if isinstance(seat, Refusal):
            return seat
        name = raw.strip()
        if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
            return Refusal("error.bad_name", {"name": raw, "max": NAME_MAX})
        for other in self._seats:
            if other != seat and self.seat_name(other).casefold() == name.casefold():
                return Refusal("error.name_taken", {"name": name, "seat": other})
        return None

    def _check_token(self, key: str, raw: str) -> Refusal | None:
        seat = self._seated(key)
        if isinstance(seat, Refusal):
            return seat
        token = raw.strip().lower()
        if token not in TOKEN_PALETTE:
            return Refusal("error.bad_token", {"token": raw, "expected": ", ".join(TOKEN_PALETTE)})
        for other in self._seats:
            if other != seat and self.seat_token(other) == token:
                return Refusal("error.token_taken", {"token": token, "seat": other})
        return None

    def _check_option(self, key: str, raw: str) -> Refusal | None:
        try:
            name, value = parse_option_text(f"{key}={raw}")
            opts = Options.from_mapping({**self.setup_edition.options, **self._options, name: value})
        except OptionError as exc:
            return Refusal("error.bad_option", {"option": key, "reason": str(exc)})
        if opts.max_players < len(self._seats):
            return Refusal("error.bad_option", {
                "option": key, "reason": f"option max_players expects at least the {len(self._seats)} seated "
                                         f"players, got {opts.max_players}"})
        return None

    def _check_edition(self, key: str, raw: str) -> Refusal | None:
        editions = list_editions()
        if raw not in editions:
            return Refusal("error.bad_edition", {"edition": raw, "expected": ", ".join(editions)})
        try:
            Options.from_mapping({**load_edition(raw).options, **self._options})
        except OptionError as exc:
            return Refusal("error.bad_option", {"option": "edition", "reason": str(exc)})
        return None

    # -- starting -------------------------------------------------------------------------------------------------
    def _start_command(self) -> c.StartGame:
        specs = tuple(c.PlayerSpec(player_id(s), self.seat_name(s), self.seat_token(s)) for s in sorted(self._seats))
        return c.StartGame(specs, dict(self._options), 0)

    def can_start(self, event: Any) -> bool:
        if len(self._seats) < 2:
            self._refusal = Refusal("error.need_players", {"min": 2, "seated": len(self._seats)})
            return False
        names = [self.seat_name(s).casefold() for s in self._seats]
        if len(set(names)) != len(names):
            dup = next(self.seat_name(s) for s in self._seats if names.count(self.seat_name(s).casefold()) > 1)
            self._refusal = Refusal("error.name_taken", {"name": dup, "seat": ""})
            return False
        reason = Game(self.setup_edition).check(self._start_command())
        if reason is not None:
            self._refusal = Refusal("error.rule", {"reason": reason, "command": "StartGame"})
            return False
        return True

    def do_start(self, event: Any) -> None:
        cmd = self._start_command()
        self._durable = self._store.new_game(self.setup_edition.id, cmd.players, cmd.options,
                                             self._seed_source())
        started = self._store.events(self._durable)
        self._events.extend(started)
        self._note(started)
        self._cues.append(Cue.OK)
        self.do_clear_seats(event)
        self._history = {}
        state = self._durable.game.state
        for pid in state.order:
            self._history[pid] = [state.wealth(pid)]

    def do_new_game(self, event: Any) -> None:
        self._durable = None
        self._last_tx = None
        self._last_seq = 0
        self.do_clear_seats(event)
        self._history = {}
        self.forget_gesture(event)
