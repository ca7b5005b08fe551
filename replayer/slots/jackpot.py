"""Slot jackpots judged from the records (PT-217/2007 III.3-6, III.8).

A machine's configuration (``MachineConfigured``) declares the jackpot it feeds
(``jackpot_pool``: its own id for its own jackpot, a pool id for a superjackpot), the fixed
share of every wager deducted to it (``jackpot_rate_bps``) and, for a superjackpot, the
machines linked into it (``jackpot_linked``). Judged on the machine's subject:

* III.3 (and III.4 for a superjackpot): each ``JackpotContributed`` is the declared share
  of the wagers played since the one before, carried in fractions of a minor unit and sent
  whole (``floor(W * rate) - floor(W_before * rate)``, W the wagers since the
  configuration); a deduction with no jackpot declared, or to another jackpot, is one too.
  The return without the deduction must still reach the minimum of III.2 ("sem prejuízo
  da percentagem": ``SlotRules.jackpot_outside_minimum``);
* III.4: every machine a superjackpot's configuration names states the same pool, the
  same list of machines and the same share; a machine whose share differs from the one
  most of them state is the one at fault (with as many for each, every one differing);
* III.5: each ``JackpotLevelRead`` this machine records holds what the reading of the
  pool before it (on any machine of the pool) plus what came in since (every linked
  machine's contributions, amounts received) less what went out (awards, transfers),
  in time order across the machines; a pool with a linked machine not on record is not
  judged;
* III.6: a ``JackpotTransferred`` moves all the jackpot holds, to a machine alike
  (``SlotRules.like_machine``: the same model and bets) that records receiving the same
  amount (``JackpotReceived``);
* III.8: once an approval (``ConfigurationApproved``) is on record, the configuration in
  force matches one recorded before or with it (``SlotRules.approved_characteristics``).

The other machines' records come as ``related`` (``related_machines`` names them;
``audit.judging.gather`` reads them): only their ``JACKPOT_RECORDS`` count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.rulebooks.casino import SlotRules

CONTRIBUTION_RULE = "PT-217/2007 III.3"
POOL_RULE = "PT-217/2007 III.4"
TRUST_RULE = "PT-217/2007 III.5"
TRANSFER_RULE = "PT-217/2007 III.6"
APPROVAL_RULE = "PT-217/2007 III.8"
BPS = 10_000

FLOWS: dict[str, int] = {
    "JackpotContributed": 1,
    "JackpotReceived": 1,
    "JackpotAwarded": -1,
    "JackpotTransferred": -1,
}
"""Record type -> the sign with which its amount moves its pool's level."""
JACKPOT_RECORDS = frozenset({"MachineConfigured", "JackpotLevelRead", *FLOWS})
"""The record types of another machine that judging a jackpot reads."""


def related_machines(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The other machines whose records judging this machine's jackpots needs: the
    machines linked into its superjackpots and those its jackpots moved to."""
    own = {str(e.get("machine_id")) for e in events}
    named: set[str] = set()
    for event in events:
        named.update(str(m) for m in event.get("jackpot_linked") or ())
        if event.get("type") == "JackpotTransferred":
            named.add(str(event["to_machine"]))
    return sorted(named - own)


def jackpot_records(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of another machine's records, those a jackpot is judged on."""
    return [r for r in records if r.get("type") in JACKPOT_RECORDS]


def jackpot_findings(
    machine_id: str,
    ordered: Sequence[FlatEvent],
    related: Sequence[Mapping[str, Any]],
    rules: SlotRules,
) -> list[Finding]:
    """Every jackpot finding of one machine's stream (in sequence order), its linked and
    receiving machines' records ``related``."""
    others: dict[str, list[Mapping[str, Any]]] = {}
    for record in related:
        others.setdefault(str(record["machine_id"]), []).append(record)
    for records in others.values():
        records.sort(key=lambda r: int(r["sequence"]))
    return [
        *_configurations(machine_id, ordered, others, rules),
        *_contributions(machine_id, ordered),
        *_approvals(machine_id, ordered, rules),
        *_pools(machine_id, ordered, others, rules),
    ]


def _finding(
    kind: FindingKind, machine_id: str, citation: str, reason: str, event: FlatEvent, **more: Any
) -> Finding:
    detail = {"sequence": event["sequence"], **more.pop("detail", {})}
    return Finding(kind, machine_id, citation, reason, detail=detail, **more)


def _configurations(
    machine_id: str,
    ordered: Sequence[FlatEvent],
    others: Mapping[str, Sequence[Mapping[str, Any]]],
    rules: SlotRules,
) -> list[Finding]:
    """III.3: the return without the deduction reaches the minimum; III.4: the link."""
    findings = []
    minimum = int(rules.minimum_return * BPS)
    for config in (e for e in ordered if e["type"] == "MachineConfigured"):
        rate = config.get("jackpot_rate_bps")
        if rate is None:
            continue
        without = config["theoretical_return_bps"] - rate
        if rules.jackpot_outside_minimum and without < minimum:
            findings.append(
                _finding(
                    FindingKind.RETURN_OUT_OF_BAND,
                    machine_id,
                    CONTRIBUTION_RULE,
                    f"paytable {config['paytable_id']} returns {config['theoretical_return_bps']}"
                    f" bps of which {rate} bps fund the jackpot: {without} bps without it, "
                    f"below the minimum {minimum} bps",
                    config,
                    expected=minimum,
                    recorded=without,
                    difference=without - minimum,
                    detail={"check": "return_without_jackpot", "jackpot_rate_bps": rate},
                )
            )
        if config.get("jackpot_linked"):
            findings += _link(machine_id, config, others)
    return findings


def _link(
    machine_id: str, config: FlatEvent, others: Mapping[str, Sequence[Mapping[str, Any]]]
) -> list[Finding]:
    """III.4: the machines linked into a superjackpot state the link alike, and one share."""
    pool, linked = config.get("jackpot_pool"), sorted(config["jackpot_linked"])
    rates: dict[str, Any] = {machine_id: config["jackpot_rate_bps"]}
    disagree = []
    for other in linked:
        if other == machine_id or other not in others:
            continue
        theirs = [r for r in others[other] if r["type"] == "MachineConfigured"]
        stated = theirs[-1] if theirs else {}
        rates[other] = stated.get("jackpot_rate_bps")
        if stated.get("jackpot_pool") != pool or sorted(stated.get("jackpot_linked") or ()) != (
            linked
        ):
            disagree.append(other)
    findings = []
    if machine_id not in linked or disagree:
        why = (
            f"does not list this machine among its {len(linked)} linked machines"
            if machine_id not in linked
            else f"{', '.join(disagree)} state another pool or other linked machines"
        )
        findings.append(
            _finding(
                FindingKind.JACKPOT_CONTRIBUTION,
                machine_id,
                POOL_RULE,
                f"superjackpot {pool}: the link is not stated alike: the configuration {why}",
                config,
                detail={"check": "link", "pool": pool, "linked": linked, "disagree": disagree},
            )
        )
    counts = Counter(rates.values())
    most = max(counts.values())
    mine = rates[machine_id]
    if counts[mine] < most or (len(counts) > 1 and list(counts.values()).count(most) > 1):
        usual = max(counts, key=lambda rate: (counts[rate], rate != mine))
        findings.append(
            _finding(
                FindingKind.JACKPOT_CONTRIBUTION,
                machine_id,
                POOL_RULE,
                f"superjackpot {pool}: this machine deducts {mine} bps of its wagers where "
                f"the linked machines deduct {usual} bps: one share for the pool",
                config,
                expected=usual,
                recorded=mine,
                detail={"check": "link_rate", "pool": pool, "rates": rates},
            )
        )
    return findings


def _contributions(machine_id: str, ordered: Sequence[FlatEvent]) -> list[Finding]:
    """III.3-4: each deduction is the declared share of the wagers since the one before."""
    findings = []
    config: FlatEvent = ordered[0]
    wagered = before = 0
    for event in ordered:
        kind = event["type"]
        if kind == "MachineConfigured":
            config, wagered, before = event, 0, 0
        elif kind == "GamePlayed":
            wagered += event["wager"]
        elif kind == "JackpotContributed":
            finding = _contribution(machine_id, config, event, wagered, before)
            findings += [finding] if finding is not None else []
            before = wagered
    return findings


def _contribution(
    machine_id: str, config: FlatEvent, event: FlatEvent, wagered: int, before: int
) -> Finding | None:
    rate, pool = config.get("jackpot_rate_bps"), config.get("jackpot_pool")
    citation = POOL_RULE if config.get("jackpot_linked") else CONTRIBUTION_RULE
    if rate is None or event["pool"] != pool:
        declared = f"jackpot {pool}" if rate is not None else "no jackpot"
        return _finding(
            FindingKind.JACKPOT_CONTRIBUTION,
            machine_id,
            citation,
            f"{event['amount']} deducted to jackpot {event['pool']} where the configuration "
            f"declares {declared}",
            event,
            recorded=event["amount"],
            detail={"check": "pool", "pool": event["pool"]},
        )
    due = wagered * rate // BPS - before * rate // BPS
    if event["amount"] == due:
        return None
    return _finding(
        FindingKind.JACKPOT_CONTRIBUTION,
        machine_id,
        citation,
        f"{event['amount']} deducted to jackpot {pool} from {wagered - before} wagered since "
        f"the deduction before; the declared {rate} bps make {due}",
        event,
        expected=due,
        recorded=event["amount"],
        difference=event["amount"] - due,
        detail={"check": "rate", "pool": pool, "wagered": wagered - before, "rate_bps": rate},
    )


def _approvals(machine_id: str, ordered: Sequence[FlatEvent], rules: SlotRules) -> list[Finding]:
    """III.8: once approvals are on record, the configuration in force matches one
    recorded before it or with it (judged at each configuration and each approval; a
    configuration is reported once)."""
    approved: list[tuple[Any, ...]] = []
    config: FlatEvent = ordered[0]
    reported: set[int] = set()
    findings = []
    for event in ordered:
        kind = event["type"]
        if kind == "ConfigurationApproved":
            approved.append(tuple(event.get(f) for f in rules.approved_characteristics))
        elif kind == "MachineConfigured":
            config = event
        if kind not in ("ConfigurationApproved", "MachineConfigured") or not approved:
            continue
        stated = tuple(config.get(f) for f in rules.approved_characteristics)
        if stated not in approved and config["sequence"] not in reported:
            reported.add(config["sequence"])
            findings.append(_unapproved(machine_id, config, event, stated, approved, rules))
    return findings


def _unapproved(
    machine_id: str,
    config: FlatEvent,
    event: FlatEvent,
    stated: tuple[Any, ...],
    approved: Sequence[tuple[Any, ...]],
    rules: SlotRules,
) -> Finding:
    names = rules.approved_characteristics
    nearest = min(approved, key=lambda a: sum(x != y for x, y in zip(a, stated, strict=True)))
    differ = {
        n: {"approved": a, "configured": s}
        for n, a, s in zip(names, nearest, stated, strict=True)
        if a != s
    }
    return _finding(
        FindingKind.UNAPPROVED_CONFIGURATION,
        machine_id,
        APPROVAL_RULE,
        f"the configuration at sequence {config['sequence']} (paytable {config['paytable_id']})"
        f" differs from every approval on record: {', '.join(differ)}",
        event,
        detail={
            "check": "approval",
            "configuration_sequence": config["sequence"],
            "differ": differ,
        },
    )


def _pools(
    machine_id: str,
    ordered: Sequence[FlatEvent],
    others: Mapping[str, Sequence[Mapping[str, Any]]],
    rules: SlotRules,
) -> list[Finding]:
    """III.5-6: each pool this machine reads or moves, walked in time order across the
    machines that feed it."""
    findings = []
    pools = sorted({str(e["pool"]) for e in ordered if e["type"] in ("JackpotLevelRead", *FLOWS)})
    for pool in pools:
        feeders = _feeders(machine_id, ordered, pool)
        if any(m not in others for m in feeders if m != machine_id):
            continue  # a linked machine not on record: its contributions are unknown
        records = [e for e in ordered if e.get("pool") == pool]
        records += [
            r for m in feeders if m != machine_id for r in others[m] if r.get("pool") == pool
        ]
        records.sort(key=lambda r: (r["occurred_at"], str(r["machine_id"]), int(r["sequence"])))
        findings += _walk(machine_id, pool, records, others, ordered, rules)
    return findings


def _feeders(machine_id: str, ordered: Sequence[FlatEvent], pool: str) -> set[str]:
    """The machines feeding ``pool``: those its configurations link, or this one alone."""
    linked = {
        str(m)
        for e in ordered
        if e["type"] == "MachineConfigured" and e.get("jackpot_pool") == pool
        for m in e.get("jackpot_linked") or ()
    }
    return linked | {machine_id}


def _walk(
    machine_id: str,
    pool: str,
    records: Sequence[Mapping[str, Any]],
    others: Mapping[str, Sequence[Mapping[str, Any]]],
    ordered: Sequence[FlatEvent],
    rules: SlotRules,
) -> list[Finding]:
    findings = []
    level: int | None = None
    for record in records:
        kind, mine = record["type"], record["machine_id"] == machine_id
        if kind == "JackpotLevelRead":
            if level is not None and mine and record["amount"] != level:
                findings.append(_unbacked(machine_id, pool, record, level))
            level = record["amount"]
            continue
        if kind == "JackpotTransferred" and mine:
            findings += _transfer(machine_id, record, level, others, ordered, rules)
        if level is not None:
            level += FLOWS[kind] * record["amount"]
    return findings


def _unbacked(machine_id: str, pool: str, read: Mapping[str, Any], level: int) -> Finding:
    return _finding(
        FindingKind.JACKPOT_LIABILITY,
        machine_id,
        TRUST_RULE,
        f"jackpot {pool} read as holding {read['amount']}; the reading before, its "
        f"contributions, awards and transfers since give {level}",
        dict(read),
        expected=level,
        recorded=read["amount"],
        difference=read["amount"] - level,
        detail={"check": "liability", "pool": pool},
    )


def _transfer(
    machine_id: str,
    moved: Mapping[str, Any],
    level: int | None,
    others: Mapping[str, Sequence[Mapping[str, Any]]],
    ordered: Sequence[FlatEvent],
    rules: SlotRules,
) -> list[Finding]:
    """III.6: all the jackpot holds, to a like machine that records receiving it."""
    to, amount = str(moved["to_machine"]), moved["amount"]
    problems: list[str] = []
    if level is not None and amount != level:
        problems.append(f"{amount} moved of the {level} the jackpot held")
    theirs = others.get(to, ())
    target = _config_at(theirs, moved)
    unlike: list[str] = []
    got: list[int] | None = None
    if target is None:
        problems.append(f"no record of machine {to}")
    else:
        mine = _config_at(ordered, moved) or {}
        unlike = [f for f in rules.like_machine if mine.get(f) != target.get(f)]
        if unlike:
            problems.append(f"machine {to} differs in {', '.join(unlike)}")
        got = [
            r["amount"]
            for r in theirs
            if r["type"] == "JackpotReceived" and r.get("from_machine") == machine_id
        ]
        if amount not in got:
            problems.append(f"machine {to} records receiving {got or 'nothing'}")
    if not problems:
        return []
    return [
        _finding(
            FindingKind.JACKPOT_TRANSFER,
            machine_id,
            TRANSFER_RULE,
            f"jackpot {moved['pool']} moved to machine {to}: {'; '.join(problems)}",
            dict(moved),
            expected=level,
            recorded=amount,
            difference=None if level is None else amount - level,
            detail={
                "check": "transfer",
                "pool": moved["pool"],
                "to_machine": to,
                "unlike": unlike,
                "received": got,
            },
        )
    ]


def _config_at(
    records: Sequence[Mapping[str, Any]], at: Mapping[str, Any]
) -> Mapping[str, Any] | None:
    """The configuration in force at ``at`` (the latest recorded no later, else the
    first), or None without any."""
    configs = [r for r in records if r["type"] == "MachineConfigured"]
    before = [c for c in configs if c["occurred_at"] <= at["occurred_at"]]
    if before:
        return before[-1]
    return configs[0] if configs else None
