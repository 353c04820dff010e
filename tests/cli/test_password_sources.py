"""Where a program takes the table password from: the command line (visible to everyone on the
computer), a prompt, or the environment. Real processes on loopback."""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.network.processes import LISTENING, NETCARDS, Proc, bot, spawn
from ui.cli import UsageError, resolve_password


def args(password: str | None = None, ask: bool = False) -> argparse.Namespace:
    return argparse.Namespace(password=password, ask_password=ask)


def test_the_command_line_then_the_prompt_then_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NETCARDS_PASSWORD", "from-env")
    assert resolve_password(args("given")) == "given"
    assert resolve_password(args(ask=True), io.StringIO("typed in\n")) == "typed in"
    assert resolve_password(args()) == "from-env"
    monkeypatch.delenv("NETCARDS_PASSWORD")
    assert resolve_password(args()) is None
    with pytest.raises(UsageError, match="not both"):
        resolve_password(args("given", ask=True))
    with pytest.raises(UsageError, match="no password on standard input"):
        resolve_password(args(ask=True), io.StringIO(""))


def test_a_host_can_keep_its_password_off_the_command_line(tmp_path: Path) -> None:
    out, err = tmp_path / "host.out", tmp_path / "host.err"
    with out.open("wb") as o, err.open("wb") as e:
        popen = subprocess.Popen(
            [*NETCARDS, "host", "--headless", "--discovery-port", "0", "--game", "via-gladiola",
             "--players", "2", "--bots", "1", "--port", "0", "--ask-password"],
            stdin=subprocess.PIPE, stdout=o, stderr=e, env=dict(os.environ),
        )  # fmt: skip
    server = Proc("host", popen, out, err)
    try:
        assert popen.stdin is not None
        popen.stdin.write(b"secret tulip\n")
        popen.stdin.close()
        deadline = time.monotonic() + 30
        while not (match := LISTENING.search(server.stdout())) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert match, server.stderr()
        port = int(match.group(2))
        assert b"secret tulip" not in Path(f"/proc/{popen.pid}/cmdline").read_bytes()

        stranger = bot(tmp_path, port, "Stranger")
        assert stranger.wait() != 0
        assert "needs a password" in stranger.stderr()
        env = {**os.environ, "NETCARDS_PASSWORD": "secret tulip"}
        ann = spawn(tmp_path, "Ann", "bot", f"127.0.0.1:{port}", "--name", "Ann", env=env)
        assert ann.wait() == 0, ann.stderr()
        assert server.wait() == 0
    finally:
        server.kill()
    assert "deal verified" in ann.stdout()
