"""Programs that take every mask and re-key step without checking its proof.

Every step is proved when it is made, so a tampered deck never reaches a table whose programs
check. What comes after (a seat finding a card that is no card, the `broken` step, every
seat's secrets, the audit naming who did it) is the second line, kept for a flaw the proofs
might have; these tests reach it by switching the first line off in their own process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from protocol.sealed import rekey_proof, shuffle_proof


@pytest.fixture
def unproved(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(shuffle_proof, "verify", lambda *args: None)
    monkeypatch.setattr(rekey_proof, "verify", lambda *args: None)
    yield
