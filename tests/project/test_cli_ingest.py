"""End to end through the command line: real hand histories in, tamper evidence, bad input."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cli.main import main
from tests.store_tamper import execute


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def field(out: str, name: str) -> int:
    return int(re.search(rf"^{name}:\s+(\d+)$", out, re.M).group(1))


def test_pluribus_hands_ingest_once_and_verify(
    phh_root: Path, store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = phh_root / "pluribus"
    code, out, _ = run(capsys, "--store", store_url, "ingest", str(folder))
    assert code == 0, out
    assert field(out, "subjects stored") == 10_000
    assert field(out, "records quarantined") == 0
    events = field(out, "events stored")

    code, out, _ = run(capsys, "--store", store_url, "ingest", str(folder))
    assert code == 0
    assert (field(out, "subjects stored"), field(out, "already stored")) == (0, 10_000)
    assert field(out, "events stored") == 0

    code, out, _ = run(capsys, "--store", store_url, "verify")
    assert code == 0 and "chain intact: 10000 rows" in out  # a packed row per hand
    assert events > 10_000

    victim = 10_000 // 2
    execute(store_url, "UPDATE {t} SET state = {p} WHERE {id} = {p}", (b"{}", victim))
    code, out, _ = run(capsys, "--store", store_url, "verify")
    assert code == 1
    assert f"CHAIN BROKEN at notification {victim}" in out and "altered" in out


def test_bad_files_are_quarantined_and_the_rest_stored(
    phh_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "day"
    folder.mkdir()
    good = sorted((phh_sample / "pluribus").rglob("*.phh"))[:20]
    for i, path in enumerate(good):
        shutil.copy(path, folder / f"good-{i:02}.phh")
    (folder / "corrupt.phh").write_text("variant = 'NT'\nactions = ['d dh p1 AsKs'\n")
    text = good[0].read_text()
    sections = [text, text.replace("'d dh p1 ", "'d dh p9 ", 1), text]
    (folder / "three.phhs").write_text(
        "".join(f"[{n}]\n{body}\n" for n, body in enumerate(sections, 1))
    )
    (folder / "notes.txt").write_text("ignored: not a hand history")
    store = f"sqlite:///{tmp_path / 's.db'}"

    code, out, _ = run(capsys, "--store", store, "ingest", str(folder))
    assert code == 1, out
    assert field(out, "records quarantined") == 2
    assert field(out, "subjects stored") == 20 + 2
    assert re.search(r"quarantined: .*corrupt\.phh, file, field \(syntax\)", out)
    assert re.search(r"quarantined: .*three\.phhs, section 2, field actions\[0\]", out)

    code, out, _ = run(capsys, "--store", store, "quarantine")
    assert code == 0 and "2 quarantined record(s)" in out
    code, out, _ = run(capsys, "--store", store, "quarantine", "--raw")
    assert "d dh p9" in out


def test_could_not_run_is_exit_2_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = f"sqlite:///{tmp_path / 's.db'}"
    code, _, err = run(capsys, "--store", store, "ingest", str(tmp_path / "missing"))
    assert code == 2 and "no such file or folder" in err
    code, _, err = run(capsys, "--store", "mysql://x", "verify")
    assert code == 2 and "is not sqlite:///PATH or postgresql://" in err
    code, _, err = run(capsys, "--store", "postgresql://nobody@127.0.0.1:1/none", "verify")
    assert code == 2 and "cannot open the store" in err and "Traceback" not in err


def test_the_console_script_is_installed(tmp_path: Path) -> None:
    exe = shutil.which("casino-audit") or str(
        Path(__import__("sys").executable).parent / "casino-audit"
    )
    done = subprocess.run(
        [exe, "--store", f"sqlite:///{tmp_path / 'x.db'}", "verify"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "no store at" in done.stderr  # a read never creates one
    assert not (tmp_path / "x.db").exists()
