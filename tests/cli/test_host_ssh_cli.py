"""`netcards host --ssh`: a mistake about the SSH door is one line and exit status 2, before any
port is opened."""

from __future__ import annotations

import io
import socket
from pathlib import Path

import pytest

from ui.cli import run

HOST = ["host", "--headless", "--game", "via-gladiola", "--port", "0", "--discovery-port", "0"]


def netcards(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(args), out, err)
    return code, err.getvalue()


@pytest.mark.parametrize(
    ("extra", "keys_text", "message"),
    [
        (["--ssh-keys", "KEYS"], "", "--ssh-keys needs --ssh"),
        (["--ssh", "70000"], None, "--ssh: a port is a number from 0 to 65535, not 70000"),
        (["--ssh", "0", "--ssh-keys", "/no/such/authorized_keys"], None, "cannot read the SSH"),
        (["--ssh", "0", "--ssh-keys", "KEYS"], "ssh-ed25519 not-a-key\n", "is not valid"),
        (["--ssh", "0", "--ssh-keys", "KEYS"], "# nobody yet\n", "lists no key"),
    ],
)
def test_a_mistake_about_the_door_is_one_line_and_status_2(
    tmp_path: Path, extra: list[str], keys_text: str | None, message: str
) -> None:
    keys = tmp_path / "authorized_keys"
    if keys_text is not None:
        keys.write_text(keys_text)
    code, said = netcards(*HOST, *[str(keys) if a == "KEYS" else a for a in extra])
    assert code == 2
    assert message in said and said.count("\n") == 1, said


def test_a_door_port_in_use_is_reported_in_one_line(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        code, said = netcards(*HOST, "--bind", "127.0.0.1", "--ssh", str(port))
    assert code == 2
    assert "address already in use" in said.lower() and said.count("\n") == 1, said


def test_opening_the_door_prints_no_library_warnings() -> None:
    """asyncssh defines DSA keys, which cryptography warns about as it is imported: a host
    starting its SSH door must not print those lines before its own."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-W", "default", "-c", "import ui.ssh_door"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stderr == ""
