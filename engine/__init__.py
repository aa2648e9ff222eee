"""The boardbank engine: editions, money, rules, the game aggregate, the banker state machine, the journal.

Pure (docs/architecture.md): no I/O except the journal store, no wall clock, no global randomness.
"""
