"""Evidence the console hands out and watches: bundles (``bundle``), their proofs
(``proofs``: Merkle inclusion or the hash chain), chain rows as stored (``chainrows``),
the cached Merkle trees (``treecache``) and the background check of new checkpoints
(``chainwatch``). The bundle's format and its checker are ``audit.evidence``."""
