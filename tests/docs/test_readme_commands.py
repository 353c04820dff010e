"""The README is the newcomer's spec: every `netcards` command it shows must be one the program
takes, and every option it names must be an option of the program's, with help to say what it
does."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from ui.cli import UsageError, _build_parser

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
FOR_PLAYERS = README.split("## For developers")[0]
"""The part of the README for people who play (the rest names the developers' tools)."""
COMMAND = re.compile(r"(?:^|`)(netcards(?: [^`#\n]*)?)", re.MULTILINE)
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]+)")


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def readme_commands() -> list[str]:
    """Each `netcards ...` command of the README's code blocks and code spans, as typed."""
    found = []
    for match in COMMAND.finditer(FOR_PLAYERS):
        found.append(match.group(1).strip())
    return sorted(set(found))


def all_options() -> set[str]:
    parser = _build_parser()
    options = set(parser._option_string_actions)
    for sub in subparsers(parser).values():
        options |= set(sub._option_string_actions)
    return options


@pytest.mark.parametrize("command", readme_commands())
def test_every_command_of_the_readme_is_taken_by_the_program(command: str) -> None:
    words = shlex.split(command)[1:]
    if words and words[-1].startswith("--") and words[-1] in {"--level"}:
        words.append("random")  # `netcards bot --level` names the option, not a whole command
    if words[:1] == ["bot"] and len(words) == 3:
        words.insert(1, "192.0.2.7")
    try:
        _build_parser().parse_args(words)
    except UsageError as exc:
        raise AssertionError(f"README: `{command}`: {exc}") from None


def test_every_option_the_readme_names_is_an_option_of_the_program() -> None:
    named = set(OPTION.findall(FOR_PLAYERS))
    unknown = sorted(named - all_options())
    assert not unknown, f"the README names options the program does not have: {unknown}"


def test_every_option_says_what_it_does() -> None:
    parser = _build_parser()
    silent = [
        f"{name} {action.option_strings[0]}"
        for name, sub in {"netcards": parser, **subparsers(parser)}.items()
        for action in sub._actions
        if action.option_strings and not action.help
    ]
    assert not silent, f"options without help: {silent}"


def test_the_password_options_read_as_sentences() -> None:
    for name in ("host", "join", "bot"):
        text = subparsers(_build_parser())[name].format_help()
        flat = " ".join(text.split())
        assert "; the table password." not in flat, flat


def test_the_door_s_own_option_is_not_offered_to_people() -> None:
    """`join --guest` is how the SSH door starts a guest's app: nobody types it."""
    assert "--guest" not in subparsers(_build_parser())["join"].format_help()
