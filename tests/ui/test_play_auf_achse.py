"""Auf Achse's screen: a whole game against bots by key presses only, every event in words,
and a seat's screen showing nobody else's hand or run."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from textual.pilot import Pilot

from netcards.bots.registry import make_bot
from netcards.games.auf_achse import GAME
from netcards.games.auf_achse.actions import AddToRun, FreeRoad, PlayOdometer
from netcards.games.auf_achse.cards import COMPLETELY_FREE_ROAD, KM, REST, house_deck
from tests.ui.pilots import (
    keys_to,
    move_cursor_to,
    play_turns,
    screen_text,
    seeded,
    start_practice,
    wait_for_turn,
    wait_until,
)
from ui.app import make_app
from ui.games.auf_achse import AufAchseScreen
from ui.user_settings import UserSettings

DECK = house_deck()


def km(value: int) -> int:
    """A km card of this value (the first of them)."""
    return next(c.id for c in DECK.cards if c.kind == KM and c.value == value)


def first(kind: int) -> int:
    return next(c.id for c in DECK.cards if c.kind == kind)


def choose(view: dict[str, Any]) -> list[int]:
    """A plain player: the run gets the lowest card that climbs, the odometer the card with the
    highest id (actions and rests before the big km cards), a Completely free road the two
    lowest cards in the reverse of the hand's order, so that the order of selection counts."""
    hand = view["hand"]
    phase = view["phase"]
    if phase == "run":
        kind, value = DECK.kind, DECK.value
        top = max((value[c] for c in view["run"] if kind[c] == KM), default=0)
        climbing = [c for c in hand if kind[c] == KM and value[c] > top]
        return [climbing[0] if climbing else hand[0]]
    if phase == "odometer":
        return [hand[-1]]
    need = view["need"][view["seat"]]
    return [hand[0]] if need == 1 else [hand[1], hand[0]]


async def play(pilot: Pilot[Any], phase: str, cards: list[int]) -> None:
    """The keys for a choice: a card and enter; for a Free road, space on each card in order."""
    for card in cards:
        await move_cursor_to(pilot, card)
        if phase == "free_road":
            await pilot.press("space")
    await pilot.press("enter")


async def test_a_full_game_against_bots_with_keys_only() -> None:
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(7), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "auf-achse", 3)
        screen = app.screen
        assert isinstance(screen, AufAchseScreen)
        client = screen.client
        moves = 0
        orders: list[list[int]] = []
        while type(app.screen).__name__ != "ResultsScreen":
            await wait_for_turn(pilot, client)
            if client.outcome is not None:
                break
            view = client.view
            cards = choose(view)
            legal = client.legal_actions()
            status = str(screen.query_one("#status").render())
            seq = client.seq
            if view["phase"] == "free_road":
                assert FreeRoad(tuple(cards)) in legal
                assert status.startswith(screen.card_name(view["resolving"]) + ":"), status
                if len(cards) == 2:
                    # enter with one card of two selected explains instead of playing
                    await play(pilot, "free_road", cards[:1])
                    await pilot.pause()
                    assert "space selects the 2nd card" in str(screen.query_one("#status").render())
                    assert client.seq == seq and not client.awaiting
                    await pilot.press("space")  # unselect: the test selects both in order
                    orders.append(cards)
            else:
                action = AddToRun if view["phase"] == "run" else PlayOdometer
                assert action(cards[0]) in legal
                assert ("Your run:" if view["phase"] == "run" else "Odometer:") in status
            await play(pilot, view["phase"], cards)
            await wait_until(pilot, lambda s=seq: client.seq > s or client.outcome is not None)
            moves += 1
        await wait_until(pilot, lambda: type(app.screen).__name__ == "ResultsScreen")
        await wait_until(pilot, lambda: client.verdict is not None)
        assert client.verdict.ok
        assert moves > 10
        assert orders, "this deal gives the player a Completely free road"
        chosen = [
            e["cards"] for e in client.log if e["kind"] == "free_road_chosen" and "cards" in e
        ]
        for order in orders:
            assert order in chosen  # in the order selected, not the hand's order
        state = app.session.host.table.state
        detail = str(app.screen.query_one("#results-detail").render())
        for seat, name in enumerate(client.names):
            stages = " + ".join(str(h["scores"][seat]) for h in state.history)
            assert (
                f"{name}: {stages} = {sum(h['scores'][seat] for h in state.history)} km" in detail
            )
        verdict = str(app.screen.query_one("#verdict").render())
        assert "deal verified" in verdict
        await pilot.press("m")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "MenuScreen")
        await pilot.pause(0.2)
        assert type(app.screen).__name__ == "MenuScreen"  # the results did not come back


async def test_a_seat_sees_only_its_own_hand_and_run() -> None:
    """Everything on the screen is this seat's: its hand and run as the host holds them, the
    others' runs only as lengths; and the screen stays the same when the others' hidden
    cards change under the host, so it cannot be reading them."""
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(3), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "auf-achse", 3)
        screen = app.screen
        assert isinstance(screen, AufAchseScreen)
        client = screen.client
        state = app.session.host.table.state
        checked = 0
        while checked < 6:
            await wait_for_turn(pilot, client)
            await pilot.pause()
            hand = screen.query_one("#hand")
            assert hand.cards == sorted(state.hands[0])
            text = screen_text(app)
            run = " ".join(screen.label(c) for c in state.runs[0])
            assert f"Your run: {run}".rstrip() in text.replace("|", "")
            for seat in (1, 2):
                assert f"run {len(state.runs[seat])}" in text

            saved = [list(h) for h in state.hands], [list(r) for r in state.runs]
            spare = list(state.draw)
            for seat in (1, 2):
                for place in (state.hands[seat], state.runs[seat]):
                    place[:] = [spare.pop() for _ in place]
            screen.refresh_all()
            await pilot.pause()
            assert screen_text(app) == text
            state.hands[:], state.runs[:] = saved
            screen.refresh_all()

            seq = client.seq
            await play(pilot, client.view["phase"], choose(client.view))
            await wait_until(pilot, lambda s=seq: client.seq > s)
            checked += 1


def keys_for(pilot: Pilot[Any]) -> list[str]:
    """`choose`'s cards as key presses, from where the hand's cursor is."""
    view = pilot.app.screen.client.view
    hand = pilot.app.screen.query_one("#hand")
    keys, cursor = [], hand.cursor
    for card in choose(view):
        keys += keys_to(hand.cards, cursor, card)
        cursor = hand.cards.index(card)
        if view["phase"] == "free_road":
            keys.append("space")
    return keys


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
def test_mid_game_at_80_by_24(snap_compare: Any, ascii_mode: bool) -> None:
    """Stage 3: a Completely free road is being answered, its two cards selected in the
    reverse of the hand's order (so numbered 2, 1); in ASCII mode the table, the hand and
    the status line hold nothing but ASCII."""

    async def middle(pilot: Pilot[Any]) -> None:
        await start_practice(pilot, "auf-achse", 3)
        await play_turns(pilot, 13, lambda client: [*keys_for(pilot), "enter"])
        view = pilot.app.screen.client.view
        assert view["phase"] == "free_road" and view["need"][0] == 2
        await pilot.press(*keys_for(pilot))
        if ascii_mode:
            for part in ("#table", "#hand", "#status"):
                shown = str(pilot.app.screen.query_one(part).render())
                assert shown.isascii(), shown

    app = make_app(
        settings=UserSettings(name="Ann"),
        random_bytes=seeded(7),
        bot_delay=0,
        ascii_mode=ascii_mode,
    )
    assert snap_compare(app, run_before=middle, terminal_size=(80, 24))


async def test_a_completely_free_road_is_named_and_its_prompt_said_once() -> None:
    """Stage 3 of seed 7: a Completely free road asks for two cards. The prompt names that card
    (not "Free road"), and enter before any card is selected says what is missing instead of
    printing the prompt a second time beside itself."""
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(7), bot_delay=0)
    async with app.run_test(size=(120, 30)) as pilot:
        await start_practice(pilot, "auf-achse", 3)
        await play_turns(pilot, 13, lambda client: [*keys_for(pilot), "enter"])
        screen = app.screen
        view = screen.client.view
        assert view["phase"] == "free_road" and view["need"][0] == 2
        assert DECK.kind[view["resolving"]] == COMPLETELY_FREE_ROAD

        def status() -> str:
            return str(screen.query_one("#status").render())

        assert status().startswith("Completely free road: space selects 2 cards")
        await pilot.press("enter")
        await pilot.pause()
        shown = status()
        assert shown.count("space selects") == 1, shown
        assert "Select 2 more cards with space first." in shown
        assert "Completely free road:" in shown
        hand = screen.query_one("#hand")
        await pilot.press("space", "enter")
        await pilot.pause()
        shown = status()
        assert "Select 1 more card with space first." in shown, shown
        assert shown.count(screen.card_name(hand.order[0])) == 1, shown


async def test_back_from_the_rules_the_table_has_caught_up() -> None:
    """What happened while the rules were open is in the log and on the table. (The move is
    sent as a key press just before '?' would send it; sent directly, the test need not race
    the key against the host's reply.)"""
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(7), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "auf-achse", 3)
        screen = app.screen
        client = screen.client
        await wait_until(pilot, lambda: client.my_turn)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "RulesScreen")
        seen, seq = len(client.log), client.seq
        card = choose(client.view)[0]
        await client.act(AddToRun(card))
        await wait_until(pilot, lambda: client.seq > seq and client.my_turn)
        assert screen.shown == seen < len(client.log)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.pause()
        assert screen.shown == len(client.log)
        assert card not in screen.query_one("#hand").cards
        assert f"Your run: {screen.label(card)} = " in screen_text(app)


def a_screen(seat: int = 0) -> AufAchseScreen:
    config = GAME.make_config(3, {})
    client = SimpleNamespace(names=("Ann", "Bo", "Cy"), seat=seat, config=config)
    return AufAchseScreen(SimpleNamespace(client=client))


def engine_events(seed: bytes, seat: int) -> list[dict[str, Any]]:
    """A whole game between bots, every event as `seat` receives it."""
    config = GAME.make_config(3, {})
    state = GAME.setup(config, seed)
    bots = [make_bot("heuristic", GAME, config, s, seed + bytes([s])) for s in range(3)]
    events: list[dict[str, Any]] = []
    while seats := GAME.to_act(state):
        for s in sorted(seats):
            action = bots[s].choose(GAME.view(state, s), GAME.legal_actions(state, s))
            events.extend(e.for_seat(seat) for e in GAME.apply(state, s, action))
    return events


def test_every_event_of_a_game_has_words() -> None:
    screen = a_screen()
    kinds = set()
    for event in engine_events(b"\x05" * 32, 0):
        kinds.add((event["kind"], event.get("effect")))
        line = screen.describe(event)
        assert line, event
        if event.get("seat") not in (None, 0) and event["kind"] in (
            "run_chosen",
            "odometer_card",
            "free_road_chosen",
            "refill",
        ):
            assert " km" not in line and "Rest" not in line, line  # counts, never cards
    assert {k for k, _e in kinds} >= {
        "round_start",
        "run_chosen",
        "runs_added",
        "odometer_card",
        "reveal",
        "free_road_chosen",
        "free_road_added",
        "first_player",
        "refill",
        "stage_end",
        "stage_start",
        "game_end",
    }


def test_describe_run_and_odometer_choices() -> None:
    screen = a_screen()
    mine = {"kind": "run_chosen", "seat": 0, "count": 1, "waiting": [1], "cards": [km(70)]}
    assert screen.describe(mine) == "You chose 70 km for your run"
    theirs = {"kind": "run_chosen", "seat": 1, "count": 1, "waiting": [2]}
    assert screen.describe(theirs) == "Bo chose a run card"
    added = {"kind": "runs_added", "counts": [1, 1, 0], "run_lengths": [3, 2, 4]}
    assert screen.describe(added) == "Run cards laid; runs: you: 3, Bo: 2, Cy: 4"
    mine = {"kind": "odometer_card", "seat": 0, "card": first(REST)}
    assert screen.describe(mine) == "You put Rest face down on the odometer"
    theirs = {"kind": "odometer_card", "seat": 2}
    assert screen.describe(theirs) == "Cy put a card face down on the odometer"


def test_describe_each_revealed_card() -> None:
    screen = a_screen()

    def reveal(card: int, effect: str, **rest: Any) -> str | None:
        event = {"kind": "reveal", "seat": 1, "card": card, "effect": effect, **rest}
        return screen.describe(event)

    assert reveal(km(70), "km", total=120) == "Turned up (from Bo): 70 km, odometer 120 km"
    assert reveal(first(REST), "rest", total=0) == "Turned up (from Bo): Rest, no effect"
    lost = first(2)
    assert (
        reveal(lost, "lost_freight", km_lost=50, total=70)
        == "Turned up (from Bo): Lost freight, -50 km, odometer 70 km"
    )
    assert (
        reveal(lost, "lost_freight", km_lost=0, total=0)
        == "Turned up (from Bo): Lost freight, the odometer is already at 0 km"
    )
    assert reveal(
        first(3), "level_crossing", removed=[km(40), None, first(REST)], run_lengths=[1, 0, 2]
    ) == (
        "Turned up (from Bo): Level crossing, every run loses its last card: "
        "you 40 km, Bo nothing, Cy Rest"
    )
    assert (
        reveal(first(4), "free_road", cards=1, need=[1, 1, 1])
        == "Turned up (from Bo): Free road, +1 card per run"
    )
    assert reveal(first(5), "free_road", cards=2, need=[2, 1, 0]) == (
        "Turned up (from Bo): Completely free road, +2 cards per run "
        "(Bo and Cy: fewer, their hand is short)"
    )


def test_describe_free_roads_refills_and_reshuffles() -> None:
    screen = a_screen()
    mine = {"kind": "free_road_chosen", "seat": 0, "count": 2, "cards": [km(90), km(30)]}
    assert screen.describe(mine) == "You chose 90 km, then 30 km for your run"
    theirs = {"kind": "free_road_chosen", "seat": 1, "count": 1, "waiting": [0]}
    assert screen.describe(theirs) == "Bo chose 1 card"
    added = {"kind": "free_road_added", "counts": [2, 2, 1], "run_lengths": [4, 4, 3]}
    assert screen.describe(added) == "Free road cards laid: you: 2, Bo: 2, Cy: 1"
    mine = {"kind": "refill", "seat": 0, "count": 2, "cards": [km(10), first(3)]}
    assert screen.describe(mine) == "You drew 2 cards: 10 km and Level crossing"
    assert screen.describe({"kind": "refill", "seat": 2, "count": 3}) == "Cy drew 3 cards"
    assert screen.describe({"kind": "refill", "seat": 2, "count": 1}) == "Cy drew 1 card"
    assert (
        screen.describe({"kind": "reshuffle", "size": 31})
        == "The discards were shuffled into a new draw pile (31 cards)"
    )
    assert (
        screen.describe({"kind": "first_player", "seat": 1}) == "The first-player card passes to Bo"
    )


def test_describe_stages_and_the_end() -> None:
    screen = a_screen()
    start = {"kind": "stage_start", "stage": 2, "first_player": 1, "target": 200}
    assert screen.describe(start) == "Stage 2: drive 200 km. Bo plays first."
    round_start = {"kind": "round_start", "stage": 2, "round": 3, "first_player": 0}
    assert screen.describe(round_start) == "Round 3. You play first."
    run = [km(30), km(50), km(40), km(60), km(60) + 1, km(70), km(90)]
    end = {
        "kind": "stage_end",
        "stage": 2,
        "reason": "target",
        "rounds": 4,
        "total": 210,
        "target": 200,
        "scores": [220, 0, 0],
        "runs": [
            {"seat": 1, "cards": [], "score": 0, "scored_from": 0, "breaks": []},
            {"seat": 2, "cards": [first(3)], "score": 0, "scored_from": 1, "breaks": [0]},
            {"seat": 0, "cards": run, "score": 220, "scored_from": 4, "breaks": [2, 4]},
        ],
    }
    assert screen.describe(end) == (
        "Stage 2 is over: the odometer reached 210 of 200 km\n"
        "Bo: (empty) = 0 km\n"
        "Cy: |LC = 0 km\n"
        "You: 30 50 |40 60 |60 70 90 = 220 km"
    )
    end = {**end, "reason": "round_limit", "rounds": 20, "total": 150, "runs": []}
    assert screen.describe(end) == "Stage 2 ends after 20 rounds at 150 of 200 km"
    end = {**end, "reason": "no_cards"}
    assert screen.describe(end) == "Stage 2 ends: nobody has a card left"
    over = {"kind": "game_end", "scores": [900, 1000, 910], "winners": [1]}
    assert screen.describe(over) == "The game is over: Bo wins with 1000 km"
    assert a_screen(1).describe(over) == "The game is over: you win with 1000 km"
    shared = {"kind": "game_end", "scores": [900, 900, 10], "winners": [0, 1]}
    assert screen.describe(shared) == "The game is over: you and Bo share the win with 900 km"


def test_result_lines_give_each_stage_and_the_total() -> None:
    outcome = SimpleNamespace(
        scores=(300, 60, 0), detail={"stage_scores": [[100, 60, 0], [200, 0, 0]]}
    )
    lines = AufAchseScreen.result_lines(outcome, ["Ann", "Bo", "Cy"], None)
    assert lines[1:] == [
        "Ann: 100 + 200 = 300 km",
        "Bo: 60 + 0 = 60 km",
        "Cy: 0 + 0 = 0 km",
    ]


def test_the_stage_summary_lists_runs_and_totals_in_seat_order() -> None:
    """The log tells the runs as they were turned over (from the stage's first player on);
    the summary lists them as it lists the totals, in seat order, as the players' list does."""
    screen = a_screen()
    screen.client.log, screen.client.steps = [], []
    end = {
        "kind": "stage_end",
        "stage": 2,
        "reason": "target",
        "rounds": 4,
        "total": 210,
        "target": 200,
        "scores": [220, 0, 40],
        "totals": [300, 60, 40],
        "runs": [
            {"seat": 1, "cards": [], "score": 0, "scored_from": 0, "breaks": []},
            {"seat": 2, "cards": [km(40)], "score": 40, "scored_from": 0, "breaks": []},
            {"seat": 0, "cards": [km(30), km(50)], "score": 220, "scored_from": 0, "breaks": []},
        ],
    }
    title, lines = screen.summary_of(end)
    assert title == "Stage 2 is over: the odometer reached 210 of 200 km"
    assert lines == [
        "You: 30 50 = 220 km",
        "Bo: (empty) = 0 km",
        "Cy: 40 = 40 km",
        "",
        "You: +220 km this stage, 300 km in all",
        "Bo: +0 km this stage, 60 km in all",
        "Cy: +40 km this stage, 40 km in all",
    ]


def five_seat_view_after_two_stages() -> dict[str, Any]:
    """Seat 0's view of a five-seat game played by bots into its third stage."""
    config = GAME.make_config(5, {})
    seed = b"\x07" * 32
    state = GAME.setup(config, seed)
    bots = [make_bot("heuristic", GAME, config, s, seed + bytes([s])) for s in range(5)]
    while len(GAME.view(state, 0)["stage_results"]) < 2:
        for s in sorted(GAME.to_act(state)):
            GAME.apply(state, s, bots[s].choose(GAME.view(state, s), GAME.legal_actions(state, s)))
    return GAME.view(state, 0)


async def test_each_player_s_km_and_last_stage_are_on_their_row_at_80_columns() -> None:
    """Five players: each row of the players' list says the player's km so far and what the
    last stage gave them, on one line, and no line of numbers by seat is left to decode."""
    view = five_seat_view_after_two_stages()
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(7), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "auf-achse", 5)
        screen = app.screen
        screen.client.view = view
        screen.refresh_all()
        await pilot.pause()
        text = screen_text(app)
    last = view["stage_results"][-1]["scores"]
    names = ["Ann (you)", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
    for seat, name in enumerate(names):
        row = next(line for line in text.splitlines() if f" {name} " in line)
        assert f" {view['scores'][seat]} (+{last[seat]}) " in row, row
    assert "seat by seat" not in text and "Each stage" not in text
