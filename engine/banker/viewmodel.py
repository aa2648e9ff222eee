"""The view-model: everything the screen shows, as one immutable snapshot.

The banker (engine/banker/machine.py) builds a :class:`ViewModel` after every input; the UI only displays it
and sends back the triggers listed in :attr:`ViewModel.actions`. All amounts are ``int`` in the
edition's money unit (M for ultimate-uk/us, thousands of rubles for ultimate-ru). User-facing text is
never stored here: prompts, names of events and cues are translation keys plus parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Cue(StrEnum):
    """A sound (and reader beep/LED) the unit plays."""

    TAP = "tap"  # a card was read
    OK = "ok"  # a gesture completed
    ERROR = "err"  # a mistake: wrong card, illegal action
    GO = "go"  # salary for passing GO
    CASH = "cash"  # money moved between players


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the unit asks for next: a translation key (e.g. ``"prompt.deed"``) and its parameters."""

    key: str
    params: tuple[tuple[str, str | int], ...] = ()

    def as_dict(self) -> dict[str, str | int]:
        return dict(self.params)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player as shown: ``balance`` and ``wealth`` (cash + printed deed prices) in money units."""

    id: str
    name: str
    token: str  # token colour name, e.g. "red"
    balance: int
    wealth: int
    in_jail: bool = False
    bankrupt: bool = False
    deeds: tuple[int, ...] = ()  # deed numbers owned
    position: int | None = None  # board position 0.. of the token when the unit keeps the tokens, else None


@dataclass(frozen=True, slots=True)
class SpaceView:
    """One board space; deed fields are set only for deed spaces. ``rent`` is the rent at ``level``."""

    position: int
    kind: str  # "go", "deed", "event", "location", "jail", "parking", "go_to_jail", ...
    name: str  # the edition's own name in its language
    deed: int | None = None
    colour: str | None = None
    price: int | None = None
    owner: str | None = None
    level: int | None = None
    rent: int | None = None


@dataclass(frozen=True, slots=True)
class TransactionView:
    """The last money movement, for the animation: ``amount`` from ``payer`` to ``payee`` (None = Bank)."""

    seq: int
    kind: str  # event type, e.g. "RentPaid"
    amount: int
    payer: str | None
    payee: str | None


@dataclass(frozen=True, slots=True)
class ChoiceView:
    """An answer the player may give to an event card or a question: ``value`` is sent back as-is."""

    value: str
    label_key: str
    params: tuple[tuple[str, str | int], ...] = ()


@dataclass(frozen=True, slots=True)
class EventCardView:
    """An event card being resolved: ``card_key`` names it (translation key), ``choices`` may be empty."""

    card_id: int
    card_key: str
    text_key: str
    choices: tuple[ChoiceView, ...] = ()


@dataclass(frozen=True, slots=True)
class AuctionView:
    """A running auction of ``deed``; ``seconds_left`` of the countdown (from the injected clock)."""

    deed: int
    high_bid: int
    high_bidder: str | None
    bidders: tuple[str, ...]
    seconds_left: float


@dataclass(frozen=True, slots=True)
class DebtView:
    """A debt being settled by returning deeds: ``due`` still owed, in money units."""

    debtor: str
    creditor: str | None  # None = the Bank
    due: int
    short: int = 0  # money units still missing beyond the debtor's cash (what returning deeds must raise)


@dataclass(frozen=True, slots=True)
class StandingView:
    """One line of the final standings: ``total`` = ``cash`` + ``deeds_value``."""

    rank: int
    player: str
    cash: int
    deeds_value: int
    total: int


@dataclass(frozen=True, slots=True)
class ViewModel:
    """The whole screen. ``state`` is the banker's state name; ``actions`` the triggers allowed now."""

    state: str
    edition: str
    currency: str  # display pattern hint, e.g. "M" or "RUB_K"; the UI formats with Babel
    players: tuple[PlayerView, ...] = ()
    board: tuple[SpaceView, ...] = ()
    prompt: Prompt = Prompt("prompt.idle")
    actions: tuple[str, ...] = ()
    last_transaction: TransactionView | None = None
    event_card: EventCardView | None = None
    auction: AuctionView | None = None
    debt: DebtView | None = None
    standings: tuple[StandingView, ...] = ()
    wealth_history: tuple[tuple[str, tuple[int, ...]], ...] = ()  # player id -> wealth after each command
    seq: int = 0  # sequence number of the last durable event
    extra: tuple[tuple[str, str | int], ...] = field(default=())  # banker-specific details
    phase: str = ""  # the engine's phase: "setup", "play", "auction", "event", "debt", "over"
    turn: str | None = None  # id of the player whose turn it is
    selected_player: str | None = None  # the player card tapped in the gesture under way
    selected_deed: int | None = None  # the deed card tapped in the gesture under way
    seconds_left: float | None = None  # until the gesture under way times out (injected clock)
    options: tuple[tuple[str, int | bool], ...] = ()  # rule options in force (setup: the next game's); money units
    editions: tuple[str, ...] = ()  # setup: the edition ids the table may choose (``choose("edition=ID")``)
    tokens: tuple[str, ...] = ()  # setup: the token colours a player may take (``choose("token=SEAT:COLOUR")``)
    on_the_run: int = 0  # ON THE RUN: turn ends left with level-1 rent (0: not running)
    positions: bool = False  # the unit keeps the tokens (option ``positions``): the dice pad is offered
    roller: str | None = None  # positions: the player who rolls now
    dice: tuple[int, ...] = ()  # positions: the last roll's two dice (or the one die entered so far)
