"""What follows the script on ``symdebug run|fix|hunt SCRIPT ...``: the script's arguments.

Everything after the script goes to it, so ``symdebug hunt script.py -o hunt.html`` would
hand ``-o hunt.html`` to the script and write nothing.  An option of symdebug's own command
found there is refused with the two ways to say what was meant; ``--`` first passes the
rest to the script as it is.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence


def mark_script_command(parser: argparse.ArgumentParser) -> None:
    """Remember the command's own options (call once every option is added)."""
    takes_value = {
        option: action.nargs != 0
        for action in parser._actions
        for option in action.option_strings
        if option not in {"-h", "--help"}
    }
    parser.set_defaults(own_options=takes_value)


def script_arguments(args: argparse.Namespace, argv: Sequence[str]) -> list[str]:
    """The script's arguments; ValueError where one is an option of symdebug's command.

    ``argv``: the command line as given (argparse drops the ``--`` after the script).
    """
    given = list(args.args)
    if given[:1] == ["--"]:
        return given[1:]
    words = list(argv)
    at = words.index(args.script) if args.script in words else len(words)
    if "--" in words[at + 1 : at + 2]:
        return given
    own = args.own_options
    mistaken = next((a for a in given if a.split("=", 1)[0] in own), None)
    if mistaken is None:
        return given
    ours, theirs = _split_own(given, own)
    before = shlex.join([*words[:at], *ours, args.script, *theirs])
    after = shlex.join([*words[:at], args.script, "--", *given])
    raise ValueError(
        f"{mistaken} comes after the script, so it would go to the script: put symdebug's "
        f"options first (symdebug {before}), or pass it to the script after -- "
        f"(symdebug {after})"
    )


def _split_own(given: list[str], own: dict[str, bool]) -> tuple[list[str], list[str]]:
    """The words that are symdebug's options (with their values), and the script's."""
    ours: list[str] = []
    theirs: list[str] = []
    words = iter(given)
    for word in words:
        name, has_value = word.split("=", 1)[0], "=" in word
        if name not in own:
            theirs.append(word)
            continue
        ours.append(word)
        value = next(words, None) if own[name] and not has_value else None
        ours.extend([] if value is None else [value])
    return ours, theirs
