"""The console's read model: the store's facts in a local SQLite index (``model``), the
queries the pages ask of it (``queries``), investigations (``investigations``), the
store as one page reads it (``pagereads``) and the status of the store's signatures
(``signatures``)."""
