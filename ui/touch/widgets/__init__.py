"""Shared widgets: auto-fitting labels, balance tiles, the keypad, the board, the wealth chart, the card tray."""
