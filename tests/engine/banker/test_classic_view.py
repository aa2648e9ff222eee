"""What the classic banker's view-model shows a screen (docs/flows.md, "The classic game"; the amounts are
the rules' own: docs/rules-classic.md 3, 5-10): houses, hotels and mortgages per deed, the gesture under
way (a build's taps and total, a mortgage's +10 %, both tax amounts, both sides of a deal), the card drawn,
the debt owed and still short, the clock and the rent tax, the deal at the start, the pot and the supply;
and that a gesture under way survives a restart (docs/flows.md, "Across a power cut")."""

from __future__ import annotations

from pathlib import Path

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, run_script, steps_of
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

CARDS = [f"card 000000A{n} player {n}" for n in (1, 2, 3)] + [
    f"card 000001{n:02d} deed {n}" for n in range(1, 29)] + [f"card 000002{n:02d} event {n}" for n in range(1, 33)]
REGISTER = ["tap 000000A1", "tap 000000A2", "press ok"]
BROWN = ["tap 00000101", "tap 000000A1", "press ok", "tap 00000102", "tap 000000A1", "press ok"]


def banker_after(tmp_path: Path, lines: list[str], clock: ManualClock | None = None) -> Banker:
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock = clock or ManualClock()
    cards = CardTable()
    banker = Banker(JournalStore(journal, "classic-us"), cards, clock, seed_source=lambda: 7)
    run_script(steps_of([*CARDS, *lines]), banker, clock, cards.enroll)
    return banker


def space(banker: Banker, deed: int):  # type: ignore[no-untyped-def]
    return next(s for s in banker.view.board if s.deed == deed)


def test_a_build_shows_its_taps_total_offers_and_the_board_its_houses(tmp_path: Path) -> None:
    """docs/rules-classic.md 6: one tap one house at its printed cost, evenly; the fifth is the hotel."""
    banker = banker_after(tmp_path, [*REGISTER, *BROWN, "tap 000000A1", "press build", "tap 00000101"])
    view = banker.view
    assert view.state == "build" and view.building is not None
    assert view.building.mode == "build" and view.building.steps == (1,) and view.building.total == 50
    assert view.building.offers == ((2, 50, False),)  # evenly: only Baltic may take the next house
    assert view.building.houses_left == 31 and view.houses_left == 31
    assert view.prompt.key == "prompt.build" and dict(view.prompt.params)["total"] == 50
    assert (space(banker, 1).houses, space(banker, 1).hotel, space(banker, 1).rent) == (1, False, 10)
    for tap in ["tap 00000102", "tap 00000101", "tap 00000102", "tap 00000101", "tap 00000102", "tap 00000101",
                "tap 00000102", "tap 00000101"]:
        banker.tap(tap.split()[1])
    assert (space(banker, 1).level, space(banker, 1).houses, space(banker, 1).hotel) == (5, 0, True)
    assert banker.view.building is not None and banker.view.building.total == 450
    assert banker.view.hotels_left == 11 and banker.view.houses_left == 28


def test_own_deed_shows_the_mortgage_and_what_lifting_costs(tmp_path: Path) -> None:
    """docs/rules-classic.md 7: the mortgage is the printed value; lifting costs it plus 10 %, rounded up."""
    banker = banker_after(tmp_path, [*REGISTER, "tap 00000101", "tap 000000A1", "press ok", "tap 00000101",
                                     "tap 000000A1"])
    m = banker.view.mortgage
    assert banker.state_name == "own" and m is not None
    assert (m.deed, m.player, m.mortgaged, m.value, m.lift_cost, m.interest, m.blocked) == (1, "p1", False, 30, 33, 3, "")
    banker.press("mortgage")
    assert space(banker, 1).mortgaged and space(banker, 1).rent == 0


def test_income_tax_with_the_choice_shows_both_amounts(tmp_path: Path) -> None:
    """docs/rules-classic.md 3: 200, or 10 % of the worth (cash and printed prices) with income_tax_choice."""
    banker = banker_after(tmp_path, ["tap 000000A1", "tap 000000A2", "choose option=income_tax_choice:on",
                                     "press ok", "tap 000000A1", "press income_tax"])
    tax = banker.view.tax
    assert tax is not None and (tax.kind, tax.position, tax.flat, tax.percent, tax.percent_rate) == (
        "income", 4, 200, 150, 10)
    assert [(c.value, dict(c.params)["amount"]) for c in banker.view.choices] == [("flat", 200), ("percent", 150)]


def test_a_deal_shows_both_sides_and_the_transfer_fees(tmp_path: Path) -> None:
    """docs/rules-classic.md 7: the receiver of a mortgaged deed pays 10 % of its mortgage value."""
    banker = banker_after(tmp_path, [*REGISTER, "tap 00000103", "tap 000000A1", "press ok", "tap 00000103",
                                     "tap 000000A1", "press mortgage", "press trade", "tap 000000A1",
                                     "tap 000000A2", "tap 00000103", "choose cash=2:120"])
    trade = banker.view.trade
    assert trade is not None and not trade.proposed
    assert (trade.first.player, trade.first.deeds, trade.first.cash, trade.first.fees) == ("p1", (3,), 0, 0)
    assert (trade.second.player, trade.second.deeds, trade.second.cash, trade.second.fees) == ("p2", (), 120, 10)
    banker.tap("000000A1")
    trade = banker.view.trade
    assert banker.state_name == "trade_open" and trade is not None and trade.proposed and trade.first.confirmed


def test_a_card_shows_its_text_key_the_spaces_to_choose_and_where_it_sent_the_token(tmp_path: Path) -> None:
    """docs/rules-classic.md 3: a move card resolved from the space the token stands on; GO is paid."""
    banker = banker_after(tmp_path, [*REGISTER, "tap 000000A1", "press chance"])
    card = banker.view.card
    assert card is not None and (card.card_id, card.deck, card.card_key, card.drawn) == (4, "chance",
                                                                                          "event.advance_11", False)
    assert card.spaces == (7, 22, 36) and [c.value for c in banker.view.choices] == ["7", "22", "36"]
    banker.choose("36")
    # the card sent the token to St. Charles Place, for sale: the drawer is offered it (a landing's BUY)
    assert banker.state_name == "buy" and banker.view.prompt.key == "prompt.buy"
    assert dict(banker.view.prompt.params)["name"] == "St. Charles Place"
    refused = banker.press("cancel")  # the card obliges: X is refused, the card and the offer stay
    assert refused.error == "error.finish_landing" and banker.state_name == "buy"
    assert banker.ctx.drawn is not None and banker.ctx.drawn[2] == 11  # the card stays with the offer


def test_a_debt_shows_what_is_owed_what_is_short_and_when_it_can_be_paid(tmp_path: Path) -> None:
    """docs/rules-classic.md 9: the debtor raises money, then pays."""
    banker = banker_after(tmp_path, ["tap 000000A1", "tap 000000A2", "choose option=start_money:100", "press ok",
                                     "tap 00000101", "tap 000000A1", "press ok", "press income_tax",
                                     "tap 000000A1"])
    debt = banker.view.debt
    assert debt is not None and (debt.debtor, debt.creditor, debt.due, debt.short, debt.reason, debt.can_settle) == (
        "p1", None, 200, 160, "income_tax", False)
    banker.tap("00000101")  # mortgaged: +30
    debt = banker.view.debt
    assert debt is not None and debt.short == 130


def test_the_clock_and_the_rent_tax(tmp_path: Path) -> None:
    """docs/rules-classic.md 10: the time-limited game's minutes left; the rent tax from minute 61."""
    clock = ManualClock()
    banker = banker_after(tmp_path, ["tap 000000A1", "tap 000000A2", "choose option=time_limit:90",
                                     "choose option=late_game_rent_tax:on", "press ok", "wait 3660"], clock)
    view = banker.view
    assert view.clock is not None and view.clock.minute == 61 and view.clock.rent_tax == 50
    assert view.clock.time_limit == 90 and view.clock.seconds_left == 90 * 60 - 3660 and view.clock.go_salary == 0
    assert view.dealt == ()  # the deal is shown only until the first command after the start


def test_the_short_game_shows_the_deal_at_the_start(tmp_path: Path) -> None:
    """docs/rules-classic.md 10: two deeds dealt to each player, paid at once."""
    banker = banker_after(tmp_path, ["tap 000000A1", "tap 000000A2", "choose option=short_game:on", "press ok"])
    assert banker.view.dealt == (("p1", (3, 13)), ("p2", (12, 27)))


def test_a_building_auction_says_its_kind_and_lowest_bid(tmp_path: Path) -> None:
    """docs/rules-classic.md 6: a building's auction opens at the printed house cost."""
    lines = ["tap 000000A1", "tap 000000A2", "choose option=houses_in_bank:1", "press ok", *BROWN, "press end_turn",
             *[x for d in ("04", "05", "06") for x in (f"tap 000001{d}", "tap 000000A2", "press ok")],
             "press end_turn", "tap 000000A1", "press build", "tap 00000101", "tap 000000A2"]
    banker = banker_after(tmp_path, lines)
    a = banker.view.auction
    assert a is not None and (a.kind, a.deed, a.high_bid, a.high_bidder) == ("house", 0, 50, "p2")
    assert a.min_bid == 51


def test_jail_cards_on_the_account_and_the_pot(tmp_path: Path) -> None:
    """docs/rules-classic.md 3: a Get Out of Jail Free card is kept; 2: the Free Parking pot."""
    banker = banker_after(tmp_path, ["tap 000000A1", "tap 000000A2", "choose option=free_parking_jackpot:on",
                                     "press ok", "tap 00000209", "tap 000000A1", "press luxury_tax",
                                     "tap 000000A1"])
    p1 = next(p for p in banker.view.players if p.id == "p1")
    assert p1.jail_cards == (9,) and banker.view.pot == 100 and p1.wealth == 1400


def test_a_build_under_way_survives_a_restart(tmp_path: Path) -> None:
    """docs/flows.md "Across a power cut": the build's taps and total come back with the state."""
    clock = ManualClock()
    banker = banker_after(tmp_path, [*REGISTER, *BROWN, "tap 000000A1", "press build", "tap 00000101",
                                     "tap 00000102"], clock)
    assert banker.durable is not None
    banker.durable.journal.close()
    journal = Journal.open(tmp_path / "bb.sqlite3")
    again = Banker(JournalStore(journal, "classic-us"), CardTable(), clock, seed_source=lambda: 7)
    assert again.state_name == "build"
    assert again.view.building is not None and again.view.building.steps == (1, 2) and again.view.building.total == 100
