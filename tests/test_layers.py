"""The layers' imports, read from the source: no layer reaches one above it (README, Development)."""

from __future__ import annotations

import ast
from pathlib import Path

GOLFBOX = Path(__file__).resolve().parents[1] / "golfbox"
LAYERS_BELOW_COMMANDS = ("engine", "bots", "render", "hal", "table")


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in a file, relative ones made absolute."""
    package = ".".join(path.relative_to(GOLFBOX.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def test_no_layer_below_the_commands_imports_them():
    wrong = []
    for layer in LAYERS_BELOW_COMMANDS:
        for path in sorted((GOLFBOX / layer).rglob("*.py")):
            for line, module in imported_modules(path):
                if module in ("golfbox.cli", "golfbox.commands") or module.startswith(
                        ("golfbox.cli.", "golfbox.commands.")):
                    wrong.append(f"{path.relative_to(GOLFBOX.parent)}:{line} imports {module}")
    assert not wrong, "\n".join(wrong)


def test_outside_the_engine_only_its_public_face_is_imported():
    """golfbox.engine exports what others use (as python-chess's chess module does);
    its modules are its own business."""
    root = GOLFBOX.parent
    wrong = []
    for path in sorted([*GOLFBOX.rglob("*.py"), *(root / "bench").glob("*.py"),
                        *(root / "tests").glob("*.py")]):
        if path.is_relative_to(GOLFBOX / "engine"):
            continue
        for line, module in imported_modules(path):
            if module.startswith("golfbox.engine.") and module.rsplit(".", 1)[0] != "golfbox.engine":
                wrong.append(f"{path.relative_to(root)}:{line} imports {module}")
            elif module.startswith("golfbox.engine.") and module.split(".")[2] in ENGINE_MODULES:
                wrong.append(f"{path.relative_to(root)}:{line} imports {module}")
    assert not wrong, "\n".join(wrong)


ENGINE_MODULES = {p.stem for p in (GOLFBOX / "engine").glob("*.py")} - {"__init__"}


# What each pure layer must not reach (README, Development: the tree): the engine knows nothing
# of bots, pixels, hardware or the table; bots see only views; rendering is a function
# of a view, never of the hardware it is shown on; the hardware layer knows no game.
NOT_BELOW = {
    "engine": ("bots", "render", "hal", "table"),
    "bots": ("render", "hal", "table"),
    "render": ("bots", "hal", "table"),
    "hal": ("engine", "bots", "render", "table"),
}


def test_each_pure_layer_imports_nothing_above_or_beside_it():
    wrong = []
    for layer, forbidden in NOT_BELOW.items():
        for path in sorted((GOLFBOX / layer).rglob("*.py")):
            for line, module in imported_modules(path):
                parts = module.split(".")
                if parts[0] == "golfbox" and len(parts) > 1 and parts[1] in forbidden:
                    wrong.append(f"{path.relative_to(GOLFBOX.parent)}:{line} imports {module}")
    assert not wrong, "\n".join(wrong)
