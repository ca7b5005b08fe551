"""Notation for people: money as people read it (``money.format_money``, and the
play-chip currencies) and names escaped so a hostile one stays harmless in a terminal,
CSV or a shell (``escape``). Imports nothing of the project but the standard library."""
