"""casino-audit: store, ingest, quarantine, hash chain, command line.

Importing the package does nothing else: the check against a stale compiled build is
explicit (``audit.compiled.check_build``).
"""
