"""Operators' text hand histories (GGPoker, PokerStars) into the poker family's events.

``reader`` splits a ``.txt`` file into hands and tells the rooms apart by content;
``parser`` holds the line grammar both rooms share, ``ggpoker`` and ``pokerstars`` what
differs (header, summary, room-only lines), ``headers`` the game, stakes and summary
parts they share, ``building`` turns what was read into event bodies, ``common`` money,
cards, time and player names.
"""
