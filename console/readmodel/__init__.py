"""The console's read model: the store's facts in a local SQLite index (``model``), the
queries the pages ask of it (``queries``), investigations (``investigations``), the
store as one page reads it (``pagereads``), the status of the store's signatures
(``signatures``) and the background check of new checkpoints (``chainwatch``).
Evidence bundles are built by ``audit.evidence``."""
