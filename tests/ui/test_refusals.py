"""A move that arrives after the table moved on is refused; the app says so in the player's
language and shows the game as it is now."""

from __future__ import annotations

from tests.ui.pilots import seeded, start_practice, wait_until
from ui.app import make_app
from ui.i18n import use
from ui.user_settings import UserSettings


async def test_a_late_move_shows_the_refusal_and_the_current_game() -> None:
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(3), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        use("fr")
        try:
            await start_practice(pilot, "via-gladiola", 2)
            screen = app.screen
            client = screen.client
            await wait_until(pilot, lambda: client.my_turn)
            await pilot.press("r")
            await wait_until(pilot, lambda: client.my_turn and client.seq >= 2)
            hand = list(client.view["hand"])
            client.seq = 0  # as if the move had been chosen on the first update
            await pilot.press("r")
            await wait_until(pilot, lambda: bool(screen.message))
            assert (
                screen.message == "trop tard : la partie avait avancé, votre coup n'a pas été joué"
            )
            assert client.my_turn and list(client.view["hand"]) == hand
            status = str(screen.query_one("#status").render())
            assert "trop tard" in status
        finally:
            use("en")
