"""The Ultimate Banking ruleset, one concept per module (docs/rules.md 1 and 6.2).

``ruleset.py`` assembles what the registry hands out (``RULESET``); ``rules.py`` maps each command type to
its rule.

Modules: ``turns`` (start, turn order), ``levels`` (buying, rent and levels, Location, GO), ``colour_set``
(the set bonus), ``auction``, ``jail``, ``cards`` (the 23 event cards), ``debt`` (debts and bankruptcy),
``standings`` (final ranking). Each rule is ``(check, do)``: see engine/rulesets/ultimate/base.py.
"""
