"""``verify-archive`` under bounds (issue 41 item 3): regular files only, the line
length and the total size bounded before reading, 64-bit integers, exactly the fields
the product writes, unauthenticated fields checked; exit 2 naming the line and never a
traceback or a hang. Before: a huge line or ``/dev/zero`` ended in ``MemoryError``, a
``version`` of 2^70 in ``OverflowError``, a FIFO blocked for ever, a checkpoint's
``key_id`` took any value and a frontier other than the start's was never read."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from audit.store.archive import MAX_LINE
from cli.main import main
from tests.archive_maker import Archives, make_archives


@pytest.fixture
def archives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Archives:
    monkeypatch.delenv("CASINO_AUDIT_STORE", raising=False)
    return make_archives(tmp_path, monkeypatch)


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(args))
    text = out.getvalue()
    assert "Traceback" not in text
    return code, text


def _lines(data: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in data.splitlines()]


def _write(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_genuine_archive_verifies_and_says_what_to_compare(
    archives: Archives, tmp_path: Path
) -> None:
    for data in (archives.whole, archives.later):
        path = tmp_path / "a.jsonl"
        path.write_bytes(data)
        code, out = run("verify-archive", str(path), "--public-key", str(archives.public_key))
        assert code == 0, out
        assert "archive intact" in out
        assert f"retention record at checkpoint {archives.heads[-1]} names sha256" in out
        code, out = run("verify-archive", str(path))
        assert code == 0, out
        assert "signatures and key ids not checked (no --public-key)" in out


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    done = subprocess.run(  # a guard against a hang, not a timing assertion
        [sys.executable, "-m", "cli", "verify-archive", str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "not a regular file" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused(device: str) -> None:
    code, out = run("verify-archive", device)
    assert code == 2, out
    assert "not a regular file" in out


def test_a_line_past_the_bound_is_refused_before_it_is_read_whole(
    archives: Archives, tmp_path: Path
) -> None:
    path = tmp_path / "long.jsonl"
    with path.open("wb") as file:
        file.write(archives.whole.splitlines(True)[0])
        file.write(b'{"row": "' + b"x" * (MAX_LINE + 10))
    code, out = run("verify-archive", str(path))
    assert code == 2, out
    assert "line 2: longer than" in out


def test_a_file_past_the_size_bound_is_refused(archives: Archives, tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(archives.whole)
    code, out = run("verify-archive", str(path), "--max-bytes", str(len(archives.whole) - 1))
    assert code == 2, out
    assert "larger than" in out


@pytest.mark.parametrize(
    ("kind", "field", "value"),
    [
        ("row", "version", 2**70),
        ("row", "notification_id", 2**63),
        ("row", "version", 1.5),
        ("row", "chain_form", True),
        ("row", "topic", 7),
        ("checkpoint", "event_count", 2**70),
        ("checkpoint", "head_time", 2**70),
        ("checkpoint", "notification_id", -1),
    ],
)
def test_a_number_out_of_range_is_refused_naming_its_line(
    archives: Archives, tmp_path: Path, kind: str, field: str, value: object
) -> None:
    lines = _lines(archives.whole)
    at = next(n for n, line in enumerate(lines) if kind in line)
    item = lines[at][kind]
    assert isinstance(item, dict)
    item[field] = value
    code, out = run("verify-archive", str(_write(tmp_path / "a.jsonl", lines)))
    assert code == 2, out
    assert f"line {at + 1}" in out
    assert field in out


@pytest.mark.parametrize("kind", ["header", "checkpoint", "row"])
def test_a_field_the_product_does_not_write_is_refused(
    archives: Archives, tmp_path: Path, kind: str
) -> None:
    lines = _lines(archives.whole)
    if kind == "header":
        at, item = 0, lines[0]
    else:
        at = next(n for n, line in enumerate(lines) if kind in line)
        item = lines[at][kind]  # type: ignore[assignment]
    assert isinstance(item, dict)
    item["made_by"] = "someone"
    code, out = run("verify-archive", str(_write(tmp_path / "a.jsonl", lines)))
    assert code == 2, out
    assert f"line {at + 1}" in out
    assert "unknown ['made_by']" in out


def test_a_key_id_not_the_keys_is_refused_with_the_key(archives: Archives, tmp_path: Path) -> None:
    lines = _lines(archives.whole)
    item = lines[1]["checkpoint"]
    assert isinstance(item, dict)
    item["key_id"] = "anything"
    path = _write(tmp_path / "a.jsonl", lines)
    code, out = run("verify-archive", str(path), "--public-key", str(archives.public_key))
    assert code == 1, out
    assert "names key anything, not the given key" in out


def test_a_frontier_changed_or_dropped_is_caught(archives: Archives, tmp_path: Path) -> None:
    # The start's frontier (an archive after the first head) is required and must fold.
    lines = _lines(archives.later)
    start = lines[1]["checkpoint"]
    assert isinstance(start, dict) and start["tree_frontier"]
    for frontier in (None, "00" * 32):
        start["tree_frontier"] = frontier
        code, out = run("verify-archive", str(_write(tmp_path / "a.jsonl", lines)))
        assert code == 1, out
        assert "frontier" in out
    # Any other checkpoint's frontier, when present, must fold to its signed root.
    lines = _lines(archives.whole)
    first = lines[1]["checkpoint"]
    assert isinstance(first, dict)
    first["tree_frontier"] = "11" * 32
    code, out = run("verify-archive", str(_write(tmp_path / "b.jsonl", lines)))
    assert code == 1, out
    assert "its Merkle frontier does not fold to its root" in out


def test_a_shortened_archive_verifies_alone_but_prints_another_sha256(
    archives: Archives, tmp_path: Path
) -> None:
    """Cut at an earlier head with ``through`` set: it verifies alone (it is a genuine
    prefix) and its sha256, printed with what to compare, is not the whole one's."""
    lines = _lines(archives.whole)
    middle = archives.heads[1]
    lines[0]["through"] = middle
    kept = [
        line
        for line in lines
        if not any(
            isinstance(line.get(k), dict) and line[k]["notification_id"] > middle  # type: ignore[index]
            for k in ("row", "checkpoint")
        )
    ]
    path = _write(tmp_path / "short.jsonl", kept)
    code, out = run("verify-archive", str(path), "--public-key", str(archives.public_key))
    assert code == 0, out
    assert f"retention record at checkpoint {middle} names sha256" in out
