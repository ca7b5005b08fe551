"""Deterministic, pure re-adjudication of poker hands, banked rounds and slot meters. Imports nothing from audit or pipelines."""
