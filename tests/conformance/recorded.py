"""Where each release's recorded answers and logs live (``tests/data/conformance``).

``answers-torch-<release>.json`` holds, per program of the corpus, the answers a live
capture gave on that release (:mod:`.answers`); ``torch-<version>/<program>.log.gz`` the
``TORCH_TRACE`` log the same run wrote, and ``log-answers-torch-<release>.json`` that log's
answers.  ``scripts/record_conformance.py`` writes them all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import symdebug
from conformance.answers import Answers, answers_of
from conformance.corpus import BY_NAME
from symdebug._torch.releases import parse_version

#: Which answers: a live capture's, or those of the log the same run wrote.
Kind = Literal["live", "log"]

DATA = Path(__file__).resolve().parents[1] / "data" / "conformance"


def answers_file(release: str, kind: Kind = "live") -> Path:
    """``answers-torch-2.15.json`` (live) or ``log-answers-torch-2.15.json``."""
    return DATA / f"{'log-' if kind == 'log' else ''}answers-torch-{release}.json"


def recorded_answers(release: str, kind: Kind = "live") -> dict[str, Any]:
    """``{program: answers}`` recorded on ``release`` (``"torch"``: its full version): the
    live capture's, or (``kind="log"``) those of the log the same run wrote."""
    return json.loads(answers_file(release, kind).read_text(encoding="utf-8"))


def log_answers(log: Path) -> Answers:
    """The answers of a recorded log, read with whatever torch is installed (or none)."""
    session = symdebug.load_trace(log)
    assert isinstance(session, symdebug.Session), log
    return answers_of(session, BY_NAME[program_of_log(log)].points)


def recorded_releases() -> list[str]:
    """The releases with recorded answers, oldest first."""
    names = [
        p.name.removeprefix("answers-torch-").removesuffix(".json")
        for p in DATA.glob("answers-torch-*.json")
    ]  # the live ones: ``log-answers-torch-*`` does not match
    return sorted(names, key=lambda name: tuple(int(part) for part in name.split(".")))


def log_folders() -> list[Path]:
    """``torch-<version>`` folders of recorded logs, one per version."""
    return sorted(p for p in DATA.glob("torch-*") if p.is_dir())


def all_logs() -> list[Path]:
    """Every recorded log, of every version."""
    return [log for folder in log_folders() for log in sorted(folder.glob("*.log.gz"))]


def release_of_log(log: Path) -> str:
    """The release whose torch wrote a recorded log (``torch-2.15.0/x.log.gz``: ``2.15``)."""
    major, minor = parse_version(log.parent.name.removeprefix("torch-")) or (0, 0)
    return f"{major}.{minor}"


def program_of_log(log: Path) -> str:
    """The corpus program a recorded log is of."""
    return log.name.removesuffix(".log.gz")


def log_id(log: Path) -> str:
    """``torch-2.15.0/int_loop`` (a test id)."""
    return f"{log.parent.name}/{program_of_log(log)}"
