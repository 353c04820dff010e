"""The app's own player sits at the table the app hosts: its client knows the table's key
already, so nothing is trusted on first use and the known hosts are not written (a practice
game on a fresh port each time used to add an entry each time)."""

from __future__ import annotations

from protocol.known_hosts import KnownHosts, OwnHost
from protocol.settings import config_dir
from tests.ui.pilots import screen_text, wait_until
from ui.app import make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings


async def test_hosting_twice_leaves_the_known_hosts_as_they_were() -> None:
    path = config_dir() / "known_hosts"
    for _ in range(2):
        plan = TablePlan("via-gladiola", 3, {}, bind="127.0.0.1", port=0, discovery=False)
        app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: "Ann (you)" in screen_text(pilot.app))
            assert app.session is not None and app.session.client.connected
    assert KnownHosts(path).entries() == []


def test_the_own_host_knows_only_its_key_and_writes_nothing() -> None:
    own = OwnHost("127.0.0.1:5000", b"k" * 32)
    own.remember("127.0.0.1:5001", b"x" * 32)
    assert own.lookup("127.0.0.1:5000") == b"k" * 32
    assert own.lookup("127.0.0.1:5001") is None
    assert not own.forget("127.0.0.1:5001")
