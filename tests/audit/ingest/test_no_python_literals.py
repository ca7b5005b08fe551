"""No Python literal reaches a person (issue #23 item 1), on SQLite and PostgreSQL: the
console's pages (findings, the night, every subject with a finding and one subject of each
kind) and ``show``, ``findings`` and ``incident investigate`` over the console's store
read in words: no ``True``, ``False``, ``None``, dict or list repr in what people read."""

from __future__ import annotations

import html
import io
import re
from contextlib import redirect_stdout
from typing import Any
from urllib.parse import quote

from audit.store import AuditStore
from cli.main import main
from console.readmodel.model import ReadModel
from tests.console_store import DAY, INCIDENT, ConsoleStore, console_store, make_client

__all__ = ["console_store", "make_client"]  # fixtures used here
LITERAL = re.compile(r"\b(True|False|None)\b|\{'|\['|\{\"|\[\"")
_TAG = re.compile(
    r'<script.*?</script>|<style.*?</style>|<pre class="events">.*?</pre>|<[^>]+>', re.S
)


def _words(page: str) -> str:
    """What a person reads on a page: its text, without tags, scripts or styles, and
    without the raw events, shown on purpose as stored (JSON)."""
    return html.unescape(_TAG.sub(" ", page))


def _subjects(url: str) -> list[str]:
    store = AuditStore(url)
    try:
        with ReadModel(store).reading() as db:
            with_findings = [r[0] for r in db.execute("SELECT DISTINCT subject FROM findings")]
            one_each = [r[0] for r in db.execute("SELECT MIN(subject) FROM units GROUP BY kind")]
    finally:
        store.close()
    return sorted({*with_findings, *one_each})


def _literals(text: str) -> list[str]:
    return [text[max(0, m.start() - 60) : m.end() + 60] for m in LITERAL.finditer(text)]


def test_pages_and_cli_read_in_words(console_store: ConsoleStore, make_client: Any) -> None:
    client = make_client("inspector")
    subjects = _subjects(console_store.url)
    pages = ["/findings?limit=500", f"/nights/{DAY.isoformat()}", "/nights"]
    pages += ["/subjects/" + quote(s, safe="") for s in subjects]
    for url in pages:
        page = client.get(url)
        if page.status_code == 404:  # a detector's subject has no page of its own
            continue
        assert page.status_code == 200, url
        assert _literals(_words(page.text)) == [], url
    incident = ["incident", "investigate", INCIDENT, "--as-of", "2025-03-02T12:00:00+00:00"]
    for args in (["findings"], ["findings", "--summary"], incident):
        out = io.StringIO()
        with redirect_stdout(out):
            main(["--store", console_store.url, *args])
        assert _literals(out.getvalue()) == [], args
    for subject in subjects:
        out = io.StringIO()
        with redirect_stdout(out):
            main(["--store", console_store.url, "show", subject])
        assert _literals(out.getvalue()) == [], subject
