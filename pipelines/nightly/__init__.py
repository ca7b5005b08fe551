"""The nightly reconciliation, one module per concept:

* ``steps``: the night's plain, idempotent steps and ``run_nightly``, which calls them
  in order in one process (its docstring lists the steps);
* ``partitions``: the 16 fixed parts of a night's subjects, by a hash of the subject id;
* ``intake``: what each input file names, by partition, and the subjects a partition
  judges;
* ``chunks`` and ``chunk_steps``: the DAG's mapped tasks, input files and partitions in
  chunks under Airflow's map limit.

The names callers use are the steps' (the CLI, the DAGs, benchmarks and tests import
them from here).
"""

from pipelines.nightly.steps import (
    NightlySummary,
    NoInput,
    append_findings,
    default_workers,
    discover_input_files,
    judge_partition,
    open_store,
    prepare_night,
    run_detectors,
    run_nightly,
    take_in_input_file,
    write_report,
)

__all__ = [
    "NightlySummary",
    "NoInput",
    "append_findings",
    "default_workers",
    "discover_input_files",
    "judge_partition",
    "open_store",
    "prepare_night",
    "run_detectors",
    "run_nightly",
    "take_in_input_file",
    "write_report",
]
