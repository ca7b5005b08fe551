"""casino-audit's audit layer over the replayer: the event store and its hash chain
(``store``), ingest and quarantine (``ingest``), the one judging path (``judging``),
explanations, evidence bundles and incidents (``show``, ``evidence``, ``incidents``),
and the words, notation and pages people read (``wording``, ``notation``, ``pages``).
The command line is ``cli``, the console ``console``, the nightly ``pipelines``.

Importing the package does nothing else: the check against a stale compiled build is
explicit (``audit.compiled.check_build``).
"""
