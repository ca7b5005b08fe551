"""What reconciling a machine returns: findings, the reading windows, the metered return."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from replayer.events import FlatEvent
from replayer.findings import Finding


@dataclass(frozen=True, slots=True)
class Window:
    """The span between two meter readings (or a RAM clear and a reading).

    ``status``: 'reconciled' (every metered delta equals its event sum), 'discrepancy',
    'after_ram_clear' (meters restarted at zero at a MachineReset in the span) or
    'unexplained_ram_clear' (the meters fell toward zero with no MachineReset: not
    reconcilable). ``rollovers`` names the meters that wrapped at 10^width in the span.
    """

    start_sequence: int
    end_sequence: int
    status: str
    metered: Mapping[str, int]
    event_sums: Mapping[str, int]
    rollovers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ConfigurationPeriod:
    """The games played under one MachineConfigured, as the return test judged them:
    ``coin_in``, ``won`` (coin_out + jackpot) and ``games`` from the windows credited to
    it (``reconcile._credit``), tested against ``theoretical_return``."""

    sequence: int  # of the MachineConfigured
    paytable_id: str
    theoretical_return: Fraction
    coin_in: int
    won: int
    games: int

    @property
    def actual_return(self) -> Fraction | None:
        return Fraction(self.won, self.coin_in) if self.coin_in else None


@dataclass(frozen=True, slots=True)
class MachineStep:
    """One event and the machine's state after it."""

    sequence: int
    event: FlatEvent
    state: Mapping[str, Any]
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True, slots=True)
class MachineVerdict:
    """The replayer's reconciliation of one machine's meters and events.

    ``actual_return`` is (coin_out + jackpot) / coin_in over the windows whose deltas are
    known, ``games`` the games_played over the same windows; None without any wager.
    ``configurations`` are the machine's configurations in order, each with the play its
    return test judged; ``theoretical_return`` is the one paytable's, or with several, their
    theoretical returns weighted by the coin in credited to each.
    """

    machine_id: str
    rulebook_id: str | None
    findings: tuple[Finding, ...]
    windows: tuple[Window, ...]
    steps: tuple[MachineStep, ...]
    actual_return: Fraction | None
    theoretical_return: Fraction | None
    games: int
    configurations: tuple[ConfigurationPeriod, ...] = ()
