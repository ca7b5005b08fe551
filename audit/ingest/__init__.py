"""Ingest: convert external hand-history formats (PHH) into the project's events."""
