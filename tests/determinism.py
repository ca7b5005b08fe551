"""A shared check for the seeded generators of synthetic data."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Generate = Callable[..., tuple[list[str], list[Any]]]


def assert_same_seed_same_bytes(
    generate: Generate, folder: Path, files: list[str], faults: list[Any], scratch: Path, seed: int
) -> None:
    """``generate(out)`` again gives the same file names, faults and bytes as (``folder``,
    ``files``, ``faults``); ``generate(out, seed=seed)`` gives other bytes."""
    again, again_faults = generate(scratch / "again")
    assert again == files and again_faults == faults
    for name in files:
        assert (scratch / "again" / name).read_bytes() == (folder / name).read_bytes()
    other, _ = generate(scratch / "other", seed=seed)
    assert (scratch / "other" / other[0]).read_bytes() != (folder / files[0]).read_bytes()
