"""The command line's help, for users (issue 46, point 19): no Sphinx markup, a line per
command, and one default timeout for every replay, wherever it is set."""

from __future__ import annotations

import argparse

import pytest

from symdebug.cli import build_parser
from symdebug.model.values import REPLAY_TIMEOUT_S


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_help_is_for_users() -> None:
    text = build_parser().format_help()
    assert ":data:" not in text and "``" not in text and "This module" not in text
    assert "Why torch.compile specialized a shape" in text


def test_every_command_has_a_line() -> None:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helped = {choice.dest: choice.help for choice in action._choices_actions}
    assert set(helped) == set(_commands())
    assert all(text and "\n" not in text for text in helped.values())


@pytest.mark.parametrize("command", ["run", "fix", "hunt"])
def test_one_timeout_default_for_every_run_of_a_script(command: str) -> None:
    parsed = build_parser().parse_args([command, "s.py"])
    assert parsed.timeout == REPLAY_TIMEOUT_S
