"""`netcards host --sealed`: refused in one line for a title that has no sealed engine. Every
title has one now, so the tests take the others away, as a title added without one would be."""

from __future__ import annotations

import io

import pytest

from ui.cli import run


@pytest.mark.parametrize("title", ["velonimo", "auf-achse"])
@pytest.mark.parametrize("headless", [True, False])
def test_sealed_is_refused_for_a_title_without_a_sealed_engine(
    title: str, headless: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import netcards.sealed_game
    from netcards.games.via_gladiola.sealed import SealedViaGladiola

    only = {"via-gladiola": SealedViaGladiola()}
    monkeypatch.setattr(netcards.sealed_game, "_engines", lambda: only)
    out, err = io.StringIO(), io.StringIO()
    argv = ["host", "--game", title, "--sealed", "--port", "0", "--discovery-port", "0"]
    code = run([*argv, "--headless"] if headless else argv, out, err)
    assert code != 0
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1, lines
    assert f"'{title}' cannot be played sealed yet" in lines[0] and "via-gladiola" in lines[0]
