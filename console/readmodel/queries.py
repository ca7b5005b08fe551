"""Questions the pages ask the read model (``console.readmodel.model``).

Findings are listed with **keyset pagination**: a page is ``ORDER BY <sort column>, seq``
after the last row of the previous page (``WHERE (col, seq) > (?, ?)``), never ``OFFSET``;
the ``next`` cursor is that last row's (value, seq), base64url JSON. Rows appended while
someone pages (a new night) land at their place in the order; a subject re-judged between
two pages has new rows (new ``seq``) and its old ones are gone, as in the store.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

import orjson

from audit.judging import UnitKey, latest
from console.readmodel.model import ReadModel
from console.security import Session, aware

PAGE = 50
MAX_PAGE = 500
SORTS: Mapping[str, tuple[str, bool]] = {
    "newest": ("started", True),
    "oldest": ("started", False),
    "kind": ("kind", False),
    "subject": ("subject", False),
    "table": ("table_id", False),
}
"""Sort name -> (column, descending); ties are broken by ``seq`` the same way."""
FILTERS = ("kind", "rulebook", "operator", "table", "player", "currency", "since", "until")
_COLUMNS = {
    "kind": "f.kind",
    "rulebook": "f.rulebook",
    "operator": "f.operator",
    "table": "f.table_id",
    "currency": "f.currency",
}


class BadQuery(ValueError):
    """A filter, sort or cursor that cannot be read (the message is safe to show)."""


@dataclass(frozen=True)
class FindingsQuery:
    """A findings filter and sort, as the page's form sends them."""

    filters: Mapping[str, str] = field(default_factory=dict)
    sort: str = "newest"

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> FindingsQuery:
        sort = params.get("sort") or "newest"
        if sort not in SORTS:
            raise BadQuery(f"unknown sort {sort!r}; sorts: {', '.join(SORTS)}")
        filters = {k: str(params[k]).strip() for k in FILTERS if (params.get(k) or "").strip()}
        for name in ("since", "until"):
            if name in filters and not _is_day(filters[name]):
                raise BadQuery(f"{name} is a date, YYYY-MM-DD")
        return cls(filters, sort)

    def where(self) -> tuple[str, list[Any]]:
        clauses, params = ["1 = 1"], []
        for name, column in _COLUMNS.items():
            if name in self.filters:
                clauses.append(f"{column} = ?")
                params.append(self.filters[name])
        if "since" in self.filters:
            clauses.append("f.day >= ?")
            params.append(self.filters["since"])
        if "until" in self.filters:
            clauses.append("f.day <> '' AND f.day <= ?")
            params.append(self.filters["until"])
        if "player" in self.filters:
            clauses.append("f.seq IN (SELECT seq FROM finding_players WHERE player = ?)")
            params.append(self.filters["player"])
        return " AND ".join(clauses), params

    def params(self) -> dict[str, str]:
        """The query as URL parameters (for links to the next page and the CSV)."""
        return {**self.filters, "sort": self.sort}


def _is_day(text: str) -> bool:
    return len(text) == 10 and text[4] == "-" and text[7] == "-" and text.replace("-", "").isdigit()


def encode_cursor(value: str, seq: int) -> str:
    return base64.urlsafe_b64encode(json.dumps([value, seq]).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, int]:
    try:
        value, seq = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, TypeError, binascii.Error):
        raise BadQuery("the page cursor cannot be read: start from the first page") from None
    if not isinstance(value, str) or not isinstance(seq, int) or isinstance(seq, bool):
        raise BadQuery("the page cursor cannot be read: start from the first page")
    return value, seq


def _row(record: Any) -> dict[str, Any]:
    return {**orjson.loads(record["row"]), "_seq": record["seq"]}


def findings_page(
    model: ReadModel, query: FindingsQuery, cursor: str | None = None, limit: int = PAGE
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of current findings and the cursor of the next page (None at the end)."""
    limit = max(1, min(int(limit), MAX_PAGE))
    column, descending = SORTS[query.sort]
    where, params = query.where()
    if cursor:
        value, seq = decode_cursor(cursor)
        where += f" AND (f.{column}, f.seq) {'<' if descending else '>'} (?, ?)"
        params += [value, seq]
    order = "DESC" if descending else "ASC"
    sql = (
        f"SELECT f.seq, f.{column} AS sortkey, f.row FROM findings f WHERE {where} "
        f"ORDER BY f.{column} {order}, f.seq {order} LIMIT ?"
    )
    with model.reading() as db:
        found = db.execute(sql, [*params, limit + 1]).fetchall()
    rows = [_row(r) for r in found[:limit]]
    last = found[limit - 1] if len(found) > limit else None
    return rows, (encode_cursor(last["sortkey"], last["seq"]) if last is not None else None)


def iter_findings(model: ReadModel, query: FindingsQuery) -> Iterator[dict[str, Any]]:
    """Every finding of the query, in its order, a page at a time (for the CSV)."""
    cursor: str | None = None
    while True:
        rows, cursor = findings_page(model, query, cursor, MAX_PAGE)
        yield from rows
        if cursor is None:
            return


def facets(model: ReadModel) -> dict[str, list[str]]:
    """The values each filter can take (for the filter form's choices); kept until the
    findings change (``ReadModel.per_generation``: each is a scan of every finding)."""
    return model.per_generation("facets", partial(_facets, model))


def _facets(model: ReadModel) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    with model.reading() as db:
        for name, column in (("kind", "kind"), ("rulebook", "rulebook"),
                             ("operator", "operator"), ("currency", "currency")):  # fmt: skip
            out[name] = [
                r[0]
                for r in db.execute(
                    f"SELECT DISTINCT {column} FROM findings WHERE {column} <> '' ORDER BY 1"
                )
            ]
    return out


def counts_by_kind(model: ReadModel) -> dict[str, int]:
    """Current findings by kind (kept until the findings change, as ``facets``)."""
    return model.per_generation("counts_by_kind", partial(_counts_by_kind, model))


def _counts_by_kind(model: ReadModel) -> dict[str, int]:
    with model.reading() as db:
        rows = db.execute("SELECT kind, COUNT(*) FROM findings GROUP BY kind ORDER BY kind")
        return {r[0]: r[1] for r in rows}


def findings_about(
    model: ReadModel, subject: str, start: int = 0, limit: int = -1
) -> list[dict[str, Any]]:
    """The current findings whose subject is ``subject`` (any verdict or detector), in
    the order stored: every one, or ``limit`` of them from the ``start``-th (0-based)."""
    with model.reading() as db:
        found = db.execute(
            "SELECT seq, row FROM findings WHERE subject = ? ORDER BY seq LIMIT ? OFFSET ?",
            (subject, limit, max(0, start)),
        ).fetchall()
    return [_row(r) for r in found]


def findings_count(model: ReadModel, subject: str) -> int:
    """How many current findings ``findings_about`` lists for ``subject``."""
    with model.reading() as db:
        found = db.execute("SELECT COUNT(*) FROM findings WHERE subject = ?", (subject,))
        return int(found.fetchone()[0])


def finding_position(model: ReadModel, row: Mapping[str, Any]) -> int:
    """The 0-based place of a ``finding`` row among its subject's (``findings_about``)."""
    with model.reading() as db:
        found = db.execute(
            "SELECT COUNT(*) FROM findings WHERE subject = ? AND seq < ?",
            (str(row.get("subject")), row.get("_seq")),
        )
        return int(found.fetchone()[0])


def finding(model: ReadModel, finding_id: str) -> dict[str, Any] | None:
    """A current finding by id (the first, when two verdicts hold the same finding)."""
    with model.reading() as db:
        found = db.execute(
            "SELECT seq, row FROM findings WHERE finding_id = ? ORDER BY seq LIMIT 1",
            (finding_id,),
        ).fetchone()
    return _row(found) if found is not None else None


def units_of(model: ReadModel, subject: str) -> list[dict[str, Any]]:
    """The current verdict units on ``subject`` (one per kind judged)."""
    with model.reading() as db:
        found = db.execute("SELECT * FROM units WHERE subject = ? ORDER BY kind", (subject,))
        return [dict(r) for r in found]


def players_of(model: ReadModel, subject: str) -> list[str]:
    """The players named in the current verdicts on ``subject``, sorted."""
    with model.reading() as db:
        found = db.execute(
            "SELECT DISTINCT p.player FROM unit_players p JOIN units u ON u.key = p.key "
            "WHERE u.subject = ? ORDER BY 1",
            (subject,),
        )
        return [r[0] for r in found]


def unit_ids(model: ReadModel, keys: Sequence[UnitKey]) -> list[str]:
    """The ids of the stored verdict units on any of ``keys`` (a subject of None: every
    unit of the kind), in the order stored, from the index (``ModelVerdicts``)."""
    if not keys:
        return []
    where = " OR ".join("kind = ?" if s is None else "(kind = ? AND subject = ?)" for _, s in keys)
    params = [v for k, s in keys for v in ((k,) if s is None else (k, s))]
    with model.reading() as db:
        found = db.execute(
            f"SELECT unit_id FROM unit_ids WHERE {where} ORDER BY notification", params
        )
        return [r[0] for r in found]


def unit_ids_with_prefix(model: ReadModel, prefix: str) -> list[str]:
    """The ids of the stored verdict units that start with ``prefix`` (``<kind>:<scope
    start>``, e.g. ``nightly:2025-03-01``), in the order stored: a night's units by
    index (``pipelines.night_units.UnitLookup``), not by scanning every unit id."""
    kind, colon, start = prefix.partition(":")
    where, params = ("kind = ?", [kind]) if colon else ("1 = 1", [])
    if colon and start and start[-1] < "\x7f":  # a range of the (kind, subject) index
        where += " AND subject >= ? AND subject < ?"
        params += [start, start[:-1] + chr(ord(start[-1]) + 1)]
    with model.reading() as db:
        found = db.execute(
            f"SELECT unit_id FROM unit_ids WHERE {where} ORDER BY notification", params
        )
        return [r[0] for r in found if r[0].startswith(prefix)]


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


@dataclass(frozen=True)
class SearchPage:
    """One page of a search: its rows, how many subjects match in all (and per kind),
    the incidents whose id matches (all of them, on the first page), the next cursor."""

    rows: list[dict[str, Any]]
    total: int
    by_kind: dict[str, int]
    incidents: list[str]
    next_cursor: str | None


_MATCHES = (
    "FROM units u WHERE u.subject LIKE ? ESCAPE '\\' OR u.table_id LIKE ? ESCAPE '\\' "
    "OR u.key IN (SELECT key FROM unit_players WHERE player = ?)"
)
"""Judged subjects whose id starts with ``q``, whose table or machine starts with it, or
where player ``q`` sat: each subject once, however many ways it matches."""


def search(model: ReadModel, q: str, cursor: str | None = None, limit: int = PAGE) -> SearchPage:
    """Subjects matching ``q`` (``_MATCHES``), most findings first (then by subject id
    and kind), a page at a time by keyset (the cursor is the last row's (findings,
    subject, kind)), with the count of every match; plus incidents whose id starts
    with ``q``."""
    limit = max(1, min(int(limit), MAX_PAGE))
    like = _like(q)
    matched = [like, like, q]
    where, after = "", []
    if cursor:
        findings, subject, kind = _search_cursor(cursor)
        where = "WHERE m.findings < ? OR (m.findings = ? AND (m.subject, m.kind) > (?, ?))"
        after = [findings, findings, subject, kind]
    with model.reading() as db:
        by_kind = {
            r[0]: r[1]
            for r in db.execute(
                f"SELECT u.kind, COUNT(*) {_MATCHES} GROUP BY u.kind ORDER BY u.kind", matched
            )
        }
        found = db.execute(
            "SELECT * FROM (SELECT u.kind, u.subject, u.table_id, u.started, u.day, "
            "COALESCE(u.findings, 0) AS findings, CASE WHEN u.subject LIKE ? ESCAPE '\\' "
            "THEN 'subject id' WHEN u.table_id LIKE ? ESCAPE '\\' THEN 'table or machine' "
            f"ELSE 'player' END AS why {_MATCHES}) m {where} "
            "ORDER BY m.findings DESC, m.subject, m.kind LIMIT ?",
            [like, like, *matched, *after, limit + 1],
        ).fetchall()
        incidents = (
            [r[0] for r in db.execute(
                "SELECT id FROM incidents WHERE id LIKE ? ESCAPE '\\' ORDER BY id", (like,)
            )]
            if not cursor
            else []
        )  # fmt: skip
    rows = [dict(r) for r in found[:limit]]
    last = rows[-1] if len(found) > limit else None
    next_cursor = (
        encode_cursor(json.dumps([last["findings"], last["subject"], last["kind"]]), 0)
        if last is not None
        else None
    )
    return SearchPage(rows, sum(by_kind.values()), by_kind, incidents, next_cursor)


def _search_cursor(cursor: str) -> tuple[int, str, str]:
    text, _ = decode_cursor(cursor)
    try:
        findings, subject, kind = json.loads(text)
    except (ValueError, TypeError):
        raise BadQuery("the page cursor cannot be read: start from the first page") from None
    if not (isinstance(findings, int) and isinstance(subject, str) and isinstance(kind, str)):
        raise BadQuery("the page cursor cannot be read: start from the first page")
    return findings, subject, kind


def nights(model: ReadModel) -> list[str]:
    """Days with nightly units, newest first."""
    with model.reading() as db:
        return [r[0] for r in db.execute("SELECT day FROM nights ORDER BY day DESC")]


def incidents(model: ReadModel) -> list[str]:
    with model.reading() as db:
        return [r[0] for r in db.execute("SELECT id FROM incidents ORDER BY id")]


def users(model: ReadModel) -> list[dict[str, Any]]:
    with model.reading() as db:
        return [dict(r) for r in db.execute("SELECT * FROM users ORDER BY name")]


def user(model: ReadModel, name: str) -> dict[str, Any] | None:
    with model.reading() as db:
        found = db.execute("SELECT * FROM users WHERE name = ?", (name,)).fetchone()
    return dict(found) if found is not None else None


def session_ended(model: ReadModel, session: Session) -> bool:
    """True when the access trail ended ``session``: signed out, or revoked by an admin
    after it began (``console.auth.trail``)."""
    with model.reading() as db:
        if db.execute("SELECT 1 FROM ended_sessions WHERE session = ?", (session.ref,)).fetchone():
            return True
        found = db.execute("SELECT until FROM revocations WHERE user = ?", (session.user,))
        untils = [row["until"] for row in found]
    return any(session.issued_at <= _instant(until) for until in untils)


def _instant(text: str) -> datetime:
    """A stored time; one that cannot be read revokes everything (fails closed)."""
    try:
        return aware(datetime.fromisoformat(text))
    except ValueError:
        return datetime.max.replace(tzinfo=UTC)


def access(model: ReadModel, subject: str | None = None, limit: int = 200) -> list[dict[str, Any]]:
    """Looks at subjects' events, newest first (one subject's, or everyone's)."""
    where, params = ("WHERE subject = ?", [subject]) if subject is not None else ("", [])
    with model.reading() as db:
        found = db.execute(
            f"SELECT * FROM access {where} ORDER BY seq DESC LIMIT ?", [*params, limit]
        )
        return [dict(r) for r in found]


def sign_offs(model: ReadModel, finding_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """finding id -> its sign-offs, newest first."""
    out: dict[str, list[dict[str, Any]]] = {}
    with model.reading() as db:
        for finding_id in finding_ids:
            found = db.execute(
                "SELECT * FROM signoffs WHERE finding_id = ? ORDER BY seq DESC", (finding_id,)
            )
            out[finding_id] = [dict(r) for r in found]
    return out


def notes(model: ReadModel, incident_id: str) -> list[dict[str, Any]]:
    with model.reading() as db:
        found = db.execute(
            "SELECT * FROM notes WHERE incident = ? ORDER BY seq DESC", (incident_id,)
        )
        return [dict(r) for r in found]


@dataclass(frozen=True)
class ModelVerdicts:
    """The read model's index as ``audit.judging.Verdicts`` (for ``show``'s explanations,
    subject and incident pages and evidence bundles): the current unit by the one rule
    (``audit.judging.latest``) over the subject's unit ids from the index."""

    model: ReadModel

    def unit_ids(self, keys: Sequence[UnitKey]) -> list[str]:
        return unit_ids(self.model, keys)

    def current_unit(self, kind: str, subject: str) -> str | None:
        return latest(self.unit_ids([(kind, subject)]))

    def subjects_at(self, kind: str, table: str, since: str = "") -> list[str]:
        """``audit.grouping.subject_index.SubjectIndex``: the judged subjects of ``kind`` at
        ``table`` (their current verdicts' context), in start order, from ``since`` on."""
        return _subjects(
            self.model, "kind = ? AND table_id = ? AND started >= ?", (kind, table, since)
        )

    def hands_in(self, tournament: str) -> list[str]:
        """``audit.grouping.subject_index.SubjectIndex``: the judged poker hands whose verdict's
        context names ``tournament``, in start order."""
        return _subjects(self.model, "kind = 'poker' AND tournament = ?", (tournament,))


def _subjects(model: ReadModel, where: str, params: tuple[str, ...]) -> list[str]:
    with model.reading() as db:
        found = db.execute(
            f"SELECT subject FROM units WHERE {where} ORDER BY started, subject", params
        )
        return [r[0] for r in found]
