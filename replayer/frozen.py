"""The compiled build's one workaround for frozen dataclasses: pickling.

The frozen dataclasses the build compiles (``replayer.compiled``) keep the ``__init__``
``dataclass`` generates: no class writes its own ``object.__setattr__`` lines (a
derived value is a ``functools.cached_property``, as ``rankings.Ranking.lowest_rank``).
What the compiled class cannot do is unpickle: a frozen dataclass compiled by mypyc has no
``__dict__`` for pickle to fill, and pickle's default path sets each field through
``__setattr__``, which a frozen class refuses, so the object could not be sent to another
process (a console's verification in its worker, a nightly worker's result).
``rebuilt_by_init`` is the ``__reduce__`` of such a class: the object is rebuilt by calling
the class with its fields in their declared order, as the pure-Python class rebuilds it
too, so both builds pickle alike.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def rebuilt_by_init(instance: Any) -> tuple[type, tuple[Any, ...]]:
    """pickle's ``(callable, arguments)`` for a dataclass whose every field is an
    ``__init__`` argument, in declaration order."""
    return type(instance), tuple(getattr(instance, field.name) for field in fields(instance))
