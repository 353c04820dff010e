"""Via Gladiola's data as it travels and as the log keeps it (docs/games/via-gladiola.md)."""

from __future__ import annotations

from netcards.shape import EventShape, GameShapes, fields

END = '"day_4_over" or "last_card"'

SHAPES = GameShapes(
    card=fields(
        """
        id: card
        kind: "distance" or "finish" or "gladiola" or "start"
        value: int
        blisters: int
        """
    ),
    actions={
        "walk": fields("card: card"),
        "rest": (),
        "gladiola": fields("card: card"),
    },
    view=fields(
        f"""
        game: "via-gladiola"
        seat: seat or nil
        players: int
        day: int
        walk_pile: [card]
        top_value: int
        finished_days: [FinishedDay]
        reshuffled_days: [int]
        gladiolas: [card]
        draw_pile: int
        hand_sizes: [int]
        current: seat or nil
        first_player: seat
        idle_rests: int
        variant_last_card: bool
        over: bool
        end_reason: {END} or nil
        final_hands?: [[card]]
        hand?: [card]
        """
    ),
    records={"FinishedDay": fields("day: int\ncards: [card]")},
    events={
        "walk": EventShape(fields("seat: seat\ncard: card\ncadence_draws: int")),
        "rest": EventShape(fields("seat: seat")),
        "gladiola": EventShape(fields("seat: seat\ncard: card")),
        "draw": EventShape(fields("seat: seat\ncount: int"), fields("cards: [card]")),
        "reshuffle": EventShape(
            fields("day: int\nsize: int"), secret=fields("draw_pile_top_last: [card]")
        ),
        "stalemate": EventShape(fields("day: int\nrests: int\nseat: seat")),
        "day_end": EventShape(fields('day: int\nreason: "finish" or "stalemate"\nseat: seat')),
        "day_start": EventShape(fields("day: int\nseat: seat")),
        "game_end": EventShape(
            fields(f"reason: {END}\nscores: [int]\nwinners: [seat]\nhands: [[card]]")
        ),
    },
    outcome_detail=fields(f"reason: {END}\nhands: [[card]]\nhand_sizes: [int]\nblisters: [[int]]"),
    deal=fields(
        "hands: [[card]]\ndraw_pile_top_last: [card]\nfirst_player: seat\nwalk_pile: [card]"
    ),
)
