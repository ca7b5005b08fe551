"""Great Expectations suites run over each day's events before replay.

``frames`` turns flat events into pandas frames (events, hands or rounds,
cards, meters); ``suites`` declares the checks per family and frame (completeness,
unique event ids, value ranges, references to the opening event, chip conservation);
``profile`` summarises what the report plots (rake per table). ``pipelines.quality``
runs them with an ephemeral GX context and turns every failing row into a
``data_quality`` finding.
"""
