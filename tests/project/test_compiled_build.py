"""The compiled hot paths (``replayer.compiled``, ``audit.compiled``, built by ``setup.py``
with mypyc) are the ones a normal install loads, are never older than their source, and
work exactly as the pure-Python modules do: byte-identical verdicts on the PHH sample and
the PokerKit differential sample, byte-identical stored rows, chain hashes and Merkle root
of an ingest, and byte-identical findings of the demo day."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from audit import compiled as ingest_compiled
from audit.store.packing import is_packed, unpack
from replayer import compiled
from replayer.compiled import (
    COMPILED_MODULES,
    PURE_BUILD_VARIABLE,
    StaleBuildError,
    check_sources,
    loaded_compiled,
    stale_modules,
)
from simulate.casino import SIMULATORS
from tests.compiled_parity import BANKED_ROUNDS, DIFFERENTIAL_HANDS, INGESTED_HANDS

PACKAGES = {
    "replayer": (COMPILED_MODULES, compiled.MANIFEST),
    "audit": (ingest_compiled.COMPILED_MODULES, ingest_compiled.MANIFEST),
}
"""Package -> the modules it compiles and its manifest."""
ALL_COMPILED = COMPILED_MODULES + ingest_compiled.COMPILED_MODULES

ROOT = Path(__file__).resolve().parents[2]
PURE_ONLY = Path(__file__).resolve().parents[1] / "pure_python"
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
    loaded = loaded_compiled(ALL_COMPILED)
    pure = [module for module, is_compiled in loaded.items() if not is_compiled]
    assert not pure, (
        f"loaded from .py, not compiled: {pure}; build with `make install` "
        f"(or set {PURE_BUILD_VARIABLE}=1 for a pure build)"
    )
    assert set(loaded) == set(ALL_COMPILED)


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_compiled_module_is_older_than_its_source(package: str) -> None:
    assert stale_modules(*PACKAGES[package]) == []


def test_each_package_lists_its_own_modules() -> None:
    """``replayer`` never names ``audit`` (layers); no module is compiled twice."""
    for package, (modules, manifest) in PACKAGES.items():
        assert all(module.startswith(f"{package}.") for module in modules), package
        assert manifest.parent == ROOT / package
    assert len(set(ALL_COMPILED)) == len(ALL_COMPILED)


@pytest.mark.parametrize(
    ("package", "edited"),
    [("replayer", "replayer.poker.betting"), ("audit", "audit.store.compact")],
)
def test_an_edited_source_stops_the_import(
    package: str, edited: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guard compares each source with the digest recorded at build: an extension
    module beside a source that changed since is refused, naming the module."""
    modules = PACKAGES[package][0]
    for module in modules:
        path = tmp_path.joinpath(*module.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'"""{module}"""\n')
    source = tmp_path.joinpath(*edited.split(".")).with_suffix(".py")
    source.with_suffix(".cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    manifest = tmp_path / package / "compiled-sources.json"
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    manifest.write_text(json.dumps({m: compiled.source_digest(m) for m in modules}))
    check_sources(modules, manifest)  # as built: nothing to say
    source.write_text(f'"""{edited}, edited"""\n')
    with pytest.raises(StaleBuildError, match=edited.replace(".", r"\.") + r"\b"):
        check_sources(modules, manifest)
    assert stale_modules(modules, manifest) == [edited]
    manifest.unlink()  # a pure build: no manifest, no extension modules kept
    check_sources(modules, manifest)


def _parity(pure: bool, tmp_path: Path) -> dict[str, Any]:
    done = _run(["-m", "tests.compiled_parity"], pure, tmp_path)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_pure_and_compiled_verdicts_are_identical(tmp_path: Path) -> None:
    """The PHH sample (its events and flawed copies' rejections too), the differential
    sample and the banked rounds of every game (clean and planted, with their banker
    runs), judged with their steps, in a process loading the build and in one loading
    the sources only."""
    built = _parity(pure=False, tmp_path=tmp_path)
    pure = _parity(pure=True, tmp_path=tmp_path)
    assert not any(pure["compiled"].values())
    if not PURE_BUILD:
        assert all(built["compiled"].values())
    assert len(built["phh"]) > 50
    assert len(built["differential"]) == 4 * DIFFERENTIAL_HANDS
    assert len(built["banked"]) > len(SIMULATORS) * BANKED_ROUNDS
    assert "RoundVerdict" in built["banked"][0] and "RoundStep" in built["banked"][0]
    assert len(built["phh_events"]) > 50
    assert sum("rejected" in events for events in built["phh_events"]) > 9
    for sample in ("phh", "phh_events", "differential", "banked"):
        assert built[sample] == pure[sample], sample


def test_pure_and_compiled_ingests_store_the_same_bytes(tmp_path: Path) -> None:
    """The seeded poker file ingested by each build at the same recording time: every
    row's state bytes and chain links, the quarantined records, and the checkpoint's chain
    head and Merkle root are identical."""
    built = _parity(pure=False, tmp_path=tmp_path)["ingest"]
    pure = _parity(pure=True, tmp_path=tmp_path)["ingest"]
    assert built["stored"] > 20 * INGESTED_HANDS
    assert built["quarantined"] == 2  # the negative amount and the card dealt twice
    packed = [row for row in built["rows"] if is_packed(row[3])]  # a row per hand
    inside = [
        state for row in packed for _, _, state in unpack(row[1], row[2], bytes.fromhex(row[4]))
    ]
    assert any(state.startswith(b"\xc3\x01") for state in inside)  # compact states
    assert built["head"][1] == len(built["rows"])
    assert built["rows"] == pure["rows"]
    assert built["head"] == pure["head"]
    assert built["stored"] == pure["stored"]


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


def test_importing_the_packages_checks_nothing_and_the_command_line_checks_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The stale-build check is explicit: importing ``replayer`` or ``audit`` runs nothing
    (no manifest is read), every command runs ``audit.compiled.check_build`` first and a
    stale build is exit 2 naming the module, before the command touches anything."""
    from cli.main import main

    done = _run(
        [
            "-c",
            "import sys, audit, replayer; "
            "print(sorted(m for m in sys.modules if m.endswith('compiled')))",
        ],
        True,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"

    def stale() -> None:
        raise StaleBuildError("compiled modules older than their source: replayer.poker.betting")

    monkeypatch.setattr(ingest_compiled, "check_build", stale)
    store = tmp_path / "untouched.db"
    assert main(["--store", f"sqlite:///{store}", "findings"]) == 2
    assert "replayer.poker.betting" in capsys.readouterr().err
    assert not store.exists()


def test_the_make_test_check_and_the_install_stamps_sources(tmp_path: Path) -> None:
    """``python -m audit.compiled sources`` names every compiled module's source (the
    ``Makefile``'s install stamp); ``check`` passes on this tree."""
    listed = _run(["-m", "audit.compiled", "sources"], False, ROOT)
    assert listed.returncode == 0, listed.stderr
    expected = [str(Path(*m.split("."))) + ".py" for m in ALL_COMPILED]
    assert listed.stdout.split() == expected
    assert all((ROOT / path).is_file() for path in expected)
    checked = _run(["-m", "audit.compiled", "check"], False, ROOT)
    assert checked.returncode == 0, checked.stderr
