"""Houses, hotels and mortgages (docs/rules-classic.md 6, 7; docs/rules.md 3.1, 6.3).

Building: on a street whose owner holds the whole colour set with no deed of it mortgaged, one building at
a time, evenly (``even_build``: a deed gets the next building only if no deed of its set has fewer), from the
Bank's ``houses_in_bank`` houses and ``hotels_in_bank`` hotels; the hotel comes after 4 houses (3 in the
short game) and gives them back to the Bank. When the Bank is short and several players want the last
buildings, ``OpenBuildingAuction`` auctions one (seed 000, «Нехватка зданий»); the winner places it at the
price they bid. Selling back: evenly, at ``house_sell_price`` percent of the cost; a hotel sells as one
building and comes back as houses (the Bank must have them). Mortgages: the printed value; lifting costs it
plus 10 %; a deed whose colour set has buildings cannot be mortgaged. Amounts in money units.
"""

from __future__ import annotations

from typing import Final

from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.base import MORTGAGE_INTEREST, Table, check_owner, check_phase, check_player
from engine.rulesets.classic.commands import (
    BuildHouse,
    LiftMortgage,
    MortgageDeed,
    OpenBuildingAuction,
    SellBuilding,
)
from engine.rulesets.classic.state import HOTEL, ClassicState
from engine.rulesets.classic.turnlimits import before_roll_refusal

KINDS: Final = ("house", "hotel")


def height(s: ClassicState, level: int) -> int:
    """A level as a count of buildings for evenness (a hotel counts one more than the houses it needs)."""
    return s.options.houses_per_hotel + 1 if level == HOTEL else level


def next_kind(s: ClassicState, deed: int) -> str:
    """What the next building on ``deed`` is: ``"house"``, ``"hotel"`` or ``""`` (a hotel stands)."""
    level = s.level.get(deed, 0)
    if level == HOTEL:
        return ""
    return "hotel" if level == s.options.houses_per_hotel else "house"


def houses_left(s: ClassicState) -> int:
    """Houses still in the Bank."""
    return s.options.houses_in_bank - s.houses_used()


def hotels_left(s: ClassicState) -> int:
    """Hotels still in the Bank."""
    return s.options.hotels_in_bank - s.hotels_used()


def _build_refusal(s: ClassicState, ed: Edition, player: str, deed: int, what: str) -> Refusal | None:
    """Why ``player`` may not put the next building on ``deed`` now (supply and cash aside). The colour set
    is read in one pass (whole, unmortgaged, the lowest height); the refusals keep their order."""
    d = ed.deeds[deed]
    if d.kind != "street":
        return refuse("not_a_street", f"{what}: deed {deed} is a {d.kind}; only streets take buildings",
                      command=what, deed=deed)
    owner, mortgaged, levels = s.owner, s.mortgaged, s.level
    top = s.options.houses_per_hotel + 1  # height() of a hotel
    whole, lent, low = True, False, top
    for m in ed.colour_sets[d.colour]:
        if owner.get(m) != player:
            whole = False
            break
        if m in mortgaged:
            lent = True
        h = levels.get(m, 0)
        h = top if h == HOTEL else h
        if h < low:
            low = h
    if not whole:
        return refuse("set_incomplete", f"{what}: {player} does not hold the whole {d.colour} set",
                      command=what, player=player, colour=d.colour)
    if lent:
        return refuse("set_mortgaged", f"{what}: a deed of the {d.colour} set is mortgaged", command=what,
                      colour=d.colour)
    now = levels.get(deed, 0)
    if now == HOTEL:
        return refuse("hotel_built", f"{what}: deed {deed} already has a hotel", command=what, deed=deed)
    if s.options.even_build and now > low:
        return refuse("build_unevenly", f"{what}: build evenly; another {d.colour} deed has fewer buildings",
                      command=what, deed=deed, colour=d.colour)
    return None


def buildable(s: ClassicState, ed: Edition, player: str, kind: str) -> list[int]:
    """Streets where ``player`` may put a ``kind`` next (rules only; supply and cash aside)."""
    return [n for n, o in s.owner.items() if o == player and ed.deeds[n].kind == "street"
            and next_kind(s, n) == kind and _build_refusal(s, ed, player, n, "") is None]


def check_build(s: ClassicState, ed: Edition, cmd: BuildHouse) -> Refusal | None:
    """BuildHouse: the rules above, a building in the Bank and the cash (or the won auction's price)."""
    what = "BuildHouse"
    if s.phase == "place":
        assert s.credit is not None
        if cmd.player != s.credit[0]:
            return refuse("not_the_winner", f"{what}: {s.credit[0]} places the building won at auction",
                          command=what, player=cmd.player, winner=s.credit[0])
    else:
        reason = check_phase(s, "play", what)
        if reason:
            return reason
    reason = check_player(s, cmd.player, what) or check_owner(s, ed, cmd.player, cmd.deed, what)
    reason = reason or _build_refusal(s, ed, cmd.player, cmd.deed, what)
    if reason:
        return reason
    if s.phase == "play" and (s.options.build_before_roll or s.options.one_house_per_set):
        reason = _turn_limits(s, ed, cmd.player, cmd.deed, what)
        if reason:
            return reason
    kind = next_kind(s, cmd.deed)
    if s.credit is not None and kind != s.credit[1]:
        return refuse("wrong_building", f"{what}: the building won is a {s.credit[1]}, deed {cmd.deed} needs a {kind}",
                      command=what, deed=cmd.deed, kind=kind)
    houses, hotels = s.buildings_used()
    opts = s.options
    left = opts.houses_in_bank - houses if kind == "house" else opts.hotels_in_bank - hotels
    if left <= 0:
        return refuse("bank_out_of_buildings", f"{what}: the Bank has no {kind} left", command=what, kind=kind)
    cost = s.credit[2] if s.credit is not None else ed.deeds[cmd.deed].house_cost
    if s.ledger.balances[cmd.player] < cost:
        return refuse("short_of_cash", f"{what}: {cmd.player} has {s.ledger.balances[cmd.player]}, the {kind} "
                      f"costs {cost}", command=what, player=cmd.player, cash=s.ledger.balances[cmd.player], price=cost)
    return None


def _turn_limits(s: ClassicState, ed: Edition, player: str, deed: int, what: str) -> Refusal | None:
    """The second text (seed 000 l. 146, seed 002 l. 71): buildings bought before rolling, one per set a turn."""
    if s.options.build_before_roll:
        reason = before_roll_refusal(s, player, "build_before_roll", what)
        if reason:
            return reason
    colour = ed.deeds[deed].colour
    if s.options.one_house_per_set and f"built:{colour}" in s.marks:
        return refuse("one_house_per_set", f"{what}: one house per set per turn: the {colour} set got one this turn "
                      "(second text)", command=what, player=player, colour=colour)
    return None


def do_build(t: Table, cmd: BuildHouse) -> None:
    """One more building: a house, or the hotel (its houses go back to the Bank)."""
    s = t.state
    placing = s.credit is not None
    cost = s.credit[2] if s.credit is not None else t.edition.deeds[cmd.deed].house_cost
    level = HOTEL if next_kind(s, cmd.deed) == "hotel" else s.level.get(cmd.deed, 0) + 1
    t.emit(cev.BuildingBought, cmd.player, cmd.deed, level, cost)
    if s.options.one_house_per_set and not placing:
        t.emit(cev.TurnMarked, cmd.player, f"built:{t.edition.deeds[cmd.deed].colour}")


def _check_raise(s: ClassicState, ed: Edition, player: str, deed: object, what: str) -> Refusal | None:
    """Selling and mortgaging: phase play (anyone) or debt (the debtor), and the player's own deed."""
    if s.phase == "debt":
        debtor = s.debts[0].debtor
        if player != debtor:
            return refuse("not_the_debtor", f"{what}: only {debtor} may raise money now", command=what,
                          player=player, debtor=debtor)
    else:
        reason = check_phase(s, "play", what)
        if reason:
            return reason
    return check_player(s, player, what) or check_owner(s, ed, player, deed, what)


def sell_refund(s: ClassicState, ed: Edition, deed: int) -> int:
    """What the Bank pays for one building of ``deed`` (``house_sell_price`` percent of its cost)."""
    return ed.deeds[deed].house_cost * s.options.house_sell_price // 100


def check_sell(s: ClassicState, ed: Edition, cmd: SellBuilding) -> Refusal | None:
    """SellBuilding: the owner's built street, evenly, and houses in the Bank to break a hotel."""
    what = "SellBuilding"
    reason = _check_raise(s, ed, cmd.player, cmd.deed, what)
    if reason:
        return reason
    level = s.level.get(cmd.deed, 0)
    if not level:
        return refuse("no_buildings", f"{what}: deed {cmd.deed} has no buildings", command=what, deed=cmd.deed)
    d = ed.deeds[cmd.deed]
    if s.options.even_build:
        top = max(height(s, s.level.get(m, 0)) for m in ed.colour_sets[d.colour])
        if height(s, level) < top:
            return refuse("sell_unevenly", f"{what}: sell evenly; another {d.colour} deed has more buildings",
                          command=what, deed=cmd.deed, colour=d.colour)
    return None


def hotel_breakdown(s: ClassicState, ed: Edition, deed: int) -> dict[int, int]:
    """Selling the hotel of ``deed`` when the Bank lacks the houses it comes back as (seed 000 l. 57, 412;
    seed 002 l. 177: it cannot be "replaced with houses", but it can be sold): street -> its new level.
    The street keeps the houses the Bank has; with ``even_build`` the set comes down with it to stay even
    (the most buildings kept that the Bank's houses allow; every building taken off is sold)."""
    hph = s.options.houses_per_hotel
    left = houses_left(s)
    if not s.options.even_build:
        return {deed: min(left, hph - 1)}
    members = ed.colour_sets[ed.deeds[deed].colour]
    others = [m for m in members if m != deed]
    standing = sum(s.level.get(m, 0) for m in others if s.level.get(m, 0) < HOTEL)
    for low in range(hph - 1, -1, -1):
        for cap in (low + 1, low):
            new = {m: min(height(s, s.level.get(m, 0)), cap) for m in others}
            if low + sum(new.values()) > left + standing:
                continue
            out = {m: v for m, v in new.items() if v != s.level.get(m, 0)}
            out[deed] = low
            return out
    return {m: 0 for m in members if s.level.get(m)}  # unreachable: low 0, cap 0 always fits


def do_sell(t: Table, cmd: SellBuilding) -> None:
    """The Bank pays the refund; a hotel becomes houses again, or, with the Bank short of houses, it is sold
    with the houses the Bank cannot give back (and, building evenly, the set comes down with it)."""
    s, ed = t.state, t.edition
    level = s.level[cmd.deed]
    hph = s.options.houses_per_hotel
    if level == HOTEL and houses_left(s) < hph:
        for deed, new in sorted(hotel_breakdown(s, ed, cmd.deed).items()):
            sold = height(s, s.level.get(deed, 0)) - new
            t.emit(cev.BuildingSold, cmd.player, deed, new, sell_refund(s, ed, deed) * sold)
        return
    new = hph if level == HOTEL else level - 1
    t.emit(cev.BuildingSold, cmd.player, cmd.deed, new, sell_refund(s, ed, cmd.deed))


def check_mortgage(s: ClassicState, ed: Edition, cmd: MortgageDeed) -> Refusal | None:
    """MortgageDeed: the owner's unmortgaged deed, no buildings on its colour set."""
    what = "MortgageDeed"
    reason = _check_raise(s, ed, cmd.player, cmd.deed, what)
    if reason:
        return reason
    if cmd.deed in s.mortgaged:
        return refuse("already_mortgaged", f"{what}: deed {cmd.deed} is already mortgaged", command=what,
                      deed=cmd.deed)
    colour = ed.deeds[cmd.deed].colour
    if any(s.level.get(m) for m in ed.colour_sets[colour]):
        return refuse("set_has_buildings", f"{what}: sell the buildings of the {colour} set first", command=what,
                      deed=cmd.deed, colour=colour)
    return None


def do_mortgage(t: Table, cmd: MortgageDeed) -> None:
    """The Bank lends the printed mortgage value."""
    t.emit(cev.DeedMortgaged, cmd.player, cmd.deed, t.edition.deeds[cmd.deed].mortgage)


def lift_cost(s: ClassicState, ed: Edition, deed: int) -> int:
    """The mortgage plus 10 % (rounded up), or the mortgage alone right after the transfer fee was paid; with
    ``lift_at_full_value`` the printed price instead of the mortgage (seed 000 l. 158, seed 002 l. 83)."""
    m = ed.deeds[deed].price if s.options.lift_at_full_value else ed.deeds[deed].mortgage
    return m if deed in s.fresh else m + (m * MORTGAGE_INTEREST + 99) // 100


def check_lift(s: ClassicState, ed: Edition, cmd: LiftMortgage) -> Refusal | None:
    """LiftMortgage: phase play, the owner's mortgaged deed, enough cash."""
    what = "LiftMortgage"
    reason = check_phase(s, "play", what) or check_player(s, cmd.player, what)
    reason = reason or check_owner(s, ed, cmd.player, cmd.deed, what)
    if reason:
        return reason
    if cmd.deed not in s.mortgaged:
        return refuse("not_mortgaged", f"{what}: deed {cmd.deed} is not mortgaged", command=what, deed=cmd.deed)
    cost = lift_cost(s, ed, cmd.deed)
    if s.ledger.balances[cmd.player] < cost:
        return refuse("short_of_cash", f"{what}: {cmd.player} has {s.ledger.balances[cmd.player]}, lifting "
                      f"costs {cost}", command=what, player=cmd.player, cash=s.ledger.balances[cmd.player], price=cost)
    return None


def do_lift(t: Table, cmd: LiftMortgage) -> None:
    """The owner repays the Bank."""
    t.emit(cev.MortgageLifted, cmd.player, cmd.deed, lift_cost(t.state, t.edition, cmd.deed))


def building_bidders(s: ClassicState, ed: Edition, kind: str) -> tuple[str, ...]:
    """Players who could put a ``kind`` on one of their streets now and afford its printed cost."""
    out = []
    for p in s.order:
        if p in s.bankrupt:
            continue
        spots = buildable(s, ed, p, kind)
        if spots and s.ledger.balances[p] >= min(ed.deeds[d].house_cost for d in spots):
            out.append(p)
    return tuple(out)


def check_building_auction(s: ClassicState, ed: Edition, cmd: OpenBuildingAuction) -> Refusal | None:
    """OpenBuildingAuction: phase play, a real shortage: fewer ``kind`` left than players wanting one (>= 2)."""
    what = "OpenBuildingAuction"
    reason = check_phase(s, "play", what)
    if reason:
        return reason
    if cmd.kind not in KINDS:
        return refuse("bad_building_kind", f"{what}: expected one of {KINDS}, got {cmd.kind!r}", command=what,
                      kind=cmd.kind)
    left = houses_left(s) if cmd.kind == "house" else hotels_left(s)
    wanting = building_bidders(s, ed, cmd.kind)
    if left <= 0 or len(wanting) < 2 or left >= len(wanting):
        return refuse("no_shortage", f"{what}: {left} {cmd.kind}(s) left for {len(wanting)} player(s) who can build;"
                      " an auction needs at least one left and more players than that", command=what,
                      kind=cmd.kind, left=left, wanting=len(wanting))
    return None


def do_building_auction(t: Table, cmd: OpenBuildingAuction) -> None:
    """Open the auction of one building among the players who want one."""
    t.emit(cev.BuildingAuctionOpened, cmd.kind, building_bidders(t.state, t.edition, cmd.kind))
