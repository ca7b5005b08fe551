"""Where a night's time goes: ``benchmarks/nightly.py --breakdown`` times every step.

``install(log)`` wraps the steps ``run_nightly`` calls (``pipelines.nightly.steps``: the
preparation, each input file's intake, each partition's judging, the detectors' two
halves side by side (collusion; the slot fleet and the banker runs), the findings
appended, the report) so that each call appends one JSON line to ``log``: the step, what
it worked on, the process, its wall seconds (start and end) and its CPU seconds (user +
system of that process, ``time.process_time``). Worker processes (``spawn``) run the
wrapped steps by reference to this module and find the log through
``NIGHTLY_BREAKDOWN_LOG``. With ``NIGHTLY_PROFILE_DIR`` set, the calls whose label is in
``NIGHTLY_PROFILE`` (comma-separated: ``poker/0001.avro,p03,collusion``) run under
cProfile, their stats written there as ``<label>.prof``.

``table(log)`` sums the lines by step: calls, wall seconds (of the phase as a whole, and
summed over calls), CPU seconds, and the slowest call; the parallel phases (ingest,
judge, detectors) also say how busy each worker process was, which shows a serial tail.
"""

from __future__ import annotations

import cProfile
import json
import os
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pipelines.nightly.steps as steps

LOG = "NIGHTLY_BREAKDOWN_LOG"
PROFILE_DIR = "NIGHTLY_PROFILE_DIR"
PROFILE = "NIGHTLY_PROFILE"
SERIAL = ("prepare_night", "detector_units", "append_findings", "write_report")
T = TypeVar("T")
_TAKE_IN_INPUT_FILE = steps.take_in_input_file
_JUDGE_PARTITION = steps.judge_partition
_DETECTOR_HALF = steps.detector_half


def _timed(step: str, label: str, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)``, timed into the log (and profiled when asked)."""
    profile_dir = os.environ.get(PROFILE_DIR)
    wanted = label in os.environ.get(PROFILE, "").split(",")
    profiler = cProfile.Profile(time.process_time) if profile_dir and wanted else None
    start, cpu = time.time(), time.process_time()
    if profiler is not None:
        result = profiler.runcall(call, *args)
        profiler.dump_stats(Path(str(profile_dir)) / f"{label.replace('/', '_')}.prof")
    else:
        result = call(*args)
    line = {
        "step": step,
        "label": label,
        "pid": os.getpid(),
        "start": start,
        "end": time.time(),
        "cpu": time.process_time() - cpu,
    }
    with Path(os.environ[LOG]).open("a") as out:
        out.write(json.dumps(line) + "\n")
    return result


def take_in_input_file(store_url: str, day: Any, path: Path) -> Any:
    """``steps.take_in_input_file``, timed."""
    label = steps.input_file_name(path)
    return _timed("ingest", label, _TAKE_IN_INPUT_FILE, store_url, day, path)


def judge_partition(store_url: str, day: Any, partition: int, *rest: Any) -> Any:
    """``steps.judge_partition``, timed."""
    label = steps.partition_name(partition)
    return _timed("judge", label, _JUDGE_PARTITION, store_url, day, partition, *rest)


def detector_half(store_url: str, day: Any, collusion: bool, *rest: Any) -> Any:
    """``steps.detector_half`` (collusion, or the slot fleet and the banker runs), timed."""
    label = "collusion" if collusion else "meters_banker_runs"
    return _timed("detectors", label, _DETECTOR_HALF, store_url, day, collusion, *rest)


def _serial(name: str) -> Callable[..., Any]:
    original = getattr(steps, name)

    def timed(*args: Any) -> Any:
        return _timed(name, name, original, *args)

    return timed


def install(log: Path) -> None:
    """Wrap ``run_nightly``'s steps in this process (workers import this module)."""
    os.environ[LOG] = str(log)
    module: Any = steps
    for name in SERIAL:
        setattr(module, name, _serial(name))
    module.take_in_input_file = take_in_input_file
    module.judge_partition = judge_partition
    module.detector_half = detector_half


def table(log: Path) -> list[str]:
    """The log summed by step (see the module docstring), as printable lines."""
    lines = [json.loads(text) for text in log.read_text().splitlines()]
    by_step: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        by_step[line["step"]].append(line)
    first = min(line["start"] for line in lines)
    out = [
        f"{'step':<16}{'calls':>6}{'from s':>8}{'to s':>8}{'phase s':>9}{'sum wall':>10}"
        f"{'sum cpu':>9}  slowest"
    ]
    for step, calls in sorted(by_step.items(), key=lambda item: min(c["start"] for c in item[1])):
        begin = min(c["start"] for c in calls) - first
        end = max(c["end"] for c in calls) - first
        wall = sum(c["end"] - c["start"] for c in calls)
        cpu = sum(c["cpu"] for c in calls)
        slowest = max(calls, key=lambda c: c["end"] - c["start"])
        out.append(
            f"{step:<16}{len(calls):>6}{begin:>8.1f}{end:>8.1f}{end - begin:>9.1f}{wall:>10.1f}"
            f"{cpu:>9.1f}  {slowest['label']} {slowest['end'] - slowest['start']:.1f} s"
        )
        workers: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for call in calls:
            workers[call["pid"]].append(call)
        if len(workers) > 1:
            for pid, own in sorted(workers.items()):
                busy = sum(c["end"] - c["start"] for c in own)
                last = max(c["end"] for c in own) - first
                out.append(
                    f"{'':<4}worker {pid}: {len(own)} calls, busy {busy:.1f} s, "
                    f"cpu {sum(c['cpu'] for c in own):.1f} s, last ends at {last:.1f} s"
                )
    return out
