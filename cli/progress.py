"""Progress for long operations: a bar on a terminal, silence when piped."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def file_progress(label: str) -> Iterator[Callable[[Path], None]]:
    """Yield a callback to call once per finished file."""
    if not sys.stderr.isatty():
        yield lambda _path: None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TextColumn("{task.completed} files"),
        TimeElapsedColumn(),
        transient=True,
    ) as progress:
        task = progress.add_task(label)
        yield lambda path: progress.update(task, advance=1, description=f"{label} {path.name}")
