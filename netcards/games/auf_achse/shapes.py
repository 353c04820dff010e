"""Auf Achse's data as it travels and as the log keeps it (docs/games/auf-achse.md)."""

from __future__ import annotations

from netcards.shape import EventShape, GameShapes, fields

KIND = (
    '"km" or "rest" or "lost_freight" or "level_crossing" or "free_road" or "completely_free_road"'
)
EFFECT = '"km" or "rest" or "lost_freight" or "level_crossing" or "free_road"'
STAGE_END = '"target" or "round_limit" or "no_cards"'
STAGE = f"""
stage: int
reason: {STAGE_END}
rounds: int
total: int
target: int
first_player: seat
scores: [int]
runs: [RunResult]
"""
CHOSEN = EventShape(fields("seat: seat\ncount: int\nwaiting: [seat]"), fields("cards: [card]"))
ADDED = EventShape(
    fields("counts: [int]\nrun_lengths: [int]"),
    fields("cards: [card]"),
    fields("cards_by_seat: [[card]]"),
)

SHAPES = GameShapes(
    card=fields(f"id: card\nkind: {KIND}\nvalue: int\nlabel: str"),
    actions={
        "run": fields("card: card"),
        "odometer": fields("card: card"),
        "free_road": fields("cards: [card]"),
    },
    view=fields(
        """
        game: "auf-achse"
        seat: seat or nil
        players: int
        stage: int
        stages: int
        round: int
        target: int
        first_player: seat
        phase: "run" or "odometer" or "free_road" or "over"
        waiting: [seat]
        current: seat or nil
        need: [int]
        chosen: [bool]
        pending_counts: [int]
        total: int
        odometer_km: [card]
        odometer_face_down: [seat]
        resolving: card or nil
        hand_sizes: [int]
        run_lengths: [int]
        draw_pile: int
        discard: [card]
        stage_results: [StageResult]
        scores: [int]
        over: bool
        hand?: [card]
        run?: [card]
        run_score?: RunScore
        pending?: [card]
        odometer_card?: card or nil
        """
    ),
    records={
        "RunScore": fields("score: int\nscored_from: int\nbreaks: [int]"),
        "RunResult": fields(
            "seat: seat\ncards: [card]\nscore: int\nscored_from: int\nbreaks: [int]"
        ),
        "StageResult": fields(STAGE),
        "StageSummary": fields("stage: int\ntotal: int\nruns: [RunSummary]"),
        "RunSummary": fields("seat: seat\ncards: [card]\nscore: int"),
    },
    events={
        "stage_start": EventShape(
            fields(
                "stage: int\nfirst_player: seat\ntarget: int\nhand_sizes: [int]\ndraw_pile: int"
            ),
            fields("hand: [card]"),
            fields("hands: [[card]]\ndraw_pile_top_last: [card]"),
        ),
        "round_start": EventShape(fields("stage: int\nround: int\nfirst_player: seat")),
        "run_chosen": CHOSEN,
        "runs_added": ADDED,
        "odometer_card": EventShape(fields("seat: seat"), fields("card: card")),
        "reveal": EventShape(
            fields(
                f"""
                seat: seat
                card: card
                label: str
                effect: {EFFECT}
                total?: int
                km_lost?: int
                removed?: [card or nil]
                run_lengths?: [int]
                cards?: int
                need?: [int]
                """
            )
        ),
        "free_road_chosen": CHOSEN,
        "free_road_added": ADDED,
        "refill": EventShape(fields("seat: seat\ncount: int"), fields("cards: [card]")),
        "reshuffle": EventShape(fields("size: int"), secret=fields("draw_pile_top_last: [card]")),
        "first_player": EventShape(fields("seat: seat")),
        "stage_end": EventShape(fields(STAGE + "totals: [int]")),
        "game_end": EventShape(fields("scores: [int]\nwinners: [seat]\nstage_scores: [[int]]")),
    },
    outcome_detail=fields("stage_scores: [[int]]\nstages: [StageSummary]"),
    deal=fields("stage: int\nhands: [[card]]\ndraw_pile_top_last: [card]\nfirst_player: seat"),
)
