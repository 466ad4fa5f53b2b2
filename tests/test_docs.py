"""The repository's own documents: the rules' worked examples are right, every link resolves.

docs/RULES.md teaches the game; each ``$ golfbox score …`` line in it is run through
the real command line here and must print exactly the lines under it.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from golfbox.cli import main
from golfbox.engine import VARIANTS, get_variant

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"


def score_examples() -> list[tuple[str, list[str]]]:
    """(command, expected lines) for every ``$ golfbox score`` line of a console block."""
    examples: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", RULES.read_text(), re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                examples.append((line[2:], []))
            elif examples and line.strip():
                examples[-1][1].append(line)
    return examples


EXAMPLES = score_examples()


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_every_worked_example_is_what_golfbox_score_prints(command, expected, capsys):
    argv = shlex.split(command)
    assert argv[:2] == ["golfbox", "score"], command
    assert main(argv[1:]) == 0
    assert capsys.readouterr().out.splitlines() == expected


def test_the_examples_cover_every_variant_and_every_scoring_house_rule():
    commands = [c for c, _ in EXAMPLES]
    for variant in VARIANTS:
        assert any(f"--variant {variant} " in c for c in commands), variant
    for rule in ("knock_penalty=5", "knock_penalty=double", "four_of_a_kind=-10",
                 "negative_pairs_keep=on", "lines=rows+columns"):
        assert any(f"--rule {rule} " in c for c in commands), rule
    assert any("--ender" in c and "9-card" in c for c in commands)  # the finisher penalty


def test_the_rules_name_every_house_rule_of_every_variant():
    text = RULES.read_text()
    for variant in VARIANTS:
        assert f"`{variant}`" in text
        for spec in get_variant(variant).rule_specs:
            assert f"**`{spec.name}`**" in text or f"`{spec.name}`" in text, spec.name


def test_the_house_rules_table_gives_each_default_as_the_lobby_shows_it():
    """'House rules at a glance' gave 4-card's knock_penalty default as '0'; the lobby
    says 'off' (8f5b778), as the text above the table does ('off by default')."""
    rows = re.findall(r"^\| `(\w+)` \| ([\w-]+) \| ([^|]+) \|", RULES.read_text(), re.M)
    assert len(rows) == sum(len(v.rule_specs) for v in VARIANTS.values())
    for name, variant, default in rows:
        spec = next(s for s in get_variant(variant).rule_specs if s.name == name)
        assert default.strip().strip('`"') == spec.describe(spec.default), (name, variant)


def markdown_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
        files = [ROOT / line for line in out.splitlines()]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout
        files = [p for p in ROOT.rglob("*.md") if ".venv" not in p.parts]
    return sorted(set(files) | {RULES})


LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|<img[^>]*\ssrc=\"([^\"]+)\"")


def test_every_relative_link_and_image_resolves_inside_the_repository():
    broken = []
    for md in markdown_files():
        text = re.sub(r"```.*?```", "", md.read_text(), flags=re.S)  # code is not a link
        for match in LINK.finditer(text):
            target = match.group(1) or match.group(2)
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a web address or an anchor in the same page
            path = (md.parent / target.split("#")[0].split("?")[0]).resolve()
            where = f"{md.relative_to(ROOT)}: {target}"
            if not path.is_relative_to(ROOT):
                broken.append(f"{where} (outside the repository)")
            elif not path.exists():
                broken.append(f"{where} (no such file)")
    assert not broken, "\n".join(broken)
    assert len(markdown_files()) > 3


def test_the_quick_start_puts_the_golfbox_command_on_the_path():
    """README writes `golfbox sim …`, `golfbox score …` everywhere after a quick start that
    only ran make: golfbox lives in .venv/bin, and the shell said "golfbox: command not
    found". The quick start is make's two commands; the block after it puts golfbox on
    the PATH: its lines, then `command -v golfbox`."""
    venv_bin = ROOT / ".venv" / "bin"
    if not (venv_bin / "golfbox").exists():
        pytest.skip("no .venv here: make has not set it up")
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start\n", 1)[1].split("\n## ", 1)[0]
    make_block, path_block = re.findall(r"```sh\n(.*?)```", section, re.S)[:2]
    assert [line.split("#")[0].strip() for line in make_block.splitlines()] == ["make run",
                                                                                 "make test"]
    steps = [line.split("#")[0].strip() for line in path_block.splitlines()]
    steps = [step for step in steps if step]
    path = ":".join(p for p in os.environ.get("PATH", "").split(":")
                    if p and Path(p).resolve() != venv_bin.resolve())
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    found = subprocess.run(["sh", "-c", "; ".join([*steps, "command -v golfbox"])], cwd=ROOT,
                           env={**env, "PATH": path}, capture_output=True, text=True, timeout=30)
    assert found.returncode == 0 and Path(found.stdout.strip()) == venv_bin / "golfbox", found
