"""Turning the banker's view-model into the words and numbers on the screen (no Kivy, no rules).

A :class:`Presenter` holds the current :class:`~engine.banker.viewmodel.ViewModel` and the translator; screens
ask it for text. Prompt and choice parameters are rendered by name: money parameters (amounts in the
edition's unit) through :func:`ui.money.format_money`, player ids as player names, deed numbers as
deed names, translation-key parameters (``*_key``) as their translation.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from engine.banker.setup import default_seat
from engine.banker.viewmodel import ChoiceView, PlayerView, Prompt, SpaceView, TransactionView, ViewModel
from engine.editions import EventCard, load_edition
from ui.i18n import Translator
from ui.money import CURRENCIES, format_amount, format_money

MONEY_PARAMS: frozenset[str] = frozenset({
    "amount", "price", "rent", "due", "bid", "high_bid", "fee", "salary", "total", "cash", "balance",
    "wealth", "owed", "paid", "change", "cost", "min_bid", "deeds_value", "step", "flat", "percent", "short",
})
"""Prompt parameters that are money (ints in the edition's unit)."""
PLAYER_PARAMS: frozenset[str] = frozenset({
    "player", "buyer", "payer", "payee", "owner", "debtor", "creditor", "winner", "bidder", "high_bidder",
    "other", "target", "from_player", "to_player", "turn", "drawer", "first", "second", "partner",
})
DEED_PARAMS: frozenset[str] = frozenset({"deed", "deed2", "property", "space"})
SEAT_PARAMS: frozenset[str] = frozenset({"seat", "expected", "winner"})
"""Parameters of :data:`SEAT_REFUSALS` that carry a seat number (``3``, engine/banker/setup.py ``seat_of``): said
as that player's name ("Cat"), never as a number."""
SEAT_REFUSALS: frozenset[str] = frozenset({
    "error.wrong_player", "error.not_playing", "error.already_seated", "error.not_seated", "error.not_winner",
    "error.token_taken"})
"""The banker's refusals that name seats (elsewhere ``expected`` may be a list of squares)."""
RUN_KINDS: frozenset[str] = frozenset({"BuildingBought", "BuildingSold"})
"""Transactions a gesture repeats (one building each): the line says the run's count and total."""


class Presenter:
    """Text for the current view-model in the current language."""

    def __init__(self, translator: Translator, view: ViewModel | None = None) -> None:
        self.tr = translator
        self.view = view or ViewModel(state="setup", edition="", currency="M")
        self.changes: dict[str, int] = {}
        """Player id -> balance change (money units) between the last two durable states shown."""
        self.run: tuple[int, int] = (1, 0)
        """(count, total money units) of the run of like transactions the last one ends (:data:`RUN_KINDS`)."""
        self.story: Any = None
        """The table's :class:`ui.touch.voice.TableStory` (the last money entry and its receipt), or None."""

    def show(self, view: ViewModel) -> None:
        """Take ``view`` as the current one; a new durable state records what it changed in balances."""
        before, self.view = self.view, view
        if view.seq != before.seq:
            old = {p.id: p.balance for p in before.players}
            self.changes = {p.id: p.balance - old[p.id] for p in view.players
                            if p.id in old and p.balance != old[p.id]}
        self.run = _run_after(before.last_transaction, view.last_transaction, self.run)

    # -- look-ups ---------------------------------------------------------------------------------
    @property
    def ruleset(self) -> str:
        """The ruleset of the view's edition (``ultimate`` or ``classic``; ``""`` when it is not known)."""
        return _ruleset(self.view.edition) if self.view.edition else ""

    @property
    def currency(self) -> str:
        return self.view.currency if self.view.currency in CURRENCIES else "M"

    def player(self, player_id: str | None) -> PlayerView | None:
        """The player with this id, or None."""
        for p in self.view.players:
            if p.id == player_id:
                return p
        return None

    def player_name(self, player_id: str | None) -> str:
        """A player's display name; the Bank for None."""
        if player_id is None or player_id == "bank":
            return self.tr("word.bank")
        if player_id == "pot":  # the classic game's Free Parking pot as a payer or payee
            return self.tr("word.pot")
        if player_id in ("", "none"):
            return self.tr("word.nobody")
        p = self.player(player_id)
        seat = default_seat(p.name if p is not None else "", player_id)  # the banker's untranslated default
        if seat is not None:
            return self.tr("player.default_name", number=seat)
        if p is None:
            return player_id
        return p.name or self.tr("player.default_name", number=self.view.players.index(p) + 1)

    def space_for_deed(self, deed: int | None) -> SpaceView | None:
        """The board space of deed number ``deed``."""
        for space in self.view.board:
            if space.deed is not None and space.deed == deed:
                return space
        return None

    def deed_name(self, deed: int | str | None) -> str:
        """The edition's name of a deed number (or ``#n`` when the board is not known)."""
        try:
            number = int(deed) if deed is not None else None
        except ValueError:
            return str(deed)
        space = self.space_for_deed(number)
        if space is not None and space.name:
            return space.name
        return self.tr("deed.number", number=number if number is not None else "")

    def space_name(self, space: SpaceView) -> str:
        """A space's name: the edition's own name, or the translated kind for unnamed spaces."""
        if space.name and space.kind == "deed":
            return space.name
        key = f"space.{space.kind}"
        return self.tr(key) if self.tr.has(key) else space.name

    def board_name(self, space: SpaceView) -> str:
        """A space's label on the board: the edition's short name for it (``[short_names]`` in the edition's
        file, in the language of its names), else the board's short word for its kind (``board.short.<kind>``),
        else :meth:`space_name`. The centre and every prompt say the whole name."""
        short = _short_names(self.view.edition)
        if 0 <= space.position < len(short) and short[space.position]:
            return short[space.position]
        key = f"board.short.{space.kind}"
        if space.kind != "deed" and self.tr.has(key, "en"):
            return self.tr(key)
        return self.space_name(space)

    # -- formatting -------------------------------------------------------------------------------
    def money(self, amount: int) -> str:
        """``amount`` (an int in the edition's money unit) formatted for the current language."""
        return format_money(amount, self.currency, self.tr.lang, self.tr)

    def amount(self, amount: int) -> str:
        """``amount`` (an int in the edition's money unit) as digits alone, grouped for the current language
        (for a table that names the unit once, see :meth:`money_unit`)."""
        return format_amount(amount, self.tr.lang)

    def money_unit(self) -> str:
        """The edition's money unit in the current language, e.g. ``M`` or ``тыс. ₽``."""
        return self.tr(f"money.unit.{self.currency}")

    def render_params(self, params: Iterable[tuple[str, str | int]]) -> dict[str, str]:
        """Prompt parameters as display strings (money, names, translated keys)."""
        params = tuple(params)
        out: dict[str, str] = {}
        for name, value in params:
            if name in MONEY_PARAMS and isinstance(value, int):
                out[name] = self.money(value)
            elif name in PLAYER_PARAMS:
                out[name] = self.player_name(str(value))
            elif name == "card" and isinstance(value, str):
                key = f"event.{value}" if self.tr.has(f"event.{value}", "en") else f"cardkind.{value}"
                out[name] = self.tr(key) if self.tr.has(key, "en") else value
            elif name == "choice" and isinstance(value, str):
                out[name] = self.tr(f"choose.{value}")
            elif name == "action" and isinstance(value, str):
                out[name] = self.action_label(value) if value else ""
            elif name in DEED_PARAMS:
                out[name] = self.deed_name(value)
            elif name == "reason_key":
                continue  # said below, once every other parameter is rendered
            elif name == "phase" and isinstance(value, str) and self.tr.has(f"phase.{value}", "en"):
                out[name] = self.tr(f"phase.{value}")
            elif name.endswith("_key") and isinstance(value, str):
                out[name[: -len("_key")]] = self.tr(value)
                out[name] = self.tr(value)
            elif name in ("names", "back_names") and isinstance(value, str):
                out[name] = self.name_list(value.split("\n"))  # a game's players (engine/banker/undoing.py)
            elif name == "colour" and isinstance(value, str):
                out[name] = self.colour_name(value)
            elif name == "token" and isinstance(value, str):
                out[name] = self.token_name(value)
            elif name == "option" and isinstance(value, str) and self.tr.has(f"option.{value}", "en"):
                out[name] = self.tr(f"option.{value}")
            elif name == "edition" and isinstance(value, str) and self.tr.has(f"edition.{value}", "en"):
                out[name] = self.tr(f"edition.{value}")
            elif name == "kind" and isinstance(value, str) and self.tr.has(f"kind.{value}", "en"):
                out[name] = self.tr(f"kind.{value}")  # the classic game's building kinds
            elif name == "side" and isinstance(value, str | int):
                out[name] = self.tr("side.name", side=str(value).upper())
            else:
                out[name] = str(value)
        # an engine refusal (engine/errors.py Refusal): its reason in this language instead of the English one
        reason_key = dict(params).get("reason_key")
        if isinstance(reason_key, str) and self.tr.has(reason_key, "en"):
            out["reason"] = self.tr(reason_key, **out)
        return out

    def text(self, key: str, params: Iterable[tuple[str, str | int]] = ()) -> str:
        """Translate ``key`` with ``params`` rendered for display (a refusal's seat numbers as names)."""
        params = tuple(params)
        out = self.render_params(params)
        if key in SEAT_REFUSALS:
            for name, value in params:
                if name in SEAT_PARAMS and str(value).isdigit():
                    out[name] = self.player_name(f"p{value}")  # seat 3: the player's name
        return self.tr(key, **out)

    def prompt(self, prompt: Prompt | None = None) -> str:
        """The prompt line (the view's own prompt by default)."""
        p = prompt or self.view.prompt
        key = p.key
        params = p.params
        if key == "prompt.deed" and "owner" not in dict(p.params):
            key = "prompt.deed_unowned"  # a deed nobody owns has no owner, level or rent to show
        elif key == "prompt.buy" and "press_ok" not in self.view.actions and "ok" not in self.view.actions:
            # the banker does not offer OK: say so at once, and what is possible instead
            key = "prompt.buy_short" if "press_decline" in self.view.actions else "prompt.buy_short_no_auction"
            buyer = self.player(str(dict(p.params).get("player", "")))
            params = (*p.params, ("balance", buyer.balance if buyer is not None else 0))
        elif key == "prompt.trade":  # no side chosen yet: no "deal between nobody and nobody"
            sides = [str(dict(p.params).get(side, "")) for side in ("first", "second")]
            chosen = [side for side in sides if side not in ("", "none")]
            key = "prompt.trade_nobody" if not chosen else ("prompt.trade_one" if len(chosen) == 1 else key)
            params = (("first", chosen[0]),) if len(chosen) == 1 else params
        return self.text(key, params)

    def name_list(self, names: list[str]) -> str:
        """Players' names as one list in this language ("Ann, Ben and Cat")."""
        if len(names) < 2:
            return "".join(names)
        return self.tr("list.and", first=self.tr("list.separator").join(names[:-1]), last=names[-1])

    def action_label(self, trigger: str) -> str:
        """The caption of the button for banker trigger ``trigger`` (``press_go`` or ``go``)."""
        return self.tr(f"action.{trigger.removeprefix('press_')}")

    def choice_label(self, choice: ChoiceView) -> str:
        """The caption of an event card's answer: a deed, a colour set, a side or a player."""
        params = dict(choice.params)
        if choice.label_key == "choice.colour_set":
            return self.colour_name(choice.value)
        if choice.label_key == "choice.other_player":
            return self.player_name(choice.value)
        if choice.label_key == "choice.deed":
            return self.deed_name(choice.value) if choice.value.isdigit() else str(params.get("name", ""))
        return self.tr(choice.label_key, **{k: str(v) for k, v in params.items()})

    def colour_name(self, colour: str) -> str:
        """A deed colour set's translated name."""
        from ui.touch.widgets.palette import norm

        key = f"colour.{norm(colour)}"
        return self.tr(key) if self.tr.has(key, "en") else colour

    def token_name(self, token: str) -> str:
        """A token colour's translated name."""
        from ui.touch.widgets.palette import norm

        key = f"token.{norm(token)}"
        return self.tr(key) if self.tr.has(key, "en") else token

    def signed_money(self, amount: int) -> str:
        """``amount`` with its sign: +M200, −M50."""
        return ("+" if amount > 0 else "") + self.money(amount)

    def event_amounts(self, card_id: int, drawer: str | None) -> str:
        """The printed amounts of event card ``card_id`` (the edition's card data), as one line; "" if none.

        WIBBLE WOBBLE pays two players: both payments and their sum are said."""
        card = _edition_card(self.view.edition, card_id)
        if card is None or not card.amount:
            return ""
        key = f"eventamount.{card.effect}"
        if not self.tr.has(key, "en"):
            return ""
        return self.tr(key, player=self.player_name(drawer), amount=self.money(card.amount),
                       total=self.money(2 * card.amount))

    def on_the_run(self) -> tuple[bool, int | None]:
        """Whether ON THE RUN is in force, and for how many more turns: the view's ``on_the_run`` (EndTurn
        commands left with level-1 rent)."""
        left = self.view.on_the_run
        return left > 0, left if left > 0 else None

    def on_the_run_text(self) -> str:
        """The banner while ON THE RUN lasts ("" otherwise)."""
        active, left = self.on_the_run()
        if not active:
            return ""
        return self.tr("ontherun.left", turns=left) if left is not None else self.tr("ontherun.active")

    def transaction(self, changes: dict[str, int] | None = None) -> str:
        """The last money movement as one line, e.g. "Alice → Bob  M200", or empty.

        ``changes`` (player id -> balance change of the last command, money units) says a command that paid
        or charged several players in one go (WIBBLE WOBBLE pays two): every change and their sum."""
        tx = self.view.last_transaction
        if tx is None:
            return ""
        if tx.undone:  # taken back (Undo, or X on a gesture that had paid): the line says so, no run, no changes
            return self.tr("tx.undone", line=self.told() or self._bare(tx))
        gains = {p: d for p, d in (changes or {}).items() if d > 0}
        losses = {p: d for p, d in (changes or {}).items() if d < 0}
        if (len(gains) > 1 and not losses) or (len(losses) > 1 and not gains):
            each = ", ".join(self.tr("tx.change", player=self.player_name(p), amount=self.signed_money(d))
                             for p, d in (gains or losses).items())
            total = sum((gains or losses).values())
            key = "tx.several_paid" if total > 0 else "tx.several_charged"
            return self.tr(key, changes=each, total=self.money(abs(total)))
        count, total = self.run
        if tx.kind in RUN_KINDS and count > 1:  # several buildings in one go: their count and total
            key = "tx.buildings_bought" if tx.kind == "BuildingBought" else "tx.buildings_sold"
            player = tx.payer if tx.kind == "BuildingBought" else tx.payee
            return self.tr(key, player=self.player_name(player), count=count, total=self.money(total))
        return self.told() or self._bare(tx)

    def _bare(self, tx: TransactionView) -> str:
        """A transaction without the story's sentence: its kind and "payer » payee: amount"."""
        kind_key = f"tx.{tx.kind}"
        kind = self.tr(kind_key) if self.tr.has(kind_key, "en") else ""
        line = self.tr("tx.line", payer=self.player_name(tx.payer), payee=self.player_name(tx.payee),
                       amount=self.money(tx.amount))
        return f"{kind}: {line}" if kind else line


    def names(self) -> Any:
        """The story's names of the game on the table in the current language (ui.story.names.Names)."""
        from ui.story.names import Names

        return Names.from_view(self.view, self.tr.lang, self.tr)

    def told(self, with_receipt: bool = False) -> str:
        """The last transaction in the story's words ("Purchase: Chiara buys 1 house on Baltic Avenue for
        M50"), and with ``with_receipt`` its receipt on a second line ("" when unknown: the bare line stays)."""
        tx = self.view.last_transaction
        entry = self.story.told(tx.seq) if self.story is not None and tx is not None else None
        if entry is None:
            return ""
        from ui.story.receipts import receipt_text
        from ui.story.sentences import sentence

        event, receipt = entry
        names = self.names()
        line = sentence(event, names, receipt)
        if not with_receipt:
            return line
        return f"{line}\n{receipt_text(receipt, names)}" if receipt is not None else ""


def _run_after(before: TransactionView | None, tx: TransactionView | None, run: tuple[int, int]) -> tuple[int, int]:
    """(count, total) of the run of like transactions ``tx`` ends, given the one shown ``before`` and its run:
    the same kind of :data:`RUN_KINDS` between the same two accounts adds up; anything else starts afresh."""
    if tx is None:
        return (1, 0)
    if before is not None and tx.seq == before.seq:
        return run
    if (before is not None and tx.kind in RUN_KINDS and tx.kind == before.kind and tx.payer == before.payer
            and tx.payee == before.payee):
        return (run[0] + 1, run[1] + tx.amount)
    return (1, tx.amount)


@cache
def _edition_cards(edition_id: str) -> dict[int, EventCard]:
    """The event cards of edition ``edition_id`` as printed, by id (empty when the edition is unknown)."""
    try:
        return {c.id: c for c in load_edition(edition_id).events}
    except (OSError, KeyError, ValueError):
        return {}


@cache
def _short_names(edition_id: str) -> tuple[str, ...]:
    """The board's short names of edition ``edition_id`` by position, in the language of its own names
    (empty when the edition is unknown or has none)."""
    try:
        edition = load_edition(edition_id) if edition_id else None
    except (OSError, KeyError, ValueError):
        return ()
    return edition.short_names.get(edition.language, ()) if edition is not None else ()


@cache
def _ruleset(edition_id: str) -> str:
    """The ruleset an edition is played with (``""`` when the edition is unknown)."""
    try:
        return load_edition(edition_id).ruleset
    except (OSError, KeyError, ValueError):
        return ""


def _edition_card(edition_id: str, card_id: int) -> EventCard | None:
    """Event card ``card_id`` of edition ``edition_id``, or None."""
    return _edition_cards(edition_id).get(card_id) if edition_id else None
