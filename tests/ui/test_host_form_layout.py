"""The host form's fields line up: the game table's players panel shares the id `players` with
the form's player count, and its padding and rule once shifted that field and drew a stray line."""

from __future__ import annotations

from textual.widgets import Select

from tests.ui.pilots import wait_until
from ui.app import make_app
from ui.user_settings import UserSettings


async def test_every_choice_of_the_host_form_starts_in_the_same_column() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HostSetupScreen")
        await pilot.pause(0.2)
        fields = list(app.screen.query(Select))
        assert len(fields) >= 3
        assert len({field.region.x for field in fields}) == 1, [f.region for f in fields]
        assert len({field.region.width for field in fields}) == 1, [f.region for f in fields]
        assert {field.styles.border_bottom[0] for field in fields} == {
            fields[0].styles.border_bottom[0]
        }
