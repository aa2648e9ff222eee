"""The classic Monopoly ruleset: houses, hotels, mortgages, stations, utilities, taxes, Chance and
Community Chest, jail cards, auctions, trades and bankruptcy (docs/rules-classic.md, docs/rules.md 3, 5, 6.3).

The package exports nothing itself; the registry imports :mod:`engine.rulesets.classic.ruleset`.
"""
