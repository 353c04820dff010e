"""A closed terminal ends the program, even one started with the hang-up signal ignored."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.sighup import SIGHUP_MODES, sighup_for_children
from tests.terminal.harness import Terminal


@pytest.mark.parametrize("sighup", SIGHUP_MODES)
def test_the_program_ends_when_its_terminal_closes(tmp_path: Path, sighup: str) -> None:
    """As under `nohup`: SIGHUP ignored is inherited through exec. Without a look at the
    terminal, the program would go on reading end-of-file at full speed for ever."""
    with sighup_for_children(sighup):
        term = Terminal(tmp_path)
    try:
        term.wait_for("Practise")
        os.close(term.fd)  # the terminal window is closed
        term.fd = os.open(os.devnull, os.O_RDONLY)
        try:
            status = term.process.wait(10)
        except subprocess.TimeoutExpired:
            raise AssertionError("the program outlived its terminal") from None
        assert status == -signal.SIGHUP
    finally:
        term.close()
