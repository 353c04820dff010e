"""Keys in bursts, as a fast typist or an SSH link delivers them: every key acts on the state
that the keys before it left, on every game screen, its choices, the results and the replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from netcards.games.via_gladiola.actions import PlayGladiola, Walk
from tests.ui.pilots import burst, seeded, start_practice, wait_for_turn, wait_until
from tests.ui.test_replay_screen import finished_replay
from ui.app import make_app
from ui.replay import load_replay
from ui.user_settings import UserSettings
from ui.widgets.hand import Hand


def new_app(seed: int = 7) -> Any:
    return make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(seed), bot_delay=0)


def own(client: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in client.log if e["kind"] == kind and e.get("seat") == client.seat]


async def third_card_in_one_burst(pilot: Any, kind: str) -> None:
    """Home, then right, right and enter in one burst: the third card is the one played."""
    client = pilot.app.screen.client
    hand = pilot.app.screen.query_one(Hand)
    await pilot.press("home")
    meant = hand.cards[2]
    await burst(pilot, "right", "right", "enter")
    await wait_until(pilot, lambda: bool(own(client, kind)))
    played = own(client, kind)[0]
    assert played["cards"] == [meant]


async def test_auf_achse_lays_the_card_the_arrows_reached() -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "auf-achse", 3)
        client = app.screen.client
        await wait_until(pilot, lambda: client.my_turn and client.view["phase"] == "run")
        await third_card_in_one_burst(pilot, "run_chosen")


async def test_auf_achse_free_road_selects_the_cards_the_arrows_reached() -> None:
    """The 14th decision of this deal is a Completely free road (see the mid-game snapshot)."""
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "auf-achse", 3)
        client = app.screen.client
        hand = app.screen.query_one(Hand)
        for _turn in range(40):
            await wait_for_turn(pilot, client)
            if client.view["phase"] == "free_road" and client.view["need"][0] == 2:
                break
            seq = client.seq
            await burst(pilot, "home", "enter")
            await wait_until(pilot, lambda s=seq: client.seq > s)
        else:
            raise AssertionError("no Completely free road in this deal")
        await pilot.press("home")
        first, second = hand.cards[1], hand.cards[0]
        await burst(pilot, "right", "space", "left", "space", "enter")
        await wait_until(pilot, lambda: bool(own(client, "free_road_chosen")))
        assert own(client, "free_road_chosen")[-1]["cards"] == [first, second]


async def velonimo_lead(pilot: Any) -> Any:
    """Pass (with p) until this seat leads an attack; returns the client."""
    client = pilot.app.screen.client
    while True:
        await wait_for_turn(pilot, client)
        if client.view["phase"] == "play" and client.view["attack_value"] is None:
            return client
        seq = client.seq
        await pilot.press("p")
        await wait_until(pilot, lambda s=seq: client.seq > s)


async def test_velonimo_plays_the_card_the_arrows_reached() -> None:
    app = new_app(4)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "velonimo", 3)
        await velonimo_lead(pilot)
        await third_card_in_one_burst(pilot, "play")


async def test_velonimo_selects_the_cards_the_arrows_reached() -> None:
    app = new_app(4)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "velonimo", 3)
        await velonimo_lead(pilot)
        hand = app.screen.query_one(Hand)
        await pilot.press("home")
        await burst(pilot, "right", "space", "right", "right", "space")
        assert hand.order == [hand.cards[1], hand.cards[3]]


async def test_via_gladiola_walks_the_card_the_arrows_reached() -> None:
    app = new_app(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        client = app.screen.client
        await wait_until(pilot, lambda: client.my_turn)
        hand = app.screen.query_one(Hand)
        plays = {a.card for a in client.legal_actions() if isinstance(a, Walk | PlayGladiola)}
        index = max(i for i, c in enumerate(hand.cards) if c in plays)
        meant = hand.cards[index]
        await pilot.press("home")
        await burst(pilot, *["right"] * index, "enter")
        await wait_until(pilot, lambda: bool(own(client, "walk")))
        assert own(client, "walk")[0]["card"] == meant


async def test_a_double_enter_does_not_play_twice() -> None:
    """The second enter of a burst comes before the host answered the first: it must not
    send the move again (nor another card) on the player's behalf."""
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "auf-achse", 3)
        client = app.screen.client
        await wait_until(pilot, lambda: client.my_turn and client.view["phase"] == "run")
        refused: list[Any] = []
        app.screen.say = refused.append  # type: ignore[method-assign]
        await burst(pilot, "home", "enter", "right", "enter")
        await wait_until(pilot, lambda: bool(own(client, "run_chosen")))
        await pilot.pause(0.3)
        assert len(own(client, "run_chosen")) == 1
        assert not any("refused" in str(r).lower() for r in refused)


async def test_a_replay_follows_a_burst_of_steps(tmp_path: Path) -> None:
    replay = load_replay(finished_replay(tmp_path))
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await burst(pilot, "right", "right", "right", "left", "right_square_bracket")
        screen = app.screen
        steps = replay.steps()
        index = next(i for i in range(3, len(steps)) if i > 3 and steps[i].boundary)
        assert screen.step_index == index
