"""``casino-audit``: the command line, the outermost layer (nothing imports it).

Modules, one group of commands each: ``main`` (the parser and the error guard),
``common`` (exit codes, ``CannotRun``, opening the store), ``store`` (ingest, verify,
checkpoint, keygen, quarantine), ``judging`` (replay, findings, show), ``nightly``
(nightly, demo), ``incident``, ``db`` (set-up and roles), ``console`` (serve, user,
verify-evidence).
"""
