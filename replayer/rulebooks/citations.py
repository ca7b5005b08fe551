"""The citation catalogue: what every finding's ``citation`` refers to, in English.

A finding cites its rule as a string such as ``"MO-97/2010 art.16"``,
``"PT-217/2007 n.º 81-83"``, ``"GG-2022 live II 2.1.6"`` or ``"PT-217/2007 I.34, I.46"``.
This module turns such a string into the catalogued articles it names, each with a title
and a one-line summary written from the regulation text (``citations_data``), so an
inspector can follow every citation without the development notes.

Rules of reading a citation (``keys``):

* ``;`` separates citations; a part that names no source takes the previous part's
  (``"GG-2022 Política de mãos atadas; concessão de prémios"``);
* ``,`` separates articles of one source when what follows is a reference (a number,
  ``art.``, ``n.º``, ``(n)`` or a section numeral such as ``I.`` or ``III ``); a bare
  number takes the previous article's prefix (``"art.7(1), 8(1)"`` names ``art.8(1)``,
  ``"live II 2.1.8, III 2.1.5"`` names ``live III 2.1.5``); any other comma is part of the
  name (``"Política de reembolso, torneios"``);
* a range in the last number names every article in it (``"n.º 81-83"``,
  ``"art.12(2)-(4)"``, ``"live III 2.5.1-2.5.2"``);
* spellings are made canonical: ``"PT-217/2007 II n.º 115"`` is ``"PT-217/2007 n.º 115"``
  (Section II is the only one numbered "n.º"), ``"GG-2022 III 2.1.5"`` is
  ``"GG-2022 live III 2.1.5"``.

Rules of finding a key (``lookup``), case and accents ignored: the key itself or an alias;
else, by turns, without a trailing note in parentheses (``"n.º 112 (silent: ...)"``), the
enclosing paragraph (``art.11(2)(2)`` -> ``art.11(2)`` -> ``art.11``; ``live III 2.5.1`` ->
``live III 2.5``), or the record schema or check a detail belongs to
(``"schemas/poker_hand.avsc ActionTaken"``). It never falls back to a bare source or
section: an article missing from the catalogue is reported as such (``resolve``).

This module is data plus parsing; it imports nothing above the replayer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from replayer.rulebooks import citations_data as _data

NOT_IN_CATALOGUE = "not in the catalogue"
"""The summary of an article the catalogue does not hold."""


@dataclass(frozen=True, slots=True)
class Source:
    """A text findings cite: its citation key, title and what it covers."""

    key: str
    title: str
    summary: str


@dataclass(frozen=True, slots=True)
class Article:
    """One citable provision: its catalogue key, its source's key, title and summary."""

    key: str
    source: str
    title: str
    summary: str

    @property
    def catalogued(self) -> bool:
        """False for a key the catalogue does not hold (summary ``NOT_IN_CATALOGUE``)."""
        return self.summary != NOT_IN_CATALOGUE


def _build() -> tuple[dict[str, Source], dict[str, Article]]:
    sources = {key: Source(key, title, summary) for key, title, summary in _data.SOURCES}
    articles = {key: Article(key, key, s.title, s.summary) for key, s in sources.items()}

    def add(key: str, source: str, title: str, summary: str) -> None:
        if key in articles or not title or not summary:
            raise ValueError(f"catalogue entry {key!r}: duplicate or empty")
        articles[key] = Article(key, source, title, summary)

    for source, entries in _data.ENTRIES.items():
        for suffix, title, summary in entries:
            add(f"{source} {suffix}", source, title, summary)
    for source, entries in _data.BARE_ENTRIES.items():
        for key, title, summary in entries:
            add(key, source, title, summary)
    return sources, articles


_SOURCES, _ARTICLES = _build()
SOURCES: Mapping[str, Source] = MappingProxyType(_SOURCES)
"""Every cited source by key: ``MO-97/2010``, ``PT-217/2007``, ``GG-2022``, ..."""
ARTICLES: Mapping[str, Article] = MappingProxyType(_ARTICLES)
"""Every catalogued key (each source's own key included) and its article."""

#: Text that starts a key of a source, longest first; record schemas are casino-audit's.
_PREFIXES: tuple[tuple[str, str], ...] = (
    ("casino-audit", "casino-audit"),
    ("MO-97/2010", "MO-97/2010"),
    ("PT-217/2007", "PT-217/2007"),
    ("GG-2022", "GG-2022"),
    ("schemas/", "casino-audit"),
    ("SAS", "SAS"),
)
_CONTINUATION = re.compile(r"\d|\(\d|art\.|n\.\s*º|(?:I{1,3}|IV)(?:[ .]|$)")
_TRAILING_NUMBER = re.compile(r"\d[\d.()\-]*$")
_RANGE = re.compile(r"(\d[\d.()]*)-(\(?\d[\d.()]*)$")
_MAX_RANGE = 30


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def _split(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside parentheses, parts stripped, empties dropped."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def _prefix(text: str) -> tuple[str, str] | None:
    """(prefix, source) of the source ``text`` starts with, or None."""
    for prefix, source in _PREFIXES:
        if text == prefix or text.startswith(prefix if prefix.endswith("/") else prefix + " "):
            return prefix, source
    return None


def _strip_note(key: str) -> str:
    match = re.fullmatch(r"(.*\S)\s+\([^()]*\)", key)
    return match.group(1) if match else key


def _canonical(key: str) -> str:
    key = " ".join(key.split())
    key = re.sub(r"n\.\s*º\s*", "n.º ", key)
    key = re.sub(r"^PT-217/2007 II n\.º ", "PT-217/2007 n.º ", key)
    return re.sub(r"^GG-2022 (I{1,3}|IV) ", r"GG-2022 live \1 ", key)


def _continue(previous: str, piece: str, prefix: str | None) -> str:
    """The full key of ``piece``, a reference continuing the key ``previous``."""
    base = _strip_note(previous)
    if piece[0].isdigit():
        match = _TRAILING_NUMBER.search(base)
        if match:
            return base[: match.start()] + piece
    elif piece.startswith("("):
        return re.sub(r"\(\d+\)$", "", base) + piece
    return f"{prefix} {piece}" if prefix else piece


def _items(part: str, prefix: str | None) -> list[str]:
    items: list[str] = []
    for piece in _split(part, ","):
        if not items:
            items.append(piece)
        elif _CONTINUATION.match(piece):
            items.append(_continue(items[-1], piece, prefix))
        else:
            items[-1] = f"{items[-1]}, {piece}"
    return items


def _expand(key: str) -> list[str]:
    """Every key of a range in the last number (``n.º 81-83``), or ``[key]``."""
    match = _RANGE.search(key)
    if not match:
        return [key]
    left = re.findall(r"\d+|\D+", match.group(1))
    right = re.findall(r"\d+|\D+", match.group(2))
    if len(right) > len(left):
        return [key]
    upper = left[: len(left) - len(right)] + right
    differ = [i for i, (a, b) in enumerate(zip(left, upper, strict=True)) if a != b]
    if len(differ) != 1 or not left[differ[0]].isdigit():
        return [key]
    at = differ[0]
    low, high = int(left[at]), int(upper[at])
    if not 0 < high - low <= _MAX_RANGE:
        return [key]
    head = key[: match.start()]
    return [head + "".join([*left[:at], str(n), *left[at + 1 :]]) for n in range(low, high + 1)]


def keys(citation: str) -> list[str]:
    """The keys ``citation`` names, canonical, in order, each once (see the module
    docstring for the rules)."""
    found: list[str] = []
    prefix: str | None = None
    for part in _split(citation, ";"):
        named = _prefix(part)
        if named is not None:
            prefix = named[0]
        elif prefix is not None:
            part = f"{prefix} {part}"
        for item in _items(part, prefix):
            for key in _expand(_canonical(item)):
                if key not in found:
                    found.append(key)
    return found


_INDEX: dict[str, Article] = {_fold(key): article for key, article in _ARTICLES.items()}
for _alias, _target in _data.ALIASES.items():
    _INDEX.setdefault(_fold(_alias), _ARTICLES[_target])


def _broader(key: str) -> str | None:
    """The next key to try for ``key``: without its note, its enclosing paragraph, or the
    schema or check a detail belongs to; never a bare source or section."""
    for pattern in (
        r"(.*\S)\s+\([^()]*\)",  # trailing note
        r"(.*[\d)])\(\d+\)",  # art.11(2)(2) -> art.11(2)
        r"(.*\d)\.\d+",  # live III 2.5.1 -> live III 2.5
        r"(schemas/\S+)\s+.+",  # schema detail
        r"(casino-audit [^:]+):\s.*",  # check detail
    ):
        match = re.fullmatch(pattern, key)
        if match:
            broader = match.group(1)
            return None if broader in _SOURCES or _is_section(broader) else broader
    return None


def _is_section(key: str) -> bool:
    return bool(re.fullmatch(r"(PT-217/2007 (I{1,3})|GG-2022 live (I{1,3}|IV))", key))


def lookup(key: str) -> Article | None:
    """The catalogued article for one key, or None (see the module docstring)."""
    candidate: str | None = _canonical(key)
    while candidate:
        article = _INDEX.get(_fold(candidate))
        if article is not None:
            return article
        candidate = _broader(candidate)
    return None


def _unknown(key: str) -> Article:
    named = _prefix(key)
    source = _SOURCES.get(named[1]) if named else None
    if source is None:
        return Article(key, "", "Unknown source", NOT_IN_CATALOGUE)
    return Article(key, source.key, source.title, NOT_IN_CATALOGUE)


def resolve(citation: str) -> list[Article]:
    """Every article ``citation`` names, in order, each once. A key the catalogue does not
    hold gives an article with its source's title (or "Unknown source") and the summary
    ``NOT_IN_CATALOGUE``."""
    articles: list[Article] = []
    for key in keys(citation):
        article = lookup(key) or _unknown(key)
        if article not in articles:
            articles.append(article)
    return articles


def summary_line(citation: str) -> str:
    """One human line: ``"<key> — <title>: <summary>"`` per article, joined by ``"; "``,
    e.g. ``"MO-97/2010 art.16 — Commission (rake): The house takes 3% to 5% ..."``."""
    return "; ".join(f"{a.key} — {a.title}: {a.summary}" for a in resolve(citation))
