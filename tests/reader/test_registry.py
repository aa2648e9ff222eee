"""The card registry: roles, refusals, persistence across opens, the guided enrolment."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from reader.registry import CardRegistry, EnrollmentGuide, RegistryError, check_role, parse_number, parse_role


def test_enroll_lookup_any_spelling(tmp_path: Path) -> None:
    reg = CardRegistry.open(tmp_path / "bb.sqlite3")
    card = reg.enroll("04:a2:2b:1c", "deed", 16)
    assert card.uid == "04A22B1C"
    assert reg.lookup("04 A2 2B 1C") == ("deed", 16)
    assert reg("04a22b1c") == ("deed", 16)
    assert reg.lookup("DEADBEEF") is None
    assert reg.lookup("not a uid") is None


def test_role_survives_reopen_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "bb.sqlite3"
    reg = CardRegistry.open(path)
    reg.enroll("01020304", "player", 1)
    reg.enroll("01020305", "banker")
    reg.close()
    again = CardRegistry.open(path)
    assert again.lookup("01020304") == ("player", 1)
    assert again.lookup("01020305") == ("banker", None)
    assert len(again) == 2
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_uid_of_another_role_is_refused_with_message() -> None:
    reg = CardRegistry.in_memory()
    reg.enroll("01020304", "player", 1)
    with pytest.raises(RegistryError, match=r"already enrolled as player 1.*deed 3"):
        reg.enroll("01020304", "deed", 3)
    assert reg.lookup("01020304") == ("player", 1)
    assert reg.enroll("01020304", "player", 1).role == ("player", 1)  # same role: no-op


def test_taken_role_refused_unless_replace() -> None:
    reg = CardRegistry.in_memory()
    reg.enroll("01020304", "deed", 1)
    with pytest.raises(RegistryError, match="deed 1 is already card 01020304"):
        reg.enroll("0A0B0C0D", "deed", 1)
    reg.enroll("0A0B0C0D", "deed", 1, replace=True)
    assert reg.lookup("01020304") is None
    assert reg.holder("deed", 1) == "0A0B0C0D"


@pytest.mark.parametrize(
    ("kind", "value", "match"),
    [("wizard", 1, "unknown card kind"), ("deed", 29, r"1\.\.28"), ("player", None, "needs a number"),
     ("banker", 1, "has no number"), ("event", 0, r"1\.\.32"), ("event", 33, r"1\.\.32"),
     ("player", 9, r"1\.\.8"), ("player", True, "needs a number")],
)
def test_bad_roles(kind: str, value: int | None, match: str) -> None:
    with pytest.raises(RegistryError, match=match):
        check_role(kind, value)


def test_parse_role() -> None:
    assert parse_role(["deed", "16"]) == ("deed", 16)
    assert parse_role(["banker"]) == ("banker", None)
    with pytest.raises(RegistryError, match="integer"):
        parse_role(["deed", "x"])
    with pytest.raises(RegistryError, match="ROLE"):
        parse_role([])


@pytest.mark.parametrize("text", ["+16", " 16", "1_6", "\u0661\u0666", "\u00b2", "16.0", "-1", ""])
def test_parse_role_takes_ascii_digits_only(text: str) -> None:
    """int() accepts a sign, spaces, "_" and other scripts' digits; a card number is digits 0-9 only."""
    with pytest.raises(RegistryError, match="digits 0-9"):
        parse_role(["deed", text])


@pytest.mark.parametrize("text", ["0", "9", "x", "+3", " 3", "\u0663", "\u00b3", "3.0", ""])
def test_parse_number_strict_and_in_range(text: str) -> None:
    with pytest.raises(RegistryError, match=r"^PLAYERS must be a whole number 1\.\.8, got ") as info:
        parse_number(text, "PLAYERS", 1, 8)
    assert "\n" not in str(info.value)
    assert parse_number("8", "PLAYERS", 1, 8) == 8 and parse_number("01", "PLAYERS", 1, 8) == 1


def test_forget_and_list_order() -> None:
    reg = CardRegistry.in_memory()
    reg.enroll("0000000A", "banker")
    reg.enroll("0000000B", "deed", 2)
    reg.enroll("0000000C", "player", 2)
    reg.enroll("0000000D", "player", 1)
    assert [c.label() for c in reg.cards()] == ["player 1", "player 2", "deed 2", "banker"]
    assert reg.forget("0000000b").label() == "deed 2"
    with pytest.raises(RegistryError, match="not enrolled"):
        reg.forget("0000000B")


def test_bad_uid_refused() -> None:
    with pytest.raises(ValueError, match="not a card UID"):
        CardRegistry.in_memory().enroll("xyz", "banker")


def test_registry_does_not_touch_other_tables(tmp_path: Path) -> None:
    path = tmp_path / "bb.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, body TEXT)")
    other.execute("INSERT INTO events VALUES (1, 'x')")
    other.commit()
    reg = CardRegistry.open(path)
    reg.enroll("01020304", "player", 1)
    assert other.execute("SELECT body FROM events").fetchall() == [("x",)]


def test_guided_enrolment() -> None:
    reg = CardRegistry.in_memory()
    reg.enroll("000000FF", "player", 2)  # already enrolled: skipped
    guide = EnrollmentGuide(reg, [("player", 1), ("player", 2), ("deed", 1)], {("deed", 1): "Old Kent Road"})
    assert guide.remaining == 2
    step = guide.step()
    assert step is not None and (step.kind, step.value, step.prompt) == ("player", 1, "enroll.tap_player")
    with pytest.raises(RegistryError):
        guide.offer("000000FF")  # already player 2
    assert guide.remaining == 2
    guide.offer("00000001")
    step = guide.step()
    assert step is not None and dict(step.params)["name"] == "Old Kent Road"
    guide.offer("00000002")
    assert guide.done and guide.step() is None
    assert reg.lookup("00000002") == ("deed", 1)
    with pytest.raises(RegistryError, match="complete"):
        guide.offer("00000003")


def test_standard_plan_covers_the_box() -> None:
    guide = EnrollmentGuide.standard(CardRegistry.in_memory(), players=4)
    assert guide.remaining == 4 + 22 + 23 + 1


def test_classic_box_order_without_cards() -> None:
    """The classic box (docs/rules-classic.md; engine/editions/board-classic.toml): bank cards, the 28 deeds
    by number, then the banker card; no Chance or Community Chest card when they are not wanted."""
    guide = EnrollmentGuide.box(CardRegistry.in_memory(), players=3, deeds=28, events=0)
    assert guide.plan == (("player", 1), ("player", 2), ("player", 3),
                          *(("deed", n) for n in range(1, 29)), ("banker", None))


def test_classic_box_order_with_cards_skips_enrolled() -> None:
    reg = CardRegistry.in_memory()
    reg.enroll("0A000001", "deed", 28)
    reg.enroll("0A000002", "event", 17)  # Community Chest card 1 (id 16 + 1)
    reg.enroll("0A000003", "banker")
    guide = EnrollmentGuide.box(reg, players=2, deeds=28, events=32)
    assert guide.plan == (("player", 1), ("player", 2), *(("deed", n) for n in range(1, 28)),
                          *(("event", n) for n in range(1, 33) if n != 17))
    assert guide.remaining == 2 + 27 + 31


def test_box_counts_are_checked() -> None:
    with pytest.raises(RegistryError, match=r"0\.\.28 deed cards, got 29"):
        EnrollmentGuide.box(CardRegistry.in_memory(), deeds=29)
    with pytest.raises(RegistryError, match=r"0\.\.8 player cards, got 9"):
        EnrollmentGuide.box(CardRegistry.in_memory(), players=9)


def test_guide_refuses_a_uid_enrolled_as_another_card_and_writes_nothing() -> None:
    reg = CardRegistry.in_memory()
    guide = EnrollmentGuide.box(reg, players=0, deeds=28, events=32, banker=False)
    guide.offer("04A1B2C3")  # deed 1
    before = [c.role for c in reg.cards()]
    with pytest.raises(RegistryError) as info:
        guide.offer("04:a1:b2:c3")  # the same card again, for deed 2
    assert str(info.value) == ("card 04A1B2C3 is already enrolled as deed 1; forget it before enrolling it "
                               "as deed 2")
    step = guide.step()
    assert [c.role for c in reg.cards()] == before
    assert step is not None and (step.kind, step.value) == ("deed", 2)


def test_a_refused_role_is_said_with_the_right_article() -> None:
    """"an event card", never "a event card" (the issue's example)."""
    with pytest.raises(RegistryError, match=r"^an event card needs a number 1\.\.32, got 0$"):
        check_role("event", 0)
    with pytest.raises(RegistryError, match=r"^a deed card needs a number"):
        check_role("deed", None)
