"""The README's *Small windows and phones* as the code has it: the sizes that pick a layout
(`ui.layout`), the key behind which the log and the chat go, and the card words it shows as
examples (each title's own look of those cards)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from netcards.games.auf_achse import cards as aa_cards
from netcards.games.velonimo.cards import COLOUR, VALUE, is_hare
from netcards.games.via_gladiola import cards as vg_cards
from ui.games.auf_achse import AufAchseScreen
from ui.games.base import GameScreen
from ui.games.velonimo import VelonimoScreen
from ui.games.via_gladiola import ViaGladiolaScreen
from ui.layout import FULL, SMALLEST, TALL_ROWS

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("**Small windows and phones.**") :].split("\n\n## ")[0]


def test_the_sizes_are_the_layout_s() -> None:
    assert f"from a window of {SMALLEST.width}x{SMALLEST.height} up" in SECTION
    assert f"From {FULL.width}x{FULL.height} the table has its full layout" in SECTION
    assert f"under {FULL.width} columns the log and the chat are behind `l`" in SECTION
    assert f"under {FULL.height} rows" in SECTION
    assert f"A narrow window of\n  {TALL_ROWS} rows or more" in SECTION
    assert f"Below {SMALLEST.width}x{SMALLEST.height} the table says" in SECTION


def test_l_is_the_key_of_the_log_and_the_table_and_escape_goes_back() -> None:
    keys = {(b.key, b.action) for b in GameScreen.BINDINGS}
    assert {("l", "log_view(1)"), ("l", "log_view(0)"), ("escape", "log_view(0)")} <= keys


def word(screen: Any, card: int, **facts: Any) -> str:
    """A card's word as the title's screen draws it."""
    stub = SimpleNamespace(ascii_mode=False, card_name=lambda card: "", **facts)
    return str(screen.look(stub, card).word)


def test_the_card_words_the_section_shows_are_the_titles() -> None:
    vg = vg_cards.deck_for(None)
    for km in (12, 40):
        card = vg.value.index(km)
        shown = word(ViaGladiolaScreen, card, deck=vg)
        blisters = vg.blisters[card]
        assert shown == f"{km}•{blisters}" and f"`{'·' if km == 40 else '[ '}{shown}" in SECTION
    card = vg.value.index(12)
    assert f"`12•{vg.blisters[card]}` is 12 km with {vg.blisters[card]} blister" in SECTION
    red_five = next(c for c in range(len(VALUE)) if VALUE[c] == 5 and COLOUR[c] == 0)
    assert not is_hare(red_five) and word(VelonimoScreen, red_five) == "5R"
    assert "Velonimo's `5R` a red 5" in SECTION
    aa = aa_cards.deck_for(None)
    seventy = next(
        c for c in range(len(aa.kind)) if aa.kind[c] == aa_cards.KM and aa.value[c] == 70
    )
    assert word(AufAchseScreen, seventy, deck=aa) == "70" and "Auf Achse's `70` 70 km" in SECTION
