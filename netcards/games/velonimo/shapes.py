"""Velonimo's data as it travels and as the log keeps it (docs/games/velonimo.md)."""

from __future__ import annotations

from netcards.shape import EventShape, GameShapes, fields

PHASE = '"play" or "victim" or "give_back" or "next_leader" or "reward" or "over"'
END = '"rounds_done" or "duel_target"'

SHAPES = GameShapes(
    card=fields(
        """
        id: card
        kind: "runner" or "hare"
        value: int
        colour: str or nil
        animal: "turtle" or "dromedary" or "tiger" or "hare" or nil
        """
    ),
    actions={
        "play": fields("cards: [card]\njersey: bool"),
        "pass": (),
        "victim": fields("seat: seat"),
        "give_back": fields("card: card"),
        "leader": fields("seat: seat"),
        "reward": fields("to_seat: seat"),
    },
    view=fields(
        f"""
        game: "velonimo"
        seat: seat or nil
        players: int
        mode: "standard" or "duel"
        round: int
        rounds: int
        difficulties: [int]
        difficulty: int
        phase: {PHASE}
        current: seat or nil
        first_player: seat
        hand_sizes: [int]
        finished: [seat]
        attack: [TablePlay]
        attack_value: int or nil
        last_player: seat or nil
        passes: int
        discard: [card]
        set_aside: int
        round_points: [int]
        round_scores: [[int]]
        totals: [int]
        jersey: Jersey
        exchange: Exchange or nil
        reward: card or nil
        draw_pile: int
        duel_target: int or nil
        over: bool
        end_reason: {END} or nil
        hand?: [card]
        """
    ),
    records={
        "TablePlay": fields("seat: seat\ncards: [card]\njersey: bool\nvalue: int"),
        "Jersey": fields("holder: seat or nil\nused: bool\nbonus: int"),
        "Exchange": fields(
            "thief: seat\nvictim: seat or nil\ncount: int\nto_give: int or nil\ntaken?: [card]"
        ),
    },
    events={
        "play": EventShape(
            fields("seat: seat\ncards: [card]\njersey: bool\nvalue: int\nhand_size: int")
        ),
        "pass": EventShape(fields("seat: seat")),
        "finish": EventShape(fields("seat: seat\nplace: int\npoints: int\nopponents_left: int")),
        "water_draw": EventShape(
            fields("seat: seat\ndromedaries: int\ncount: int\ndraw_pile: int"),
            fields("cards: [card]"),
        ),
        "attack_won": EventShape(fields("seat: seat\nfinished: bool")),
        "leader_take": EventShape(
            fields("seat: seat\nvictim: seat\nleaders: int\ncount: int"), fields("cards: [card]")
        ),
        "leader_give": EventShape(
            fields("seat: seat\nvictim: seat\nto_give: int"), fields("card: card")
        ),
        "next_leader": EventShape(fields("seat: seat\nleader: seat")),
        "reward": EventShape(fields("seat: seat\ncard: card\nto: seat")),
        "reward_revealed": EventShape(fields("card: card or nil\ndraw_pile: int")),
        "round_end": EventShape(
            fields(
                """
                round: int
                difficulty: int
                finish_order: [seat]
                scores: [int]
                totals: [int]
                jersey: seat or nil
                """
            ),
            secret=fields("hands_left: [[card]]"),
        ),
        "round_start": EventShape(
            fields(
                """
                round: int
                difficulty: int
                first_player: seat
                hand_sizes: [int]
                jersey: seat or nil
                reward: card or nil
                draw_pile: int
                """
            ),
            fields("hand: [card]"),
            fields("set_aside: [card]\ndraw_pile_top_last: [card]"),
        ),
        "game_end": EventShape(
            fields(
                f"reason: {END}\nscores: [int]\nwinners: [seat]\njersey: seat or nil\n"
                "round_scores: [[int]]"
            )
        ),
    },
    outcome_detail=fields(
        f"""
        reason: {END}
        mode: "standard" or "duel"
        difficulties: [int]
        round_scores: [[int]]
        totals: [int]
        jersey: seat or nil
        """
    ),
    deal=fields(
        """
        round: int
        hands: [[card]]
        set_aside: [card]
        draw_pile_top_last: [card]
        reward: card or nil
        first_player: seat
        """
    ),
)
