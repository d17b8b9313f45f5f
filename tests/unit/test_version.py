"""One version number: symdebug/_version.py; the viewer's package.json and the built
JupyterLab extension carry the same."""

from __future__ import annotations

import json
from pathlib import Path

from symdebug._version import __version__

ROOT = Path(__file__).resolve().parents[2]


def test_extension_versions_equal_the_package_version() -> None:
    for path in ("extension/package.json", "symdebug/labextension/package.json"):
        package = json.loads((ROOT / path).read_text(encoding="utf-8"))
        assert package["version"] == __version__, f"{path}: {package['version']} != {__version__}"


def test_pyproject_reads_the_version_from_the_package() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in text
    assert 'version = {attr = "symdebug._version.__version__"}' in text
