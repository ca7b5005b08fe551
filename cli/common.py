"""What every command shares: exit codes, ``CannotRun`` and opening the store.

Exit codes, for every command:
  0  done; for ``ingest``: every record stored (or already stored)
  1  done, but the data has problems: ``ingest`` quarantined records, ``verify`` found a
     broken chain, ``findings --fail-on-findings`` found some
  2  could not run: bad arguments, a missing path, an unreachable or unusable store
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, TypeAlias

from audit.config import StoreURLError, parse_store_url, store_url_from_env

if TYPE_CHECKING:
    from audit.store import AuditStore

EXIT_OK, EXIT_DATA_PROBLEMS, EXIT_CANNOT_RUN = 0, 1, 2

Command = Callable[[argparse.Namespace], int]
"""What a command's parser sets as ``run``: the command, given the parsed arguments."""

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""The ``add_subparsers()`` object each command module adds its parsers to (generic for
the type checker only, hence the string)."""


class CannotRun(Exception):
    """The command cannot run; the message says why (no traceback for the user)."""


def open_store(
    args: argparse.Namespace, *, create: bool = True, chain_shard: str | None = None
) -> AuditStore:
    """The store of ``--store``; a read command (``create=False``) never creates one;
    writes go to ``chain_shard``'s hash chain (None: the main chain)."""
    from eventsourcing.persistence import PersistenceError

    from audit.store import MAIN_SHARD, AuditStore, KeyError_, ShardNameError, StoreUnusable

    url = store_url_from_env(args.store)
    try:
        shard = MAIN_SHARD if chain_shard is None else chain_shard
        return AuditStore(url, create=create, chain_shard=shard)
    except (StoreUnusable, StoreURLError, KeyError_, ShardNameError) as error:  # they say why
        raise CannotRun(str(error)) from None
    except (PersistenceError, OSError) as error:
        where = parse_store_url(url).redacted()
        raise CannotRun(f"cannot open the store {where}: {error}") from None


def parse_day(text: str | None) -> date | None:
    """``YYYY-MM-DD`` as a date (None stays None); anything else cannot run."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CannotRun(f"{text!r} is not a date (YYYY-MM-DD)") from None
