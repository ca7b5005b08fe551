"""Console benchmark: time per request of the inspector console's pages over a week's store.

One command, from the clone's root (the table at the end is what docs/console.md shows):

    .ci/with-postgres .venv/bin/python benchmarks/console.py --work /tmp/console-bench

(the week on SQLite and PostgreSQL: about 1.3 million events, 20-40 minutes of nightlies
on 2 cores; ``--days 2 --backends sqlite`` is a quarter of that; ``--work`` keeps the
generated input and the SQLite store for the next run). Options:

    .ci/with-postgres .venv/bin/python benchmarks/console.py [--days 7] [--hands 4500]
        [--rounds 2000] [--machines 20] [--tournaments 6] [--backends sqlite,postgresql]
        [--workers 2] [--requests 300] [--seconds 30] [--kind mispaid_pot] [--work DIR]
    .venv/bin/python benchmarks/console.py --store sqlite:///casino-audit.db   # the demo's

With ``--store URL`` an existing store (``make demo``'s, say) is measured as it is: steps
1 and 2 are skipped but for the benchmark's account, added when missing.

1. Generates a week (``--days`` synthetic days from 2025-03-01, seed 7:
   ``simulate.day.generate_day`` with ``floor.banked_rounds`` (chemin de fer among its
   games), ``fleet.slot_fleet`` (each machine's stream continued from day to day:
   ``first_day``) and ``tournaments.tournament_day``; 1% of hands and
   rounds, 5% of machines and 30% of tournaments with a planted fault)
   and prints how long that took. The defaults make a store of about 1.1 million events
   (a poker hand is about 28 stored events with its verdict, a banked round about 10).
2. Per backend, a fresh store (SQLite file; a new PostgreSQL schema on
   ``CASINO_AUDIT_TEST_PG_URL``, which ``.ci/with-postgres`` sets): ``run_nightly`` for
   each day, then an inspector account (``casino-audit user add``). Prints the build time
   and the store's event count. With ``--work DIR`` the input and the SQLite store are
   kept there and reused by the next run with the same sizes (PostgreSQL is rebuilt).
3. Serves it with ``casino-audit serve`` in a subprocess on 127.0.0.1 (the read model is
   built at start: that time is printed; the hash chain is verified in a background
   process, which no page waits for), signs in with httpx and requests, one at a time,
   each page below: its first request is reported apart (``cold``: the overview's first
   summarises the latest nights, the first evidence bundle builds the Merkle tree the
   later ones reuse), then at most
   ``--requests`` more in at most ``--seconds`` seconds per page, whose median, 95th
   percentile and max are reported.
   The time is the client's wall time per request on loopback: the server's time plus
   well under a millisecond of HTTP.

   * ``overview``: ``/``
   * ``findings``: ``/findings?kind=mispaid_pot`` (``--kind``; 50 rows, newest first)
   * ``findings p2``: the same filter's second keyset page (``cursor``)
   * ``subject``: ``/subjects/{hand}``, cycling through the hands of that first page
     (each view also appends its ``SubjectViewed`` event to the store, as in real use)
   * ``evidence``: ``/subjects/{hand}/evidence``, the same hands' evidence bundles (Merkle
     proofs to the latest signed tree head, which the looks do not move)
   * ``subject: <kind>``: for every kind of subject the store holds verdicts on (poker
     hands, banked rounds, slot machines, tournaments, tables' terms, chemin de fer
     banker runs, poker table sessions, shoes, incidents, and any kind added later: read
     from the stored verdict units' ids, ``subject_pages``), the pages of up to
     ``PER_KIND`` of its subjects, cycling (each kind's p95 is the number docs/console.md
     gives per kind)

Targets: p95 < 300 ms for the findings page and < 150 ms for every subject page. No
assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# run as a script, this folder is first on sys.path and this file would shadow the
# ``console`` package: look for packages at the project's root instead
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != HERE]

from benchmarks.nightly import fresh_pg_url  # noqa: E402  (after the path is set)

FIRST_DAY = date(2025, 3, 1)
SEED = 7
GENERATION = 2
"""The generator's version in a ``--work`` folder's name, raised when what it generates
changes (2: slot machines' streams continued from day to day), so that an older
folder's input and store are not reused."""
USER = "bench-inspector"
PASSWORD = "benchmark password, not a secret"
CSRF = re.compile(r'name="csrf_token" value="([^"]*)"')
SUBJECT_LINK = re.compile(r'<td class="subject"><a href="(/subjects/[^"]+)">')
NEXT = re.compile(r'rel="next" href="([^"]+)"')


def days_of(n: int) -> list[date]:
    return [FIRST_DAY + timedelta(days=i) for i in range(n)]


def generate_week(args: argparse.Namespace, input_dir: Path) -> float:
    """The synthetic days under ``input_dir/<day>/``; seconds taken (0 when reused)."""
    from simulate.day import generate_day
    from simulate.fleet import slot_fleet
    from simulate.floor import banked_rounds
    from simulate.tournaments import tournament_day

    began = time.perf_counter()
    for day in days_of(args.days):
        folder = input_dir / day.isoformat()
        if (folder / ".complete").exists():
            continue
        generate_day(
            SEED,
            day,
            hands=args.hands,
            out=folder,
            fault_rate=0.01,
            extra=[
                banked_rounds(args.rounds, fault_rate=0.01),
                slot_fleet(args.machines, fault_rate=0.05, first_day=FIRST_DAY),
                tournament_day(args.tournaments, fault_rate=0.3),
            ],
        )
        (folder / ".complete").touch()
        print(f"  generated {day}", flush=True)
    return time.perf_counter() - began


def event_count(url: str) -> int:
    from audit.store import AuditStore

    store = AuditStore(url)
    try:
        return int(store.recorder.max_notification_id() or 0)
    finally:
        store.close()


def build_store(args: argparse.Namespace, url: str, input_dir: Path, out_dir: Path) -> float:
    """Every day's nightly into the store at ``url``, then the benchmark's account."""
    from pipelines.nightly import run_nightly

    began = time.perf_counter()
    for day in days_of(args.days):
        started = time.perf_counter()
        summary = run_nightly(url, input_dir, day, out_dir, workers=args.workers)
        print(
            f"  nightly {day}: {summary.events:,} events in {time.perf_counter() - started:.0f} s",
            flush=True,
        )
    add_account(url, out_dir)
    return time.perf_counter() - began


def add_account(url: str, folder: Path) -> None:
    """The benchmark's inspector account, unless the store holds it already."""
    from audit.store import AuditStore
    from cli.main import main as cli
    from console.auth.accounts import all_users

    store = AuditStore(url)
    try:
        if any(user.name == USER for user in all_users(store)):
            return
    finally:
        store.close()
    password = folder / "password"
    password.write_text(PASSWORD + "\n", encoding="utf-8")
    argv = ["--store", url, "user", "add", USER, "--role", "inspector"]
    if cli([*argv, "--password-file", str(password)]) != 0:
        raise SystemExit("could not add the benchmark's user")


PER_KIND = 20
"""Subjects of each kind whose pages ``subject: <kind>`` cycles through."""
NOT_PAGES = frozenset(
    {"nightly", "intake", "collusion_state", "data_quality", "meters", "collusion", "banker_runs"}
)
"""Verdict unit kinds over a night (bookkeeping, checks, detectors), not a subject's page."""


def subject_pages(url: str) -> dict[str, list[str]]:
    """Kind -> the pages of up to ``PER_KIND`` of its subjects, for every kind of subject
    the store holds verdicts on (from the verdict units' ids: ``<kind>:<subject>|...``)."""
    from urllib.parse import quote

    from audit.judging import KIND as ADJUDICATION
    from audit.judging import unit_subject
    from audit.store import AuditStore

    store = AuditStore(url)
    pages: dict[str, list[str]] = {}
    try:
        for unit_id in store.iter_subject_ids(ADJUDICATION):
            kind, subject = unit_subject(unit_id)
            if kind in NOT_PAGES or len(pages.setdefault(kind, [])) >= PER_KIND:
                continue
            page = "/subjects/" + quote(subject, safe="")
            if page not in pages[kind]:
                pages[kind].append(page)
    finally:
        store.close()
    return {kind: found for kind, found in sorted(pages.items()) if found}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(url: str, port: int, log: Path) -> tuple[subprocess.Popen, float]:
    """``casino-audit serve`` in a subprocess; (process, seconds until it answers)."""
    env = {k: v for k, v in os.environ.items() if k != "CASINO_AUDIT_SIGNING_KEY"}
    # this clone's code, whichever clone the virtualenv was installed from
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "cli"]
    began = time.perf_counter()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--store", url, "serve", "--host", "127.0.0.1", "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    deadline = began + 1800
    while time.perf_counter() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the console exited ({process.returncode}): {log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/login", timeout=5).status_code == 200:
                return process, time.perf_counter() - began
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    process.kill()
    raise SystemExit("the console did not answer in 30 minutes")


def sign_in(client: httpx.Client) -> None:
    page = client.get("/login")
    token = CSRF.search(page.text)
    assert token is not None
    answer = client.post(
        "/login",
        data={"username": USER, "password": PASSWORD, "csrf_token": token.group(1), "next": "/"},
    )
    if answer.status_code != 303:
        raise SystemExit(f"sign-in refused: {answer.status_code}")


def measure(client: httpx.Client, paths: list[str], requests: int, seconds: float) -> dict:
    """Request ``paths`` in turn (cycling): the first request (cold) apart, then at most
    ``requests`` more in at most ``seconds`` (at least one)."""

    def timed(path: str) -> float:
        start = time.perf_counter()
        answer = client.get(path)
        if answer.status_code != 200:
            raise SystemExit(f"GET {path}: {answer.status_code}")
        return time.perf_counter() - start

    cold = timed(paths[0])
    times: list[float] = []
    began = time.perf_counter()
    while not times or (len(times) < requests and time.perf_counter() - began < seconds):
        times.append(timed(paths[(len(times) + 1) % len(paths)]))
    times.sort()
    p95 = times[min(len(times) - 1, max(0, round(0.95 * len(times)) - 1))]
    return {
        "requests": len(times),
        "cold_ms": cold * 1000,
        "p50_ms": statistics.median(times) * 1000,
        "p95_ms": p95 * 1000,
        "max_ms": times[-1] * 1000,
    }


def load(port: int, args: argparse.Namespace, kinds: dict[str, list[str]]) -> dict[str, dict]:
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=600, follow_redirects=False) as client:
        sign_in(client)
        query = f"/findings?kind={args.kind}"
        first = client.get(query)
        subjects = list(dict.fromkeys(SUBJECT_LINK.findall(first.text)))
        following = NEXT.search(first.text)
        if not subjects:
            raise SystemExit(f"no {args.kind} finding in the store: try another --kind")
        pages = {"overview": ["/"], "findings": [query]}
        if following is not None:  # fewer than 51 such findings: no second page
            pages["findings p2"] = [following.group(1).replace("&amp;", "&")]
        pages["subject"] = subjects
        pages["evidence"] = [f"{subject}/evidence" for subject in subjects]
        pages.update({f"subject: {kind}": paths for kind, paths in kinds.items()})
        results = {}
        for name, paths in pages.items():
            results[name] = measure(client, paths, args.requests, args.seconds)
            print(f"  {name}: {json.dumps(results[name])}", flush=True)
        return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--hands", type=int, default=4_500, help="poker hands per day")
    parser.add_argument("--rounds", type=int, default=2_000, help="banked rounds per day")
    parser.add_argument("--machines", type=int, default=20, help="slot machines")
    parser.add_argument("--tournaments", type=int, default=6, help="tournaments per day")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--workers", type=int, default=2, help="nightly worker processes")
    parser.add_argument("--requests", type=int, default=300, help="at most, per page")
    parser.add_argument("--seconds", type=float, default=30.0, help="at most, per page")
    parser.add_argument("--kind", default="mispaid_pot", help="the findings page's filter")
    parser.add_argument("--work", type=Path, help="keep (and reuse) input and SQLite store")
    parser.add_argument("--store", help="measure this existing store instead of building one")
    args = parser.parse_args()
    if args.store:
        work = args.work or Path(tempfile.mkdtemp(prefix="casino-audit-console-bench-"))
        work.mkdir(parents=True, exist_ok=True)
        add_account(args.store, work)
        report([("store", event_count(args.store), 0.0, *run_console(args, args.store, work))])
        return

    work = args.work or Path(tempfile.mkdtemp(prefix="casino-audit-console-bench-"))
    sizes = f"{args.days}d-{args.hands}h-{args.rounds}r-{args.machines}m-{args.tournaments}t"
    sizes += f"-g{GENERATION}"
    input_dir = work / f"input-{sizes}"
    print(f"generating {args.days} day(s) into {input_dir}", flush=True)
    generated = generate_week(args, input_dir)
    print(f"generated in {generated:.0f} s", flush=True)
    table = []
    for backend in args.backends.split(","):
        if backend == "sqlite":
            db = work / f"store-{sizes}.db"
            url = f"sqlite:///{db}"
            reuse = db.exists() and (work / f"store-{sizes}.done").exists()
            if not reuse and db.exists():
                db.unlink()
        else:
            url, reuse = fresh_pg_url(), False
            if url is None:
                print("postgresql: CASINO_AUDIT_TEST_PG_URL not set (use .ci/with-postgres)")
                continue
        print(f"{backend}: {'reusing' if reuse else 'building'} the store", flush=True)
        built = 0.0
        if not reuse:
            built = build_store(args, url, input_dir, work / f"out-{backend}")
            if backend == "sqlite":
                (work / f"store-{sizes}.done").touch()
        events = event_count(url)
        print(f"{backend}: {events:,} events, built in {built:.0f} s", flush=True)
        table.append((backend, events, built, *run_console(args, url, work, backend)))
    print()
    print(f"generation: {generated:.0f} s ({sizes})")
    report(table)


def run_console(
    args: argparse.Namespace, url: str, work: Path, name: str = "store"
) -> tuple[float, dict[str, dict]]:
    """Serve the store, measure every page; (seconds until it answered, results)."""
    kinds = subject_pages(url)
    print(f"{name}: subject pages of {', '.join(kinds)}", flush=True)
    port = free_port()
    process, started = serve(url, port, work / f"serve-{name}.log")
    print(f"{name}: console answering after {started:.1f} s", flush=True)
    try:
        return started, load(port, args, kinds)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()


def report(table: list[tuple[str, int, float, float, dict[str, dict]]]) -> None:
    """The results as a Markdown table."""
    print("| store | events | build | console start | page | requests | cold | p50 | p95 | max |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for backend, events, built, started, results in table:
        for name, r in results.items():
            print(
                f"| {backend} | {events:,} | {built:.0f} s | {started:.1f} s | {name} "
                f"| {r['requests']} | {r['cold_ms']:.0f} ms | {r['p50_ms']:.1f} ms "
                f"| {r['p95_ms']:.1f} ms | {r['max_ms']:.0f} ms |"
            )


if __name__ == "__main__":
    main()
