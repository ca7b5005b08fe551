"""Ingest: every input a room or operator sends (Avro event files, PHH, GGPoker and
PokerStars text) read within limits into the project's events, stored in two passes
(``pipeline``), a bad record quarantined with a message naming file, record and field."""
