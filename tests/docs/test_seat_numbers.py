"""One seat numbering (docs/sealed.md, "Seat numbers"; docs/protocol.md, section 6): every seat
number a message carries counts from 0, every seat number in words a person reads counts from 1:
a sealed table's findings (a verdict, a `cheated` notice's detail, the host's log, a refusal's
text), the fair deal's verdict, the engines' refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from netcards.sealed_choices import ChoiceRefused, ChoiceStep
from protocol.sealed.draws import Draws
from protocol.sealed.errors import Caught, Finding
from protocol.sealed_play.audit import describe
from protocol.sealed_play.progress import HOST

ROOT = Path(__file__).parents[2]
SOURCES = sorted(p for folder in ("netcards", "protocol") for p in (ROOT / folder).rglob("*.py"))
SEAT_IN_WORDS = re.compile(r"\bseats?(?:\(s\))? \{([^}]*)\}")


def test_a_finding_in_words_counts_seats_from_1_and_names_the_host() -> None:
    assert str(Finding(0, "forged", "x")) == "seat 1: forged (x)"
    assert str(Finding(HOST, "equivocated", "x")) == "the host: equivocated (x)"
    assert (
        describe(Finding(2, "wrong_opening", "x")) == "deal NOT verified: seat 3: wrong_opening (x)"
    )
    assert describe(Finding(HOST, "rewritten", "x")) == "deal NOT verified: the host: rewritten (x)"


def test_the_details_a_cheated_notice_carries_count_from_1_where_the_seat_field_counts_from_0() -> (
    None
):
    with pytest.raises(Caught) as caught:
        Draws(seats=(0, 1), asked=1).on_commit(1, 3, bytes(32), blame=1)
    assert caught.value.seat == 1  # the notice's `seat`
    assert caught.value.finding.detail == "seat 2 committed to draw 3"  # its `detail`
    step = ChoiceStep(0, {0: 1, 1: 1})
    with pytest.raises(ChoiceRefused) as refused:
        step.commit(2, bytes(32))
    assert refused.value.seat == 2 and str(refused.value).startswith("seat 3: ")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_seat_a_text_names_counts_from_1(path: Path) -> None:
    """Every f-string of the engine and the protocol that writes `seat {...}` adds 1 to the
    seat: a refusal's text, a verdict's problem, a log line (an internal ValueError, which no
    person reads, is left alone)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if 'f"' not in line or "ValueError" in line:
            continue
        for expression in SEAT_IN_WORDS.findall(line):
            assert re.search(r"\+ 1\b", expression), f"{path.name}:{number}: {line.strip()}"
