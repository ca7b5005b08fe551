"""The documentation's walk-throughs run as written: every block of the README or a
chapter of ``docs/`` whose first line is ``$ export CASINO_AUDIT_STORE=…`` (the
complaint in ``docs/ingest.md``, the incident in ``docs/incidents.md``) is run line by
line in a folder holding the repository's ``examples/``, and each output line the text
shows under a command is printed by it, in that order (spacing aside; ``...`` stands
for lines left out, ``  # …`` is a comment).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs_text import all_text

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
_FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.M | re.S)
_COMMENT = re.compile(r"\s{2,}#.*$")


def walk_throughs() -> dict[str, list[tuple[str, list[str]]]]:
    """Store URL -> the block's (command, shown output lines) in order."""
    found = {}
    for block in _FENCE.findall(all_text()):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("$ export CASINO_AUDIT_STORE="):
            continue
        steps: list[tuple[str, list[str]]] = []
        for line in lines:
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif line.strip() not in ("...", "…"):
                steps[-1][1].append(line)
        found[lines[0].split("=", 1)[1]] = steps
    return found


def _normal(line: str) -> str:
    return " ".join(_COMMENT.sub("", line).split())


WALKS = walk_throughs()


def test_the_readme_has_the_walk_throughs() -> None:
    assert set(WALKS) == {"sqlite:///complaint.db", "sqlite:///incident.db"}


@pytest.mark.parametrize("store", sorted(WALKS))
def test_a_walk_through_runs_as_written(store: str, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASINO_AUDIT_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    for command, shown in WALKS[store]:
        if command.startswith("export "):
            name, value = command.removeprefix("export ").split("=", 1)
            env[name] = value
            continue
        done = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert done.returncode in (0, 1), f"{command}\n{done.stdout}\n{done.stderr}"
        printed = [_normal(line) for line in done.stdout.splitlines()]
        at = 0
        for line in shown:
            want = _normal(line)
            assert want in printed[at:], f"{command}: not printed (in order): {line!r}"
            at = printed.index(want, at) + 1
