"""What a new user meets on a fresh clone, said where they look (issue 40, item 10): the
console walk-through's secrets are git-ignored, ``make demo`` and the README say where
the command is, ``make``'s install says what it is doing, ``docs/tests.md`` explains
every test that skips as root, and ``docs/deployment.md`` covers a secret shared across
hosts, the order of starting and worker concurrency."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.console.test_readme_console import console_block
from tests.docs_text import README, ROOT, chapter

MAKEFILE = ROOT / "Makefile"


def _made_by_the_walk_through() -> list[str]:
    """The files the console walk-through's lines write, by the names they give."""
    names = []
    for line in console_block():
        names += re.findall(r"> (\S+)\)", line)  # (umask 077; … > FILE)
        if line.startswith("casino-audit keygen "):
            folder = line.split()[2]
            names += [f"{folder}/checkpoint-signing.key", f"{folder}/checkpoint-signing.pub"]
    return names


def test_the_console_walk_throughs_secrets_are_git_ignored() -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    inside = subprocess.run(["git", "rev-parse"], cwd=ROOT, capture_output=True)
    if inside.returncode != 0:
        pytest.skip(f"{ROOT} is not a git clone")
    names = _made_by_the_walk_through()
    assert {"console.key", "alice.pw", "keys/checkpoint-signing.key"} <= set(names)
    for name in names:
        done = subprocess.run(
            ["git", "check-ignore", "--no-index", "-q", name], cwd=ROOT, capture_output=True
        )
        assert done.returncode == 0, f"{name} is not git-ignored"
    assert ".gitignore" in chapter("console")


def test_the_readme_and_make_demo_say_where_the_command_is() -> None:
    readme = README.read_text(encoding="utf-8")
    assert ".venv/bin/casino-audit" in readme and ". .venv/bin/activate" in readme
    demo = MAKEFILE.read_text(encoding="utf-8").split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    assert "$(VENV)/bin/casino-audit, not on your PATH" in demo


def test_make_says_what_it_installs_and_compiles() -> None:
    make = MAKEFILE.read_text(encoding="utf-8")
    install = make.split("$(STAMP): ", 1)[1].split("\n\n", 1)[0]
    assert install.count('@echo "make: [') == 2
    assert "--quiet -c constraints.txt" not in install  # pip shows each package


def test_every_skip_as_root_is_explained_in_the_tests_chapter() -> None:
    reasons = {
        match
        for path in Path(ROOT / "tests").rglob("test_*.py")
        for match in re.findall(
            r'geteuid\(\) == 0:\s*\n\s*pytest\.skip\("([^"]+)"\)', path.read_text(encoding="utf-8")
        )
    }
    assert reasons, "no test skips as root any more: drop this test and the chapter's words"
    text = " ".join(chapter("tests").split())
    for reason in reasons:
        assert reason in text


@pytest.mark.parametrize(
    "topic",
    ["A secret shared across hosts", "The order of starting", "Worker concurrency"],
)
def test_the_deployment_chapter_covers_more_than_one_host(topic: str) -> None:
    assert f"*{topic}*" in chapter("deployment")
