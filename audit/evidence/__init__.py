"""Evidence a court can check: one JSON bundle per subject with its stored events, its
verdict and the proof linking them to a signed checkpoint.

* ``bundle``: building a bundle from the store (``build_bundle``, ``suspicion_bundle``),
  with ``proofs`` (Merkle inclusion or the hash chain), ``chainrows`` (rows as stored)
  and ``treecache`` (the Merkle tree kept between bundles);
* ``check``: the bundle's format and its checker (``verify_bundle``, which
  ``casino-audit verify-evidence`` runs with no store), with ``proof_check``.
"""
