"""Ending a sealed game that waits for an absent player, from the table (`e`).

No bot may play a sealed seat (only its player's program holds its keys), so a sealed game
whose player is gone, or whose program did not play when its time ran out, would wait for ever.
While the host says a seat is absent, any player still at the table may end the game for
everyone, with the results so far: the key shows only then, and asks first (the safe answer,
the one enter gives, is to go on waiting).
"""

from __future__ import annotations

from typing import Any

from ui.i18n import _, names_list
from ui.screens.confirm import Confirm
from ui.sending import REQUEST, send


class EndsAbsentGame:
    """The game screen's `e` (a mixin: it reads the screen's client and app)."""

    client: Any
    app: Any

    def say(self, text: str) -> None:
        raise NotImplementedError  # the game screen's status line

    def absent(self) -> list[int]:
        """The absent seats, as the host said (none at an open table or in a replay)."""
        seats = getattr(self.client, "absent_seats", None)
        return sorted(seats()) if seats is not None else []

    def away_words(self) -> str:
        """What the status line adds while a seat is absent: the table will wait for it (every
        seat takes part in the sealing), so the player learns why, and what `e` would do."""
        absent = self.absent()  # (a player's only, never its own seat: see `absent_seats`)
        if not absent:
            return ""
        names = names_list([self.client.names[s] for s in absent])
        return _("Away: {names}; e ends the game for everyone.").format(names=names)

    def action_end_game(self) -> None:
        absent = self.absent()
        if not absent:
            return
        names = names_list([self.client.names[s] for s in absent])
        question = _(
            "The table waits for {names}, who is absent. End the game for everyone, with the "
            "results so far? The deal cannot be checked without every seat's secrets."
        ).format(names=names)

        async def ask() -> None:
            unsent = await send(REQUEST, self.client.end_game)
            if unsent is not None:
                self.say(unsent)

        def answer(yes: bool | None) -> None:
            if yes and self.absent():
                self.app.run_worker(ask(), group="end-game")

        self.app.push_screen(Confirm(question, _("End the game"), _("Wait"), default=False), answer)
