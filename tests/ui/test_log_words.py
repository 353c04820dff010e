"""The log's grammar in every language: 'you start', names as their players typed them (not
capitalised), singular and plural by the count."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from netcards.games.auf_achse import GAME as AUF_ACHSE
from netcards.games.velonimo import GAME as VELONIMO
from netcards.games.velonimo.cards import ALL_CARDS, VALUE, is_hare
from netcards.games.via_gladiola import GAME as VIA_GLADIOLA
from ui import i18n
from ui.games.auf_achse import AufAchseScreen
from ui.games.velonimo import VelonimoScreen
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
