"""Write the README's compatibility table (torch version x feature) from the conformance run.

Each run of the conformance tier on a torch (``make test`` runs the full suite on one and the
tier on the others) writes ``out/conformance/torch-<version>.json``: passed and failed tests
per feature of ``tests/features.py``.  This script writes the table between the README's
``<!-- compat-table -->`` and ``<!-- /compat-table -->`` markers.  ``--check`` changes nothing
and exits 1 when the README differs (a unified diff is printed), when a supported version has
no results, or when a feature has a failed test or no test that ran.

    python scripts/compat_table.py            # rewrite README.md
    python scripts/compat_table.py --check    # after make test: is README.md up to date?
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from features import FEATURES  # noqa: E402

from symdebug._torch.releases import RELEASES  # noqa: E402

README = ROOT / "README.md"
RESULTS = ROOT / "out" / "conformance"
MARKED = re.compile(r"(<!-- compat-table -->\n)(.*?)(<!-- /compat-table -->)", re.S)
#: The torch versions `make test` proves, one per release symdebug knows.
VERSIONS = tuple(release.tested for release in RELEASES)


class TableError(Exception):
    """The table cannot be written from these results."""


def results(version: str, folder: Path = RESULTS) -> dict[str, dict[str, int]]:
    """Passed and failed tests per feature on one version."""
    path = folder / f"torch-{version}.json"
    if not path.is_file():
        raise TableError(f"no conformance results for torch {version} ({path}): make test")
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return dict(found["features"])


def cell(counts: dict[str, int] | None) -> str:
    """``✓ 12`` (12 tests passed), ``✗ 2 of 12 failed``, or ``✗ not run``."""
    if not counts or not counts.get("passed", 0) + counts.get("failed", 0):
        return "✗ not run"
    passed, failed = counts.get("passed", 0), counts.get("failed", 0)
    return f"✗ {failed} of {passed + failed} failed" if failed else f"✓ {passed}"


def table(folder: Path = RESULTS) -> str:
    """The markdown table, a row per feature and a column per version."""
    by_version = {version: results(version, folder) for version in VERSIONS}
    lines = [
        "| feature | " + " | ".join(f"torch {v}" for v in VERSIONS) + " |",
        "|---|" + "---|" * len(VERSIONS),
    ]
    for feature in FEATURES:
        cells = [cell(by_version[v].get(feature.name)) for v in VERSIONS]
        lines.append(f"| {feature.name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def written(readme: str, folder: Path = RESULTS) -> str:
    """The README with the table between its markers."""
    if not MARKED.search(readme):
        raise TableError("README.md has no <!-- compat-table --> markers")
    made = table(folder)
    if "✗" in made:
        raise TableError(f"a feature failed or did not run:\n{made}")
    return MARKED.sub(lambda m: m.group(1) + made + m.group(3), readme, count=1)


def main() -> int:
    """Rewrite the README's table, or (``--check``) say whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the runs' results")
    args = parser.parse_args()
    before = README.read_text(encoding="utf-8")
    try:
        after = written(before, args.results)
    except TableError as error:
        print(f"compat_table: {error}", file=sys.stderr)
        return 1
    if not args.check:
        README.write_text(after, encoding="utf-8")
        return 0
    diff = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="")
    shown = "\n".join(diff)
    if shown:
        print(f"README.md's table differs from the run (python scripts/compat_table.py):\n{shown}")
    return 1 if shown else 0


if __name__ == "__main__":
    raise SystemExit(main())
