"""Evidence bundles of every subject kind the store holds, checked offline (issue 41
item 5): the kinds are read from the store (its read model's units and collusion
suspicions), not listed here, so a new kind (the cross-record subjects among them) is
covered as soon as the test store holds one. Each bundle verifies with the public key
alone, fails once a byte of its events or verdict changes, and marks ``made_at`` /
``made_by`` as unauthenticated, in the bundle and in ``verify-evidence``'s output. On
SQLite and PostgreSQL (the console's test store)."""

from __future__ import annotations

import contextlib
import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from audit.evidence.bundle import NoEvidence, build_bundle
from audit.evidence.check import UNAUTHENTICATED, verify_bundle
from audit.evidence.treecache import TreeCache
from audit.store import AuditStore
from audit.store.signing import load_public_key
from cli.main import main
from console.readmodel.model import ReadModel
from console.readmodel.queries import ModelVerdicts
from tests.console_store import ConsoleStore, console_store

__all__ = ["console_store"]  # the fixture used here


#: Kinds the store holds that no bundle holds yet, each with why: the test fails for a
#: kind neither bundled nor listed here, and for a listed kind that bundles now.
NOT_BUNDLED = {
    "data_quality": "a nightly detector's conclusion over a partition's records, which "
    "it does not store as its own events",
    "meters": "a nightly detector's conclusion over the night's meter readings, which "
    "it does not store as its own events",
}


def _suspicions(store: AuditStore, model: ReadModel) -> list[str]:
    """The pairs and rings the nightly collusion detector flagged (a bundle each)."""
    from audit.show import adjudication_units

    units = adjudication_units(store, [("collusion", None)], ModelVerdicts(model))
    return sorted({str(f["subject"]) for _, record in units for f in record["findings"]})


def _every_kind(store: AuditStore, model: ReadModel) -> dict[str, str]:
    """One subject of every kind the store's read model holds (the one with the most
    findings, then the first by name)."""
    with model.reading() as db:
        rows = db.execute(
            "SELECT kind, subject FROM units ORDER BY kind, findings DESC, subject"
        ).fetchall()
    found: dict[str, str] = {}
    for kind, subject in rows:
        found.setdefault(str(kind), str(subject))
    return found


def _changed_state(bundle: dict[str, Any], section: str) -> dict[str, Any]:
    copy = json.loads(json.dumps(bundle))
    events = copy[section] if section == "events" else copy["verdict"]["events"]
    row = events[len(events) // 2]
    field = "state" if "state" in row else "state_b64"
    text = str(row[field])
    middle = len(text) // 2
    row[field] = text[:middle] + ("A" if text[middle] != "A" else "B") + text[middle + 1 :]
    return copy


def test_every_kind_the_store_holds_bundles_and_verifies_offline(
    console_store: ConsoleStore, tmp_path: Path
) -> None:
    key = load_public_key(console_store.public_key)
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        kinds = _every_kind(store, model)
        assert {"poker", "table"} <= set(kinds), kinds  # at least the demo's kinds
        made = datetime(2025, 3, 3, tzinfo=UTC)
        subjects = [(k, s) for k, s in sorted(kinds.items()) if k not in ("collusion",)]
        if "collusion" in kinds:  # a night's unit: each suspicion in it is bundled
            subjects += [("collusion", pair) for pair in _suspicions(store, model)[:1]]
        for kind, subject in subjects:
            try:
                bundle = build_bundle(
                    store,
                    ModelVerdicts(model),
                    subject,
                    kind=kind,
                    made_by="tests",
                    made_at=made,
                    trees=TreeCache(),
                )
            except NoEvidence:
                assert kind in NOT_BUNDLED, f"kind {kind!r} has no bundle and no reason listed"
                continue
            assert kind not in NOT_BUNDLED, f"kind {kind!r} bundles now: take it off the list"
            assert bundle["unauthenticated"] == list(UNAUTHENTICATED)
            report = verify_bundle(bundle, key)
            assert report.ok, (kind, subject, report.problems)
            assert any("unauthenticated" in n and "made_by 'tests'" in n for n in report.notes)
            for section in ("events", "verdict"):
                if bundle["events" if section == "events" else "verdict"]:
                    broken = verify_bundle(_changed_state(bundle, section), key)
                    assert not broken.ok, (kind, subject, section)
            path = tmp_path / f"{kind}.json"
            path.write_text(json.dumps(bundle))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = main(
                    ["verify-evidence", str(path), "--public-key", str(console_store.public_key)]
                )
            assert code == 0, out.getvalue()
            assert "unauthenticated" in out.getvalue()
    finally:
        store.close()


@pytest.mark.parametrize("marked", [["made_at"], [], "none"])
def test_a_bundle_whose_unauthenticated_list_was_altered_is_refused(
    console_store: ConsoleStore, marked: object
) -> None:
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        subject = _every_kind(store, model)["poker"]
        bundle = build_bundle(
            store,
            ModelVerdicts(model),
            subject,
            made_by="tests",
            made_at=datetime(2025, 3, 3, tzinfo=UTC),
            trees=TreeCache(),
        )
    finally:
        store.close()
    bundle["unauthenticated"] = marked
    report = verify_bundle(bundle, load_public_key(console_store.public_key))
    assert not report.ok
    assert "unauthenticated fields" in " ".join(report.problems)
    del bundle["unauthenticated"]  # a bundle made before the field: read as marked
    assert verify_bundle(bundle, load_public_key(console_store.public_key)).ok
    # A field renamed (found by the archive and bundle fuzz tier: "made_by" -> "maee_by"
    # was ignored and the bundle proven): any field a bundle does not hold is refused.
    bundle["maee_by"] = bundle.pop("made_by")
    report = verify_bundle(bundle, load_public_key(console_store.public_key))
    assert not report.ok
    assert "fields a bundle does not hold: ['maee_by']" in " ".join(report.problems)


def _renamed(section: dict[str, Any], old: str, new: str) -> None:
    section[new] = section.pop(old)


def _upper_path(proof: dict[str, Any]) -> None:
    """An inclusion proof's hash in upper case: the same bytes, spelled otherwise."""
    for leaf in proof["leaves"].values():
        for n, digest in enumerate(leaf["path"]):
            if digest.upper() != digest:
                leaf["path"][n] = digest.upper()
                return
    raise AssertionError("no proof hash with a letter")


RENAMES = {
    # what the archive and bundle fuzz tier found proven before the sections were exact
    "key_id": lambda b: _renamed(b["proof"]["checkpoint"], "key_id", "kay_id"),
    "citations": lambda b: _renamed(b["rulebook"], "citations", "citathons"),
    "chain_shard": lambda b: _renamed(b["events"][0], "chain_shard", "chain_shar$"),
    "upper-case hash": lambda b: _upper_path(b["proof"]),
}


@pytest.mark.parametrize("change", RENAMES)
def test_a_field_renamed_or_respelled_is_refused(console_store: ConsoleStore, change: str) -> None:
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        subject = _every_kind(store, model)["poker"]
        bundle = build_bundle(
            store,
            ModelVerdicts(model),
            subject,
            made_by="tests",
            made_at=datetime(2025, 3, 3, tzinfo=UTC),
            trees=TreeCache(),
        )
    finally:
        store.close()
    key = load_public_key(console_store.public_key)
    assert verify_bundle(bundle, key).ok
    RENAMES[change](bundle)
    report = verify_bundle(bundle, key)
    assert not report.ok, change


def test_a_number_too_large_for_an_integer_is_malformed_not_a_traceback(
    console_store: ConsoleStore,
) -> None:
    """Found by the fuzz tier (seed 2): ``1e999999`` as the checkpoint's notification id
    reads as infinity, and ``int`` of it raised ``OverflowError`` out of the check."""
    store = AuditStore(console_store.url)
    try:
        model = ReadModel(store)
        bundle = build_bundle(
            store,
            ModelVerdicts(model),
            _every_kind(store, model)["poker"],
            made_by="tests",
            made_at=datetime(2025, 3, 3, tzinfo=UTC),
            trees=TreeCache(),
        )
    finally:
        store.close()
    bundle["proof"]["checkpoint"]["notification_id"] = float("inf")
    report = verify_bundle(bundle, load_public_key(console_store.public_key))
    assert not report.ok
    assert "malformed" in " ".join(report.problems)
