"""A subject page's work is bounded by what it shows (issue 40).

* Its stored events come ``EVENTS_SHOWN`` at a time, the latest first, with a link to
  the older ones (a slot machine's stream grows by about 1,300 events a day): the page
  lists exactly the events of that span, as the store holds them;
* what it computes from the store (the explanation, which replays the subject) is kept
  until the store holds other events (``console.readmodel.kept``): a second view
  replays nothing, a view after new events replays again.
"""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import quote

import pytest

from audit.explain import explanation as show_explanation
from audit.store import AuditStore
from console.readmodel.kept import KeptAnswers
from console.routes import subject_parts
from console.routes.subject_parts import EVENTS_SHOWN
from tests.console_store import ConsoleStore, console_store, make_client

__all__ = ["console_store", "make_client"]
_PANEL = re.compile(r'<pre class="events">(.*?)</pre>', re.S)


def _machine(console_store: ConsoleStore) -> tuple[str, list[dict[str, Any]]]:
    store = AuditStore(console_store.url, create=False)
    try:
        machine = next(iter(store.iter_subject_ids("slots")))
        return machine, store.records_of("slots", machine)
    finally:
        store.close()


def _sequences(page: str) -> list[int]:
    panel = _PANEL.search(page)
    assert panel is not None
    return [int(s) for s in re.findall(r'"sequence":(\d+)', html.unescape(panel.group(1)))]


def test_a_machine_page_shows_its_latest_events_and_links_the_older(
    console_store: ConsoleStore, make_client: Any
) -> None:
    machine, records = _machine(console_store)
    assert len(records) > EVENTS_SHOWN  # the fixture's machines play enough for two pages
    client = make_client("inspector")
    url = "/subjects/" + quote(machine, safe="")
    latest = client.get(url)
    assert latest.status_code == 200
    every = [r["sequence"] for r in records]
    assert _sequences(latest.text) == every[-EVENTS_SHOWN:]
    start = len(records) - EVENTS_SHOWN
    assert f"{len(records)} stored slots event(s)" in latest.text
    older = re.search(r'class="older-events" href="([^"]+)"', latest.text)
    assert older is not None and f"events_upto={start}" in older.group(1)
    before = client.get(html.unescape(older.group(1)).split("#")[0])
    assert _sequences(before.text) == every[max(0, start - EVENTS_SHOWN) : start]
    assert 'class="newer-events"' in before.text


def test_a_second_view_replays_nothing(
    console_store: ConsoleStore, make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, _ = _machine(console_store)
    calls: list[str] = []
    explain = show_explanation

    def counted(*args: Any) -> Any:
        calls.append(args[1])
        return explain(*args)

    monkeypatch.setattr(subject_parts, "explanation", counted)
    client = make_client("inspector")
    url = "/subjects/" + quote(machine, safe="")
    first, second = client.get(url), client.get(url)
    assert first.status_code == second.status_code == 200
    assert calls == [machine]  # the views themselves (stored looks) change nothing
    assert _sequences(first.text) == _sequences(second.text)


class _Model:
    events_generation = 0


def test_an_answer_is_kept_until_the_store_holds_other_events() -> None:
    model = _Model()
    kept: KeptAnswers[str, int] = KeptAnswers(model, keep=2)  # type: ignore[arg-type]
    made: list[str] = []

    def make(key: str) -> int:
        made.append(key)
        return len(made)

    assert kept.of("a", lambda: make("a")) == kept.of("a", lambda: make("a")) == 1
    model.events_generation += 1
    assert kept.of("a", lambda: make("a")) == 2
    kept.of("b", lambda: make("b"))
    kept.of("c", lambda: make("c"))  # keeps two: "a" is dropped
    kept.of("a", lambda: make("a"))
    assert made == ["a", "a", "b", "c", "a"]
