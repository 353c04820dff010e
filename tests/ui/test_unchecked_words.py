"""Why a sealed game closed halfway was not checked, in the player's language: the same reasons
the verdict gives in English (`protocol.sealed_play.awaited.why_unchecked`), every kind of them;
and a spectator's, on the results screen."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest

from protocol.client import TableClient
from protocol.client_sealed import SPECTATOR_UNCHECKED
from protocol.known_hosts import KnownHosts
from protocol.sealed_play.awaited import Awaited, closing_reasons, why_unchecked
from tests.network.test_sealed_table import play
from tests.ui.pilots import wait_until
from tests.ui.test_sealed_clock_app import sealed_host, stop, words
from ui import i18n
from ui.app import JoinPlan, make_app
from ui.awaited_words import UNCHECKED_WORDS, WHOLE_REASONS, unchecked_reasons
from ui.user_settings import UserSettings

NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture
def language() -> Iterator[None]:
    yield
    i18n.use("en")


def every_kind() -> tuple[list[str], list[str]]:
    """Ann reads: a table closed while Bob had not shuffled and Cy's program had not played
    when its time ran out; one Bob had left; one that merely ended. Every kind of reason."""
    found = (Awaited(1, "mask"),)
    why = why_unchecked(found, 0, away={2}, published=set(), unanswered={2})
    why += why_unchecked((), 0, away={1}, published=set())
    why += why_unchecked((), 0, away=(), published=())
    assert {reason.kind for reason in why} == set(UNCHECKED_WORDS)
    return [r.kind for r in why], unchecked_reasons(why, NAMES, 0)


def test_in_english_the_app_says_what_the_verdict_says_of_a_closing(language: None) -> None:
    i18n.use("en")
    _kinds, said = every_kind()
    assert said == [
        "the table closed; waiting for Bob (seat 2) to shuffle the cards",
        "Cy (seat 3) did not play when their time ran out",
        "Bob (seat 2) left before publishing their secrets",
        "the game ended before every seat published its secrets",
    ]
    # The verdict's own words name the same seats, in the format programs compare.
    assert closing_reasons((Awaited(1, "mask"),), NAMES, 0, {2}, set(), {2}) == [
        "the table closed while waiting for Bob (seat 2) to shuffle the cards",
        "Cy (seat 3) did not play when its time ran out",
    ]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (
            "fr",
            [
                "la table a été fermée ; en attente de Bob (place 2) : mélange des cartes",
                "Cy (place 3) n'a pas joué quand son temps était écoulé",
                "Bob (place 2) est parti avant de publier ses secrets",
                "la partie s'est terminée avant que chaque place publie ses secrets",
            ],
        ),
        (
            "nl",
            [
                "de tafel werd gesloten; wachten op Bob (plaats 2): het schudden van de kaarten",
                "Cy (plaats 3) speelde niet toen de tijd om was",
                "Bob (plaats 2) vertrok zonder de geheimen te publiceren",
                "het spel eindigde voordat elke plaats de geheimen had gepubliceerd",
            ],
        ),
    ],
)
def test_each_language_says_every_reason_in_its_own_words(
    language: None, code: str, expected: list[str]
) -> None:
    i18n.use(code)
    _kinds, said = every_kind()
    assert said == expected


def test_a_spectator_s_word_on_a_sealed_deal_is_translated_whole(language: None) -> None:
    """A spectator's verdict is one whole reason: the app says it in the player's language."""
    assert set(WHOLE_REASONS) == {SPECTATOR_UNCHECKED}
    assert WHOLE_REASONS[SPECTATOR_UNCHECKED] == SPECTATOR_UNCHECKED, "the English is the verdict's"
    i18n.use("fr")
    said = i18n._(WHOLE_REASONS[SPECTATOR_UNCHECKED])
    assert said.startswith("un spectateur ne détient les secrets d'aucune place"), said


async def test_a_spectator_of_a_sealed_game_reads_why_it_checks_nothing_in_french(
    tmp_path: Any,
) -> None:
    """A spectator holds no seat's secrets: its verdict says so, and the results screen says
    it in the spectator's language."""
    i18n.use("fr")
    host = await sealed_host(2, 1)
    app = make_app(
        settings=UserSettings(name="Eve", language="fr"),
        join=JoinPlan(f"127.0.0.1:{host.port}", spectator=True),
    )
    ann = TableClient(f"127.0.0.1:{host.port}", "Ann", KnownHosts(tmp_path / "ann"))
    running: list[asyncio.Task[None]] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
            await pilot.press("y")
            await wait_until(pilot, lambda: app.session is not None, 10)
            running.append(asyncio.create_task(ann.run()))
            await asyncio.wait_for(play(ann, random.Random(5)), 120)
            await wait_until(pilot, lambda: type(app.screen).__name__ == "ResultsScreen", 20)
            await wait_until(pilot, lambda: "donne non contrôlée" in words(app), 20)
            text = words(app)
            assert "un spectateur ne détient les secrets d'aucune place" in text, text
            assert "spectator holds" not in text, text
    finally:
        i18n.use("en")
        await ann.leave("done")
        await stop(running, host)
