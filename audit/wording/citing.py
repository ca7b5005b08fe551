"""A finding's citation as people read it: the article named in the sentence, and the
label of the rule line under it.

* **A catalogue note is not a rule.** Where a text is silent the rulebook makes an open
  choice, and the citation names the note that says so (``"GG-2022 (silent: standard
  online rules)"``, ``replayer.rulebooks.gg_2022``). Such a citation is never written as
  the rule of a finding: a sentence says "the standard online rules (GG-2022 is silent
  here)" and the rule line is labelled ``NOT_WRITTEN``, not ``RULE``.
* **A title in its own language gets its meaning beside it**: a GGPoker policy is cited
  by its Portuguese title, so a sentence reads ``GG-2022 Política de taxas e de ancinho
  ("Fees and rake")``, the English title from the catalogue
  (``replayer.rulebooks.citations_data``).
"""

from __future__ import annotations

import re

from replayer.rulebooks.citations import resolve

RULE = "Rule"
NOT_WRITTEN = "Not written in the rules (the rulebook's open choice)"
_SILENT = re.compile(r"\(silent[:\s]")
_ORIGINAL_TITLES = ("GG-2022",)
"""Sources cited by their own-language titles (GGPoker's Portuguese house rules); their
``live``/``casino`` sections are cited by number."""
_NUMBERED = re.compile(r"^\S+ (live|casino)\b")


def unwritten(citation: str) -> bool:
    """True when every article ``citation`` names is a note that the text is silent."""
    articles = resolve(citation) if citation.strip() else []
    return bool(articles) and all(_SILENT.search(a.key) for a in articles)


def rule_label(citation: str) -> str:
    """The label of a finding's rule line: ``RULE``, or ``NOT_WRITTEN`` for a note."""
    return NOT_WRITTEN if unwritten(citation) else RULE


def _named(part: str) -> str:
    """One ``;``-separated part of a citation as it is named in a sentence."""
    articles = resolve(part)
    if articles and all(_SILENT.search(a.key) for a in articles):
        return f"standard play ({articles[0].source} is silent here)"
    titles = [
        a.title
        for a in articles
        if a.source in _ORIGINAL_TITLES and not _NUMBERED.match(a.key) and a.catalogued
    ]
    meaning = "; ".join(dict.fromkeys(titles))
    return f'{part} ("{meaning}")' if meaning else part


def cited(citation: str) -> str:
    """The citation as the subject of a sentence: its parts (``;``) as written, joined by
    "and", a note by what it stands for, an own-language title with its English meaning."""
    named: list[str] = []
    for part in citation.split(";"):
        words = _named(" ".join(part.split())) if part.strip() else ""
        if words and words not in named:
            named.append(words)
    return " and ".join(named) if named else "the rules"
