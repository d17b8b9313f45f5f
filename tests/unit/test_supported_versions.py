"""The supported torch versions are said once, by the release modules, and agreed everywhere.

``make test`` reads each release's ``TESTED`` (symdebug/_torch/releases/v*.py); the package
asks for every release it knows and no other; the README names each version; the script
that writes the README's compatibility table refuses missing or failed results.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from features import FEATURES

from symdebug._torch.releases import NEWEST, OLDEST, RELEASES

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # a subprocess
def test_make_reads_the_tested_version_of_every_release() -> None:
    done = subprocess.run(
        ["make", "-s", "-n", "-p", "-f", "Makefile", "setup"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("TORCH_VERSIONS :=")]
    assert line.split(":=")[1].split() == [release.tested for release in RELEASES]


def test_the_package_asks_for_the_releases_it_knows() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (wanted,) = re.findall(r'"torch>=([\d.]+),<([\d.]+)"', pyproject)
    assert wanted == (OLDEST.name, f"{NEWEST.version[0]}.{NEWEST.version[1] + 1}")


def test_the_readme_names_every_tested_version_and_has_the_compat_table() -> None:
    """Its rows are written from a run by scripts/compat_table.py (checked by make test)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for release in RELEASES:
        assert f"| {release.tested} |" in readme, release.tested
    assert readme.count("<!-- compat-table -->") == readme.count("<!-- /compat-table -->") == 1


@pytest.mark.slow  # a subprocess
def test_the_compat_table_script_refuses_missing_results(tmp_path: Path) -> None:
    script = ROOT / "scripts" / "compat_table.py"
    command = [sys.executable, str(script), "--check", "--results", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 1
    assert "no conformance results for torch" in done.stderr


@pytest.mark.slow  # a subprocess
def test_the_compat_table_script_refuses_a_failed_feature(tmp_path: Path) -> None:
    for release in RELEASES:
        counts = {feature.name: {"passed": 3, "failed": 0} for feature in FEATURES}
        counts[FEATURES[0].name]["failed"] = int(release is NEWEST)
        found = {"torch": release.tested, "features": counts}
        (tmp_path / f"torch-{release.tested}.json").write_text(json.dumps(found))
    script = ROOT / "scripts" / "compat_table.py"
    command = [sys.executable, str(script), "--check", "--results", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 1
    assert "1 of 4 failed" in done.stderr
