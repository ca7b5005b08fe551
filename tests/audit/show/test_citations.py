"""The citation catalogue: every citation a finding can carry resolves to shipped text."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from replayer.rulebooks.casino import CASINO_RULEBOOKS
from replayer.rulebooks.citations import (
    ARTICLES,
    NOT_IN_CATALOGUE,
    SOURCES,
    Article,
    keys,
    resolve,
    summary_line,
)
from replayer.rulebooks.poker import PokerRulebook
from replayer.rulebooks.registry import all_rulebooks

REPLAYER = Path(__file__).resolve().parents[3] / "replayer"
PREFIXES = ("MO-97/2010", "PT-217/2007", "GG-2022", "casino-audit", "schemas/", "SAS ")
CONSTANT_PACKAGES = (
    "replayer.casino",
    "replayer.slots",
    "replayer.tournaments",
    "replayer.refunds",
    "replayer.poker",
    "replayer.rulebooks",
)


def _is_citation(value: object) -> bool:
    return isinstance(value, str) and value.startswith(PREFIXES)


def _constants(value: object) -> list[str]:
    if isinstance(value, str):
        return [value] if _is_citation(value) else []
    if isinstance(value, dict):
        return [v for item in value.values() for v in _constants(item)]
    if isinstance(value, tuple | list | frozenset | set):
        return [v for item in value for v in _constants(item)]
    return []


def _module_constants() -> set[str]:
    found: set[str] = set()
    for package_name in CONSTANT_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package_name}.{info.name}")
            if module.__name__.startswith("replayer.rulebooks.citations"):
                continue
            for name, value in vars(module).items():
                if name.lstrip("_").isupper():
                    found.update(_constants(value))
    collusion = importlib.import_module("pipelines.detectors.collusion")
    found.update(collusion.CITATIONS.values())
    found.add("; ".join(collusion.CITATIONS[v] for v in sorted(collusion.CITATIONS)))
    return found


def _rulebook_citations() -> set[str]:
    found: set[str] = set()
    for book in all_rulebooks():
        if isinstance(book, PokerRulebook):
            found.update(getattr(book.cite, f.name) for f in fields(book.cite))
    found.update(book.citation for book in CASINO_RULEBOOKS.values())
    games = importlib.import_module("replayer.casino.adjudicate").GAMES
    for spec in games.values():
        found.update(
            (
                spec.late_bet_citation,
                spec.limits_citation,
                spec.void_citation,
                spec.malfunction_citation,
            )
        )
    return found


def _literals() -> dict[str, list[str]]:
    """Every string literal of ``replayer/`` that is not a docstring, by file; f-strings
    give their literal parts."""
    found: dict[str, list[str]] = {}
    for path in sorted(REPLAYER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        found[str(path.relative_to(REPLAYER.parent))] = [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ]
    return found


def _literal_citations() -> set[str]:
    return {
        value
        for path, values in _literals().items()
        if not path.startswith("replayer/rulebooks/citations")
        for value in values
        if _is_citation(value)
    }


EMITTED = sorted(_rulebook_citations() | _module_constants() | _literal_citations())


def test_the_collection_sees_every_kind_of_citation() -> None:
    assert "MO-97/2010 art.16" in EMITTED  # poker rulebook
    assert "GG-2022 live II" in EMITTED  # casino rulebook
    assert "GG-2022 live III 2.1.3" in EMITTED  # game spec
    assert "PT-217/2007 II n.º 115, n.º 118" in EMITTED  # module constant
    assert "GG-2022 live II 2.1.1" in EMITTED  # inline literal
    assert "casino-audit rulebook registry" in EMITTED
    assert len(EMITTED) > 100


@pytest.mark.parametrize("citation", EMITTED)
def test_every_emitted_citation_resolves_to_catalogued_text(citation: str) -> None:
    articles = resolve(citation)
    assert articles, citation
    for article in articles:
        assert article.catalogued, f"{citation!r}: {article.key!r} {NOT_IN_CATALOGUE}"
        assert article.title.strip() and article.summary.strip()
        assert article.source in SOURCES


def test_no_citation_points_at_development_documents() -> None:
    offending = [
        (path, value)
        for path, values in _literals().items()
        for value in values
        if "RULES.md" in value or "ARCHITECTURE.md" in value
    ]
    assert offending == []
    for citation in EMITTED:
        assert "RULES.md" not in citation and "ARCHITECTURE.md" not in citation
    for article in ARTICLES.values():
        text = f"{article.key} {article.title} {article.summary}"
        assert "RULES.md" not in text and "ARCHITECTURE.md" not in text


def test_joined_citations_split_into_their_keys() -> None:
    assert keys("MO-97/2010 art.10(4), 10(5)") == ["MO-97/2010 art.10(4)", "MO-97/2010 art.10(5)"]
    assert keys("MO-97/2010 art.10(4); MO-97/2010 art.10(5)") == [
        "MO-97/2010 art.10(4)",
        "MO-97/2010 art.10(5)",
    ]
    assert keys("MO-97/2010 art.7(1), 8(1), 8(3)") == [
        "MO-97/2010 art.7(1)",
        "MO-97/2010 art.8(1)",
        "MO-97/2010 art.8(3)",
    ]
    assert keys("MO-97/2010 art.12(2)-(4)") == [
        "MO-97/2010 art.12(2)",
        "MO-97/2010 art.12(3)",
        "MO-97/2010 art.12(4)",
    ]
    assert keys("PT-217/2007 n.º 81-83") == [
        "PT-217/2007 n.º 81",
        "PT-217/2007 n.º 82",
        "PT-217/2007 n.º 83",
    ]
    assert keys("PT-217/2007 II n.º 115, n.º 118") == ["PT-217/2007 n.º 115", "PT-217/2007 n.º 118"]
    assert keys("PT-217/2007 I.34, I.46") == ["PT-217/2007 I.34", "PT-217/2007 I.46"]
    assert keys("GG-2022 live II 2.1.8, III 2.1.5, IV 2.1.6") == [
        "GG-2022 live II 2.1.8",
        "GG-2022 live III 2.1.5",
        "GG-2022 live IV 2.1.6",
    ]
    assert keys("GG-2022 live III 2.5.1-2.5.2") == [
        "GG-2022 live III 2.5.1",
        "GG-2022 live III 2.5.2",
    ]
    # a comma inside a name does not split it; a part without a source takes the previous one
    assert keys("GG-2022 Política de reembolso, torneios (1) não começado") == [
        "GG-2022 Política de reembolso, torneios (1) não começado"
    ]
    assert [a.key for a in resolve("GG-2022 Política de mãos atadas; concessão de prémios")] == [
        "GG-2022 Política de mãos atadas",
        "GG-2022 Política de concessão de prêmios de torneios",
    ]
    assert [a.key for a in resolve("PT-217/2007 III.9; SAS meter practice")] == [
        "PT-217/2007 III.9",
        "SAS meter practice",
    ]


def test_a_key_resolves_to_its_enclosing_provision_and_never_to_a_bare_source() -> None:
    assert [a.key for a in resolve("PT-217/2007 n.º 112 (silent: by structure)")] == [
        "PT-217/2007 n.º 112 (silent: by structure)"
    ]
    assert [a.key for a in resolve("PT-217/2007 II n.º 56 (entendimento vedado)")] == [
        "PT-217/2007 n.º 56"
    ]
    assert [a.key for a in resolve("schemas/poker_hand.avsc ActionTaken")] == [
        "schemas/poker_hand.avsc"
    ]
    assert [a.key for a in resolve("casino-audit data quality: shard.readable")] == [
        "casino-audit data quality"
    ]
    (unknown,) = resolve("MO-97/2010 art.17")
    assert unknown == Article(
        "MO-97/2010 art.17", "MO-97/2010", SOURCES["MO-97/2010"].title, NOT_IN_CATALOGUE
    )
    assert not resolve("GG-2022 live II 9.9")[0].catalogued
    assert not resolve("PT-217/2007 I.999 (a note)")[0].catalogued
    assert resolve("no such text") == [
        Article("no such text", "", "Unknown source", NOT_IN_CATALOGUE)
    ]


def _summary(key: str) -> str:
    (article,) = resolve(key)
    assert article.key == key and article.catalogued
    return article.summary


def test_summaries_state_the_regulation() -> None:
    rake = _summary("MO-97/2010 art.16")
    assert "3%" in rake and "5%" in rake and "five times the big blind" in rake
    assert "previous bet or raise" in _summary("MO-97/2010 art.12(1)")
    assert "croupier's left" in _summary("MO-97/2010 art.10(5)")
    assert "two players" in _summary("MO-97/2010 art.2(3)")
    assert "four players" in _summary("PT-217/2007 n.º 24")
    assert "half the table minimum" in _summary("PT-217/2007 n.º 82")
    assert "smallest chip" in _summary("PT-217/2007 n.º 67")
    assert "28-card" in _summary("PT-217/2007 n.º 95")
    assert "50%" in _summary("PT-217/2007 I.34")
    assert "80%" in _summary("PT-217/2007 III.2")
    assert "meters" in _summary("PT-217/2007 III.9")
    assert "5% commission" in _summary("GG-2022 live II 2.2") and "8:1" in _summary(
        "GG-2022 live II 2.2"
    )
    assert "three revolutions" in _summary("GG-2022 live IV 3.1.1")
    assert "half his initial bet" in _summary("GG-2022 live III 2.5.1")
    assert "$4.09" in _summary("GG-2022 Política de concessão de prêmios (frações de centavo)")


def test_summary_line_names_key_title_and_summary() -> None:
    assert summary_line("MO-97/2010 art.16") == (
        "MO-97/2010 art.16 — Commission (rake): The house takes 3% to 5% of each pot as "
        "commission, at most five times the big blind"
    )
    line = summary_line("MO-97/2010 art.10(4), 10(5)")
    assert line.startswith("MO-97/2010 art.10(4) — Split pot: ")
    assert "; MO-97/2010 art.10(5) — Odd chip: " in line
    assert summary_line("MO-97/2010 art.17").endswith(f": {NOT_IN_CATALOGUE}")


def test_every_source_has_an_entry_and_every_entry_a_known_source() -> None:
    assert set(SOURCES) >= {"MO-97/2010", "PT-217/2007", "GG-2022"}
    for key, source in SOURCES.items():
        assert ARTICLES[key].title == source.title
    for key, article in ARTICLES.items():
        assert article.key == key and article.source in SOURCES
        assert resolve(key) == [article]


def test_the_catalogue_imports_nothing_above_the_replayer() -> None:
    code = (
        "import sys, replayer.rulebooks.citations\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('audit', 'pipelines')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
