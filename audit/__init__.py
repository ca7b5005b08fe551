"""casino-audit: store, ingest, quarantine, hash chain, command line.

Importing the package checks that no compiled module of the ingest path
(``audit.compiled``) is older than its source.
"""

from audit.compiled import check_ingest_sources

check_ingest_sources()
