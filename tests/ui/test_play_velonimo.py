"""Velonimo through the app: whole games against bots with key presses only, what one seat's
screen may show, and the log's words for every kind of event."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot

from netcards.event import Event
from netcards.games.velonimo import GAME
from netcards.games.velonimo.actions import (
    ChooseLeader,
    ChooseVictim,
    GiveBack,
    GiveReward,
    Pass,
    Play,
)
from netcards.games.velonimo.cards import ALL_CARDS, VALUE
from netcards.games.velonimo.state import VelonimoState
from protocol.client import ViewChanged
from tests.games.velonimo_helpers import PASS, H, P, R, make_state, run
from tests.ui.pilots import burst, seeded, start_practice, wait_for_turn, wait_until
from ui.app import make_app
from ui.games.velonimo import VelonimoScreen, card_word, play_value, short_code
from ui.session import SessionNotice
from ui.user_settings import UserSettings
from ui.widgets.hand import Hand

SIZE = (80, 24)
LOG_EDGE = "▏"  # the left border of the log and chat column


def screen_lines(app: Any) -> list[str]:
    """The screen as plain text, as the terminal shows it."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text().splitlines()


def screen_text(app: Any) -> str:
    """The screen's text, and the log column once more as one paragraph."""
    lines = screen_lines(app)
    text = "\n".join(lines)
    # The log column wraps its lines: read it once more as one paragraph, so that a name cut
    # in two by the wrapping is still found.
    column = " ".join(line.split(LOG_EDGE, 1)[1] for line in lines if LOG_EDGE in line)
    return text + "\n" + " ".join(column.split())


def mentions(text: str, card: int) -> bool:
    """Whether the screen names the card, in words ('red 5') or by its face ('5R', 'H35')."""
    words = re.escape(card_word(card).split(" (")[0])
    code = re.escape(short_code(card))
    return re.search(rf"(?<![\w/]){words}(?![\w/])|(?<![\w/]){code}(?![\w/])", text) is not None


def cards_in(event: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    for key in ("cards", "hand"):
        out |= set(event.get(key) or ())
    for key in ("card", "reward"):
        if isinstance(event.get(key), int):
            out.add(event[key])
    return out


def check_what_the_seat_sees(app: Any) -> None:
    """The hand shown is the seat's own, and no card of another hand that the seat was never
    told about (by a play, a draw, an exchange it took part in...) is named on screen."""
    client = app.screen.client
    state: VelonimoState = app.session.host.table.state
    me = client.seat
    hand = app.screen.query_one(Hand)
    assert sorted(hand.cards) == sorted(state.hands[me])
    told: set[int] = set(client.view["hand"])
    for event in client.log:
        told |= cards_in(event)
    if client.view.get("reward") is not None:
        told.add(client.view["reward"])
    text = screen_text(app)
    for seat, other in enumerate(state.hands):
        if seat == me:
            continue
        for card in set(other) - told:
            assert not mentions(text, card), (card_word(card), text)


def keys_for(screen: VelonimoScreen) -> list[str]:
    """One decision as key presses: combinations with space, the jersey with j, passes with
    p, seats with digits, the cards given back with enter."""
    client = screen.client
    legal = client.legal_actions()
    hand = screen.hand_cards()
    phase = client.view["phase"]
    cursor = screen.query_one(Hand).cursor

    def to(card: int) -> list[str]:
        """The fewest arrow presses from the cursor to `card` (the cursor wraps around)."""
        nonlocal cursor
        steps, cursor = (hand.index(card) - cursor) % len(hand), hand.index(card)
        return ["right"] * steps if steps <= len(hand) - steps else ["left"] * (len(hand) - steps)

    if phase == "give_back":
        card = min((a.card for a in legal if isinstance(a, GiveBack)), key=lambda c: VALUE[c])
        return [*to(card), "enter"]
    if phase in ("victim", "next_leader"):
        seat = legal[-1].seat  # type: ignore[attr-defined]
        return [str(seat + 1)]
    if phase == "reward":
        return [str(1 - client.seat + 1)]  # the reward into the opponent's hand
    plays = [a for a in legal if isinstance(a, Play)]
    leading = Pass() not in legal
    if not plays:
        return ["p"]
    if leading:
        play = min(plays, key=lambda a: (-len(a.cards), a.jersey, a.cards))
    else:
        play = min(plays, key=lambda a: (play_value(a.cards, a.jersey), a.jersey))
        if len(hand) > 4 and VALUE[play.cards[0]] >= 25:
            return ["p"]  # keep the hares: a pass that could have played
    keys: list[str] = []
    if len(play.cards) == 1:
        keys += to(play.cards[0])
    else:
        for card in play.cards:
            keys += [*to(card), "space"]
    if play.jersey:
        keys.append("j")
    return [*keys, "enter"]


async def play_to_the_end(pilot: Pilot[Any]) -> tuple[int, set[str]]:
    """Our decisions until the results; each time, the screen is checked first."""
    app = pilot.app
    screen = app.screen
    client = screen.client
    moves = 0
    sorted_by_value = False
    while client.outcome is None:
        await wait_for_turn(pilot, client)
        if client.outcome is not None:
            break
        await pilot.pause()
        check_what_the_seat_sees(app)
        legal = client.legal_actions()
        hand = screen.query_one(Hand)
        assert hand.playable == screen.playable(legal)
        if client.view["phase"] == "play" and not sorted_by_value and moves > 3:
            before = hand.current
            await pilot.press("s")  # sorting by value must not lose the cursor's card
            assert hand.current == before, "the cursor stays on its card, not on its place"
            sorted_by_value = True
        seq = client.seq
        await pilot.press(*keys_for(screen))
        await wait_until(pilot, lambda s=seq: client.seq > s or client.outcome is not None)
        assert not screen.message, screen.message
        moves += 1
    await wait_until(pilot, lambda: type(app.screen).__name__ == "ResultsScreen")
    await wait_until(pilot, lambda: client.verdict is not None)
    assert client.verdict.ok
    assert "deal verified" in str(app.screen.query_one("#verdict").render())
    return moves, {e["kind"] for e in client.log}


def new_app(seed: int, ascii_mode: bool = False) -> Any:
    return make_app(
        settings=UserSettings(name="Ann"),
        random_bytes=seeded(seed),
        bot_delay=0,
        ascii_mode=ascii_mode,
    )


async def test_a_three_player_game_against_bots_with_keys_only() -> None:
    app = new_app(4)
    async with app.run_test(size=SIZE) as pilot:
        await start_practice(pilot, "velonimo", 3, {"difficulties": "1,2"})
        assert type(app.screen) is VelonimoScreen
        moves, kinds = await play_to_the_end(pilot)
        assert moves > 10
        assert {"play", "pass", "attack_won", "finish", "round_end", "round_start"} <= kinds
        assert "game_end" in kinds
        detail = str(app.screen.query_one("#results-detail").render())
        assert "Rounds played: 2 (difficulty 1, 2)" in detail
        assert "Ann: " in detail and "Polka-dot jersey" in detail


async def test_a_duel_against_a_bot_with_keys_only() -> None:
    app = new_app(5, ascii_mode=True)
    async with app.run_test(size=SIZE) as pilot:
        await start_practice(pilot, "velonimo", 2, {"difficulties": "2"})
        moves, kinds = await play_to_the_end(pilot)
        assert moves > 5
        assert {"reward", "reward_revealed", "game_end"} <= kinds


# -- a seat's screen, from a fixed state -----------------------------------------------------------


@dataclass
class FakeClient:
    """What a game screen reads from its table client, for a state set up by hand."""

    view: dict[str, Any]
    seat: int
    names: list[str]
    to_act: frozenset[int]
    log: list[dict[str, Any]] = field(default_factory=list)
    chat: list[Any] = field(default_factory=list)
    lobby: Any = None
    config: Any = None
    game: Any = GAME
    outcome: Any = None
    sent: list[Any] = field(default_factory=list)
    clock: dict[int, float] = field(default_factory=dict)

    @property
    def my_turn(self) -> bool:
        return self.seat in self.to_act

    def legal_actions(self) -> list[Any]:
        return GAME.legal_actions_in_view(self.view)

    async def act(self, action: Any) -> None:
        self.sent.append(action)


@dataclass
class HostedClient(FakeClient):
    """A FakeClient whose moves a make-believe host applies a moment later, as the real one
    does: until then the move is on its way and the seat is not asked again."""

    state: Any = None
    screen: Any = None
    awaiting: bool = False

    @property
    def my_turn(self) -> bool:
        return self.seat in self.to_act and not self.awaiting

    async def act(self, action: Any) -> None:
        self.sent.append(action)
        asyncio.get_running_loop().call_later(0.05, self.apply, action)

    def apply(self, action: Any) -> None:
        events = [e.for_seat(self.seat) for e in GAME.apply(self.state, self.seat, action)]
        self.view = GAME.view(self.state, self.seat)
        self.to_act = GAME.to_act(self.state)
        self.log.extend(events)
        self.awaiting = False
        self.screen.post_message(SessionNotice(ViewChanged(tuple(events))))


@dataclass
class FakeSession:
    client: FakeClient


NAMES = ["Ann", "Bob", "Cleo"]


def seat_client(state: VelonimoState, seat: int, events: Sequence[Event] = ()) -> FakeClient:
    return FakeClient(
        view=GAME.view(state, seat),
        seat=seat,
        names=NAMES[: state.players],
        to_act=GAME.to_act(state),
        log=[e.for_seat(seat) for e in events],
    )


def exchange_between_bob_and_cleo() -> tuple[VelonimoState, list[Event]]:
    state = make_state(
        [
            [R("red", 6), R("green", 7)],
            [R("blue", 1), R("orange", 1), R("purple", 7)],
            [R("yellow", 3), R("yellow", 4), H(45)],
        ],
        current=1,
    )
    events = run(state, (1, P(R("blue", 1), R("orange", 1))), (1, ChooseVictim(2)))
    assert state.phase == "give_back"
    return state, events


@pytest.mark.parametrize("seat", [0, 1, 2], ids=["outsider", "thief", "victim"])
async def test_a_leader_exchange_shows_its_cards_only_to_the_two_involved(seat: int) -> None:
    state, events = exchange_between_bob_and_cleo()
    taken = state.taken
    client = seat_client(state, seat, events)
    app = new_app(1)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(VelonimoScreen(FakeSession(client)))  # type: ignore[arg-type]
        await pilot.pause()
        text = screen_text(app)
    secret = [c for c in (*state.hands[1], *state.hands[2]) if seat == 0 or c not in taken]
    if seat == 0:
        assert "Bob took 2 cards from Cleo" in text
        assert "Bob's turtles took 2 cards from Cleo" in text
        for card in secret:
            assert not mentions(text, card), card_word(card)
    else:
        for card in taken:
            assert mentions(text, card), card_word(card)
        others = state.hands[2 if seat == 1 else 1]
        for card in set(others) - set(taken):
            assert not mentions(text, card), card_word(card)
    if seat == 1:
        assert "2 more to give back" in text  # the thief's prompt and table


async def test_the_victim_choice_is_made_with_a_digit_and_the_exchange_with_enter() -> None:
    state = make_state(
        [
            [R("blue", 1), R("orange", 1), R("purple", 7)],
            [R("red", 6), R("green", 7)],
            [R("yellow", 3), R("yellow", 4), H(45)],
        ]
    )
    run(state, (0, P(R("blue", 1), R("orange", 1))))
    client = seat_client(state, 0)
    app = new_app(1)
    async with app.run_test(size=SIZE) as pilot:
        screen = VelonimoScreen(FakeSession(client))  # type: ignore[arg-type]
        await app.push_screen(screen)
        await pilot.pause()
        text = screen_text(app)
        assert "Your turtles take 2 cards from: 2 Bob · 3 Cleo" in text
        assert "key 2" in text and "key 3" in text
        await pilot.press("1")  # yourself: not a choice
        await pilot.pause()
        assert client.sent == [] and "1 is not one of the choices" in screen.message
        await pilot.press("3")
        await pilot.pause()
        assert client.sent == [ChooseVictim(2)]


async def test_two_cards_given_back_in_one_burst_are_given_from_the_hand_as_it_is() -> None:
    """enter, enter: the second enter waits for the host's answer to the first, then gives
    the card under the cursor of the hand that answer left, not the card just given."""
    state = make_state(
        [
            [R("blue", 1), R("orange", 1), R("purple", 7)],
            [R("red", 6), R("green", 7)],
            [R("yellow", 3), R("yellow", 4), H(45)],
        ]
    )
    run(state, (0, P(R("blue", 1), R("orange", 1))), (0, ChooseVictim(2)))
    assert state.phase == "give_back"
    client = HostedClient(**vars(seat_client(state, 0)), state=state)
    app = new_app(1)
    async with app.run_test(size=SIZE) as pilot:
        screen = VelonimoScreen(FakeSession(client))  # type: ignore[arg-type]
        client.screen = screen
        await app.push_screen(screen)
        await pilot.pause()
        assert "2 more to give back" in screen_text(app)
        await burst(pilot, "home", "enter", "enter")
        await wait_until(pilot, lambda: len(client.sent) == 2 and not client.awaiting)
        assert "cannot give" not in screen.message, screen.message
    given = [a.card for a in client.sent]
    assert all(isinstance(a, GiveBack) for a in client.sent) and len(set(given)) == 2
    assert state.phase != "give_back" and not set(given) & set(state.hands[0])


async def test_the_duel_reward_goes_where_a_digit_says() -> None:
    state = make_state(
        [[R("red", 4), R("red", 5)], [R("blue", 3), R("blue", 7)]], draw=[H(25)], reward=H(50)
    )
    run(state, (0, P(R("red", 4))), (1, PASS))
    client = seat_client(state, 0)
    app = new_app(1)
    async with app.run_test(size=SIZE) as pilot:
        screen = VelonimoScreen(FakeSession(client))  # type: ignore[arg-type]
        await app.push_screen(screen)
        await pilot.pause()
        lines = screen_lines(app)
        assert lines[-7].strip() == "You won hare 50: into whose hand? 1 you · 2 Bob"
        assert "1-2 Choose" in lines[-1] and "enter" not in lines[-1]
        await pilot.press("enter", "3")  # not how to choose; not a seat of the duel
        await pilot.pause()
        assert client.sent == [] and "3 is not one of the choices" in screen.message
        await pilot.press("2")
        await pilot.pause()
        assert client.sent == [GiveReward(1)]


async def test_a_long_choice_names_only_the_digits_and_marks_the_seats() -> None:
    names = ["Ann", "Heuristic bot 2", "Heuristic bot 3", "Heuristic bot 4", "Heuristic bot 5"]
    hands = [[R("red", 7)], *[[R(c, 3), R(c, 4)] for c in ("blue", "green", "yellow", "brown")]]
    state = make_state(hands)
    run(state, (0, P(R("red", 7))), *[(s, PASS) for s in range(1, 5)])
    assert state.phase == "next_leader"
    client = seat_client(state, 0)
    client.names = names
    app = new_app(1)
    async with app.run_test(size=SIZE) as pilot:
        screen = VelonimoScreen(FakeSession(client))  # type: ignore[arg-type]
        await app.push_screen(screen)
        await pilot.pause()
        text = screen_text(app)
        assert "Who leads the next attack? Press 2, 3, 4, 5 (see the players list)" in text
        assert text.count("key ") == 4
        await pilot.press("4")
        await pilot.pause()
        assert client.sent == [ChooseLeader(3)]


async def test_keys_typed_into_the_chat_stay_in_the_chat() -> None:
    state = make_state(
        [
            [R("blue", 1), R("orange", 1), R("purple", 7)],
            [R("red", 6), R("green", 7)],
            [R("yellow", 3), R("yellow", 4), H(45)],
        ]
    )
    run(state, (0, P(R("blue", 1), R("orange", 1))))
    client = seat_client(state, 0)
    app = new_app(1)
    async with app.run_test(size=SIZE) as pilot:
        screen = VelonimoScreen(FakeSession(client))  # type: ignore[arg-type]
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("c", "p", "2", "space", "j", "3", "s")
        await pilot.pause()
        assert screen.query_one("#chat-input").value == "p2 j3s"  # type: ignore[attr-defined]
        assert client.sent == [] and not screen.by_value
        await pilot.press("escape", "2")  # back to the hand: the digit chooses again
        await pilot.pause()
        assert client.sent == [ChooseVictim(1)]


async def test_a_selection_that_is_not_a_play_says_why() -> None:
    state = make_state(
        [
            [R("red", 2), R("red", 3), R("blue", 4), H(30), R("green", 7)],
            [R("orange", 6), R("yellow", 7)],
            [R("purple", 5), R("brown", 4)],
        ],
        current=1,
        jersey=0,
        round_index=1,
        round_scores=[[2, 1, 0]],
    )
    run(state, (1, P(R("orange", 6))), (2, PASS))
    client = seat_client(state, 0)
    app = new_app(1)
    async with app.run_test(size=SIZE) as pilot:
        screen = VelonimoScreen(FakeSession(client))  # type: ignore[arg-type]
        await app.push_screen(screen)
        await pilot.pause()
        hand = screen.query_one(Hand)
        # Cards that are in no legal play are dimmed: red 2 and 3 alone do not beat 6, but
        # together (32) they do; blue 4 is in no play; the jersey makes any single a play.
        assert hand.playable == {R("red", 2), R("red", 3), R("blue", 4), H(30), R("green", 7)}

        async def select(*cards: int) -> str:
            hand.clear_selection()
            for card in cards:
                await pilot.press("home", *["right"] * hand.cards.index(card), "space")
            await pilot.pause()
            return str(screen.query_one("#status").render())

        assert "mixed colours and values" in await select(R("red", 2), R("blue", 4))
        assert "a hare is always played alone" in await select(R("red", 3), H(30))
        assert "4 is not higher than 6" in await select(R("blue", 4))
        assert "red 2/3 = 22: enter plays it" in await select(R("red", 2), R("red", 3))
        await pilot.press("j")
        await pilot.pause()
        assert "with the jersey = 32" in str(screen.query_one("#status").render())
        assert "the jersey cannot be added to a lone hare" in await select(H(30))
        await pilot.press("enter")
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert status.count("the jersey cannot be added to a lone hare") == 1, "said once"
        assert client.sent == []
        await pilot.press("j", "home", *["right"] * hand.cards.index(R("blue", 4)))
        hand.clear_selection()
        await pilot.press("enter")  # nothing selected: the card under the cursor
        await pilot.pause()
        assert "4 is not higher than 6" in screen.message and client.sent == []
        await pilot.press("j", "enter")
        await pilot.pause()
        assert client.sent == [Play((R("blue", 4),), True)]


async def test_a_twenty_three_card_duel_hand_fits_at_80x24() -> None:
    mine = [R(c, v) for c in ("red", "orange", "yellow") for v in range(1, 8)] + [H(35), H(40)]
    state = make_state(
        [mine, [R("blue", 7), R("blue", 6)]], draw=[H(25), H(30)], reward=H(50), current=1
    )
    run(state, (1, P(R("blue", 6))))
    client = seat_client(state, 0)
    app = new_app(1, ascii_mode=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = VelonimoScreen(FakeSession(client), ascii_mode=True)  # type: ignore[arg-type]
        await app.push_screen(screen)
        await pilot.pause()
        lines = screen_lines(app)
    text = "\n".join(lines)
    assert len(lines) == 24
    assert "Round 1 of 5 | difficulty 1 | target 8 points" in text
    assert "Reward: H50 hare 50 | draw pile 2" in text
    assert "Attack: 6 to beat" in text
    assert sum(line.count("+---+") for line in lines) == 2 * len(mine)  # every card shown
    assert "enter Play" in lines[-1] and "p Pass" in lines[-1]
    assert all(ord(ch) < 128 for line in lines[:-1] for ch in line if ch not in "▁▔▏▎▕")


def mid_round() -> VelonimoState:
    """Round 2: Ann holds the jersey and a hand of every colour; Bob's blue pair leads, Cleo
    passed."""
    colours = ("red", "orange", "yellow", "green", "blue", "purple", "brown")
    mine = [R(c, v) for c, v in zip(colours, range(1, 8), strict=True)]
    mine += [R("red", 5), R("blue", 1), H(35), H(25)]
    state = make_state(
        [mine, [R("blue", 7), R("blue", 6), R("green", 6)], [R("yellow", 6), R("purple", 1)]],
        current=1,
        jersey=0,
        round_index=1,
        round_scores=[[2, 1, 0]],
    )
    run(state, (1, P(R("blue", 6), R("blue", 7))), (2, PASS))
    return state


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
def test_velonimo_mid_round_snapshot(snap_compare: Any, ascii_mode: bool) -> None:
    client = seat_client(mid_round(), 0)

    async def select_a_pair(pilot: Pilot[Any]) -> None:
        screen = VelonimoScreen(FakeSession(client), ascii_mode=ascii_mode)  # type: ignore[arg-type]
        await pilot.app.push_screen(screen)
        await pilot.pause()
        await pilot.press("right", "space", "right", "right", "right", "right", "space")
        await pilot.pause()

    app = new_app(1, ascii_mode)
    assert snap_compare(app, run_before=select_a_pair, terminal_size=SIZE)


# -- the log -----------------------------------------------------------------------------------------


def words(events: list[Event], seat: int, names: list[str] = NAMES) -> list[str]:
    client = FakeClient(view={}, seat=seat, names=names, to_act=frozenset())
    screen = VelonimoScreen(FakeSession(client))  # type: ignore[arg-type]
    return [line for e in events if (line := screen.describe(e.for_seat(seat))) is not None]


def test_plays_passes_and_attacks_in_words() -> None:
    state = make_state(
        [
            [R("red", 5), R("red", 6), R("red", 7), R("green", 7)],
            [R("blue", 4), R("green", 4), R("yellow", 4), R("purple", 4), H(25), R("red", 3)],
            [H(35), R("brown", 1), R("brown", 3)],
        ],
        jersey=0,
        round_index=1,
        round_scores=[[2, 1, 0]],
    )
    events = run(
        state,
        (0, P(R("red", 5))),
        (1, P(H(25))),
        (2, P(H(35))),
        (0, P(R("red", 6), R("red", 7), jersey=True)),
        (1, P(R("blue", 4), R("green", 4), R("yellow", 4), R("purple", 4))),
        (2, PASS),
        (0, PASS),
    )
    assert words(events, 2) == [
        "Ann played red 5 (tiger): 5",
        "Bob played hare 25: 25",
        "You played hare 35: 35",
        "Ann played red 6/7: 36 (with the jersey)",
        "Bob played yellow/green/blue/purple 4: 44",
        "You passed",
        "Ann passed",
        "Bob won the attack and leads the next one",
    ]
    assert words(events, 1)[-1] == "You won the attack and lead the next one"


def test_leader_exchanges_in_words_for_each_seat() -> None:
    state, events = exchange_between_bob_and_cleo()
    taken = sorted(state.taken)
    given = sorted(state.hands[1])[:2]
    events += run(state, (1, GiveBack(given[0])), (1, GiveBack(given[1])))
    taken_words = ", ".join(card_word(c) for c in taken)
    assert words(events, 0)[1:] == [
        "Bob's turtles took 2 cards from Cleo",
        "Bob gave a card back to Cleo (1 more to go)",
        "Bob gave a card back to Cleo",
    ]
    assert words(events, 1)[1:] == [
        f"Your turtles took {taken_words} from Cleo",
        f"You gave {card_word(given[0])} back to Cleo (1 more to go)",
        f"You gave {card_word(given[1])} back to Cleo",
    ]
    assert words(events, 2)[1:] == [
        f"Bob's turtles took your {taken_words}",
        f"Bob gave you {card_word(given[0])} (1 more to go)",
        f"Bob gave you {card_word(given[1])}",
    ]
    one = make_state([[R("red", 1), R("red", 7)], [R("blue", 3)], [R("green", 3), R("green", 4)]])
    line = words(run(one, (0, P(R("red", 1))), (0, ChooseVictim(1))), 2)[1]
    assert line == "Ann's turtle took 1 card from Bob"


def test_at_a_sealed_table_the_thief_reads_its_turtle_in_its_own_words() -> None:
    """A sealed engine tells the thief of its steal before the cards are opened to it: its
    event carries the count, not the cards. The line is still the thief's own ("Your turtle"),
    never the name form ("You's turtle")."""
    one = make_state([[R("red", 1), R("red", 7)], [R("blue", 3)], [R("green", 3), R("green", 4)]])
    events = run(one, (0, P(R("red", 1))), (0, ChooseVictim(1)))
    take = next(e for e in events if e.kind == "leader_take")
    sealed = Event(take.kind, take.public)  # what the thief knows before the opening
    client = FakeClient(view={}, seat=0, names=NAMES, to_act=frozenset())
    screen = VelonimoScreen(FakeSession(client))  # type: ignore[arg-type]
    assert screen.describe(sealed.for_seat(0)) == "Your turtle took 1 card from Bob"


def test_finishing_the_next_leader_and_the_rounds_in_words() -> None:
    state = make_state(
        [[R("red", 7)], [R("blue", 3), R("blue", 2)], [R("green", 3), R("green", 4)]],
        difficulties=(2, 3),
    )
    events = run(state, (0, P(R("red", 7))), (1, PASS), (2, PASS), (0, ChooseLeader(2)))
    assert words(events, 1) == [
        "Ann played red 7: 7",
        "Ann is out (#1) and scores 4",
        "You passed",
        "Cleo passed",
        "Ann won the attack with a last play and names who leads next",
        "Ann chose Cleo to lead the next attack",
    ]
    assert words(events, 0)[1] == "You are out (#1) and score 4"
    assert words(events, 0)[4] == "You won the attack with your last cards: name who leads next"
    events = run(state, (2, P(R("green", 3), R("green", 4))))
    assert words(events, 1) == [
        "Cleo played green 3/4: 23",
        "Cleo is out (#2) and scores 2",
        "Round 1 is over: Ann 4, you 0, Cleo 2; the jersey goes to Ann",
        "Round 2 (difficulty 3) begins: you lead",
    ]


def test_the_duel_in_words() -> None:
    state = make_state(
        [[R("red", 2), R("red", 4), R("red", 6)], [R("blue", 3), R("blue", 7)]],
        draw=[H(25), H(30)],
        reward=H(50),
        difficulties=(3,),
    )
    events = run(state, (0, P(R("red", 2))), (1, PASS))
    assert words(events, 0) == [
        "You played red 2 (dromedary): 2",
        "Your dromedary (water carrier) drew hare 30",
        "Bob passed",
        "You won the attack and lead the next one",
    ]
    assert words(events, 1)[1] == "Ann's dromedary (water carrier) drew 1 card"
    events = run(state, (0, GiveReward(1)))
    assert words(events, 0) == [
        "You gave the reward hare 50 to Bob",
        "New reward: hare 25 (0 left in the draw pile)",
    ]
    assert words(events, 1)[0] == "Ann gave you the reward hare 50"
    events = run(state, (0, P(R("red", 4))), (1, PASS), (0, GiveReward(0)))
    assert words(events, 1)[-2:] == [
        "Ann put the reward hare 25 into their own hand",
        "The draw pile is empty: no new reward",
    ]
    assert words(events, 0)[-2] == "You put the reward hare 25 into your hand"


def test_water_carriers_that_find_an_empty_pile_and_the_end_of_the_game() -> None:
    state = make_state(
        [[R("red", 2), R("red", 5)], [R("blue", 3)]], draw=[], reward=None, difficulties=(3,)
    )
    events = run(state, (0, P(R("red", 2))))
    assert (
        words(events, 0)[1] == "Your dromedaries (water carriers) drew nothing: the pile is empty"
    )
    events = run(state, (1, P(R("blue", 3))))
    assert words(events, 0) == [
        "Bob played blue 3: 3",
        "Bob is out (#1) and scores 3",
        "Round 1 is over: you 0, Bob 3; the jersey goes to Bob",
        "Game over: Bob won",
    ]


def test_results_list_each_round_and_the_jersey() -> None:
    state = make_state(
        [[R("red", 7)], [R("blue", 3), R("blue", 2)], [R("green", 3)]],
        difficulties=(2,),
        round_index=0,
    )
    run(state, (0, P(R("red", 7))), (1, PASS), (2, PASS), (0, ChooseLeader(2)))
    run(state, (2, P(R("green", 3))))
    outcome = GAME.outcome(state)
    lines = VelonimoScreen.result_lines(outcome, NAMES, None)
    assert lines == [
        "Rounds played: 1 (difficulty 2)",
        "Ann: 4 = 4",
        "Bob: 0 = 0",
        "Cleo: 2 = 2",
        "Polka-dot jersey: Ann",
    ]


def test_every_card_has_a_face_and_a_name() -> None:
    client = FakeClient(view={}, seat=0, names=NAMES, to_act=frozenset())
    screen = VelonimoScreen(FakeSession(client))  # type: ignore[arg-type]
    looks = {c: screen.look(c) for c in ALL_CARDS}
    assert looks[R("red", 5)].label == "5" and looks[R("red", 5)].mark == "R"
    assert looks[H(35)].label == "H35"
    assert looks[R("green", 1)].name == "green 1 (turtle)"
    assert looks[R("blue", 2)].name == "blue 2 (dromedary)"
    marks = {
        looks[R(c, 3)].mark for c in ("red", "orange", "yellow", "green", "blue", "purple", "brown")
    }
    assert len(marks) == 7  # every colour has its own letters, never colour alone
    assert all(len(look.label) <= 3 and len(look.mark) <= 3 for look in looks.values())


def test_results_of_a_table_closed_in_the_first_round_say_no_round_was_finished() -> None:
    state = make_state(
        [[R("red", 7)], [R("blue", 3), R("blue", 2)], [R("green", 3)]],
        difficulties=(2,),
        round_index=0,
    )
    lines = VelonimoScreen.result_lines(GAME.standings(state), NAMES, None)
    assert lines[0] == "No round was finished."
    assert not any("difficulty" in line for line in lines)
