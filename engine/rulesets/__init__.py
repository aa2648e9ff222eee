"""Rulesets: one folder per ruleset (``ultimate/``), found by name through :mod:`engine.rulesets.registry`."""
