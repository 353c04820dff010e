"""One frame damaged, replayed, dropped or reordered on the wire costs a player a reconnection,
never the game. Real processes; a relay between one player and the host changes one frame, in
either direction: the frame that does not come in its place fails its authentication."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.network.processes import Relay, bot, host, tamper_with_frame


@pytest.mark.parametrize("how", ["flip", "replay", "drop", "swap"])
@pytest.mark.parametrize("upstream", [False, True], ids=["host-to-player", "player-to-host"])
def test_a_frame_tampered_with_means_a_reconnection_and_the_game_goes_on(
    tmp_path: Path, upstream: bool, how: str
) -> None:
    # The 12th frame the player sends is one of its moves; the 30th the host sends, an update.
    frame = 12 if upstream else 30

    def tamper(connection: int, up: bool) -> Callable[[bytes], bytes] | None:
        return tamper_with_frame(frame, how) if connection == 0 and up == upstream else None

    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--bots", "1", "--port", "0",
        "--grace", "600",
    )  # fmt: skip
    relay = Relay(port, tamper)
    try:
        ann = bot(tmp_path, relay.port, "Ann")
        bea = bot(tmp_path, port, "Bea")
        assert ann.wait() == 0, ann.stderr()
        assert bea.wait() == 0 and server.wait() == 0
    finally:
        server.kill()
        relay.close()
    assert relay.connections >= 2, "Ann came back through the relay"
    assert "authentication" in ann.stderr() and "trying again" in ann.stderr()
    if upstream:  # (the player's word of it may not outrun the relay hanging up both ends)
        assert "failed authentication" in server.stderr()
    assert server.result() == ann.result() == bea.result()
    assert "deal verified" in ann.stdout()
