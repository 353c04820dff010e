"""The log's grammar in every language: 'you start', names as their players typed them (not
capitalised), singular and plural by the count."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from netcards.games.auf_achse import GAME as AUF_ACHSE
from netcards.games.auf_achse.cards import KM
from netcards.games.velonimo import GAME as VELONIMO
from netcards.games.velonimo.cards import ALL_CARDS, VALUE, is_hare
from netcards.games.via_gladiola import GAME as VIA_GLADIOLA
from protocol.own_moves import OwnMoves
from ui import i18n
from ui.games.auf_achse import AufAchseScreen
from ui.games.velonimo import VelonimoScreen, card_word
from ui.games.via_gladiola import ViaGladiolaScreen

NAMES = ("ann", "root", "cy")
LANGUAGES = ["en", "fr", "nl"]


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    yield
    i18n.use("en")


def screen(cls: Any, game: Any, seat: int = 0) -> Any:
    client = SimpleNamespace(names=NAMES, seat=seat, config=game.make_config(3, {}))
    return cls(SimpleNamespace(client=client))


@pytest.mark.parametrize("language", LANGUAGES)
def test_you_start_and_they_start(language: str) -> None:
    i18n.use(language)
    vg = screen(ViaGladiolaScreen, VIA_GLADIOLA)
    mine = vg.describe({"kind": "day_start", "day": 2, "seat": 0})
    theirs = vg.describe({"kind": "day_start", "day": 2, "seat": 1})
    assert "root" in theirs
    expected = {"en": "you start", "fr": "vous commencez", "nl": "jij begint"}[language]
    assert mine.endswith(expected), mine


@pytest.mark.parametrize("language", LANGUAGES)
def test_names_stay_as_their_players_typed_them(language: str) -> None:
    i18n.use(language)
    vg = screen(ViaGladiolaScreen, VIA_GLADIOLA)
    assert vg.describe({"kind": "rest", "seat": 1}).startswith("root")
    aa = screen(AufAchseScreen, AUF_ACHSE)
    assert aa.describe({"kind": "run_chosen", "seat": 1, "count": 1}).startswith("root")
    assert "root" in aa.describe({"kind": "round_start", "round": 2, "first_player": 1})
    vn = screen(VelonimoScreen, VELONIMO)
    assert vn.describe({"kind": "pass", "seat": 1}).startswith("root")
    over = vn.describe({"kind": "game_end", "winners": [1], "scores": [0, 0, 0]})
    assert "root" in over and "Root" not in over
    you = vn.describe({"kind": "pass", "seat": 0})
    assert you[:1].isupper()


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_turtle_is_one_turtle(language: str) -> None:
    i18n.use(language)
    card = next(c for c in ALL_CARDS if not is_hare(c) and VALUE[c] == 3)
    one = {"kind": "leader_take", "seat": 0, "victim": 1, "count": 1, "cards": [card]}
    two = {**one, "count": 2, "cards": [card, card + 1]}
    thief = screen(VelonimoScreen, VELONIMO, 0)
    victim = screen(VelonimoScreen, VELONIMO, 1)
    plural = {"en": "turtles", "fr": "tortues", "nl": "schildpadden"}[language]
    assert plural not in thief.describe(one) and plural in thief.describe(two)
    assert plural not in victim.describe(one) and plural in victim.describe(two)


DREW = {
    "en": ("You drew 1 card: 1", "root drew 1 card", "You drew 2 cards: 49 and a Gladiola"),
    "fr": (
        "Vous avez pioché 1 carte : 1",
        "root a pioché 1 carte",
        "Vous avez pioché 2 cartes : 49 et un Glaïeul",
    ),
    "nl": ("Je trok 1 kaart: 1", "root trok 1 kaart", "Je trok 2 kaarten: 49 en een Gladiool"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_drawn_card_s_number_is_not_read_as_a_count(language: str) -> None:
    """Via Gladiola's cards are named by their numbers: your draw counts its cards as the
    others' draws do, then names them, so that card 1 is not "1 card" and "49, a Gladiola" is
    not one card."""
    i18n.use(language)
    vg = screen(ViaGladiolaScreen, VIA_GLADIOLA)
    deck = vg.deck
    one = next(c.id for c in deck.cards if c.kind == "distance" and c.value == 1)
    forty_nine = next(c.id for c in deck.cards if c.kind == "distance" and c.value == 49)
    gladiola = next(c.id for c in deck.cards if c.kind == "gladiola")
    mine = vg.describe({"kind": "draw", "seat": 0, "count": 1, "cards": [one]})
    theirs = vg.describe({"kind": "draw", "seat": 1, "count": 1})
    two = vg.describe({"kind": "draw", "seat": 0, "count": 2, "cards": [forty_nine, gladiola]})
    assert (mine, theirs, two) == DREW[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_auf_achse_words_your_draw_as_via_gladiola_does(language: str) -> None:
    i18n.use(language)
    aa = screen(AufAchseScreen, AUF_ACHSE)
    ten = next(
        c for c in range(len(aa.deck.kind)) if aa.deck.kind[c] == KM and aa.deck.value[c] == 10
    )
    mine = aa.describe({"kind": "refill", "seat": 0, "count": 1, "cards": [ten]})
    expected = {
        "en": "You drew 1 card: ",
        "fr": "Vous avez pioché 1 carte : ",
        "nl": "Je trok 1 kaart: ",
    }
    assert mine == expected[language] + aa.card_name(ten)


STAND_IN = {"en": "Your stand-in", "fr": "Votre remplaçant", "nl": "Je invaller"}


def own_moves(language: str) -> Iterator[tuple[Any, dict[str, Any], str]]:
    """(screen, an event of our seat's move, the cards it names) for every kind of move."""
    vg = screen(ViaGladiolaScreen, VIA_GLADIOLA)
    distance = next(c.id for c in vg.deck.cards if c.kind == "distance")
    yield vg, {"kind": "walk", "seat": 0, "card": distance, "cadence_draws": 1}, ""
    yield vg, {"kind": "rest", "seat": 0}, ""
    # The card a walk or a rest draws is part of that move.
    yield vg, {"kind": "draw", "seat": 0, "count": 1, "cards": [distance]}, vg.card_name(distance)
    vn = screen(VelonimoScreen, VELONIMO)
    card = next(c for c in ALL_CARDS if not is_hare(c) and VALUE[c] == 3)
    named = card_word(card)
    yield vn, {"kind": "play", "seat": 0, "cards": [card], "value": 3}, ""
    yield vn, {"kind": "pass", "seat": 0}, ""
    take = {"kind": "leader_take", "seat": 0, "victim": 1, "leaders": 1, "count": 1}
    yield vn, {**take, "cards": [card]}, named
    give = {"kind": "leader_give", "seat": 0, "victim": 1, "to_give": 0, "card": card}
    yield vn, give, named
    yield vn, {"kind": "next_leader", "seat": 0, "leader": 1}, ""
    yield vn, {"kind": "reward", "seat": 0, "card": card, "to": 0}, named
    yield vn, {"kind": "reward", "seat": 0, "card": card, "to": 1}, named
    aa = screen(AufAchseScreen, AUF_ACHSE)
    km = [c for c in range(len(aa.deck.kind)) if aa.deck.kind[c] == KM][:2]
    yield aa, {"kind": "run_chosen", "seat": 0, "count": 1, "cards": km[:1]}, aa.card_name(km[0])
    yield aa, {"kind": "odometer_card", "seat": 0, "card": km[0]}, aa.card_name(km[0])
    chosen = {"kind": "free_road_chosen", "seat": 0, "count": 2, "cards": km}
    yield aa, chosen, aa.card_name(km[1])


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_move_a_bot_made_for_you_names_the_bot_and_still_your_cards(language: str) -> None:
    """A move the stand-in (or the turn clock's bot) made in your seat is its move, not yours;
    the cards it shows are still your own hand's."""
    i18n.use(language)
    for game, event, cards in own_moves(language):
        yours, its = game.log_line(event), game.log_line(event, stand_in=True)
        assert yours == game.describe(event) and STAND_IN[language] not in yours, yours
        assert its.startswith(STAND_IN[language]) and its != yours, (yours, its)
        assert cards in yours and cards in its, its
    # What followed from the move in the same update is still about you.
    vn = screen(VelonimoScreen, VELONIMO)
    out = {"kind": "finish", "seat": 0, "place": 1, "points": 5}
    assert vn.log_line(out, stand_in=True) == vn.describe(out)


CLOCK = {
    "en": (
        "Your time ran out: your stand-in played the turn",
        "root's time ran out: a bot played the turn",
    ),
    "fr": (
        "Votre temps est écoulé : votre remplaçant a joué le tour",
        "Le temps de root est écoulé : un bot a joué le tour",
    ),
    "nl": (
        "Je tijd is om: je invaller speelde de beurt",
        "De tijd van root is om: een bot speelde de beurt",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_clock_s_notice_speaks_to_the_player_whose_time_ran_out(language: str) -> None:
    """On your own screen the notice is said to you, and the bot is your stand-in; the others
    read whose time it was. Each starts as a sentence does (a name as its player typed it)."""
    from ui import notices

    i18n.use(language)
    args = {"seat": 1, "name": "root"}
    yours, theirs = CLOCK[language]
    assert notices.say("clock", args, 1) == yours
    assert notices.say("clock", args, 0) == theirs
    assert notices.say("clock", args) == theirs  # a watcher has no seat
    assert yours[0].isupper() and (theirs[0].isupper() or theirs.startswith("root"))


def stand_in_day(seat: int) -> tuple[Any, dict[str, Any]]:
    """A Via Gladiola screen whose log has day 1 ended by a walk of `seat`'s stand-in."""
    vg = screen(ViaGladiolaScreen, VIA_GLADIOLA)
    distance = next(c.id for c in vg.deck.cards if c.kind == "distance")
    walk = {"kind": "walk", "seat": seat, "card": distance, "cadence_draws": 0}
    end = {"kind": "day_end", "day": 1, "reason": "finish", "seat": seat}
    client = vg.session.client
    client.log = [walk, end]
    client.steps = [(1, (walk, end))]
    client.moves = OwnMoves(by_bot={1})
    client.view = {"hand_sizes": [3, 4, 5], "hand": []}
    return vg, end


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_day_s_summary_says_your_stand_in_walked_the_finish(language: str) -> None:
    i18n.use(language)
    vg, end = stand_in_day(0)
    _title, lines = vg.summary_of(end)
    assert lines[0].startswith(STAND_IN[language]), lines
    # The hands listed after it are still yours.
    assert not any(STAND_IN[language] in line for line in lines[1:]), lines
    vg.session.client.moves = OwnMoves()
    assert not vg.summary_of(end)[1][0].startswith(STAND_IN[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_your_own_choice_unnamed_reads_as_yours(language: str) -> None:
    """A sealed player's program that rejoined no longer holds the openings of its past
    choices: its log tells them unnamed. The sentence is still in the second person ("You
    chose a run card"), never the third person's verb with "You" put in ("Vous a choisi")."""
    i18n.use(language)
    aa = screen(AufAchseScreen, AUF_ACHSE)
    run = aa.describe({"kind": "run_chosen", "seat": 0, "count": 1})
    road = aa.describe({"kind": "free_road_chosen", "seat": 0, "count": 2})
    expected = {"en": "You chose", "fr": "Vous avez choisi", "nl": "Je koos"}[language]
    assert run.startswith(expected), run
    assert road.startswith(expected), road
