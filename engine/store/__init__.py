"""Where games are kept: the SQLite journal (``journal``), the durable game (``durable``), the banker's
game store (``gamestore``). The only I/O of the engine."""
