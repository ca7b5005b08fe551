"""Pickling the frozen dataclasses the build compiles.

A frozen dataclass compiled by mypyc has no ``__dict__`` for pickle to fill, and pickle's
default path sets each field through ``__setattr__``, which a frozen class refuses: the
object cannot be sent to another process (a console's verification in its worker, a
nightly worker's result). ``rebuilt_by_init`` is the ``__reduce__`` of such a class: the
object is rebuilt by calling the class with its fields in their declared order, as the
pure-Python class rebuilds it too, so both builds pickle alike.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def rebuilt_by_init(instance: Any) -> tuple[type, tuple[Any, ...]]:
    """pickle's ``(callable, arguments)`` for a dataclass whose every field is an
    ``__init__`` argument, in declaration order."""
    return type(instance), tuple(getattr(instance, field.name) for field in fields(instance))
