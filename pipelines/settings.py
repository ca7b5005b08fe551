"""Where a night's input and reports live: one place for the settings every entry point
shares (the two DAGs, ``casino-audit nightly``, ``incident``, ``serve``).

Each is an explicit value (a DAG param, a command-line option), else an environment
variable, else a default relative to the working directory; the store URL is
``audit.config.store_url_from_env``'s.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from audit.config import store_url_from_env

INPUT_ENV, DEFAULT_INPUT = "CASINO_AUDIT_INPUT", "casino-audit-input"
"""Input root: a day's files are under ``<input>/<YYYY-MM-DD>/``."""
OUT_ENV, DEFAULT_OUT = "CASINO_AUDIT_OUT", "casino-audit-reports"
"""Report root: a night's report is under ``<out>/<YYYY-MM-DD>/``."""


def input_root(explicit: str | None = None) -> str:
    """``explicit``, else ``$CASINO_AUDIT_INPUT``, else ``./casino-audit-input``."""
    return explicit or os.environ.get(INPUT_ENV) or DEFAULT_INPUT


def report_root(explicit: str | None = None) -> str:
    """``explicit``, else ``$CASINO_AUDIT_OUT``, else ``./casino-audit-reports``."""
    return explicit or os.environ.get(OUT_ENV) or DEFAULT_OUT


def run_settings(params: Mapping[str, Any]) -> dict[str, str]:
    """A DAG run's ``input_dir``, ``store_url`` and ``out_dir`` with defaults filled in."""
    return {
        "input_dir": input_root(params.get("input_dir") or None),
        "store_url": store_url_from_env(params.get("store_url") or None),
        "out_dir": report_root(params.get("out_dir") or None),
    }
