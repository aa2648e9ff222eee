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
    jail_cards: tuple[int, ...] = ()  # classic: Get Out of Jail Free card ids held (the edition's deck numbers)
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
    houses: int = 0  # classic: houses standing on the deed (0..4; 0 under a hotel)
    hotel: bool = False  # classic: a hotel stands on the deed
    mortgaged: bool = False  # classic: the deed is mortgaged (it charges no rent)


@dataclass(frozen=True, slots=True)
class TransactionView:
    """The last money movement, for the animation: ``amount`` from ``payer`` to ``payee`` (None = Bank);
    ``undone`` once its command was taken back (an Undo, or X on a gesture that had paid: the line says so)."""

    seq: int
    kind: str  # event type, e.g. "RentPaid"
    amount: int
    payer: str | None
    payee: str | None
    command: int = 0  # the journal's number of the command that moved it
    undone: bool = False


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
    kind: str = "deed"  # classic: "deed", or "house" / "hotel" for a building the Bank is short of (deed 0)
    min_bid: int = 0  # classic: the lowest bid the selected bidder may make now (money units; 0: not known)


@dataclass(frozen=True, slots=True)
class DebtView:
    """A debt being settled by returning deeds: ``due`` still owed, in money units."""

    debtor: str
    creditor: str | None  # None = the Bank
    due: int
    short: int = 0  # money units still missing beyond the debtor's cash (what returning deeds must raise)
    reason: str = ""  # classic: what the debt is for ("rent", "income_tax", "card", "jail_fine", ...)
    can_settle: bool = False  # classic: the debtor's cash covers it now (✓ or the debtor's card pays it)


@dataclass(frozen=True, slots=True)
class BuildView:
    """Classic: building (``mode`` ``"build"``) or selling back (``"sell"``) under way for ``player``.

    Each deed tap is one command (one building bought or sold at once); ``steps`` are the deeds tapped so far
    in this gesture, in order, and ``total`` what they cost (build) or brought back (sell) in money units.
    ``offers`` lists each street where one more tap is allowed now, with what that building costs (build) or
    pays back (sell) in money units, and whether it is the hotel. ``houses_left`` / ``hotels_left`` are the
    Bank's supply now."""

    player: str
    mode: str
    steps: tuple[int, ...] = ()
    total: int = 0
    offers: tuple[tuple[int, int, bool], ...] = ()  # (deed, money units, hotel?)
    houses_left: int = 0
    hotels_left: int = 0


@dataclass(frozen=True, slots=True)
class MortgageView:
    """Classic: ``player``'s own ``deed`` checked; the buttons mortgage it or lift its mortgage.

    ``value`` is the printed mortgage value the Bank lends; ``lift_cost`` what lifting costs now (the value
    plus ``interest``, the 10 %, rounded up; the value alone right after a transfer fee); money units.
    ``blocked`` names why mortgaging is not possible now (a refusal key ``reason.*``, "" when it is)."""

    deed: int
    player: str
    mortgaged: bool
    value: int
    lift_cost: int
    interest: int
    blocked: str = ""


@dataclass(frozen=True, slots=True)
class TaxView:
    """Classic: ``player`` on the tax space at ``position`` (``kind`` ``"income"`` or ``"luxury"``).

    ``flat`` is the printed tax; ``percent`` the share of worth (``percent_rate`` %) when the option
    ``income_tax_choice`` lets the player choose, else None; money units. The player picks with
    ``choose flat`` or ``choose percent`` (the :attr:`ViewModel.choices`)."""

    player: str
    position: int
    kind: str
    flat: int
    percent: int | None = None
    percent_rate: int = 0


@dataclass(frozen=True, slots=True)
class TradeSideView:
    """One side of a classic deal: what ``player`` hands over (deeds, cash in money units, jail card ids),
    the transfer ``fees`` (money units) it pays on mortgaged deeds it receives, and whether it confirmed."""

    player: str | None
    deeds: tuple[int, ...] = ()
    cash: int = 0
    cards: tuple[int, ...] = ()
    fees: int = 0
    confirmed: bool = False


@dataclass(frozen=True, slots=True)
class TradeView:
    """Classic: a deal being put together (``first`` is the side whose card was tapped first) or, once
    one side confirmed, the offer open in the engine (``proposed``) waiting for the other side's card."""

    first: TradeSideView
    second: TradeSideView
    proposed: bool = False


@dataclass(frozen=True, slots=True)
class CardView:
    """Classic: a Chance or Community Chest card: a physical one waiting for its drawer, or the card just drawn.

    ``card_key`` / ``text_key`` are translation keys (``event.<key>``, ``event.<key>.text``); ``effect`` the
    edition's effect name and ``amount`` its money units; ``moved_to`` the board position the card sent
    the token to (None: no move); ``spaces`` the board positions of this deck's spaces to choose from when
    the card must know where the token stands (``choose POSITION``), else empty; ``drawn`` False while waiting."""

    card_id: int
    deck: str
    card_key: str
    text_key: str
    effect: str
    amount: int = 0
    player: str | None = None
    moved_to: int | None = None
    spaces: tuple[int, ...] = ()
    drawn: bool = False


@dataclass(frozen=True, slots=True)
class TimerView:
    """Classic, option ``action_timers`` (docs/rules-classic.md 10): the action the table waits for
    (``"roll"``, ``"pay"`` or ``"deal"``), whose it is, the seconds left on the banker's injected clock, and
    ``warning`` in the last seconds before the timeout bankrupts the player (a deal lapses)."""

    action: str
    player: str
    seconds_left: float
    warning: bool = False


@dataclass(frozen=True, slots=True)
class ClockView:
    """Classic: the game's clock (time-limited game, late-game rent tax), from the banker's injected clock.

    ``minute`` is the engine's last recorded minute; ``elapsed_s`` seconds played; ``time_limit`` the
    agreed minutes (0: none) and ``seconds_left`` until time is called (None: no limit); ``rent_tax`` the
    percent of each rent the Bank keeps now (0: none); ``go_salary`` what GO pays now (money units)."""

    minute: int
    elapsed_s: float
    time_limit: int = 0
    seconds_left: float | None = None
    rent_tax: int = 0
    go_salary: int = 0


@dataclass(frozen=True, slots=True)
class StandingView:
    """One line of the final standings: ``total`` = ``cash`` + ``deeds_value``."""

    rank: int
    player: str
    cash: int
    deeds_value: int
    total: int


@dataclass(frozen=True, slots=True)
class QuestionView:
    """Count it: the question a counting player answers before a payment goes through (docs/flows.md).
    ``amount`` (money units) is the answer: a screen shows it only once the question has ended; ``role``
    ``"pays"`` or ``"paid"``; ``rule`` and ``terms`` are the payment's receipt (engine/receipts.py), the hint
    after a wrong answer; ``tries`` the wrong answers so far (0 or 1) and ``given`` the last one. A change
    question (``rule`` ``"change"``) has the ``note`` paid with: ``amount`` is the change (note - payment)."""

    player: str
    amount: int
    role: str
    rule: str
    terms: tuple[tuple[str, int], ...] = ()
    deed: int | None = None
    houses: int = 0
    tries: int = 0
    given: int | None = None
    note: int = 0


@dataclass(frozen=True, slots=True)
class CountedView:
    """Count it: the question that just ended and how (``right``, ``revealed``: the second wrong answer,
    ``skipped``, ``timeout``, ``interrupted``: another input came), shown until the next input; ``note`` the
    note of a change question (``amount`` is then the change), else 0."""

    player: str
    amount: int
    outcome: str
    given: int | None = None
    note: int = 0


@dataclass(frozen=True, slots=True)
class ScoreView:
    """Count it: a counting player's score, ``right`` answers of ``answered`` questions."""

    player: str
    right: int
    answered: int


@dataclass(frozen=True, slots=True)
class ViewModel:
    """The whole screen. ``state`` is the banker's state name; ``actions`` the triggers allowed now.

    The classic game (docs/flows.md, "The classic game") also sets, each None or empty otherwise:
    ``building`` (state ``build``), ``mortgage`` (state ``own``), ``tax`` (state ``tax``), ``trade``
    (states ``trade`` and ``trade_open``, or an offer open in the engine), ``card`` (a physical card
    waiting in ``event_card``, the card of ``card_space``, or the card just drawn, in ``idle``), ``clock``
    (a time-limited game or the rent tax), ``choices`` (``tax``: flat / percent; ``card_space``: the
    positions), ``pot``, ``dealt`` (until the first command after the start), ``houses_left`` and
    ``hotels_left``; per deed ``board[].houses`` / ``hotel`` / ``mortgaged`` (``level`` is its buildings,
    0..5); per player ``players[].jail_cards``; ``auction.kind`` / ``min_bid``; ``debt.reason`` /
    ``can_settle``. These names are stable."""

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
    # -- the classic game (None / empty in Ultimate Banking) -------------------------------------------
    building: BuildView | None = None  # building or selling under way (state ``build``)
    mortgage: MortgageView | None = None  # an own deed checked: mortgage or lift (state ``own``)
    tax: TaxView | None = None  # a tax being paid (state ``tax``)
    trade: TradeView | None = None  # a deal being put together or open (states ``trade``, ``trade_open``)
    card: CardView | None = None  # a Chance / Community Chest card waiting for its drawer, or just drawn
    clock: ClockView | None = None  # a time-limited game or the late-game rent tax
    timer: TimerView | None = None  # the action timers (option action_timers)
    choices: tuple[ChoiceView, ...] = ()  # answers accepted now beyond an event card's (tax, card space)
    pot: int = 0  # the Free Parking pot (option free_parking_jackpot), money units
    dealt: tuple[tuple[str, tuple[int, ...]], ...] = ()  # short / timed game: deeds dealt at the start, per player
    houses_left: int | None = None  # classic: the Bank's houses (None in Ultimate Banking)
    hotels_left: int | None = None  # classic: the Bank's hotels
    positions: bool = False  # the unit keeps the tokens (option ``positions``): the dice pad is offered
    roller: str | None = None  # positions: the player who rolls now
    dice: tuple[int, ...] = ()  # positions: the last roll's two dice (or the one die entered so far)
    # -- count it (docs/flows.md, "Count it") ----------------------------------------------------------
    question: QuestionView | None = None  # a counting player's question before a payment
    counted: CountedView | None = None  # the question that just ended
    scores: tuple[ScoreView, ...] = ()  # each counting player's score
