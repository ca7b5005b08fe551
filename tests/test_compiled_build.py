"""The compiled hot path (``replayer.compiled``, built by ``setup.py`` with mypyc) is the
one a normal install loads, is never older than its source, and judges exactly as the
pure-Python modules do: byte-identical verdicts on the PHH sample and the PokerKit
differential sample, and byte-identical findings of the demo day."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from replayer import compiled
from replayer.compiled import (
    COMPILED_MODULES,
    PURE_BUILD_VARIABLE,
    StaleBuildError,
    check_sources,
    loaded_compiled,
    stale_modules,
)
from tests.compiled_parity import DIFFERENTIAL_HANDS

ROOT = Path(__file__).resolve().parents[1]
PURE_ONLY = Path(__file__).resolve().parent / "pure_python"
"""Its ``sitecustomize`` loads the project from ``.py`` files only."""
PURE_BUILD = os.environ.get(PURE_BUILD_VARIABLE) == "1"


def _environment(pure: bool) -> dict[str, str]:
    """This process's environment; with ``pure``, the source-only finder first."""
    paths = [str(PURE_ONLY), str(ROOT)] if pure else [str(ROOT)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def _run(arguments: list[str], pure: bool, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments],
        env=_environment(pure),
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.skipif(PURE_BUILD, reason=f"{PURE_BUILD_VARIABLE}=1: the install built pure Python")
def test_the_compiled_modules_are_the_ones_loaded() -> None:
    loaded = loaded_compiled()
    pure = [module for module, is_compiled in loaded.items() if not is_compiled]
    assert not pure, (
        f"loaded from .py, not compiled: {pure}; build with `make install` "
        f"(or set {PURE_BUILD_VARIABLE}=1 for a pure build)"
    )
    assert set(loaded) == set(COMPILED_MODULES)


def test_no_compiled_module_is_older_than_its_source() -> None:
    assert stale_modules() == []


def test_an_edited_source_stops_the_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard compares each source with the digest recorded at build: an extension
    module beside a source that changed since is refused, naming the module."""
    poker = tmp_path / "replayer" / "poker"
    poker.mkdir(parents=True)
    for module in COMPILED_MODULES:
        path = tmp_path.joinpath(*module.split(".")).with_suffix(".py")
        path.write_text(f'"""{module}"""\n')
    (poker / "betting.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    manifest = tmp_path / "compiled-sources.json"
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    monkeypatch.setattr(compiled, "MANIFEST", manifest)
    manifest.write_text(json.dumps({m: compiled.source_digest(m) for m in COMPILED_MODULES}))
    check_sources()  # as built: nothing to say
    (poker / "betting.py").write_text('"""replayer.poker.betting, edited"""\n')
    with pytest.raises(StaleBuildError, match=r"replayer\.poker\.betting\b"):
        check_sources()
    assert stale_modules() == ["replayer.poker.betting"]
    manifest.unlink()  # a pure build: no manifest, no extension modules kept
    check_sources()


def _parity(pure: bool, tmp_path: Path) -> dict[str, Any]:
    done = _run(["-m", "tests.compiled_parity"], pure, tmp_path)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_pure_and_compiled_verdicts_are_identical(tmp_path: Path) -> None:
    """The PHH sample and the differential sample, judged with their steps, in a process
    loading the build and in one loading the sources only."""
    built = _parity(pure=False, tmp_path=tmp_path)
    pure = _parity(pure=True, tmp_path=tmp_path)
    assert not any(pure["compiled"].values())
    if not PURE_BUILD:
        assert all(built["compiled"].values())
    assert len(built["phh"]) > 50
    assert len(built["differential"]) == 4 * DIFFERENTIAL_HANDS
    for sample in ("phh", "differential"):
        assert built[sample] == pure[sample], sample


def _demo_findings(pure: bool, folder: Path) -> tuple[bytes, bytes]:
    folder.mkdir()
    done = _run(["-m", "cli", "demo"], pure, folder)
    assert done.returncode in (0, 1), done.stderr  # 1: the day has planted data problems
    reports = folder / "casino-audit-demo" / "reports" / "2025-03-01"
    return (reports / "findings.jsonl").read_bytes(), (reports / "findings.csv").read_bytes()


def test_pure_and_compiled_demo_findings_are_identical(tmp_path: Path) -> None:
    """``casino-audit demo`` (the demo day through the nightly, its workers spawned with
    the same ``PYTHONPATH``), once with the build and once from the sources only."""
    built = _demo_findings(pure=False, folder=tmp_path / "built")
    pure = _demo_findings(pure=True, folder=tmp_path / "pure")
    assert built[0].count(b"\n") > 10
    assert built == pure
