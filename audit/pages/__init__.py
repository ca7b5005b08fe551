"""Findings as HTML, written once: the Jinja2 setup and macros that both the nightly
report (``pipelines.report``) and the console (``console.runtime``) render with.

``environment(own)`` is the one way either layer makes its Jinja2 environment: autoescape
on for everything, undefined names an error, its own templates first, then the shared
ones here (``templates/findings_parts.html``: the owed-money rows and the finding in
words), with the filters the shared macros use:

* ``t``: text from the records (names are hostile input), control and bidirectional
  characters made visible by ``audit.wording.terminal_safe``; autoescape then makes
  ``<script>``, quotes and ``&`` inert;
* ``money``: an amount in minor units in words (``audit.notation.money.format_money``:
  ``EUR 2.88``); anything not an integer as text (``-`` for none).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from audit.notation.money import format_money
from audit.wording import terminal_safe

SHARED = Path(__file__).resolve().parent / "templates"
"""The shared templates (package data)."""


def text(value: Any) -> str:
    """Text from the records as a page shows it (``t``)."""
    return terminal_safe("" if value is None else value)


def money(amount: Any, currency: Any) -> str:
    """Minor units in words (``money``); a currency that is not text counts as none."""
    if isinstance(amount, int) and not isinstance(amount, bool):
        return format_money(amount, currency if isinstance(currency, str) else None)
    return "-" if amount is None else terminal_safe(amount)


def environment(own: Path) -> jinja2.Environment:
    """A Jinja2 environment over the templates in ``own`` and the shared ones (see the
    module docstring); callers add their own filters and globals."""
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(own), jinja2.FileSystemLoader(SHARED)]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(t=text, money=money)
    return env
