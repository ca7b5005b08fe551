"""Which stored subjects go together: the rounds of one table, the hands of one
tournament (``subject_index``, ``tournament_hands``), read from the store for the pages
and judgements that span them."""
