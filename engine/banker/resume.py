"""Resuming what the players were in the middle of: the banker's record and the landing after a jump.

What the engine knows is in the journal. What only the banker knows is kept in the banker's record
(:class:`engine.store.bankerrecord.BankerRecordStore`, saved after every input that changed it): its
state and gesture (a deed tapped, a PIN half typed, an auction won and waiting for the winner's card, a
payment a landing leaves due), the group of commands ✓ kept as one step for the menu's Undo, the card
just drawn that the screen shows,
the seats, names, tokens, options and edition of a game being registered, the timers and the recent
input ids. The record names the game and the journal's last event it was written after; on resume it
is used only if the journal has not moved on since (a power cut between a command's commit and the
record). Otherwise the banker follows the engine: the state of its phase, or the landing after a
Location or a move card, which is engine state of the Ultimate ruleset (``GameState.landing``, from
``LocationUsed`` and a move card's ``EventResolved``), so a paid jump is never forgotten.

Timers resume where they stood at the last record: the time of a power cut does not count.

A restart locks the banker menu: in the PIN prompt, the menu or the settings, the unit resumes in the
state under them, the digits typed and the settings staged are dropped, and so are the ids of the
inputs since the PIN prompt opened (they were undone: resent, they are applied again).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.banker.context import Context, Gesture
from engine.banker.pin import is_record
from engine.banker.plugins import view_part
from engine.banker.table import GESTURE_STATES, BankerState
from engine.banker.undoing import game_names, turn_number
from engine.banker.view import phase_state, wealth_history
from engine.editions import list_editions
from engine.events import AuctionEnded, AuctionWon, BidPlaced, CommandUndone, DeedDeclined, Event
from engine.game import Game

VERSION = 1
_TIMER_WRITE_S = 1.0  # a running timer is saved again once it moved on by this much


def resume_game(ctx: Context) -> tuple[bool, dict[str, Any] | None]:
    """Open the store's latest game into ``ctx`` (with its history and input ids) unless the banker's
    record, written after the journal's last change, says a new game was being registered; returns whether
    the record is current, and the record."""
    store = ctx.store
    ctx.latest_game = getattr(store, "latest_game", lambda: None)()
    record = getattr(store, "load_record", lambda: None)()
    ctx.durable = store.resume()
    events = ctx.durable.game.events if ctx.durable is not None else ()
    current = is_current(record, ctx.latest_game, events[-1].seq if events else 0)
    if current and record is not None and record.get("game") is None:
        if ctx.durable is not None and ctx.durable.game.state.phase not in ("over", "setup"):
            ctx.previous = ctx.durable  # the game New game left: setup still offers to go back to it
            ctx.previous_label = (game_names(ctx.durable.game), turn_number(ctx.durable.game))
        ctx.durable = None  # a new game was being registered (the menu's "new game")
    if ctx.durable is not None:
        past = store.events(ctx.durable)
        ctx.history = wealth_history(ctx.durable.game.edition, past)
        ctx.note(past)
        ctx.ids.use_game(ctx.durable.game_id, getattr(store, "input_ids", lambda g: {})(ctx.durable),
                         getattr(store, "input_firsts", lambda g: {})(ctx.durable))
    ctx.counting.restore((record or {}).get("count"), ctx.durable.game_id if ctx.durable is not None else None)
    if record is not None:
        locked = current and record.get("state") in {s.value for s in LOCKED}
        ctx.ids.load_record(record.get("locked_ids" if locked else "ids") or [])
    return current, record


LOCKED = frozenset({BankerState.PIN, BankerState.MENU, BankerState.SETTINGS})
"""States behind the PIN: a restart does not resume them (the menu locks again)."""


def record_of(ctx: Context, state: BankerState) -> dict[str, Any]:
    """The banker's record now."""
    if state not in LOCKED:
        ctx.menu_mark = None
    elif ctx.menu_mark is None:  # this input opened the PIN prompt: its id and later ones are dropped
        ctx.menu_mark = ctx.ids.count - (1 if ctx.input_id is not None else 0)
    latest = ctx.latest_game
    g = ctx.gesture
    now = ctx.clock()
    return {
        "v": VERSION, "game": ctx.durable.game_id if ctx.durable is not None else None,
        "seq": ctx.last_seq if ctx.durable is not None else 0, "latest": latest, "state": state.value,
        "gesture": {"deed": g.deed, "player": g.player, "action": g.action, "event_card": g.event_card,
                    "choices": list(g.choices), "pin": "", "settings": _staged(g.settings),
                    "steps": list(g.steps), "total": g.total, "partner": g.partner,
                    "deal_deeds": list(g.deal_deeds), "deal_cards": list(g.deal_cards),
                    "deal_cash": dict(g.deal_cash), "position": g.position, "due": dict(g.due),
                    "undo": g.undo, "undo_seq": g.undo_seq, "finish": g.finish},
        "landing": list(ctx.landing) if ctx.landing is not None else None,
        "undo_group": list(ctx.undo_group) if ctx.undo_group is not None else None,
        "drawn": list(ctx.drawn) if ctx.drawn is not None else None,
        "seats": list(ctx.seats), "names": {str(k): v for k, v in ctx.names.items()},
        "tokens": {str(k): v for k, v in ctx.tokens.items()}, "options": dict(ctx.options),
        "edition": ctx.edition_id, "elapsed": max(0.0, now - ctx.since),
        "left": None if ctx.deadline is None else ctx.deadline - now, "ids": ctx.ids.as_record(),
        "locked_ids": None if ctx.menu_mark is None else ctx.ids.as_record(ctx.menu_mark),
        "clock": now, "count": ctx.counting.as_record(),
    }


def needs_saving(new: dict[str, Any], old: dict[str, Any] | None) -> bool:
    """Whether ``new`` differs from the record last saved (a running timer: by a second or more)."""
    if old is None:
        return True
    if {k: v for k, v in new.items() if k not in ("elapsed", "left", "clock")} != \
            {k: v for k, v in old.items() if k not in ("elapsed", "left", "clock")}:
        return True
    timed = new["state"] in _TIMED or new["left"] is not None
    return timed and abs(float(new["clock"]) - float(old.get("clock", 0.0))) >= _TIMER_WRITE_S


_TIMED = frozenset(s.value for s in GESTURE_STATES)


def follows_journal(ctx: Context, state: BankerState) -> bool:
    """Whether the record need not be written after this input: it applied a command (so the record on
    disk is now older than the journal and ignored), had no id, and left the state a restart derives from
    the journal alone (the phase's, nothing in hand, no card drawn on the screen). Saves a commit per
    command."""
    if not ctx.events or ctx.input_id is not None or ctx.durable is None or ctx.seats or ctx.landing \
            or ctx.drawn is not None or ctx.counting.players:  # count it: the scores are in the record
        return False
    return state is phase_state(ctx.durable.game.state.phase) and ctx.gesture == Gesture() \
        and landing_state_of(ctx) is None


def landing_state_of(ctx: Context) -> tuple[str, int, int] | None:
    """The engine's landing of the last command's jump, if the last command was one."""
    game = ctx.game
    landing = getattr(game.state, "landing", None) if game is not None else None
    if game is None or landing is None or not game.events or landing[2] != game.events[-1].command:
        return None
    return landing  # type: ignore[no-any-return]


def is_current(record: dict[str, Any] | None, latest: int | None, last_seq: int) -> bool:
    """Whether ``record`` was written after the journal's last change (``latest`` game, its ``last_seq``)."""
    if record is None or record.get("v") != VERSION or record.get("latest") != latest:
        return False
    return record.get("game") is None or (record.get("game") == latest and record.get("seq") == last_seq)


def apply_current(ctx: Context, record: dict[str, Any] | None) -> BankerState | None:
    """:func:`apply_record` of a current ``record`` (None: none is), with the Count it question it kept on
    the screen again (engine/banker/counting.py): its input was held, not applied, so the journal is where
    the record says; the state to restore (None: bad, or no record)."""
    state = apply_record(ctx, record) if record is not None else None
    raw = (record or {}).get("count")
    if state is None or state in LOCKED or ctx.durable is None or record is None \
            or record.get("game") != ctx.durable.game_id:
        ctx.counting.pending = None
        return state
    ctx.counting.restore_pending(raw, float(record.get("clock", 0.0)), ctx.clock())
    return state


def apply_record(ctx: Context, record: dict[str, Any]) -> BankerState | None:
    """Put the record's setup choices, gesture and timers into ``ctx``; the state to restore (None: bad)."""
    try:
        state = BankerState(record["state"])
        g = record["gesture"]
        gesture = Gesture(deed=g["deed"], player=g["player"], action=g["action"], event_card=g["event_card"],
                          choices=list(g["choices"]), pin="", settings=_staged(dict(g["settings"])),
                          steps=[int(d) for d in g.get("steps", [])], total=int(g.get("total", 0)),
                          partner=g.get("partner"), deal_deeds=[int(d) for d in g.get("deal_deeds", [])],
                          deal_cards=[int(d) for d in g.get("deal_cards", [])],
                          deal_cash={str(k): int(v) for k, v in dict(g.get("deal_cash", {})).items()},
                          position=g.get("position"), due=_due(g.get("due")), undo=int(g.get("undo", 0)),
                          undo_seq=int(g.get("undo_seq", 0)), finish=str(g.get("finish", "")))
        seats = [int(s) for s in record["seats"]]
        names = {int(k): str(v) for k, v in record["names"].items()}
        tokens = {int(k): str(v) for k, v in record["tokens"].items()}
        options = dict(record["options"])
        landing = record["landing"]
        elapsed, left = float(record["elapsed"]), record["left"]
        edition = str(record["edition"])
        group = record.get("undo_group")
        undo_group = None if not group else (int(group[0]), int(group[1]))
        card = record.get("drawn")
        drawn = None if not card else (int(card[0]), str(card[1]), None if card[2] is None else int(card[2]))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    if (edition != ctx.store.edition.id and edition not in list_editions()) or not all(s >= 1 for s in seats):
        return None  # not a record this unit wrote
    ctx.seats, ctx.names, ctx.tokens, ctx.options = seats, names, tokens, options
    if record.get("game") is None:  # registering a game: its edition as chosen; else the next game's is the
        ctx.edition_id = edition    # one the unit was started with (--edition), as the journal alone gives
    if state in LOCKED:  # the menu locks again: the state under it, nothing typed or staged
        gesture, landing = Gesture(), None
        state = BankerState.SETUP if ctx.durable is None else phase_state(ctx.durable.game.state.phase)
    ctx.gesture, ctx.undo_group, ctx.drawn = gesture, undo_group, drawn
    ctx.landing = (str(landing[0]), int(landing[1])) if landing else None
    now = ctx.clock()
    ctx.since = now - elapsed
    ctx.deadline = None if left is None else now + float(left)
    return state


def after_command(ctx: Context, record: dict[str, Any] | None,
                  trigger: Callable[[str], object] | None = None) -> BankerState | None:
    """The state after a power cut between a command's commit and the record (None: the phase's state):
    the landing after a jump, the building with that building counted, a deal's offer open, the auction
    with the bidder who just bid still selected, or (with ``trigger``, the machine's) what the square of
    the last roll or card move asks for (:func:`settle_last_move`)."""
    landed = landing_state(ctx) or undone_landing(ctx)
    game = ctx.game
    if landed is None and record is not None and record.get("state") == BankerState.BUILD.value:
        building = still_building(ctx, record)
        if building is not None:
            return building
    if landed is None and record is not None and record.get("state") == BankerState.TRADE.value:
        offered = offer_open(ctx, record)
        if offered is not None:
            return offered
    if landed is None and game is not None and game.state.phase == "auction":
        # the bidder of the last bid (the record before it may be the auction's, or older: the landing's)
        player = last_bidder(game.events) or (
            (record.get("gesture") or {}).get("player") if record is not None and record.get("state") == "auction"
            else None) or game.state.auction.high_bidder  # (after the menu's Undo of a bid: the high bid's)
        ctx.gesture.player = player if isinstance(player, str) and player in game.state.specs else None
    elif landed is None and trigger is not None:
        settle_last_move(ctx, trigger)
    return landed


def offer_open(ctx: Context, record: dict[str, Any]) -> BankerState | None:
    """After a power cut between a deal's offer (its commit: the engine's open ``trade``) and the record: the
    deal as the record has it, its offer open (TRADE_OPEN), as the uninterrupted unit is. None when the
    record is not exactly one command behind or the engine holds no open offer."""
    game = ctx.game
    if game is None or getattr(game.state, "trade", None) is None or game.state.phase != "play" \
            or record.get("game") != getattr(ctx.durable, "game_id", None):
        return None
    last = _last_command(game.events)
    if not last or last[0].seq != record.get("seq", -1) + 1 or apply_record(ctx, record) is not BankerState.TRADE:
        return None
    ctx.drawn = None  # (a card shown until the next command: this offer)
    return BankerState.TRADE_OPEN


def _last_command(events: Sequence[Event]) -> list[Event]:
    if not events:
        return []
    last = events[-1].command
    out = []
    for event in reversed(events):
        if event.command != last:
            break
        out.append(event)
    return out[::-1]


def still_building(ctx: Context, record: dict[str, Any]) -> BankerState | None:
    """After a power cut between a building's commit and the record (building or selling, one building a
    tap): back in BUILD with the record's gesture and that building counted in it, as the uninterrupted
    unit is (the deed in ``steps``, its money in ``total``). None when the record is not exactly one
    command behind, or that command is not the record's player's on a deed."""
    game = ctx.game
    if game is None or game.state.phase != "play" or record.get("game") != getattr(ctx.durable, "game_id", None):
        return None
    last = _last_command(game.events)
    player = (record.get("gesture") or {}).get("player")
    deeds = [getattr(e, "deed", None) for e in last if getattr(e, "player", None) == player]
    if not last or last[0].seq != record.get("seq", -1) + 1 or not deeds or not isinstance(deeds[0], int):
        return None
    state = apply_record(ctx, record)
    if state is not BankerState.BUILD:
        return None
    ctx.drawn = None  # (a card shown until the next command: this building)
    before = Game.replay(game.edition, game.events[: len(game.events) - len(last)]).state.ledger.balances
    ctx.gesture.steps.append(deeds[0])
    ctx.gesture.total += abs(game.state.ledger.balances[player] - before.get(player, 0))
    return state


def last_bidder(events: Sequence[Event]) -> str | None:
    """The bidder of the journal's last command when it was a bid (the bidder the banker keeps selected
    after a bid: the record written before that bid may still name the one before)."""
    return next((e.player for e in _last_command(events) if isinstance(e, BidPlaced)), None)


def landing_state(ctx: Context) -> BankerState | None:
    """After a power cut right after a jump: BUY or DEED for the engine's landing, with its gesture."""
    game = ctx.game
    landing = getattr(game.state, "landing", None) if game is not None else None
    if game is None or landing is None or not game.events or game.state.phase != "play":
        return None
    player, deed, command = landing
    if command != game.events[-1].command:
        return None
    kinds = {type(e).__name__ for e in game.events if e.command == command}  # (as the ruleset's start_landing)
    ctx.gesture = (Gesture(player=player, deed=deed, undo=1, undo_seq=game.events[-1].seq) if "LocationUsed" in kinds
                   else Gesture(player=player, deed=deed, finish="error.finish_landing") if "EventResolved" in kinds
                   else Gesture(player=player, deed=deed))
    return BankerState.BUY if ctx.owner(deed) is None else BankerState.DEED


def undone_landing(ctx: Context) -> BankerState | None:
    """After a power cut right after the menu's Undo of a finished auction (engine/banker/undoing.py): BUY
    again for its lander, as the uninterrupted unit asks. The journal ends with the undos; the earliest
    command they undid declined the deed, and a command they undid closed its auction."""
    game = ctx.game
    if game is None or not game.events or game.state.phase != "play":
        return None
    events = game.events
    undone: set[int] = set()
    i = len(events) - 1
    while i >= 0:
        event = events[i]
        if not isinstance(event, CommandUndone):
            break
        undone.add(event.undone)
        i -= 1
    if not undone:
        return None
    first = min(undone)
    declined = next((e for e in events if e.command == first and isinstance(e, DeedDeclined)), None)
    closed = any(e.command in undone and isinstance(e, (AuctionWon, AuctionEnded)) for e in events)
    if declined is None or not closed or ctx.owner(declined.deed) is not None:
        return None
    ctx.gesture = Gesture(player=declined.player, deed=declined.deed)
    return BankerState.BUY


def settle_last_move(ctx: Context, trigger: Callable[[str], object]) -> None:
    """After a power cut between a command's commit and the record (a roll in option ``positions``, a card
    that moved the token): ``settle`` once more over that command's events, so the banker asks for what the
    token's square asks for (the deed to buy, the rent, the card, the tax) as it did right after it.
    Nothing is applied."""
    game = ctx.game
    if game is None or not game.events or game.state.phase != "play":
        return
    last = game.events[-1].command
    ctx.events = [e for e in game.events if e.command == last]
    resumed = view_part(game.edition.ruleset).resumed
    try:
        if resumed is not None:
            resumed(ctx)
        trigger("settle")
    finally:
        ctx.events = []


def _due(raw: object) -> dict[str, str | int]:
    """A payment due as the record keeps it (``Gesture.due``: the payer's player id, the amount in money
    units); anything else is no payment due."""
    if not isinstance(raw, dict):
        return {}
    return {str(k): v for k, v in raw.items() if isinstance(v, (str, int)) and not isinstance(v, bool)}


def _staged(settings: dict[str, Any]) -> dict[str, Any]:
    """The staged settings as the record keeps them: a PIN only as its record (engine/banker/pin.py), never
    as typed (one staged by an older version is dropped); nothing typed at the PIN prompt is kept either."""
    pin = settings.get("pin")
    if pin is None or pin == "" or is_record(pin):
        return dict(settings)
    return {k: v for k, v in settings.items() if k != "pin"}
