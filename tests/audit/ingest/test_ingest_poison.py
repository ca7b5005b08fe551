"""Poison records: each is quarantined alone, with its field; nothing else is lost.

Every case here once crashed the ingest with a traceback and lost the rest of its batch
(integers past 64 bits, TOML nested 500 deep, a ``_time`` past year 9999, ``currency =
[]``, ``cbr 1e999999``, a slot ``sequence`` near 2^63), or could have.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest

from audit.families import family_named
from audit.ingest import file_units
from audit.ingest.avro_files import write_events
from audit.ingest.pipeline import ingest
from audit.ingest.quarantine import entries
from audit.store import AuditStore
from cli.main import main
from simulate.fleet import machine_day
from tests.audit.ingest.test_ingest_avro import hand_events
from tests.avro_craft import container, deflate, encode, write_crafted

POKER, SLOTS = family_named("poker"), family_named("slots")


def pluribus(phh_sample: Path) -> str:
    return (phh_sample / "pluribus" / "83" / "63.phh").read_text() + "\n"


def replace(old: str, new: str) -> Callable[[str], str]:
    def change(text: str) -> str:
        assert old in text
        return text.replace(old, new, 1)

    return change


def append(line: str) -> Callable[[str], str]:
    return lambda text: text + line + "\n"


#: name -> (how the real hand is spoiled, the field its rejection names)
PHH_POISON: dict[str, tuple[Callable[[str], str], str]] = {
    "integer past 64 bits": (
        replace("starting_stacks = [10000,", "starting_stacks = [99999999999999999999999,"),
        "starting_stacks[0]",
    ),
    "integer of 5,000 digits": (append("_button = " + "9" * 5000), "(syntax)"),
    "hex integer of 20,000 bits": (append("_button = 0x" + "f" * 5000), "_button"),
    "TOML nested 500 deep": (append("x = " + "[" * 500 + "]" * 500), "(limit)"),
    "inline tables nested 500 deep": (append("x = " + "{a = " * 500 + "1" + "}" * 500), "(limit)"),
    "dotted key 100,000 deep": (append("a" + ".a" * 100_000 + " = 1"), "(limit)"),
    "_time overflow": (append('_time = "9999-12-31T23:59:59-23:59"'), "_time"),
    "_time before year 1": (append('_time = "0001-01-01T00:00:00+01:00"'), "_time"),
    "currency = []": (append("currency = []"), "currency"),
    "time_zone_abbreviation = []": (
        append("year = 2020\nmonth = 1\nday = 1\ntime = 10:00:00\ntime_zone_abbreviation = []"),
        "time_zone_abbreviation",
    ),
    "day past C int": (append("year = 2020\nmonth = 1\nday = 99999999999999999"), "day"),
    "cbr 1e999999": (
        replace("'p1 cc', 'p2 cc', 'd db Jc", "'p1 cc', 'p2 cbr 1e999999', 'd db Jc"),
        "actions[11]",
    ),
    "cbr nan": (
        replace("'p1 cc', 'p2 cc', 'd db Jc", "'p1 cc', 'p2 cbr sNaN', 'd db Jc"),
        "actions[11]",
    ),
    "amount nan": (replace("min_bet = 100", "min_bet = nan"), "min_bet"),
    "amount -inf": (
        replace("starting_stacks = [10000,", "starting_stacks = [-inf,"),
        "starting_stacks[0]",
    ),
    "amount past 64 bits in minor units": (
        replace("min_bet = 100", "min_bet = 92233720368547758.08"),
        "min_bet",
    ),
    "amount not whole": (replace("min_bet = 100", "min_bet = 0.001"), "min_bet"),
    "amount with more digits than Decimal keeps": (
        replace("min_bet = 100", "min_bet = 100." + "0" * 100 + "1"),
        "min_bet",
    ),
    "amount of 1e-99999999999": (replace("min_bet = 100", "min_bet = 1e-99999999999"), "min_bet"),
    "float past Decimal's range": (
        replace("min_bet = 100", "min_bet = 1e99999999999999999999"),
        "(syntax)",
    ),
    "player of a billion": (replace("'d dh p1 ", "'d dh p1000000000 "), "actions[0]"),
    "actions a table": (replace("actions = [", "actions = {a = 1}\nignored = ["), "actions"),
    "a lone surrogate escape": (append('players = ["\\ud800"]'), "(syntax)"),
    "NUL in a name": (
        append('_table = "a\\u0000b"\n_rulebook = "\\u0000"'),
        None,
    ),
}


def write_poison(folder: Path, phh_sample: Path, name: str) -> Path:
    spoil, _ = PHH_POISON[name]
    folder.mkdir(parents=True, exist_ok=True)
    good = pluribus(phh_sample)
    (folder / "a-good.phh").write_text(good)
    (folder / "b-poison.phh").write_text(spoil(good))
    (folder / "c-good.phh").write_text(good)
    return folder


@pytest.mark.parametrize("name", PHH_POISON)
def test_a_poison_hand_is_quarantined_alone(phh_sample: Path, tmp_path: Path, name: str) -> None:
    folder = write_poison(tmp_path / "day", phh_sample, name)
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    summary = ingest(store, [folder])
    expected = PHH_POISON[name][1]
    if expected is None:  # harmless after all: stored like the others
        assert (summary.subjects_stored, summary.quarantined) == (3, 0)
        return
    assert (summary.subjects_stored, summary.quarantined, summary.units_read) == (2, 1, 3)
    (rejected,) = summary.rejected
    assert Path(rejected.source).name == "b-poison.phh"
    assert rejected.field == expected, rejected.reason
    assert len(rejected.reason) < 2100
    (kept,) = entries(store)
    assert kept.source == "day/b-poison.phh" and kept.field == expected


def test_every_poison_together_through_the_command_line(
    phh_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "day"
    folder.mkdir()
    good = pluribus(phh_sample)
    for number, (spoil, _) in enumerate(PHH_POISON.values()):
        (folder / f"p{number:02}.phh").write_text(spoil(good))
    (folder / "slots.avro").write_bytes(slot_file_with_sequence(2**63 - 2))
    code = main(["--store", f"sqlite:///{tmp_path / 's.db'}", "ingest", str(folder)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in out + err
    assert f"records quarantined:   {len(PHH_POISON) - 1 + 1}" in out


def test_a_poison_among_the_10000_pluribus_hands_takes_none_with_it(
    phh_root: Path, tmp_path: Path
) -> None:
    poison = tmp_path / "poison"
    poison.mkdir()
    spoil, _ = PHH_POISON["cbr 1e999999"]
    (poison / "63.phh").write_text(spoil(pluribus(phh_root)))
    spoil, _ = PHH_POISON["integer past 64 bits"]
    (poison / "64.phh").write_text(spoil(pluribus(phh_root)))
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    summary = ingest(store, [phh_root / "pluribus", poison])
    assert (summary.subjects_stored, summary.quarantined) == (10_000, 2)
    assert summary.units_read == 10_002
    assert {r.field for r in summary.rejected} == {"actions[11]", "starting_stacks[0]"}


# -- Avro ---------------------------------------------------------------------------------


def slot_machines() -> list[list[dict]]:
    return [machine_day(7, date(2025, 6, 1), f"m-{n}", games=5)[0] for n in range(3)]


def slot_file_with_sequence(sequence: int) -> bytes:
    """Three machines in one file; the second's fifth reading has ``sequence``."""
    machines = slot_machines()
    machines[1][4] = {**machines[1][4], "sequence": sequence}
    count, data = encode(SLOTS, [event for machine in machines for event in machine])
    return container(SLOTS.raw_schema, [(count, deflate(data))], codec="deflate")


@pytest.mark.parametrize("sequence", [2**63 - 2, 2**31, -1])
def test_a_sequence_past_an_int_is_rejected_alone(
    tmp_path: Path, store_url: str, sequence: int
) -> None:
    (tmp_path / "slots.avro").write_bytes(slot_file_with_sequence(sequence))
    store = AuditStore(store_url)
    summary = ingest(store, [tmp_path / "slots.avro"])
    assert (summary.quarantined, summary.subjects_stored) == (1, 3)
    assert summary.rejected[0].field == "sequence"
    assert str(sequence) in summary.rejected[0].reason
    lengths = [len(machine) for machine in slot_machines()]
    assert len(store.records_of("slots", "m-1")) == lengths[1] - 1  # less that record
    assert len(store.records_of("slots", "m-2")) == lengths[2]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seat": 2**40}, "seat"),  # an Avro int holding 40 bits
        ({"seat": -(2**35)}, "seat"),
        ({"amount": 2**63 - 1}, None),  # the widest long: fits, stored
        ({"amount": -(2**62)}, "amount"),
        ({"sequence": 2**40}, "sequence"),
    ],
)
def test_integers_are_checked_against_their_schema_width(
    tmp_path: Path, change: dict, field: str | None
) -> None:
    bad = hand_events("t/bad")
    bad[4] = {**bad[4], **change}
    write_crafted(tmp_path / "x.avro", POKER, [hand_events("t/1") + bad + hand_events("t/2")])
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    summary = ingest(store, [tmp_path / "x.avro"])
    if field is None:
        assert (summary.subjects_stored, summary.quarantined) == (3, 0)
        assert store.records_of("poker", "t/bad")[4]["amount"] == 2**63 - 1
        return
    assert (summary.subjects_stored, summary.quarantined) == (3, 1)
    assert summary.rejected[0].field == field
    assert "record 10 (hand_id t/bad)" in summary.rejected[0].position


def test_a_timestamp_past_year_9999_loses_its_block_only(tmp_path: Path) -> None:
    bad = hand_events("t/time")
    bad[2] = {**bad[2], "occurred_at": 2**62}  # microseconds: year 146,000
    write_crafted(tmp_path / "x.avro", POKER, [hand_events("t/1"), bad + hand_events("t/2"),
                                                hand_events("t/3")])  # fmt: skip
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    summary = ingest(store, [tmp_path / "x.avro"])
    (rejected,) = summary.rejected
    assert rejected.field == "(block)" and "record 8 does not decode" in rejected.reason
    assert "OverflowError" in rejected.reason
    assert len(store.records_of("poker", "t/1")) == len(store.records_of("poker", "t/3")) == 6
    assert store.records_of("poker", "t/2") == []


def test_damaged_blocks_and_frames(tmp_path: Path) -> None:
    hands = [encode(POKER, hand_events(f"t/{n}")) for n in range(4)]
    bomb = zlib.compressobj(9, zlib.DEFLATED, -15)
    zeros = bomb.compress(bytes(64 << 20)) + bomb.flush()  # 64 MiB of zeros in ~64 KiB
    blocks = [
        (hands[0][0], deflate(hands[0][1])),
        (1, zeros),  # decompresses past the block limit
        (hands[1][0], b"\xff" * 50),  # does not inflate
        (10**6, deflate(hands[2][1])),  # claims more records than bytes
        (hands[3][0], deflate(hands[3][1])),
    ]
    (tmp_path / "x.avro").write_bytes(container(POKER.raw_schema, blocks, codec="deflate"))
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    summary = ingest(store, [tmp_path / "x.avro"])
    assert [r.field for r in summary.rejected] == ["(block)"] * 3
    assert "decompresses to more than 4,194,304 bytes" in summary.rejected[0].reason
    assert "CASINO_AUDIT_MAX_AVRO_BLOCK_BYTES" in summary.rejected[0].reason
    assert "does not decompress" in summary.rejected[1].reason
    assert "claims 1,000,000 records" in summary.rejected[2].reason
    assert summary.subjects_stored == 2  # t/0 and t/3: the next block is read again
    assert len(store.records_of("poker", "t/3")) == 6

    data = (tmp_path / "x.avro").read_bytes()
    cut = data.index(deflate(hands[3][1]))
    (tmp_path / "y.avro").write_bytes(data[: cut - 2] + b"\x00" * 40)  # framing broken
    summary = ingest(store, [tmp_path / "y.avro"])
    assert summary.rejected[-1].field == "(file)"
    assert "corrupt or truncated" in summary.rejected[-1].reason


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"Obj\x01\xfe\xff\xff\xff\x0f", "header too large"),
        (b"Obj\x01\x02\x02a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", "not an Avro container"),
        (container({"type": "record", "name": "R", "fields": []}, [], codec="null"),
         "unknown event family"),
        (container(POKER.raw_schema, [], codec="snappy"), "codec 'snappy' is not supported"),
        (b"Obj\x01\x02\x16avro.schema\x06[[[\x00" + bytes(16), "unusable schema"),
    ],
)  # fmt: skip
def test_hostile_headers_are_one_rejection(tmp_path: Path, data: bytes, reason: str) -> None:
    (tmp_path / "x.avro").write_bytes(data)
    summary = ingest(AuditStore(f"sqlite:///{tmp_path / 's.db'}"), [tmp_path / "x.avro"])
    assert summary.quarantined == summary.units_read == 1
    assert reason in summary.rejected[0].reason


# -- failures past validation ------------------------------------------------------------


def test_a_unit_the_database_refuses_is_quarantined_alone(
    tmp_path: Path, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were a value to reach the driver out of range, the batch is retried unit by unit
    and only the unit the driver refuses is quarantined."""
    events = [e for n in range(20) for e in hand_events(f"t/{n}")]
    write_events(tmp_path / "x.avro", POKER, events)
    store = AuditStore(store_url)
    insert = store.recorder.insert_events
    from audit.store.subjects import subject_uuid

    poisoned = subject_uuid("poker", "t/7")

    def driver(stored_events, **kwargs):
        if any(e.originator_id == poisoned for e in stored_events):
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return insert(stored_events, **kwargs)

    monkeypatch.setattr(store.recorder, "insert_events", driver)
    summary = ingest(store, [tmp_path / "x.avro"], batch_events=50)
    assert (summary.subjects_stored, summary.quarantined) == (19, 1)
    (rejected,) = summary.rejected
    assert rejected.field == "(store)" and "OverflowError" in rejected.reason
    assert "'t/7' could not be stored" in rejected.reason
    assert store.records_of("poker", "t/7") == []
    assert len(store.records_of("poker", "t/19")) == 6
    assert store.verify().ok


def test_a_conversion_that_raises_anything_is_quarantined_alone(
    phh_sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "day"
    folder.mkdir()
    for name in ("a", "b", "c"):
        (folder / f"{name}.phh").write_text(pluribus(phh_sample))
    convert = file_units.hand_events

    def flaky(record, **kwargs):
        if record.source.name == "b.phh":
            raise MemoryError("simulated")
        return convert(record, **kwargs)

    monkeypatch.setattr(file_units, "hand_events", flaky)
    summary = ingest(AuditStore(f"sqlite:///{tmp_path / 's.db'}"), [folder])
    assert (summary.subjects_stored, summary.quarantined) == (2, 1)
    assert summary.rejected[0].field == "(record)"
    assert "MemoryError: simulated" in summary.rejected[0].reason


def test_a_reader_that_fails_loses_only_the_rest_of_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_events(tmp_path / "a.avro", POKER, hand_events("t/1") + hand_events("t/2"))
    write_events(tmp_path / "b.avro", POKER, hand_events("t/3"))
    read = file_units.iter_avro_units

    def failing(path: Path, **kwargs) -> Iterator:
        for number, item in enumerate(read(path, **kwargs)):
            if path.name == "a.avro" and number == 1:
                raise RecursionError("simulated")
            yield item

    monkeypatch.setattr(file_units, "iter_avro_units", failing)
    summary = ingest(AuditStore(f"sqlite:///{tmp_path / 's.db'}"), [tmp_path])
    assert (summary.subjects_stored, summary.quarantined, summary.units_read) == (2, 1, 3)
    rejected = summary.rejected[0]
    assert (rejected.position, rejected.field) == ("after unit 1 of the file", "(file)")
    assert "RecursionError: simulated" in rejected.reason


def test_a_store_refusing_every_record_stops_the_ingest_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quarantine is tried with the record's text, then without it, then the store's own
    refusal stops the ingest (it once retried without end: a RecursionError)."""
    write_crafted(tmp_path / "x.avro", POKER, [hand_events("t/1")])
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    attempts: list[int] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(1)
        raise ValueError("the store refuses every record")

    monkeypatch.setattr(store, "append", refuse)
    with pytest.raises(ValueError, match="refuses every record"):
        ingest(store, [tmp_path / "x.avro"])
    assert len(attempts) <= 4  # the unit, its quarantine with and without its text
