"""The simulator: bots play whole games through the engine's commands (``runner``)."""
