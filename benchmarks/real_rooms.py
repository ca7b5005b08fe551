"""Real rooms' hand histories: how many are found, stored, quarantined, and judged how.

    .venv/bin/python benchmarks/real_rooms.py FOLDER [--rulebook ID]... [--any-date] [--pokerkit]

Ingests every ``.txt`` file under ``FOLDER`` (``audit.ingest.pipeline.ingest``) into a
temporary SQLite store, replays it (``audit.judging.replay``) and prints, per room:

* **found**: hand headers in the files, counted by a plain pattern independent of the
  importer (a PokerStars, GGPoker or other room's first line at the start of a line);
* **stored**: hands stored (poker subjects of the room);
* **quarantined by reason**: each rejection's reason, its figures and names blanked out
  so that alike reasons count together;
* **findings by kind**: the replay's findings on the stored hands.

``--any-date`` (a measurement, never a verdict to keep): the rulebooks named with
``--rulebook`` judge the hands of any date, their period lifted for this run only, so
the rules can be tried on real files older than the rulebooks (the public files are).

``--pokerkit``: every stored hand is exported to PHH (``audit.ingest.phh.export.hand_phh``) and
replayed in PokerKit, the pinned test oracle (``tests.pokerkit_oracle``); printed per game
(``HandStarted.variant``, tournament hands apart): hands replayed to the recorded stacks,
replayed to them but for the rake and fees the room took (PokerKit pays the whole pot),
replayed to other stacks, and refused by PokerKit with the reason.

Files are read as they are: the folder is measured, never copied into the project.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit.ingest.phh.export import hand_phh
from audit.ingest.pipeline import ingest
from audit.judging import current_findings, replay
from audit.store import AuditStore
from replayer.rulebooks import registry
from tests.pokerkit_oracle import pokerkit_check

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

#: A room's hand header at the start of a line (after a BOM or indentation).
HEADERS = {
    "pokerstars": re.compile(rb"^(?:\xef\xbb\xbf)?\s*PokerStars (?:[\w ]+ )?(?:Hand|Game) #", re.M),
    "ggpoker": re.compile(rb"^(?:\xef\xbb\xbf)?\s*Poker Hand #", re.M),
}
_FIGURES = re.compile(r"'[^']*'|\"[^\"]*\"|[$€£]?\d[\d,.]*")


def found(folder: Path) -> Counter[str]:
    """Hand headers per room in the ``.txt`` files under ``folder``."""
    counts: Counter[str] = Counter()
    for path in sorted(folder.rglob("*.txt")):
        data = path.read_bytes()
        for room, pattern in HEADERS.items():
            counts[room] += len(pattern.findall(data))
    return counts


def room_of(source: str, position: str, raw: str) -> str:
    text = raw.lstrip("\ufeff \t*#0123456789\n")
    if text.startswith("PokerStars") or "PokerStars" in position:
        return "pokerstars"
    if text.startswith("Poker Hand #"):
        return "ggpoker"
    return "other"


def reason_key(reason: str) -> str:
    """A rejection's reason with its figures and quoted text blanked out."""
    return _FIGURES.sub("…", reason)[:140]


def lift_periods(ids: list[str]) -> None:
    """Re-register each named rulebook in force from 1970 on, for this process only."""
    for rulebook_id in ids:
        book = registry.get_rulebook(rulebook_id)
        registry._BOOKS[rulebook_id] = replace(book, valid_from=EPOCH, valid_until=None)


def pokerkit_counts(store: AuditStore) -> dict[str, Counter[str]]:
    """Per game (``NT``, ``NT tournament``, ...): ``replayed``, ``replayed, the room's
    rake and fees apart``, ``replayed to other stacks`` and ``refused: REASON`` counts
    of the stored hands exported and replayed in PokerKit (``--pokerkit``)."""
    counts: dict[str, Counter[str]] = {}
    for _, events in store.iter_subjects("poker"):
        start = min(events, key=lambda e: e["sequence"])
        game = str(start.get("variant")) + (" tournament" if start.get("tournament_id") else "")
        result = pokerkit_check(hand_phh(events))
        if result.refused:
            outcome = f"refused: {reason_key(result.refused)}"
        else:
            outcome = (
                "replayed"
                if result.agrees
                else "replayed, the room's rake and fees apart"
                if result.agrees_less_house
                else "replayed to other stacks"
            )
        counts.setdefault(game, Counter())[outcome] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--rulebook", action="append", default=[])
    parser.add_argument("--examples", type=int, default=0, help="rejections to print")
    parser.add_argument(
        "--finding-examples", type=int, default=0, help="findings of each kind to print"
    )
    parser.add_argument("--any-date", action="store_true", help="lift the named books' period")
    parser.add_argument(
        "--header-zone", help="zone of headers that give none (GGPoker); none: quarantined"
    )
    parser.add_argument(
        "--pokerkit", action="store_true", help="export every stored hand, replay it in PokerKit"
    )
    args = parser.parse_args()
    if args.any_date:
        lift_periods(args.rulebook)
    counts = found(args.folder)
    with tempfile.TemporaryDirectory() as tmp:
        store = AuditStore(f"sqlite:///{tmp}/real.db")
        summary = ingest(
            store, [args.folder], rulebooks=args.rulebook, header_zone=args.header_zone
        )
        stored: Counter[str] = Counter()
        for subject, _ in store.iter_subjects("poker"):
            stored[subject.split("/", 1)[0]] += 1
        quarantined: dict[str, Counter[str]] = {}
        from audit.ingest.quarantine import entries

        examples = []
        for entry in entries(store):
            room = room_of(entry.source, entry.position, entry.raw)
            quarantined.setdefault(room, Counter())[reason_key(entry.reason)] += 1
            examples.append(entry)
        replay(store)
        findings: dict[str, Counter[str]] = {}
        shown: list[dict[str, object]] = []
        for row in current_findings(store):
            if row.get("subject_kind") != "poker":
                continue
            room = str(row.get("subject", "")).split("/", 1)[0]
            kind = str(row.get("kind"))
            findings.setdefault(room, Counter())[kind] += 1
            if findings[room][kind] <= args.finding_examples:
                shown.append(row)
        pokerkit = pokerkit_counts(store) if args.pokerkit else {}
    print(f"files: {summary.files}, units read: {summary.units_read}")
    for room in sorted(set(counts) | set(stored) | set(quarantined)):
        print(
            f"\n{room}: found {counts[room]:,}, stored {stored[room]:,}, "
            f"quarantined {sum(quarantined.get(room, Counter()).values()):,}"
        )
        for reason, number in quarantined.get(room, Counter()).most_common():
            print(f"  quarantined {number:>4}  {reason}")
        for kind, number in sorted(findings.get(room, Counter()).items()):
            print(f"  finding     {number:>4}  {kind}")
    if args.pokerkit:
        print("\nPokerKit (every stored hand exported to PHH and replayed):")
    for game, outcomes in sorted(pokerkit.items()):
        print(f"  {game}: " + ", ".join(f"{n:,} {what}" for what, n in outcomes.most_common()))
    for entry in examples[: args.examples]:
        print("\n", entry.line()[:400], "\n", entry.raw[:200])
    for row in shown:
        print("\n", row.get("kind"), row.get("subject"), str(row.get("summary", row))[:600])


if __name__ == "__main__":
    main()
