"""Every TOML snippet in the repo's Markdown is one the config loader takes.

A snippet is a fenced ```toml block. An unfenced code block that looks like
TOML (a [table] or [[array]] header line) fails the test too: fence it as
toml so it is checked. A snippet that is part of a config (no [[seats]] of its
own) is loaded together with one simulated seat.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from golfbox.hal.config import parse_config
from golfbox.hal.config import tomllib  # the config's reader: tomli's TOML 1.0 from 3.15

REPO = Path(__file__).resolve().parents[1]
SKIP_DIRS = {".venv", ".git", "build", "node_modules"}
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)\n(?P<body>.*?)^(?P=indent)```", re.MULTILINE | re.DOTALL)
TOML_HEADER = re.compile(r"^\s*\[{1,2}[A-Za-z_][\w.]*\]{1,2}\s*(#.*)?$", re.MULTILINE)


def markdown_files() -> list[Path]:
    return sorted(p for p in REPO.rglob("*.md") if not SKIP_DIRS & set(p.relative_to(REPO).parts))


def snippets() -> list[tuple[str, str]]:
    found = []
    for path in markdown_files():
        text = path.read_text()
        for match in FENCE.finditer(text):
            if match["lang"] == "toml":
                body = "\n".join(line[len(match["indent"]):] for line in match["body"].splitlines())
                line = text[:match.start()].count("\n") + 1
                found.append((f"{path.relative_to(REPO)}:{line}", body))
    return found


def unfenced_toml() -> list[str]:
    """Indented code blocks (4 spaces, after a blank line) with a TOML table header."""
    found = []
    for path in markdown_files():
        text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), path.read_text())
        for block in re.finditer(r"(?:^\n)((?:^(?: {4}|\t).*\n|^\n)+)", text, re.MULTILINE):
            if TOML_HEADER.search(block.group(1)):
                found.append(f"{path.relative_to(REPO)}:{text[:block.start(1)].count(chr(10)) + 1}")
    return found


def test_the_docs_have_toml_snippets_to_check():
    assert len(snippets()) >= 2


@pytest.mark.parametrize("where, body", snippets(), ids=[where for where, _ in snippets()])
def test_every_toml_snippet_loads(where, body):
    data = tomllib.loads(body)
    if "seats" not in data:
        data["seats"] = [{"backend": "sim"}]
    parse_config(data)


def test_no_toml_hides_in_an_unfenced_code_block():
    assert unfenced_toml() == []
