"""The host identity in OpenSSH's forms: the door's host key and the fingerprint `ssh` shows
must be exactly what OpenSSH itself computes for the same key."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from protocol.identity import IdentityKey, ssh_fingerprint, ssh_public_line


def test_the_ssh_fingerprint_is_the_one_openssh_computes(tmp_path: Path) -> None:
    keygen = shutil.which("ssh-keygen")
    if keygen is None:
        pytest.skip("ssh-keygen is not installed")
    key = IdentityKey.generate(os.urandom)
    private = tmp_path / "key"
    private.write_bytes(key.dump_openssh())
    private.chmod(0o600)
    public = subprocess.run(
        [keygen, "-y", "-f", str(private)], capture_output=True, text=True, check=True
    ).stdout.split()
    assert " ".join(public[:2]) == ssh_public_line(key.public_key)
    (tmp_path / "key.pub").write_text(ssh_public_line(key.public_key) + "\n")
    listed = subprocess.run(
        [keygen, "-l", "-E", "sha256", "-f", str(tmp_path / "key.pub")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert listed[1] == key.ssh_fingerprint == ssh_fingerprint(key.public_key)
    assert listed[1].startswith("SHA256:") and not listed[1].endswith("=")


def test_the_openssh_key_file_holds_the_same_identity() -> None:
    import asyncssh

    key = IdentityKey.generate(os.urandom)
    loaded = asyncssh.import_private_key(key.dump_openssh())
    assert loaded.get_fingerprint("sha256") == key.ssh_fingerprint
    data = b"the door signs with the table's key"
    assert IdentityKey.load(key.dump()).ssh_fingerprint == key.ssh_fingerprint
    from protocol.identity import verify_signature

    signature = loaded.sign(data, b"ssh-ed25519")  # SSH blob: string type, string signature
    raw = signature[-64:]
    assert verify_signature(key.public_key, raw, data)
