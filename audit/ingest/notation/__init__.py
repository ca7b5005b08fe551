"""How the inputs write cards, amounts and times: read here once for PHH
(``audit.ingest.phh``) and the rooms' text (``audit.ingest.room_text``) alike."""
