"""``reconcile_machine``: one machine's meter readings against its events (PT-217/2007 III).

Walking the machine's events in order:

* each MeterRead is checked on its own: the meters III.9 requires are present, and the
  composite identities hold (total_won = coin_out + jackpot, total_handpaid =
  handpaid_cancelled_credits + jackpot, modulo 10^width);
* between two readings, each meter's delta must equal the sum of the events' contributions
  (``meters.contributions``). A negative delta on some meters is a rollover: the meter
  wrapped at 10^width (8 digits for 4-byte BCD, up to 18), and the wrapped delta is
  reconciled. When at least ``ram_clear_drop_fraction`` of the meters that were nonzero
  fall at once, it is a RAM clear (meters restart at zero); explained by a MachineReset
  'ram_clear' in the span, the meters restart at zero there and the events after it are
  reconciled; unexplained, it is a ``meter_discrepancy`` and the span cannot be reconciled;
* a reading whose meters fail (a composite, or a delta against the events since the
  reading before) is ONE ``meter_discrepancy``, naming every meter it concerns with each
  meter's figures (``_bad_reading``);
* a game whose win exceeds the configuration's max_single_win is an impossible single-play
  increment;
* a reading's meter whose value has more digits than the configured meter_width_digits
  (>= 10^width) cannot come from the meter (III.9): a ``data_quality`` finding, and the
  value is left out of the reading, so neither window beside it is judged on that meter:
  no rollover is inferred from it and no discrepancy computed from its wrap;
* over every span whose deltas are known, the metered return (coin_out + jackpot) /
  coin_in is tested against the paytable's theoretical return and against the 80% floor of
  III.2: below by the normal approximation, above by Bernstein's bound (``returns``); a
  paytable below 80% is itself illegal;
* each MachineConfigured opens a configuration (a paytable change mid-day is a new one):
  its games are tested against its own theoretical return, sd and max_single_win, apart
  from the other configurations'. A window lying under one configuration is credited to it
  by its meters; a window across a reconfiguration is apportioned by its events (each game
  under the configuration in force when it was played) when they reconcile with its
  meters, and otherwise left out of the return test (its discrepancy is a finding).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.rulebooks.casino import SlotRules, casino_rulebook_for
from replayer.slots.jackpot import jackpot_findings
from replayer.slots.meters import COMPOSITES, contributions
from replayer.slots.returns import beyond_standard_errors, overpays_beyond_bound
from replayer.slots.verdict import ConfigurationPeriod, MachineStep, MachineVerdict, Window

METERS_RULE = "PT-217/2007 III.9"
RETURN_RULE = "PT-217/2007 III.2"
SAS = f"{METERS_RULE}; SAS meter practice"
#: The meters the return test reads: (coin_out + jackpot) / coin_in over games_played.
RETURN_METERS = ("coin_in", "coin_out", "jackpot", "games_played")


@dataclass(slots=True)
class _Period:
    """The games played under one MachineConfigured, as the return test counts them."""

    config: FlatEvent
    coin_in: int = 0
    won: int = 0
    games: int = 0
    last_sequence: int = 0  # the reading that closed the last window credited here

    def credit(self, deltas: Mapping[str, int], end: int) -> None:
        self.coin_in += deltas.get("coin_in", 0)
        self.won += deltas.get("coin_out", 0) + deltas.get("jackpot", 0)
        self.games += deltas.get("games_played", 0)
        self.last_sequence = end


@dataclass(slots=True)
class _Machine:
    machine_id: str
    rules: SlotRules
    config: FlatEvent
    findings: list[Finding] = field(default_factory=list)
    windows: list[Window] = field(default_factory=list)
    baseline: dict[str, int] | None = None
    baseline_sequence: int = 0
    sums: Counter[str] = field(default_factory=Counter)
    periods: list[_Period] = field(default_factory=list)
    span: dict[int, Counter[str]] = field(default_factory=dict)  # period -> return meters
    ram_cleared: bool = False
    coin_in: int = 0
    won: int = 0
    games: int = 0

    @property
    def modulus(self) -> int:
        """10^width, what a meter counts modulo (SAS). Typed for a width of zero or more:
        a negative one (reported by ``_check_config``, outside every rulebook's
        ``meter_widths``) would make it a fraction, and the readings are judged on that."""
        width: int = self.config["meter_width_digits"]
        modulus: int = 10**width
        return modulus

    def finding(self, reason: str, sequence: int, **detail: Any) -> Finding:
        return Finding(
            FindingKind.METER_DISCREPANCY,
            self.machine_id,
            detail.pop("citation", SAS),
            reason,
            expected=detail.get("event_sum"),
            recorded=detail.get("metered"),
            difference=(
                detail["metered"] - detail["event_sum"]
                if "metered" in detail and "event_sum" in detail
                else None
            ),
            detail={"sequence": sequence, **detail},
        )


def reconcile_machine(
    events: Iterable[FlatEvent], related: Sequence[Mapping[str, Any]] = ()
) -> MachineVerdict:
    """Reconcile one machine's stream; deterministic and pure. ``related``: the records of
    the other machines its jackpots name (``jackpot.related_machines``), for the jackpot
    rules (``replayer.slots.jackpot``: PT-217/2007 III.3-6, III.8)."""
    ordered = sorted(events, key=lambda event: event["sequence"])
    machine_ids = {event["machine_id"] for event in ordered}
    if len(machine_ids) != 1:
        raise ValueError(f"expected the events of one machine, got {sorted(machine_ids)}")
    machine_id = machine_ids.pop()
    configs = [event for event in ordered if event["type"] == "MachineConfigured"]
    problem = _setup_problem(machine_id, ordered, configs)
    if problem is not None:
        return MachineVerdict(machine_id, None, (problem,), (), (), None, None, 0)
    config = configs[0]
    rules, why = casino_rulebook_for(config.get("rulebook"), "slots", config["occurred_at"])
    if not isinstance(rules, SlotRules):
        finding = Finding(
            FindingKind.NO_RULEBOOK, machine_id, "casino-audit rulebook registry", why
        )
        return MachineVerdict(machine_id, None, (finding,), (), (), None, None, 0)
    machine = _Machine(machine_id, rules, config)
    steps = []
    for event in ordered:
        before = len(machine.findings)
        _apply(machine, event)
        steps.append(
            MachineStep(
                event["sequence"],
                event,
                {"meters": dict(machine.baseline or {}), "since_reading": dict(machine.sums)},
                tuple(machine.findings[before:]),
            )
        )
    machine.findings += jackpot_findings(machine_id, ordered, related, rules)
    actual = Fraction(machine.won, machine.coin_in) if machine.coin_in else None
    several = len(machine.periods) > 1
    for period in machine.periods:
        machine.findings += _return_findings(machine, period, several)
    return MachineVerdict(
        machine_id,
        rules.id,
        tuple(machine.findings),
        tuple(machine.windows),
        tuple(steps),
        actual,
        _theoretical(machine.periods),
        machine.games,
        tuple(
            ConfigurationPeriod(
                p.config["sequence"],
                p.config["paytable_id"],
                Fraction(p.config["theoretical_return_bps"], 10_000),
                p.coin_in,
                p.won,
                p.games,
            )
            for p in machine.periods
        ),
    )


def _theoretical(periods: list[_Period]) -> Fraction:
    """The return the configurations promise: the one paytable's, or with several, their
    theoretical returns weighted by the coin in credited to each."""
    returns = [Fraction(p.config["theoretical_return_bps"], 10_000) for p in periods]
    coin_in = sum(p.coin_in for p in periods)
    if len(periods) == 1 or not coin_in:
        return returns[0]
    weighted = sum((t * p.coin_in for t, p in zip(returns, periods, strict=True)), Fraction(0))
    return weighted / coin_in


def _setup_problem(
    machine_id: str, ordered: list[FlatEvent], configs: list[FlatEvent]
) -> Finding | None:
    sequences = [event["sequence"] for event in ordered]
    reason = None
    if not configs or ordered[0]["type"] != "MachineConfigured":
        reason = "the stream does not start with MachineConfigured"
    elif sequences != list(range(len(sequences))):
        reason = "event sequences are not 0, 1, 2, ... without gaps"
    if reason is None:
        return None
    return Finding(FindingKind.DATA_QUALITY, machine_id, "schemas/slot_machine.avsc", reason)


def _apply(machine: _Machine, event: FlatEvent) -> None:
    """Apply one event to the machine (``APPLY``; a type it does not name is counted)."""
    APPLY.get(event["type"], _counted)(machine, event)


def _configured(machine: _Machine, event: FlatEvent) -> None:
    """A configuration opens a period (``_Period``) and is checked."""
    machine.config = event
    machine.periods.append(_Period(event))
    _check_config(machine, event)


def _reset(machine: _Machine, event: FlatEvent) -> None:
    """A RAM clear restarts every meter at zero; a power cycle changes nothing."""
    if event["kind"] != "ram_clear":
        _counted(machine, event)
        return
    machine.baseline = dict.fromkeys(machine.baseline or {}, 0)
    machine.baseline_sequence = event["sequence"]
    machine.sums = Counter()
    machine.span = {}
    machine.ram_cleared = True


def _game_played(machine: _Machine, event: FlatEvent) -> None:
    """A game is counted; one won above the paytable's largest win is impossible."""
    sequence = event["sequence"]
    if event["win"] > machine.config["max_single_win"]:
        meter = "jackpot" if event.get("handpaid") else "coin_out"
        machine.findings.append(
            machine.finding(
                f"one game won {event['win']}, above the paytable's largest win "
                f"{machine.config['max_single_win']}",
                sequence,
                meter=meter,
                check="single_play",
                window=[sequence, sequence],
                metered=event["win"],
                event_sum=machine.config["max_single_win"],
            )
        )
    _counted(machine, event)


def _counted(machine: _Machine, event: FlatEvent) -> None:
    """The event's meter contributions (``meters.contributions``) are added to the sums
    since the last reading, and to the current configuration's span."""
    span = machine.span.setdefault(len(machine.periods) - 1, Counter())
    for meter, amount in contributions(event).items():
        machine.sums[meter] += amount
        if meter in RETURN_METERS:
            span[meter] += amount


def _check_config(machine: _Machine, event: FlatEvent) -> None:
    width, rules = event["meter_width_digits"], machine.rules
    if width not in rules.meter_widths:
        machine.findings.append(
            Finding(
                FindingKind.DATA_QUALITY,
                machine.machine_id,
                SAS,
                f"meter width {width} digits is outside {rules.meter_widths.start}-"
                f"{rules.meter_widths.stop - 1}",
                detail={"sequence": event["sequence"]},
            )
        )
    theoretical = Fraction(event["theoretical_return_bps"], 10_000)
    if theoretical < rules.minimum_return:
        machine.findings.append(
            Finding(
                FindingKind.RETURN_OUT_OF_BAND,
                machine.machine_id,
                RETURN_RULE,
                f"paytable {event['paytable_id']} returns {event['theoretical_return_bps']} bps,"
                f" below the minimum {rules.minimum_return * 10_000} bps",
                expected=int(rules.minimum_return * 10_000),
                recorded=event["theoretical_return_bps"],
                detail={"sequence": event["sequence"], "check": "paytable_minimum"},
            )
        )


def _reading(machine: _Machine, event: FlatEvent) -> None:
    sequence = event["sequence"]
    missing = sorted(machine.rules.required_meters - set(event["meters"]))
    if missing:
        machine.findings.append(
            machine.finding(
                f"reading lacks the required meters {', '.join(missing)}",
                sequence,
                citation=METERS_RULE,
                check="required_meters",
                meter=",".join(missing),
            )
        )
    meters = _within_width(machine, event["meters"], sequence)
    wrong = _composites(machine, meters)
    window = [sequence, sequence]
    off: dict[str, dict[str, Any]] = {}
    if machine.baseline is not None:
        window, off = _window(machine, meters, sequence)
    if wrong or off:
        machine.findings.append(_bad_reading(machine, sequence, window, off, wrong))
    machine.baseline = dict(meters)
    machine.baseline_sequence = sequence
    machine.sums = Counter()
    machine.span = {}
    machine.ram_cleared = False


def _composites(machine: _Machine, meters: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """The reading's composites that are not the sum of their parts (SAS: total_won =
    coin_out + jackpot, total_handpaid = handpaid_cancelled_credits + jackpot, modulo
    10^width): composite -> what it reads (``read``) and what its parts add (``parts``)."""
    wrong = {}
    for composite, parts in COMPOSITES.items():
        if composite in meters and all(part in meters for part in parts):
            total = sum(meters[part] for part in parts) % machine.modulus
            if meters[composite] != total:
                wrong[composite] = {"read": meters[composite], "parts": total}
    return wrong


def _bad_reading(
    machine: _Machine,
    sequence: int,
    window: list[int],
    off: Mapping[str, Mapping[str, Any]],
    wrong: Mapping[str, Mapping[str, int]],
) -> Finding:
    """The one ``meter_discrepancy`` of a reading whose meters fail (III.9; SAS): every
    meter whose advance since the reading before differs from what the events in between
    add (``window_meters``: metered, event_sum, rollover) and every composite its parts do
    not add up to (``composites``: read, parts); ``meters`` names them all. ``expected``,
    ``recorded`` and ``difference`` map each window meter to the events' sum, its metered
    advance and metered minus events, in the meter's own unit (minor units of the
    machine's currency; games for games_played and games_won)."""
    said = []
    if off:
        said.append(
            f"{', '.join(off)} advanced otherwise than the events between sequences "
            f"{window[0]} and {window[1]} add"
        )
    said += [f"{c} is not {' + '.join(COMPOSITES[c])}" for c in wrong]
    return Finding(
        FindingKind.METER_DISCREPANCY,
        machine.machine_id,
        SAS,
        "; ".join(said),
        expected={m: f["event_sum"] for m, f in off.items()} or None,
        recorded={m: f["metered"] for m, f in off.items()} or None,
        difference={m: f["metered"] - f["event_sum"] for m, f in off.items()} or None,
        detail={
            "sequence": sequence,
            "check": "reading",
            "meters": sorted({*off, *wrong}),
            "window": window,
            "window_meters": {m: dict(f) for m, f in off.items()},
            "composites": {c: dict(f) for c, f in wrong.items()},
        },
    )


def _within_width(machine: _Machine, meters: Mapping[str, int], sequence: int) -> dict[str, int]:
    """The reading's meters that fit the configured width (III.9; SAS: a meter counts
    modulo 10^width). A value with more digits than meter_width_digits (or below zero) is
    no reading of the meter: a ``data_quality`` finding, and the meter is left out of this
    reading, so neither window beside it is judged on it (no rollover, no wrapped delta)."""
    width, kept = machine.config["meter_width_digits"], {}
    for meter, value in meters.items():
        if 0 <= value < machine.modulus:
            kept[meter] = value
            continue
        machine.findings.append(
            Finding(
                FindingKind.DATA_QUALITY,
                machine.machine_id,
                SAS,
                f"{meter} reads {value}, more digits than the configured meter width of "
                f"{width}: not a reading of the meter (no rollover inferred; the windows "
                "beside it are not judged on it)",
                expected=machine.modulus - 1,
                recorded=value,
                detail={"sequence": sequence, "meter": meter, "check": "meter_width"},
            )
        )
    return kept


def _window(
    machine: _Machine, meters: Mapping[str, int], sequence: int
) -> tuple[list[int], dict[str, dict[str, Any]]]:
    """Judge the window the reading closes: the window, and its meters whose delta is not
    what the events add (meter -> metered, event_sum, rollover); an unexplained RAM clear
    is its own finding and leaves the window unjudged."""
    assert machine.baseline is not None
    before = machine.baseline
    common = sorted(set(before) & set(meters)) if not machine.ram_cleared else sorted(meters)
    start = machine.baseline_sequence
    window = [start, sequence]
    nonzero = [m for m in common if before.get(m, 0) > 0]
    dropped = [m for m in nonzero if meters[m] < before[m]]
    if nonzero and len(dropped) >= machine.rules.ram_clear_drop_fraction * len(nonzero):
        machine.findings.append(
            machine.finding(
                f"{len(dropped)} of {len(nonzero)} meters fell toward zero with no RAM clear "
                "recorded (MachineReset)",
                sequence,
                meter=",".join(dropped),
                check="unexplained_ram_clear",
                window=window,
            )
        )
        machine.windows.append(Window(start, sequence, "unexplained_ram_clear", dict(meters), {}))
        return window, {}
    metered, rollovers, off = {}, [], {}
    for meter in common:
        delta = meters[meter] - before.get(meter, 0)
        if delta < 0:
            delta += machine.modulus
            rollovers.append(meter)
        metered[meter] = delta
        if delta != machine.sums[meter]:
            off[meter] = {
                "metered": delta,
                "event_sum": machine.sums[meter],
                "rollover": meter in rollovers,
            }
    status = "discrepancy" if off else "after_ram_clear" if machine.ram_cleared else "reconciled"
    sums = {meter: machine.sums[meter] for meter in common}
    machine.windows.append(Window(start, sequence, status, metered, sums, tuple(rollovers)))
    if set(RETURN_METERS) <= set(metered):
        machine.coin_in += metered["coin_in"]
        machine.won += metered["coin_out"] + metered["jackpot"]
        machine.games += metered["games_played"]
        _credit(machine, metered, sequence)
    return window, off


def _credit(machine: _Machine, metered: Mapping[str, int], end: int) -> None:
    """Credit a window's return meters to the configurations its games were played under:
    all to the one configuration when its games were played under one (or none: the
    configuration in force); apportioned by the events when they span a reconfiguration
    and reconcile with the meters; else to none (the window's discrepancy is a finding)."""
    touched = sorted(index for index, sums in machine.span.items() if any(sums.values()))
    if len(touched) <= 1:
        machine.periods[touched[0] if touched else len(machine.periods) - 1].credit(metered, end)
    elif all(metered[meter] == machine.sums[meter] for meter in RETURN_METERS):
        for index in touched:
            machine.periods[index].credit(machine.span[index], end)


def _return_findings(machine: _Machine, period: _Period, several: bool) -> list[Finding]:
    """The return test of one configuration's games (III.2, III.9): against its own
    paytable's theoretical return, sd and max_single_win, and against the 80% floor."""
    if period.games == 0 or period.coin_in == 0:
        return []
    rules, config = machine.rules, period.config
    actual = Fraction(period.won, period.coin_in)
    theoretical = Fraction(config["theoretical_return_bps"], 10_000)
    sd_bps = config.get("return_sd_bps")
    sd = Fraction(sd_bps, 10_000) if sd_bps is not None else rules.default_return_sd
    k, games = rules.standard_errors, period.games
    checks = [("theoretical_return", theoretical, SAS)]
    if actual < rules.minimum_return:
        checks.append(("minimum_return", rules.minimum_return, RETURN_RULE))
    under = (
        f" under paytable {config['paytable_id']} (configured at sequence {config['sequence']})"
        if several
        else ""
    )
    which = (
        {"paytable_id": config["paytable_id"], "configuration_sequence": config["sequence"]}
        if several
        else {}
    )
    findings = []
    for check, target, citation in checks:
        departure = _departure(rules, period, actual, target, sd)
        if departure is None:
            continue
        findings.append(
            Finding(
                FindingKind.RETURN_OUT_OF_BAND,
                machine.machine_id,
                citation,
                f"metered return {_percent(actual)} over {games} games{under} is "
                f"{'below' if actual < target else 'above'} {_percent(target)} {departure}",
                expected=round(target * 10_000),
                recorded=round(actual * 10_000),
                difference=round(actual * 10_000) - round(target * 10_000),
                detail={
                    "sequence": period.last_sequence,
                    "check": check,
                    "meter": "(coin_out + jackpot) / coin_in, bps",
                    "games": games,
                    "coin_in": period.coin_in,
                    "won": period.won,
                    "sd": str(sd),
                    "standard_errors": k,
                    "test": "normal_lower" if actual < target else "bernstein_upper",
                    **which,
                },
            )
        )
    return findings


def _departure(
    rules: SlotRules, period: _Period, actual: Fraction, target: Fraction, sd: Fraction
) -> str | None:
    """Why ``actual`` departs from ``target`` beyond chance (``returns``), or None."""
    k = rules.standard_errors
    if actual < target:
        if beyond_standard_errors(actual, target, period.games, sd, k):
            return f"by more than {k} standard errors (sd {sd} per unit)"
        return None
    limit = period.config["max_single_win"]
    if overpays_beyond_bound(period.won, period.coin_in, target, limit, k):
        return f"beyond Bernstein's bound at {k} (each win at most {limit})"
    return None


def _percent(ratio: Fraction) -> str:
    bps = round(ratio * 10_000)
    return f"{bps // 100}.{bps % 100:02d}%"


APPLY: dict[str, Callable[[_Machine, FlatEvent], None]] = {
    "MachineConfigured": _configured,
    "MeterRead": _reading,
    "GamePlayed": _game_played,
    "HandpayMade": _counted,
    "BillInserted": _counted,
    "TicketPrinted": _counted,
    "TicketRedeemed": _counted,
    "MachineReset": _reset,
    "ConfigurationApproved": _counted,
    "JackpotContributed": _counted,
    "JackpotLevelRead": _counted,
    "JackpotAwarded": _counted,
    "JackpotTransferred": _counted,
    "JackpotReceived": _counted,
}
"""Record type -> what its event does to the machine (every type of the slots schema; the
jackpot records move no meter and are judged whole by ``jackpot.jackpot_findings``)."""
