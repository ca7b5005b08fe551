"""Files a user hands in, read within bounds (issue #26, item 1): hostile rake schedules,
evidence bundles and keys end in exit 2 naming the file, never a hang or a traceback.

Each case runs the installed command line in a subprocess (``tests.fault_harness``,
whose deadline turns a hang into a failure); the oracle is the exit code, the file's
name in the message and the absence of a traceback, never our own parser.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from audit.bounded import UnusableInput, json_depth, yaml_bounded
from tests.audit.ingest.test_import_ggpoker import SAMPLE, SCHEDULE
from tests.fault_harness import assert_clean, run_cli

#: "Billion laughs": nine levels of nine aliases, 642 bytes, 9^9 strings once expanded.
LAUGHS = "".join(
    f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * 9)}]\n" for level in range(1, 10)
)
BOMB = 'l0: &l0 "lol"\n' + LAUGHS

HOSTILE_SCHEDULES = {
    "aliases in source": BOMB + SCHEDULE.replace('"NLH rake page (test copy)"', "*l9"),
    "aliases in a field": BOMB + SCHEDULE.replace('"rake_bps": 500', '"rake_bps": *l9'),
    "aliases in the stakes": BOMB + 'room: ggpoker\nstakes: *l9\neffective_from: "2022"\n',
    "recursive alias": "a: &a [*a]\n" + SCHEDULE.replace('"NLH rake page (test copy)"', "*a"),
    "deep flow nesting": "[" * 100_000 + "]" * 100_000,
    "deep block nesting": "".join(f"{' ' * i}k:\n" for i in range(2_000)),
}


@pytest.fixture
def hand(tmp_path: Path) -> Path:
    (tmp_path / "hand.txt").write_text(SAMPLE)
    return tmp_path / "hand.txt"


@pytest.mark.parametrize("case", sorted(HOSTILE_SCHEDULES))
def test_a_hostile_yaml_schedule_is_refused_naming_the_file(
    hand: Path, store_url: str, case: str
) -> None:
    schedule = hand.parent / "rake.yaml"
    schedule.write_text(HOSTILE_SCHEDULES[case])
    result = run_cli(store_url, "ingest", "--rake-schedule", str(schedule), str(hand))
    assert_clean(result)
    assert result.code == 2, result
    assert f"--rake-schedule: {schedule}: " in result.err, result
    assert len(result.err) < 2_000  # no expanded value printed


def test_the_bomb_is_small() -> None:
    assert len(BOMB.encode()) < 700


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_a_schedule_that_is_not_a_regular_file_is_refused(
    hand: Path, store_url: str, kind: str
) -> None:
    schedule = hand.parent / "rake.json"
    if kind == "fifo":
        os.mkfifo(schedule)  # reading it would block for ever
    elif kind == "folder":
        schedule.mkdir()
    else:
        schedule = Path("/dev/zero")  # endless
    result = run_cli(store_url, "ingest", "--rake-schedule", str(schedule), str(hand))
    assert_clean(result)
    assert result.code == 2 and f"{schedule}: not a regular file" in result.err, result


def test_a_good_yaml_schedule_with_an_alias_still_reads(hand: Path, store_url: str) -> None:
    schedule = hand.parent / "rake.yaml"
    schedule.write_text(
        "room: ggpoker\neffective_from: '2022-09-28T00:00:00+00:00'\n"
        "usd: &usd {game: NT, currency: USD, rake_bps: 500, cap: '0.30'}\n"
        "stakes:\n  - {<<: *usd, small_blind: '0.05', big_blind: '0.10'}\n"
    )
    result = run_cli(
        store_url, "ingest", "--header-zone", "UTC", "--rake-schedule", str(schedule), str(hand)
    )
    assert_clean(result)
    assert result.code == 0, result


@pytest.mark.parametrize(
    "text",
    ["[" * 200_000, '{"a":' * 100_000 + "1" + "}" * 100_000, '["' + "[" * 100_000 + '"]'],
)
def test_verify_evidence_on_hostile_json_is_exit_2(tmp_path: Path, text: str) -> None:
    keys = run_cli("sqlite:///unused.db", "keygen", str(tmp_path / "k"))
    assert keys.code == 0, keys
    bundle = tmp_path / "bundle.json"
    bundle.write_text(text)
    public = tmp_path / "k" / "checkpoint-signing.pub"
    result = run_cli(
        "sqlite:///unused.db", "verify-evidence", str(bundle), "--public-key", str(public)
    )
    assert_clean(result)
    if text.startswith('["'):  # a string holding brackets is not nesting: read, not proven
        assert result.code == 1, result
    else:
        assert result.code == 2 and f"{bundle}: JSON nested deeper" in result.err, result


@pytest.mark.parametrize("kind", ["fifo", "huge", "folder"])
def test_a_key_file_that_is_not_a_small_regular_file_is_exit_2(tmp_path: Path, kind: str) -> None:
    key = tmp_path / "key.pub"
    if kind == "fifo":
        os.mkfifo(key)
    elif kind == "huge":
        key.write_bytes(b"-----BEGIN PUBLIC KEY-----\n" + b"A" * (1 << 20))
    else:
        key.mkdir()
    (tmp_path / "b.json").write_text("{}")
    result = run_cli(
        "sqlite:///unused.db", "verify-evidence", str(tmp_path / "b.json"), "--public-key", str(key)
    )
    assert_clean(result)
    assert result.code == 2 and str(key) in result.err, result


def test_json_depth_skips_strings_and_escapes() -> None:
    assert json_depth('{"a": [1, {"b": "[[[\\"]]"}]}') == 3
    assert json_depth("[]") == 1 and json_depth('"x"') == 0


def test_yaml_aliases_are_charged_at_their_expanded_size() -> None:
    assert yaml_bounded("a: &a [1, 2]\nb: [*a, *a]\n", "f", max_depth=8, max_nodes=20)["b"]
    with pytest.raises(UnusableInput, match="more than 12 values"):
        yaml_bounded("a: &a [1, 2]\nb: [*a, *a]\n", "f", max_depth=8, max_nodes=12)


def test_a_key_of_an_unknown_algorithm_is_exit_2(tmp_path: Path) -> None:
    """Found by tests/fuzz/test_fuzz_inputs.py: one flipped bit of the Ed25519 OID (1.3.101.112
    to 0.35.101.112) once ended in cryptography's UnsupportedAlgorithm traceback."""
    import base64

    der = bytes.fromhex("302a300506032365700321") + b"\x00" * 33
    key = tmp_path / "odd.pub"
    pem = base64.b64encode(der).decode()
    key.write_text(f"-----BEGIN PUBLIC KEY-----\n{pem}\n-----END PUBLIC KEY-----\n")
    (tmp_path / "b.json").write_text("{}")
    result = run_cli(
        "sqlite:///unused.db", "verify-evidence", str(tmp_path / "b.json"), "--public-key", str(key)
    )
    assert_clean(result)
    assert result.code == 2 and f"{key}: not a usable public key" in result.err, result
