"""The SSH door with the real OpenSSH client, in a real terminal (tmux, 80x24): the command the
README gives a guest, the fingerprint `ssh` records on the first visit, and what happens when that
`ssh` is killed."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.network.processes import host, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None
    or shutil.which("tmux") is None
    or shutil.which("ssh-keygen") is None,
    reason="the OpenSSH client and tmux are needed",
)

SSH_LINE = re.compile(r"^ssh (\S+):(\d+) fingerprint (SHA256:\S+)$", re.M)


def tmux(sock: Path, *args: str) -> str:
    done = subprocess.run(
        ["tmux", "-S", str(sock), *args], capture_output=True, text=True, check=False
    )
    return done.stdout


def test_openssh_joins_pins_the_tables_key_and_a_killed_ssh_leaves_no_process(
    tmp_path: Path,
) -> None:
    server, _port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", "1", "--port", "0",
        "--ssh", "0",
    )  # fmt: skip
    sock, known = tmp_path / "tmux.sock", tmp_path / "known_hosts"
    try:
        wait_for(lambda: SSH_LINE.search(server.stdout()), 20, "the door's line")
        found = SSH_LINE.search(server.stdout())
        assert found is not None and found.group(1) == "127.0.0.1", "where the table listens"
        ssh_port, printed = found.group(2), found.group(3)
        command = (
            f"exec env LANG=nl_NL.UTF-8 TERM=xterm-256color ssh -F /dev/null "
            f"-o UserKnownHostsFile={known} -o GlobalKnownHostsFile=/dev/null "
            f"-o StrictHostKeyChecking=accept-new -o PubkeyAuthentication=no "
            f"-o SendEnv=LANG -o LogLevel=ERROR -p {ssh_port} ann@127.0.0.1"
        )
        tmux(sock, "new-session", "-d", "-s", "g", "-x", "80", "-y", "24", command)
        deadline = time.monotonic() + 60  # a whole app starts behind the door: slow when busy
        while "ann (jij)" not in (screen := tmux(sock, "capture-pane", "-p", "-t", "g")):
            assert time.monotonic() < deadline, screen
            time.sleep(0.2)
        assert "Vingerafdruk van de host" in screen, "the guest's language, from their LANG"
        recorded = subprocess.run(
            ["ssh-keygen", "-l", "-E", "sha256", "-f", str(known)],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        assert recorded[1] == printed, "ssh pinned the very key the host printed"
        assert f"[127.0.0.1]:{ssh_port}" in recorded

        child = re.search(r"'ann' from 127\.0\.0\.1 plays in process (\d+)", server.stderr())
        assert child is not None
        pid = int(child.group(1))
        ssh_pid = int(tmux(sock, "display-message", "-p", "-t", "g", "#{pane_pid}").strip())
        os.kill(ssh_pid, signal.SIGKILL)
        wait_for(lambda: f"process {pid} of 'ann' ended" in server.stderr(), 20, "the hang-up")

        def gone() -> bool:
            try:
                os.killpg(pid, 0)
            except ProcessLookupError:
                return True
            return False

        wait_for(gone, 10, "the guest's processes to end")
    finally:
        tmux(sock, "kill-server")
        server.kill()
