"""Every amount explained: a receipt's arithmetic equals the amount the rules charged, whatever the rent
situation (Hypothesis over owners, buildings, mortgages, the cards' rent rules, the dice, the late-game tax
and Ultimate's levels and ON THE RUN), and its words name the rule's source (docs/story.md)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import events as ev
from engine.commands import PayRent, PlayerSpec, StartGame
from engine.editions import load_edition
from engine.game import Game
from engine.receipts import money_of, walk
from engine.rulesets.classic.commands import PayTax, PayUtilityRent
from engine.rulesets.classic.receipts import receipt as classic_receipt
from engine.rulesets.ultimate.receipts import receipt as ultimate_receipt
from ui.i18n import Translator
from ui.story.names import Names
from ui.story.receipts import receipt_text

CLASSIC = load_edition("classic-us")
ULTIMATE = load_edition("ultimate-uk")
PLAYERS = (PlayerSpec("p1", "Ann"), PlayerSpec("p2", "Boris"))


def started(edition: object, **options: object) -> Game:
    game = Game(edition)  # type: ignore[arg-type]
    game.apply(StartGame(PLAYERS, {"start_money": 100_000, **options}, seed=1))
    return game


@st.composite
def classic_rents(draw: st.DrawFn) -> tuple[Game, object]:
    late = draw(st.booleans())
    game = started(CLASSIC, late_game_rent_tax=late, mortgaged_set_double_rent=draw(st.booleans()))
    s = game.state
    deed = draw(st.sampled_from(sorted(CLASSIC.deeds)))
    d = CLASSIC.deeds[deed]
    s.owner[deed] = "p2"
    for other in CLASSIC.colour_sets[d.colour]:
        if other != deed:
            who = draw(st.sampled_from(["p2", "p2", "p1", None]))
            if who is not None:
                s.owner[other] = who
                if draw(st.booleans()):
                    s.mortgaged = s.mortgaged | {other}
    if d.kind == "street" and draw(st.booleans()):
        s.level[deed] = draw(st.integers(1, 5))
    if d.kind in ("railroad", "utility") and draw(st.booleans()):
        s.card_rent = ("p1", deed, "double" if d.kind == "railroad" else "tenfold")
    if late:
        s.minute = draw(st.integers(0, 130))
    if d.kind == "utility":
        return game, PayUtilityRent("p1", deed, draw(st.integers(2, 12)))
    return game, PayRent("p1", deed)


@settings(max_examples=150, deadline=None)
@given(classic_rents())
def test_a_classic_rent_s_receipt_comes_to_the_rent_charged(case: tuple[Game, object]) -> None:
    game, command = case
    before = game.state.copy()
    events = game.apply(command)  # type: ignore[arg-type]
    paid = next(e for e in events if isinstance(e, ev.RentPaid))
    made = classic_receipt(before, CLASSIC, paid, events)
    assert made is not None and made.amount == paid.amount, (made, paid)
    tax = next((e for e in events if isinstance(e, ev.MoneyTransferred) and e.reason == "rent_tax"), None)
    assert made.term("rent_tax") == (tax.amount if tax else 0)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(ULTIMATE.deeds)), st.integers(1, 5), st.integers(0, 4))
def test_an_ultimate_rent_s_receipt_comes_to_the_rent_charged(deed: int, level: int, run: int) -> None:
    game = started(ULTIMATE)
    s = game.state
    s.owner[deed], s.level[deed], s.on_the_run = "p2", level, run
    before = s.copy()
    paid = next(e for e in game.apply(PayRent("p1", deed)) if isinstance(e, ev.RentPaid))
    made = ultimate_receipt(before, ULTIMATE, paid, ())
    assert made is not None and made.amount == paid.amount
    assert made.rule == ("rent_on_the_run" if run else "rent_level") and made.term("level") == level


def test_income_tax_as_a_share_of_worth_is_explained() -> None:
    game = started(CLASSIC, income_tax_choice=True, start_money=1730)
    income = next(pos for pos, (kind, _) in CLASSIC.extra["taxes"].items() if kind == "income")
    before = game.state.copy()
    paid = next(e for e in game.apply(PayTax("p1", income, percent=True)) if isinstance(e, ev.MoneyTransferred))
    made = classic_receipt(before, CLASSIC, paid, ())
    assert made is not None and made.amount == paid.amount == 173
    text = receipt_text(made, Names("en", "M", {}, CLASSIC, Translator("en")))
    assert text == "10 % of worth M1,730 = M173 [rules-classic.md 2; seed 001]"


def test_receipts_in_words_name_the_rule_and_its_source() -> None:
    game = started(CLASSIC)
    s = game.state
    for deed in CLASSIC.colour_sets[CLASSIC.deeds[1].colour]:
        s.owner[deed] = "p2"
    before = s.copy()
    paid = next(e for e in game.apply(PayRent("p1", 1)) if isinstance(e, ev.RentPaid))
    made = classic_receipt(before, CLASSIC, paid, ())
    assert made is not None
    said = {lang: receipt_text(made, Names(lang, "M", {}, CLASSIC, Translator(lang))) for lang in ("en", "ru", "ja")}
    assert said["en"] == "base rent M2 × 2 for the whole set = M4 [rules-classic.md 5; seed 001 l. 53]"
    assert said["ru"].startswith("базовая аренда M2 × 2 за весь набор = M4")
    assert "セット" in said["ja"]


def test_walk_gives_each_money_event_a_receipt_of_its_amount() -> None:
    game = started(CLASSIC)
    s = game.state
    s.owner[5] = "p2"
    game.apply(PayRent("p1", 5))
    for event, made in walk(CLASSIC, game.events):
        if isinstance(event, ev.RentPaid):
            assert made is not None and made.amount == money_of(event) > 0


def test_a_receipt_book_fed_reaction_by_reaction_gives_the_receipts_walk_gives() -> None:
    from engine.receipts import ReceiptBook

    game = started(CLASSIC)
    s = game.state
    for deed in (1, 2):
        s.owner[deed] = "p2"
    events = list(game.events)
    events += game.apply(PayRent("p1", 1))
    events += game.apply(PayRent("p1", 2))
    whole = list(walk(CLASSIC, events))
    fed = ReceiptBook()
    got = fed.add(events[:1]) + fed.add(events[1:2]) + fed.add(events[2:])
    assert got == whole
    resumed = ReceiptBook(CLASSIC, events[:2])
    assert resumed.add(events[2:]) == whole[2:]


def test_a_receipt_book_says_nothing_it_cannot_know_and_starts_again_at_a_new_game() -> None:
    from engine.receipts import ReceiptBook

    game = started(CLASSIC)
    game.state.owner[1] = "p2"
    events = list(game.events) + list(game.apply(PayRent("p1", 1)))
    book = ReceiptBook()
    assert all(r is None for _, r in book.add(events[1:]))  # joined mid-game: no state to read
    other = started(ULTIMATE)
    other.state.owner[1], other.state.level[1] = "p2", 2
    more = list(other.events) + list(other.apply(PayRent("p1", 1)))
    told = dict((type(e).__name__, r) for e, r in book.add(more))
    assert told["RentPaid"] is not None and told["RentPaid"].rule == "rent_level"
