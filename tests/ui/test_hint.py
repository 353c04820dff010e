"""The hint key: the search bot's move for your seat, in words, with its chance to win and how
sure the search is of it."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

import ui.games.base
from tests.ui.pilots import seeded, start_practice, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings


@pytest.mark.parametrize("game", ["via-gladiola", "auf-achse"])
async def test_h_shows_a_legal_move_and_a_win_chance(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ui.games.base, "HINT_SECONDS", 0.3)
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, game, 2)
        screen = app.screen
        client = screen.client
        await wait_until(pilot, lambda: client.my_turn, seconds=30)
        seq = client.seq
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.message.startswith("Hint:"), seconds=20)
        match = re.fullmatch(
            r"Hint: (.+) \(about (\d+)% to win(; the only move|; clearly the best"
            r"|; probably the best|; a close call|, as with other moves)\)"
            r"( \(press r\))?",
            screen.message,
        )
        assert match is not None, screen.message
        assert 0 <= int(match.group(2)) <= 100
        # The words name one of this turn's legal moves, and nothing was played for us.
        moves = {screen.describe_move(a): a for a in client.legal_actions()}
        assert match.group(1) in moves
        assert client.seq == seq and client.my_turn
        # The hand's cursor is on the hinted card, so enter plays what the hint said.
        # Twin cards (two 25 km cards, say) share their words: any of them is the hinted move.
        twins = {
            getattr(a, "card", None)
            for a in client.legal_actions()
            if screen.describe_move(a) == match.group(1)
        }
        if twins == {None}:
            assert game == "via-gladiola" and match.group(1) == "rest"
            assert match.group(4) == " (press r)", "enter plays a card: the hint names the key"
            return
        assert match.group(4) is None
        card = screen.query_one("#hand").current
        assert card in twins
        await pilot.press("enter")
        await wait_until(pilot, lambda: client.seq > seq)
        mine = [e for e in client.log if e.get("seat") == client.seat and e["kind"] != "draw"]
        assert card in (mine[-1].get("card"), *mine[-1].get("cards", ()))


@contextlib.asynccontextmanager
async def my_turn(game: str = "via-gladiola", players: int = 2) -> AsyncIterator[tuple[Any, Any]]:
    """A practice table against bots, from the first moment it is our turn."""
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, game, players)
        screen = app.screen
        await wait_until(pilot, lambda: screen.client.my_turn, seconds=30)
        yield pilot, screen


async def ask(pilot: Any, screen: Any) -> str:
    await pilot.press("h")
    await wait_until(pilot, lambda: screen.message.startswith("Hint:"), seconds=20)
    return str(screen.message)


class Resting:
    """A hint bot that always finds rest, as sure and as likely to win as it is told."""

    def __init__(self, sureness: str = "clear", win_chance: float = 0.25) -> None:
        self.sureness, self.win_chance = sureness, win_chance

    def analyse(self, view: object, legal: list[object], log: object) -> object:
        from types import SimpleNamespace

        from netcards.games.via_gladiola.actions import Rest

        return SimpleNamespace(action=Rest(), sureness=self.sureness, win_chance=self.win_chance)


async def hint_words(monkeypatch: pytest.MonkeyPatch, bot: Resting) -> str:
    monkeypatch.setattr(ui.games.base, "hint_bot", lambda *args: bot)
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 2)
        screen = app.screen
        await wait_until(pilot, lambda: screen.client.my_turn, seconds=30)
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.message.startswith("Hint:"), seconds=20)
        return str(screen.message)


@pytest.mark.parametrize(
    ("sureness", "chance", "words"),
    [
        ("close", 0.62, "about 62% to win; a close call"),
        ("close", 0.8, "about 80% to win, as with other moves"),
        ("close", 0.3, "about 30% to win, as with other moves"),
        ("close", 0.998, "about 100% to win, as with other moves"),
        ("close", 0.001, "about 0% to win, as with other moves"),
        ("clear", 1.0, "about 100% to win; clearly the best"),
    ],
)
async def test_a_close_call_at_a_sure_win_or_loss_says_other_moves_do_as_well(
    monkeypatch: pytest.MonkeyPatch, sureness: str, chance: float, words: str
) -> None:
    """ "100% to win; a close call" read as a doubt about the win: there, every move wins; and
    "80% to win; a close call" read as a contradiction. A close call between moves is said
    as one only where the chance to win is near even."""
    message = await hint_words(monkeypatch, Resting(sureness, chance))
    assert message == f"Hint: rest ({words}) (press r)"


async def test_a_hint_to_rest_says_which_key_rests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter plays the card under the cursor: a hint whose move is no card names its key, and
    that key makes the move."""

    monkeypatch.setattr(ui.games.base, "hint_bot", lambda *args: Resting())
    async with my_turn() as (pilot, screen):
        client = screen.client
        seq = client.seq
        assert (
            await ask(pilot, screen) == "Hint: rest (about 25% to win; clearly the best) (press r)"
        )
        await pilot.press("r")
        await wait_until(pilot, lambda: client.seq > seq)
        assert any(e["kind"] == "rest" and e.get("seat") == client.seat for e in client.log)


async def test_h_and_enter_in_one_burst_play_the_hinted_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Enter typed right after h waits for the hint, and plays the card it moved the cursor
    to, not the card the cursor was on when the keys were typed."""
    import time
    from types import SimpleNamespace

    from netcards.games.via_gladiola.actions import Walk
    from tests.ui.bursts import burst

    class Slow:
        def analyse(self, view: object, legal: list[object], log: object) -> object:
            time.sleep(0.4)  # thinking: longer than a burst takes to arrive
            walks = [a for a in legal if isinstance(a, Walk)]
            return SimpleNamespace(action=walks[-1], sureness="clear", win_chance=0.5)

    monkeypatch.setattr(ui.games.base, "hint_bot", lambda *args: Slow())
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 2)
        screen = app.screen
        client = screen.client
        await wait_until(pilot, lambda: client.my_turn, seconds=30)
        walks = [a for a in client.legal_actions() if isinstance(a, Walk)]
        hand = screen.query_one("#hand")
        await pilot.press("home")
        assert len({a.card for a in walks}) > 1 and hand.current != walks[-1].card
        seq = client.seq
        await burst(pilot, "h", "enter")
        await wait_until(pilot, lambda: client.seq > seq, seconds=10)
        mine = [e for e in client.log if e.get("seat") == client.seat and e["kind"] == "walk"]
        assert mine[-1]["card"] == walks[-1].card


async def test_asked_twice_on_one_decision_the_hint_says_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A second search on the same decision may weigh a close call the other way; the player
    asking again must not get another answer to the same question (nor wait for it)."""
    from types import SimpleNamespace

    from netcards.games.via_gladiola.actions import Walk

    asked: list[int] = []

    class Fickle:
        def analyse(self, view: object, legal: list[object], log: object) -> object:
            asked.append(1)
            walks = [a for a in legal if isinstance(a, Walk)]
            pick = walks[0] if len(asked) % 2 else walks[-1]
            return SimpleNamespace(action=pick, sureness="close", win_chance=0.5)

    monkeypatch.setattr(ui.games.base, "hint_bot", lambda *args: Fickle())
    async with my_turn() as (pilot, screen):
        client = screen.client
        walks = {a.card for a in client.legal_actions() if isinstance(a, Walk)}
        assert len(walks) > 1, "the fake's two answers must differ"
        first = await ask(pilot, screen)
        screen.say("")
        assert await ask(pilot, screen) == first
        assert len(asked) == 1
        # The next decision is a new question.
        seq = client.seq
        await pilot.press("enter")
        await wait_until(pilot, lambda: client.seq > seq and client.my_turn, seconds=30)
        await ask(pilot, screen)
        assert len(asked) == 2


async def test_a_hint_to_pass_clears_the_cards_selected() -> None:
    """Velonimo plays the selected cards on enter: a hint to pass leaves none selected, so the
    prompt no longer offers to play what the hint advised against."""
    from netcards.games.velonimo.actions import Pass

    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "velonimo", 3)
        screen = app.screen
        await wait_until(pilot, lambda: bool(screen.view.get("hand")), seconds=30)
        hand = screen.query_one("#hand")
        await pilot.press("space")
        assert hand.selected
        screen.point_at(Pass())
        await pilot.pause()
        assert not hand.selected
        assert "enter plays it" not in screen.prompt()


@pytest.mark.parametrize(("key", "said"), [("enter", "It is not your turn yet."), ("r", None)])
async def test_a_move_key_typed_before_our_turn_says_why_it_does_nothing(
    key: str, said: str | None
) -> None:
    """The key bar shows the move keys greyed while the others play; typed anyway, they change
    nothing, and the status line says why (the rest key too: it says so itself)."""
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(4), bot_delay=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        client = screen.client
        await wait_until(pilot, lambda: bool(client.to_act), seconds=30)
        if client.my_turn:  # we begin: rest, and the bots' turns follow
            await pilot.press("r")
        await wait_until(pilot, lambda: client.seq > 0 and not client.my_turn, seconds=30)
        seq, hand = client.seq, list(client.view["hand"])
        assert "Waiting for" in screen.prompt()
        await pilot.press(key)
        await pilot.pause(0.1)
        assert screen.message == (said or "It is not your turn yet.")
        assert client.seq == seq and client.view["hand"] == hand
        await pilot.press("h")
        assert screen.message == "A hint is for your own turn."
