"""The omniscient log: every game as JSON-Lines records an independent program can re-check.

Records (documented in docs/log-format.md): `game` (header with the whole deck), `deal` (every
hand and hidden pile), one `action` per action with every event in full (private parts by seat,
reshuffled pile orders), and `end`. Nothing in it depends on our RNG to be understood.
"""

from __future__ import annotations

import hashlib
from typing import Any

from netcards.action import Action
from netcards.event import Event
from netcards.game import Game, Outcome, TableConfig

LOG_FORMAT = 1


class GameLog:
    def __init__(
        self, game: Game[Any], config: TableConfig, seed: bytes, players: list[str], index: int = 0
    ) -> None:
        self.game = game
        self.config = config
        self.seed = seed
        self.players = players
        self.index = index
        self.turn = 0

    def start(self, state: Any) -> list[dict[str, Any]]:
        deck = self.config.options.get("deck")
        header = {
            "type": "game",
            "format": LOG_FORMAT,
            "index": self.index,
            "game": self.game.id,
            "rules_version": self.game.rules_version,
            "players": self.config.players,
            "seats": [
                {"seat": s, "player": self.players[s] if s < len(self.players) else f"seat {s + 1}"}
                for s in range(self.config.players)
            ],
            "options": {k: v for k, v in self.config.options.items() if k != "deck"},
            "custom_deck": deck is not None,
            "deck_text": deck,
            "deck_sha256": hashlib.sha256(deck.encode()).hexdigest() if deck is not None else None,
            "seed": self.seed.hex(),
            "deck": self.game.cards(self.config),
        }
        return [header, {"type": "deal", "index": self.index, **self.game.deal_record(state)}]

    def action(self, seat: int, action: Action, events: list[Event]) -> dict[str, Any]:
        self.turn += 1
        return {
            "type": "action",
            "index": self.index,
            "turn": self.turn,
            "seat": seat,
            "action": self.game.encode_action(action),
            "events": [e.omniscient() for e in events],
        }

    def end(self, outcome: Outcome) -> dict[str, Any]:
        return {"type": "end", "index": self.index, **outcome.to_data()}
