"""What the banker's view model shows: board, players, last transaction, event choices, auction, debt,
standings and the wealth history, in money units."""

from __future__ import annotations

from pathlib import Path

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, run_script, steps_of
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

CARDS = ["card 000000A1 player 1", "card 000000A2 player 2", "card 000000A3 player 3",
         "card 00000101 deed 1", "card 00000102 deed 2", "card 00000116 deed 16", "card 00000122 deed 22",
         "card 00000215 event 15"]
START = ["tap 000000A1", "tap 000000A2", "press ok"]


def play(tmp_path: Path, lines: list[str]) -> Banker:
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(Journal.open(tmp_path / "bb.sqlite3")), cards, clock, seed_source=lambda: 9)
    run_script(steps_of([*CARDS, *lines]), banker, clock, cards.enroll)
    return banker


def test_setup_shows_the_seated_players_and_the_board(tmp_path: Path) -> None:
    view = play(tmp_path, ["tap 000000A2", "tap 000000A1"]).view
    assert [(p.id, p.name, p.token) for p in view.players] == [("p1", "Player 1", "red"), ("p2", "Player 2", "green")]
    assert len(view.board) == 36 and sum(1 for s in view.board if s.deed) == 22
    assert view.phase == "setup" and "press_ok" in view.actions and view.seq == 0


def test_setup_choices_are_shown_and_go_into_start_game(tmp_path: Path) -> None:
    """Names (with spaces, trimmed), tokens, options and the edition: in the view, then in GameStarted."""
    from engine.banker.setup import TOKEN_PALETTE
    from engine.editions import list_editions
    from engine.events import GameStarted

    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock, cards = ManualClock(), CardTable()
    store = JournalStore(journal, "ultimate-uk", {"go_salary": 250})  # the command line's --option
    banker = Banker(store, cards, clock, seed_source=lambda: 9)
    run_script(steps_of([*CARDS, "tap 000000A1", "tap 000000A3"]), banker, clock, cards.enroll)
    view = banker.view
    assert view.editions == ("ultimate-ru", "ultimate-uk", "ultimate-us", "classic-ru", "classic-uk", "classic-us")  # both games
    assert set(view.editions) == set(list_editions()) and view.tokens == TOKEN_PALETTE
    assert dict(view.options)["go_salary"] == 250 and dict(view.options)["start_money"] == 1500
    assert banker.may("answer")
    for answer in ("name=1:  Ana María  ", "name=3:山田 太郎", "token=3:black", "option=jail_fee:50",
                   "option=colour_set_bonus:off", "edition=ultimate-ru"):
        reaction = banker.choose(answer)
        assert reaction.error is None, (answer, reaction.params)
        assert reaction.prompt.key == "prompt.setup"
    view = banker.view
    assert [(p.id, p.name, p.token) for p in view.players] == [("p1", "Ana María", "red"), ("p3", "山田 太郎", "black")]
    assert view.edition == "ultimate-ru" and view.currency == "RUB_K"
    assert {k: v for k, v in view.options if k in ("go_salary", "jail_fee", "colour_set_bonus")} == {
        "go_salary": 250, "jail_fee": 50, "colour_set_bonus": False}
    before = banker.view
    refused = banker.choose("token=1:black")
    assert refused.error == "error.token_taken" and refused.params["seat"] == 3 and "err" in refused.cues
    assert refused.view.players == before.players and refused.prompt.key == "prompt.setup"
    assert banker.press("ok").error is None
    started = next(e for e in banker.durable.game.events if isinstance(e, GameStarted))
    assert started.edition == "ultimate-ru"
    assert [(p.id, p.name, p.token) for p in started.players] == [("p1", "Ana María", "red"),
                                                                   ("p3", "山田 太郎", "black")]
    assert started.options["go_salary"] == 250 and started.options["jail_fee"] == 50
    assert started.options["colour_set_bonus"] is False
    view = banker.view
    assert view.editions == () and view.tokens == () and dict(view.options)["jail_fee"] == 50


def test_board_players_and_last_transaction_after_rent(tmp_path: Path) -> None:
    view = play(tmp_path, [*START, "tap 00000116", "tap 000000A1", "press ok", "tap 00000116", "tap 000000A2"]).view
    space = next(s for s in view.board if s.deed == 16)
    assert (space.position, space.owner, space.level, space.rent, space.price) == (24, "p1", 2, 280, 260)
    p1, p2 = view.players
    assert (p1.balance, p1.wealth, p1.deeds) == (1440, 1700, (16,))
    assert (p2.balance, p2.wealth) == (1300, 1300)
    tx = view.last_transaction
    assert tx is not None and (tx.kind, tx.amount, tx.payer, tx.payee) == ("RentPaid", 200, "p2", "p1")
    assert view.seq == tx.seq + 1  # the LevelChanged after it
    # one point per command: StartGame, BuyDeed, PayRent
    assert dict(view.wealth_history) == {"p1": (1500, 1500, 1700), "p2": (1500, 1500, 1300)}


def test_event_choices_and_a_two_step_answer(tmp_path: Path) -> None:
    banker = play(tmp_path, [*START, "tap 00000101", "tap 000000A1", "press ok", "tap 00000102", "tap 000000A2",
                             "press ok", "tap 00000215", "tap 000000A1"])
    card = banker.view.event_card
    assert card is not None and card.card_key == "event.haunted_house"
    assert [c.value for c in card.choices] == ["1"]  # first: one of your own deeds
    banker.choose("1")
    card = banker.view.event_card
    assert card is not None and [c.value for c in card.choices] == ["2"]  # then an opponent's
    assert banker.choose("2").view.state == "idle"


def test_auction_view_counts_down(tmp_path: Path) -> None:
    banker = play(tmp_path, [*START, "tap 00000122", "tap 000000A1", "press decline", "tap 000000A2",
                             "press bid 100", "wait 4"])
    auction = banker.view.auction
    assert auction is not None
    assert (auction.deed, auction.high_bid, auction.high_bidder, auction.seconds_left) == (22, 120, "p2", 6.0)  # tap 20 + 100


def test_debt_and_standings(tmp_path: Path) -> None:
    lines = [*START, "tap 00000122", "tap 000000A1", "press ok", "tap 00000101", "tap 000000A2", "press ok",
             *(["tap 00000122", "tap 000000A1"] * 4), "tap 00000122", "tap 000000A2"]
    banker = play(tmp_path, lines)
    debt = banker.view.debt
    assert debt is not None and (debt.debtor, debt.creditor, debt.due) == ("p2", "p1", 1600)  # the whole rent waits
    view = banker.tap("00000101").view
    assert view.state == "over" and view.standings
    first = view.standings[0]
    assert (first.rank, first.player, first.total) == (1, "p1", first.cash + first.deeds_value)


def test_the_last_transaction_stays_until_money_moves_again(tmp_path: Path) -> None:
    banker = play(tmp_path, [*START, "tap 00000116", "tap 000000A1", "press ok", "tap 00000116", "tap 000000A1"])
    tx = banker.view.last_transaction  # landing on your own deed moves no money
    assert tx is not None and (tx.kind, tx.amount, tx.payer, tx.payee) == ("DeedBought", 260, "p1", None)
    again = Banker(banker.store, CardTable(), ManualClock(), seed_source=lambda: 9)  # resumed
    assert again.view.last_transaction == tx


def test_the_debt_says_how_much_is_still_short(tmp_path: Path) -> None:
    """The debt screen's 'still short': what the debtor's cash does not cover (docs/rules.md 1.15)."""
    lines = ["tap 000000A1", "tap 000000A2", "choose option=start_money:150", "press ok",
             "tap 00000101", "tap 000000A1", "press ok", "press jail", "tap 000000A1", "press pay_fee", "tap 000000A1"]
    debt = play(tmp_path, lines).view.debt
    assert debt is not None and (debt.due, debt.short) == (100, 10)  # 90 in cash against the 100 fee


def test_on_the_run_is_counted_down_in_the_view(tmp_path: Path) -> None:
    """ON THE RUN (docs/rules.md 1.11): two rounds of level-1 rent; the view carries the turn ends left."""
    banker = play(tmp_path, [*START, "card 00000222 event 22", "tap 00000222", "tap 000000A1", "press ok"])
    assert banker.view.on_the_run == 4  # two rounds of two players
    assert banker.press("end_turn").view.on_the_run == 3
