"""The wheel carries the prebuilt JupyterLab extension: building it and installing it into a
fresh virtual environment need no Node, and JupyterLab then lists the extension as enabled."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("jupyterlab")
REPO = Path(__file__).resolve().parents[2]


def _without_node() -> dict[str, str]:
    """The environment with every PATH entry that holds ``node`` or ``npm`` removed."""
    keep = [
        entry
        for entry in os.environ.get("PATH", "").split(os.pathsep)
        if entry and not any((Path(entry) / tool).exists() for tool in ("node", "npm", "npx"))
    ]
    env = {**os.environ, "PATH": os.pathsep.join(keep)}
    assert shutil.which("node", path=env["PATH"]) is None
    return env


def _run(args: list[str], env: dict[str, str], cwd: Path = REPO) -> str:
    done = subprocess.run(
        args, env=env, cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # A copy of the tracked tree, so the build leaves nothing in the checkout.
    source = out / "src"
    files = _run(["git", "ls-files", "-z"], os.environ.copy()).split("\0")
    for name in filter(None, files):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    _run([*build, "-w", str(out), str(source)], _without_node())
    (built,) = out.glob("symdebug-*.whl")
    return built


def test_wheel_holds_the_extension_under_share(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    share = "symdebug-0.1.0.data/data/share/jupyter/labextensions/symdebug/"
    assert share + "package.json" in names and share + "install.json" in names
    assert any(re.match(rf"{re.escape(share)}static/remoteEntry\.\w+\.js$", n) for n in names)
    assert not [n for n in names if n.startswith("symdebug/labextension/")]  # only once


def test_fresh_venv_without_node_lists_the_extension_enabled_ok(
    wheel: Path, tmp_path: Path
) -> None:
    env = _without_node()
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], env)
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], env)
    # JupyterLab itself comes from the test's environment (no download); the extension only
    # from the fresh venv, where pip put the wheel's data files.
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], env
        ).strip()
    )
    (site / "jupyterlab_from_tests.pth").write_text(sysconfig.get_path("purelib") + "\n")
    env["JUPYTER_DATA_DIR"] = str(tmp_path / "data")  # no user-level extensions
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path / "config")
    listed = _run([str(python), "-m", "jupyterlab.labextensions", "list"], env, cwd=tmp_path)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", listed)
    assert re.search(r"symdebug v0\.1\.0 enabled\s+OK \(python, symdebug\)", plain), plain
    assert str(venv / "share" / "jupyter" / "labextensions") in plain
