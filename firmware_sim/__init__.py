"""Simulated reader devices on a pseudo-terminal: our bridge firmware and a PN532 chip, with faults."""
