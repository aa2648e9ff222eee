"""The colour-set bonus (docs/rules.md 1.9, 6.2; option ``colour_set_bonus``).

When the last unowned deed of a colour set is acquired from the Bank (bought or won at auction), every
deed of the set goes up one level, two if one player owns the whole set, capped at 5. It fires once per
set per game: a set completed again later (after a deed went back to the Bank) gets nothing.
"""

from __future__ import annotations

from engine.rulesets.ultimate import events as uev
from engine.rulesets.ultimate.base import MAX_LEVEL, Table


def after_acquisition(t: Table, deed: int) -> None:
    """Apply the bonus if acquiring ``deed`` from the Bank completed its set for the first time."""
    s = t.state
    if not s.options.colour_set_bonus:
        return
    colour = t.edition.deeds[deed].colour
    if colour in s.bonus_done:
        return
    members = t.edition.colour_sets[colour]
    owners = {s.owner.get(d) for d in members}
    if None in owners:
        return
    steps = 2 if len(owners) == 1 else 1
    t.emit(uev.ColourSetBonusApplied, colour, steps)
    for d in members:
        old = s.level[d]
        new = min(MAX_LEVEL, old + steps)
        if new != old:
            t.emit(uev.LevelChanged, d, old, new)
