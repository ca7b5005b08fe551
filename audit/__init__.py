"""casino-audit: store, ingest, quarantine, hash chain, command line."""
