"""A whole game of Via Gladiola against bots, played through the app with key presses only."""

from __future__ import annotations

from netcards.games.via_gladiola.actions import PlayGladiola, Rest, Walk
from tests.ui.pilots import move_cursor_to, seeded, start_practice, wait_for_turn, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings


async def test_a_full_game_against_bots_with_keys_only() -> None:
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        client = screen.client
        moves = 0
        while type(app.screen).__name__ != "ResultsScreen":
            await wait_for_turn(pilot, client)
            if client.outcome is not None:
                break
            legal = client.legal_actions()
            plays = [a for a in legal if isinstance(a, Walk | PlayGladiola)]
            seq = client.seq
            if plays:
                await move_cursor_to(pilot, plays[0].card)
                await pilot.press("enter")
            else:
                assert legal == [Rest()]
                await pilot.press("r")
            await wait_until(pilot, lambda s=seq: client.seq > s or client.outcome is not None)
            moves += 1
        await wait_until(pilot, lambda: type(app.screen).__name__ == "ResultsScreen")
        await wait_until(pilot, lambda: client.verdict is not None)
        assert client.verdict.ok
        assert moves > 5
        verdict = str(app.screen.query_one("#verdict").render())
        assert "deal verified" in verdict


def test_result_lines_count_cards_and_blisters_in_the_right_number() -> None:
    from types import SimpleNamespace

    from netcards.games.via_gladiola.cards import deck_for
    from ui.games.via_gladiola import ViaGladiolaScreen

    blisters = deck_for(None).blisters
    one = next(c for c in range(len(blisters)) if blisters[c] == 1)
    two = [c for c in range(len(blisters)) if blisters[c] == 2][:2]
    outcome = SimpleNamespace(scores=(1, 4), detail={"hands": [[one], two]})
    lines = ViaGladiolaScreen.result_lines(outcome, ["Ann", "Bo"], None)
    assert lines[0].startswith("Ann: 1 card, ") and lines[0].endswith(" = 1 blister")
    assert lines[1].startswith("Bo: 2 cards, ") and lines[1].endswith(" = 4 blisters")


def test_the_table_says_steps_only_up_to_50_km_and_names_a_finish_in_one_word() -> None:
    from types import SimpleNamespace

    from netcards.games.via_gladiola.cards import deck_for, kind_of
    from ui.games.via_gladiola import ViaGladiolaScreen

    deck = deck_for(None)
    finish = next(c for c in range(len(deck.blisters)) if kind_of(c) == "finish")
    start = next(c for c in range(len(deck.blisters)) if kind_of(c) == "start")

    def text_at(top: int, pile: list[int]) -> str:
        view = {"day": 2, "draw_pile": 9, "walk_pile": pile, "top_value": top,
                "gladiolas": [], "finished_days": [{"day": 1}]}  # fmt: skip
        client = SimpleNamespace(config=None, view=view)
        screen = ViaGladiolaScreen(SimpleNamespace(client=client))  # type: ignore[arg-type]
        return str(screen.table_text())

    assert "From 0: 1-5 draw 0; 6-10 draw 1; 11-15 draw 2; more is too fast" in text_at(0, [start])
    assert "From 36: 37-41 draw 0; 42-46 draw 1; 47-50 draw 2\n" in text_at(36, [start])
    assert "From 43: 44-48 draw 0; 49-50 draw 1\n" in text_at(43, [start])
    assert "From 49: 50 draw 0\n" in text_at(49, [start])
    assert "Walk pile: 0 → Finish" in text_at(50, [start, finish])
