"""The nightly report's HTML through its templates (``pipelines/templates/report.html``
over ``audit.pages``): hostile names come out escaped, and the findings parts it shares
with the console render the same in both."""

from __future__ import annotations

from datetime import date
from html.parser import HTMLParser
from pathlib import Path

from audit.wording import Sums
from pipelines.report import DayData, ReportPaths, render
from tests.audit.show.test_money_wording import MISPAID_POT

PLAYER = "<script>alert(\"p\" & 'q')</script>"
TABLE = "t<b>\"&'"
SUBJECT = "h<i>&\"1'"


class _Text(HTMLParser):
    """The page's text and attribute values, entities decoded, and its tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.text.extend(value or "" for _, value in attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _page(tmp_path: Path) -> str:
    hostile = {
        **MISPAID_POT,
        "subject": SUBJECT,
        "players": {"1": "gg-p0001", "2": PLAYER},
        "table": TABLE,
        "family": "poker",
        "source": "replay",
        "day": "2025-03-01",
    }
    data = DayData(date(2025, 3, 1), rows=[hostile])
    data.checks = [
        {"part": "0001&<s>", "name": "n<\"'>", "expectation": "e&", "unexpected": 1,
         "success": False}
    ]  # fmt: skip
    paths = ReportPaths(tmp_path / "report.html", tmp_path / "f.csv", tmp_path / "f.jsonl")
    return render(data, paths, [], "sqlite:///s&<x>.db")


def test_hostile_player_table_and_subject_names_come_out_escaped(tmp_path: Path) -> None:
    page = _page(tmp_path)
    for raw in (PLAYER, TABLE, SUBJECT, "<script>", "t<b>", "<i>", "<s>", "<x>", "\"&'", 'n<"'):
        assert raw not in page, raw
    assert "&lt;script&gt;alert(&#34;p&#34; &amp; &#39;q&#39;)&lt;/script&gt;" in page
    assert "t&lt;b&gt;&#34;&amp;&#39;" in page
    parsed = _Text()
    parsed.feed(page)
    assert not {"script", "i", "s", "x"} & set(parsed.tags)
    text = "\n".join(parsed.text)
    assert PLAYER in text  # shown as written, in the sentence and the owed tables
    assert text.count(TABLE) >= 3  # the findings row, the Where table, the owed table
    assert SUBJECT in text and "sqlite:///s&<x>.db" in text
    assert "0001&<s>" in text and "n<\"'>" in text


def test_the_report_and_the_console_render_the_shared_parts_alike() -> None:
    from console.runtime import environment as console_environment
    from pipelines.report import templates

    source = (
        '{% import "findings_parts.html" as parts %}'
        "{{ parts.owed_row(name, 'EUR', sums) }}{{ parts.owed_currency_row(none, sums) }}"
        "{{ parts.finding_words(name) }}"
    )
    sums = Sums(to_player=288, to_house=5)
    shown = [
        env.from_string(source).render(name=PLAYER, sums=sums)
        for env in (templates(), console_environment())
    ]
    assert shown[0] == shown[1]
    assert '<td class="n">EUR 2.88</td><td class="n">EUR 0.05</td>' in shown[0]
    assert "<td>no currency</td>" in shown[0] and "<script>" not in shown[0]
