"""The host form's SSH door: its port and its keys file, each mistake said on the form with
the field to fix focused, and nothing opened until they are right."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from textual.widgets import Input

from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings


def on(pilot: Any, name: str) -> bool:
    return type(pilot.app.screen).__name__ == name


def words(pilot: Any) -> str:
    return " ".join(screen_text(pilot.app).split())


def public_line(key: asyncssh.SSHKey) -> str:
    return key.export_public_key("openssh").decode()


async def open_form(pilot: Any, **fields: str) -> None:
    """The host form with these fields filled (by id), then ctrl+o."""
    await burst(pilot, "h")
    await wait_until(pilot, lambda: on(pilot, "HostSetupScreen"))
    for field, value in {"port": "0", **fields}.items():
        pilot.app.screen.query_one(f"#{field}", Input).value = value
    await burst(pilot, "ctrl+o")


@pytest.mark.parametrize(
    ("keys_text", "ssh_port", "said", "focus"),
    [
        (None, "0", "cannot read the SSH keys file", "ssh-keys"),
        ("ssh-ed25519 not-a-key\n", "0", "is not valid", "ssh-keys"),
        ("# nobody yet\n", "0", "lists no key", "ssh-keys"),
        ("KEY", "", "The SSH keys file is for the SSH door: give the door a port too.", "ssh-port"),
    ],
    ids=["missing", "not-keys", "empty", "no-door"],
)
async def test_a_mistake_in_the_keys_file_is_said_on_the_form(
    tmp_path: Path, keys_text: str | None, ssh_port: str, said: str, focus: str
) -> None:
    keys = tmp_path / "authorized_keys"
    if keys_text is not None:
        text = keys_text.replace("KEY", public_line(asyncssh.generate_private_key("ssh-ed25519")))
        keys.write_text(text)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, **{"ssh-port": ssh_port, "ssh-keys": str(keys)})
        await wait_until(pilot, lambda: said in words(pilot), 10)
        assert on(pilot, "HostSetupScreen") and app.session is None, "no table was opened"
        assert app.screen.focused is app.screen.query_one(f"#{focus}")


async def test_the_keys_file_of_the_form_guards_the_door(tmp_path: Path) -> None:
    listed, stranger = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    keys = tmp_path / "authorized_keys"
    keys.write_text(public_line(listed))
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, **{"ssh-port": "0", "ssh-keys": str(keys)})
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session is not None, 15)
        door = app.session.door  # type: ignore[union-attr]
        assert door is not None and door.authorized_keys is not None
        allowed = door.authorized_keys
        assert allowed.validate(listed.convert_to_public(), "localhost", "127.0.0.1") is not None
        assert allowed.validate(stranger.convert_to_public(), "localhost", "127.0.0.1") is None


async def test_a_busy_door_port_is_named_and_its_field_focused() -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_form(pilot, **{"ssh-port": str(busy)})
            await wait_until(pilot, lambda: "already in use" in words(pilot), 10)
            assert f"{busy}" in words(pilot) and "SSH door" in words(pilot), words(pilot)
            assert on(pilot, "HostSetupScreen") and app.session is None
            assert app.screen.focused is app.screen.query_one("#ssh-port")


async def test_a_turn_clock_longer_than_a_day_is_said_on_the_form() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, clock="99999999999999999999")
        said = "the turn clock is at most 86400 seconds"
        await wait_until(pilot, lambda: said in words(pilot), 10)
        assert on(pilot, "HostSetupScreen") and app.session is None, "no table was opened"
        assert app.screen.focused is app.screen.query_one("#clock")
