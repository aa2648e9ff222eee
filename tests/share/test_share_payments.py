"""What the phone page says about each journal entry: what a payment was for, a bankruptcy's settlement, a
receipt per payment, and Ultimate's rent level and rent on the board, in every language the unit speaks.
Amounts in money units (M).

The tests through :func:`event_message` hold whatever ui/share/told.py's ``tell()`` uses (today
ui/share/payments.py, later the story module); those of the exact words call ui/share/payments.py's
:func:`fallback` itself."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import events as ev
from engine.banker.viewmodel import PlayerView, SpaceView, ViewModel
from engine.rulesets.classic import events as cev
from engine.rulesets.ultimate import events as uev
from ui.i18n import LANGUAGES, Translator
from ui.share import render
from ui.share.payments import PURPOSES, REASONS, Told, fallback
from ui.share.render import event_message, view_message
from ui.share.stream import Hub, Subscriber

PLAYERS = (PlayerView("p1", "Ann", "red", 1500, 1700), PlayerView("p2", "Chiara", "blue", 0, 0, bankrupt=True))
BOARD = (SpaceView(1, "deed", "Old Kent Road", deed=1, colour="brown", price=60, owner="p1", level=3, rent=90),
         SpaceView(3, "deed", "Whitechapel Road", deed=2, colour="brown", price=60))
BARE = re.compile(r"^[^:：]+ » [^:：]+[:：] \S+$")  # "Chiara » Bank: M100", with nothing of what it was for


def view(edition: str = "ultimate-uk") -> ViewModel:
    return ViewModel(state="idle", edition=edition, currency="M", players=PLAYERS, board=BOARD, phase="play")


def said(event: object, view: ViewModel, lang: str) -> dict[str, str]:
    """ui/share/payments.py's words for ``event`` (what the page gets until the story module tells it)."""
    told = fallback(event, view, lang)
    return {"kind": told.kind, "text": told.text, "receipt": told.receipt}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bankruptcy_shows_the_cash_and_the_banks_share_handed_to_the_creditor(lang: str) -> None:
    gone = ev.PlayerBankrupt(seq=47, command=30, player="p2", creditor="p1", paid=514, covered=164)  # type: ignore[call-arg]
    msg = event_message(gone, view(), lang)
    assert msg["kind"] == "bankruptcy"
    assert "M514" in msg["text"] and "M164" in msg["text"] and "Ann" in msg["text"] and "Chiara" in msg["text"]
    assert "M678" in msg["receipt"] and "M514" in msg["receipt"] and "M164" in msg["receipt"]  # 514 + 164
    to_bank = ev.PlayerBankrupt(seq=48, command=31, player="p2", creditor="bank", paid=129, covered=0)  # type: ignore[call-arg]
    assert "M129" in event_message(to_bank, view("classic-us"), lang)["text"]
    assert Translator(lang).text("word.bank", lang) in said(to_bank, view("classic-us"), lang)["text"]


PAYMENTS = [
    cev.BuildingBought(seq=5, command=3, player="p1", deed=1, level=3, cost=50),  # type: ignore[call-arg]
    cev.BuildingSold(seq=6, command=4, player="p1", deed=1, level=5, refund=25),  # type: ignore[call-arg]
    cev.DeedMortgaged(seq=7, command=5, player="p1", deed=1, amount=30),  # type: ignore[call-arg]
    cev.MortgageLifted(seq=8, command=6, player="p1", deed=1, cost=33),  # type: ignore[call-arg]
    cev.MortgageFeePaid(seq=9, command=7, player="p1", deed=1, amount=3),  # type: ignore[call-arg]
    ev.MoneyTransferred(seq=10, command=8, payer="p1", payee="bank", amount=100, reason="income_tax"),  # type: ignore[call-arg]
    ev.MoneyTransferred(seq=11, command=9, payer="p1", payee="bank", amount=50, reason="jail_fee"),  # type: ignore[call-arg]
    ev.MoneyTransferred(seq=12, command=10, payer="bank", payee="p1", amount=200, reason="card"),  # type: ignore[call-arg]
    ev.RentPaid(seq=13, command=11, payer="p2", owner="p1", deed=1, amount=90),  # type: ignore[call-arg]
    ev.DeedBought(seq=14, command=12, player="p1", deed=1, price=60),  # type: ignore[call-arg]
    ev.SalaryPaid(seq=15, command=13, player="p1", amount=200),  # type: ignore[call-arg]
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_payment_says_what_it_was_for_and_where(lang: str) -> None:
    kinds = set()
    for event in PAYMENTS:
        msg = said(event, view("classic-us"), lang)
        kinds.add(msg["kind"])
        assert msg["text"] and not BARE.match(msg["text"]), msg["text"]
        if hasattr(event, "deed"):
            assert "Old Kent Road" in msg["text"], msg["text"]  # the place it was for
    assert {"building", "building_sold", "mortgage", "mortgage_lifted", "mortgage_fee", "tax", "jail", "card",
            "rent", "purchase", "salary"} <= kinds


def test_ultimates_own_payments_are_read_through_its_hooks() -> None:
    trip = uev.LocationUsed(seq=20, command=14, player="p1", deed=2, fee=100)  # type: ignore[call-arg]
    back = uev.DeedReturned(seq=21, command=15, player="p1", deed=1, price=60)  # type: ignore[call-arg]
    assert said(trip, view(), "en")["text"] == "Trip to Whitechapel Road: Ann » Bank: M100"
    assert said(back, view(), "en")["text"] == "Old Kent Road returned to the Bank: Bank » Ann: M60"
    assert event_message(trip, view(), "en")["kind"] == "location"


def test_each_payment_has_a_receipt_and_an_entry_without_money_has_no_words() -> None:
    for event in PAYMENTS:
        assert event_message(event, view("classic-us"), "en")["receipt"]  # every payment has one
        receipt = said(event, view("classic-us"), "en")["receipt"]
        assert receipt.startswith(f"Journal entry {event.seq} · ") and "M" in receipt
    built = said(PAYMENTS[0], view("classic-us"), "en")["receipt"]
    assert built.endswith("now 3 houses"), built
    assert said(PAYMENTS[1], view("classic-us"), "ru")["receipt"].endswith("теперь отель")
    quiet = ev.TurnEnded(seq=30, command=20, player="p1", next_player="p2")  # type: ignore[call-arg]
    assert said(quiet, view(), "ja") == {"kind": "", "text": "", "receipt": ""}
    assert event_message(quiet, view(), "ja")["kind"] == "" and event_message(quiet, view(), "ja")["receipt"] == ""


def test_every_purpose_and_its_place_form_are_in_every_catalog() -> None:
    tr = Translator("en")
    purposes = set(PURPOSES.values()) | set(REASONS.values()) | {"payment"}
    for lang in LANGUAGES:
        for kind in purposes:
            assert tr.has(f"share.for.{kind}", lang), (lang, kind)
            if tr.has(f"share.for.{kind}_at", "en"):
                assert "Mayfair" in tr.text(f"share.for.{kind}_at", lang, place="Mayfair"), (lang, kind)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ultimates_rent_level_and_rent_are_on_the_board(lang: str) -> None:
    owned, free = view_message(view(), lang)["board"]
    assert "3" in owned["rent_level"] and "M90" in owned["rent_text"] and owned["rent"] == "M90"
    assert free["rent_level"] == "" and free["rent_text"] == ""  # no owner, no rent
    classic = view_message(view("classic-us"), lang)["board"][0]
    assert classic["rent_level"] == "" and "M90" in classic["rent_text"]  # classic shows its buildings instead


def test_the_page_gets_what_the_adapter_tells(monkeypatch: pytest.MonkeyPatch) -> None:
    """ui/share/told.py's tell() is the one source of an entry's words: the stream sends what it returns."""
    seen: list[int] = []

    def tell(event: object, game_events: object, view: object, lang: str) -> Told:
        seen.append(len(game_events))  # type: ignore[arg-type]
        return Told("rent", f"story {lang}", "receipt")

    monkeypatch.setattr(render, "tell", tell)
    hub = Hub()
    hub.update(1, "T", tuple(PAYMENTS[:3]), view())
    chunk = hub.join(Subscriber("ro", 16), 0).decode()
    assert chunk.count('"text":"story ro"') == 3 and chunk.count('"receipt":"receipt"') == 3
    assert seen == [3, 3, 3]  # each call sees the game's events the share holds


@settings(max_examples=60, deadline=None)
@given(amount=st.integers(min_value=1, max_value=10**6), reason=st.sampled_from([*sorted(REASONS), "other", ""]),
       payer=st.sampled_from(["p1", "p2", "bank", "pot"]), payee=st.sampled_from(["p1", "p2", "bank", "pot"]),
       lang=st.sampled_from(LANGUAGES))
def test_any_money_transfer_says_its_amount_and_what_it_was_for(amount: int, reason: str, payer: str, payee: str,
                                                               lang: str) -> None:
    moved = ev.MoneyTransferred(seq=3, command=2, payer=payer, payee=payee, amount=amount, reason=reason)  # type: ignore[call-arg]
    msg = said(moved, view(), lang)
    money = render.money(amount, "M", lang)
    assert msg["kind"] == REASONS.get(reason, "payment")
    assert money in msg["text"] and money in msg["receipt"] and not BARE.match(msg["text"])
    assert msg["text"].startswith(Translator(lang).text(f"share.for.{msg['kind']}", lang))
