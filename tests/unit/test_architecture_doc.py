"""docs/architecture.md's layer table says what the import contract enforces, in its order."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the dev extras install tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| (`[\w.]+`(?: \\\| `[\w.]+`)*) \|")


def contract_layers() -> list[set[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in contracts if c["type"] == "layers")
    return [{name.strip() for name in layer.split("|")} for layer in layers]


def documented_layers(text: str) -> list[set[str]]:
    table = text.split("## What each folder may import", 1)[1].split("\n\n## ", 1)[0]
    rows = [ROW.match(line) for line in table.splitlines()]
    return [set(re.findall(r"`([\w.]+)`", row[1])) for row in rows if row]


def test_the_layer_table_is_the_import_contract() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert documented_layers(text) == contract_layers()


def test_a_table_missing_a_layer_is_told_apart() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert documented_layers(text.replace("| `graph` |", "| graph |")) != contract_layers()


def test_every_package_folder_is_a_documented_layer_or_a_side_package() -> None:
    side = {"_torch", "hooks", "tracefile", "examples", "schema", "_static", "labextension"}
    layers = set().union(*contract_layers())
    folders = {
        p.name if p.is_dir() else p.stem
        for p in (ROOT / "symdebug").iterdir()
        if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"
    }
    leaves = {"__init__", "__main__", "_version", "file_kinds", "run_files"}  # files, no layer
    assert folders - layers - side - leaves == set()
