"""The smaller trust-boundary defects of issue #26 (item 8), each against an oracle that
is not the code under test: the characters themselves, ``shlex`` and argparse, JSON.

* raw ESC, BEL and RLO never reach ``quarantine --raw``, a CSV cell or the console's
  stored-events panel (on SQLite and PostgreSQL where a store is read);
* a store password is masked only where it occurs whole;
* ``show`` commands printed for an id beginning with ``-`` run as printed (also the one a
  conflicting event's quarantine reason names);
* a proven evidence bundle says what it cannot prove: that no newer verdict exists, and
  who made it when.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from audit.config import scrub
from audit.evidence.check import verify_bundle
from audit.store.signing import load_public_key
from audit.wording import csv_safe, show_command
from cli.main import main
from console.routes.render import record_json
from tests.audit.evidence.test_evidence_bundle import _bundle, _subjects
from tests.audit.store.test_store import hand
from tests.console_store import ConsoleStore, console_store, make_client

__all__ = ["console_store", "make_client"]  # fixtures used here

HOSTILE = "\x1b[31mred\x07 \u202eevil\x7f \u2028next"
INVISIBLE = ("\x1b", "\x07", "\u202e", "\x7f", "\u2028")


def _visible(text: str) -> bool:
    return not any(char in text for char in INVISIBLE)


def test_quarantine_raw_shows_control_characters_as_escapes(
    tmp_path: Path, store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.phh").write_text(f"variant = 'NT'\n# {HOSTILE}\nactions = [\n")
    assert main(["--store", store_url, "ingest", str(tmp_path / "bad.phh")]) == 1
    capsys.readouterr()
    assert main(["--store", store_url, "quarantine", "--raw"]) == 0
    out = capsys.readouterr().out
    assert _visible(out), out
    assert "\\e[31mred\\x07 \\u202eevil\\x7f \\u2028next" in out
    assert "variant = 'NT'\n" in out  # the record's own lines stay lines


def test_csv_cells_show_control_characters_as_escapes() -> None:
    assert _visible(csv_safe(HOSTILE))
    assert csv_safe("a\u202eb") == "a\\u202eb"
    assert csv_safe("\tx") == "'\tx" and csv_safe("two\nlines") == "two\nlines"


def test_the_stored_events_panel_is_inert_and_reads_back() -> None:
    record = {"player": HOSTILE, "sequence": 0}
    text = record_json(record)
    assert _visible(text) and json.loads(text) == record


def test_the_stored_events_panel_of_a_hostile_name(
    console_store: ConsoleStore, make_client: Any
) -> None:
    from urllib.parse import quote

    from tests.console_store import HOSTILE_HAND

    page = make_client("inspector").get("/subjects/" + quote(HOSTILE_HAND, safe=""))
    assert page.status_code == 200
    panel = page.text.split('<pre class="events">', 1)[1].split("</pre>", 1)[0]
    assert _visible(panel)


@pytest.mark.parametrize(
    ("password", "message"),
    [("o", "cannot open the store"), ("pen", "cannot open"), ("can", "cannot")],
)
def test_a_short_password_is_masked_only_where_it_occurs_whole(password: str, message: str) -> None:
    url = f"postgresql://audit:{password}@db/audit"
    assert scrub(message, url) == message
    assert scrub(f"{message}: {url}", url) == f"{message}: postgresql://audit:***@db/audit"
    assert scrub(f"password {password} refused", url) == "password *** refused"


@pytest.mark.parametrize("subject", ["-x", "--store", "-h", "a b", "-'; rm -rf ~"])
def test_show_commands_run_as_printed(
    subject: str, store: object, store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    words = shlex.split(show_command(subject))
    assert words[0] == "casino-audit" and words[-1] == subject
    assert main(["--store", store_url, *words[1:]]) == 2
    err = capsys.readouterr().err
    assert f"no subject {subject!r} in the store" in err, err  # not argparse's usage


@pytest.mark.parametrize("subject", ["-x/1", "--store"])
def test_a_conflicts_show_command_runs_as_printed(
    subject: str, store: Any, store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The quarantine reason of a conflicting event names the ``show`` command of the
    stored one (it names no source): split by the shell and run, it shows that subject."""
    store.append([hand(subject)])
    reason = store.append([hand(subject, seat=2)]).conflicts[0][1]
    words = shlex.split(reason.split("`")[1])
    assert words[:2] == ["casino-audit", "show"] and words[-1] == subject, reason
    assert main(["--store", store_url, *words[1:]]) == 0
    out = capsys.readouterr().out
    assert subject in out and "no subject" not in out


def test_a_proven_bundle_says_what_it_cannot_prove(
    console_store: ConsoleStore, make_client: Any
) -> None:
    hand = _subjects(console_store.url)["poker"]
    bundle = _bundle(make_client("inspector"), hand)
    report = verify_bundle(bundle, load_public_key(console_store.public_key))
    assert report.ok, report.problems
    checkpoint = bundle["proof"]["checkpoint"]["notification_id"]
    assert any(f"as of checkpoint {checkpoint}" in n and "newer verdict" in n for n in report.notes)
    assert any("made_by 'inspector-1'" in n and "not proven" in n for n in report.notes)
