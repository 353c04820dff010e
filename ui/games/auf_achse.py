"""Auf Achse's table: the odometer racing to the stage's distance, and your run with its breaks.

Everything shown comes from this seat's view and log, where the other runs are only a length and
a "has chosen": the screen has nothing it could give away. Everybody chooses run cards at the
same time, so most of the game is "choose, then wait for the others"; the players panel and the
status line say who is still choosing.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.binding import Binding

from netcards.action import Action
from netcards.games.auf_achse.actions import AddToRun, FreeRoad, PlayOdometer
from netcards.games.auf_achse.cards import (
    COMPLETELY_FREE_ROAD,
    FREE_ROAD_CARDS,
    KM,
    LEVEL_CROSSING,
    LOST_FREIGHT,
    REST,
    Deck,
    deck_for,
)
from netcards.games.auf_achse.cards import FREE_ROAD as FREE_ROAD_CARD
from netcards.games.auf_achse.state import FREE_ROAD, ODOMETER, RUN
from ui.games.base import GameScreen
from ui.i18n import N_, NP_, _, names_list, ngettext, pgettext
from ui.widgets.cardface import Look
from ui.widgets.hand import Hand

NAMES = {
    REST: N_("Rest"),
    LOST_FREIGHT: N_("Lost freight"),
    LEVEL_CROSSING: N_("Level crossing"),
    FREE_ROAD_CARD: N_("Free road"),
    COMPLETELY_FREE_ROAD: N_("Completely free road"),
}
LABELS = {  # in a context of their own: Velonimo's purple is a "P" too
    REST: NP_("card", "P"),  # the petrol pump on the card
    LOST_FREIGHT: NP_("card", "LF"),
    LEVEL_CROSSING: NP_("card", "LC"),
    FREE_ROAD_CARD: NP_("card", "FR1"),
    COMPLETELY_FREE_ROAD: NP_("card", "FR2"),
}
MARKS = {
    REST: NP_("card", "R"),
    LOST_FREIGHT: "-50",  # km off the odometer
    LEVEL_CROSSING: "-1",  # one card off every run
    FREE_ROAD_CARD: "+1",  # one card more in every run
    COMPLETELY_FREE_ROAD: "+2",
}
COLOURS = {
    REST: "",
    LOST_FREIGHT: "bold red",
    LEVEL_CROSSING: "bold magenta",
    FREE_ROAD_CARD: "bold blue",
    COMPLETELY_FREE_ROAD: "bold blue",
}
BANDS = ((40, "cyan"), (80, "yellow"), (120, "bold green"))
"""km cards by size: up to 40, up to 80, up to 120; one, two or three pips say the same."""

BAR = 16
NARROW_BAR = 8
"""The odometer's bar in a narrow window, so that its line fits 40 columns."""


def band(km: int) -> int:
    return next(i for i, (top, _colour) in enumerate(BANDS) if km <= top)


def on_face(text: str) -> str:
    """A label or mark of an action card, in the player's language (`NP_("card", ...)`)."""
    return pgettext("card", text)


class AufAchseScreen(GameScreen):
    """Auf Achse.

    | Key | Action |
    | :- | :- |
    | left / right | Choose a card |
    | enter | Lay it at the end of your run, or on the odometer; confirm a Free road |
    | space | Free road: select a card (the first selected goes into the run first) |
    """

    BINDINGS: ClassVar[list[Any]] = [
        *GameScreen.BINDINGS,
        Binding("enter", f"choose('{RUN}')", N_("To your run")),
        Binding("enter", f"choose('{ODOMETER}')", N_("To the odometer")),
        Binding("enter", f"choose('{FREE_ROAD}')", N_("Confirm")),
        Binding("space", f"select('{FREE_ROAD}')", N_("Select")),
    ]
    game_id = "auf-achse"
    deal_ends = frozenset({"stage_end"})
    part_start = "stage_start"
    move_kinds = frozenset({"run_chosen", "odometer_card", "free_road_chosen"})
    next_part = N_("Next stage")
    previous_part = N_("Previous stage")
    score_title = N_("km")
    next_deal = N_("Next stage in {n}s.")
    shown_keys: tuple[object, ...] = ()
    """What the Footer's keys were last worked out from (the step and whose turn it is)."""

    @property
    def deck(self) -> Deck:
        config = self.client.config
        return deck_for(config.options.get("deck") if config else None)

    # -- cards ----------------------------------------------------------------------------------

    def look(self, card: int) -> Look:
        deck = self.deck
        kind = deck.kind[card]
        if kind == KM:
            km = deck.value[card]
            pips = ("o" if self.ascii_mode else "•") * (band(km) + 1)
            # In a word the km alone: the pips say its size again.
            return Look(str(km), pips, BANDS[band(km)][1], self.card_name(card), str(km))
        label = on_face(LABELS[kind])  # in a word the label alone: the mark is its effect
        return Look(label, on_face(MARKS[kind]), COLOURS[kind], self.card_name(card), label)

    def label(self, card: int) -> str:
        """The card as on its face: '70', 'P', 'LC'..."""
        deck = self.deck
        kind = deck.kind[card]
        return str(deck.value[card]) if kind == KM else on_face(LABELS[kind])

    def card_name(self, card: int) -> str:
        deck = self.deck
        kind = deck.kind[card]
        if kind == KM:
            return _("{km} km").format(km=deck.value[card])
        return _(NAMES[kind])

    def describe_move(self, action: Action) -> str:
        if isinstance(action, AddToRun):
            return _("{card} to your run").format(card=self.card_name(action.card))
        if isinstance(action, PlayOdometer):
            return _("{card} to the odometer").format(card=self.card_name(action.card))
        assert isinstance(action, FreeRoad)
        return _("{cards} to your run").format(cards=self.card_names(list(action.cards)))

    def card_names(self, cards: list[int]) -> str:
        return ", ".join(self.card_name(c) for c in cards)

    def run_text(self, cards: list[int], breaks: list[int], scored_from: int) -> Text:
        """A run left to right, '|' before each card where it breaks; the part that scores is
        bold, the rest dim (the marks and the score say the same without styles)."""
        text = Text()
        for i, card in enumerate(cards):
            if i:
                text.append(" ")
            if i in breaks:
                text.append("|", style="bold red")
            text.append(self.label(card), style="bold" if i >= scored_from else "dim")
        return text

    def in_order(self, cards: list[int]) -> str:
        """Cards that go into a run in this order: '70 km, then Rest'."""
        return _(", then ").join(self.card_name(c) for c in cards)

    @property
    def arrows(self) -> str:
        return "<-/->" if self.ascii_mode else "←/→"

    def names(self, seats: list[int]) -> str:
        return names_list([self.name_of(s) for s in seats])

    # -- the table -------------------------------------------------------------------------------

    def table_text(self) -> RenderableType:
        view = self.view
        text = Text()
        head = [
            Text(
                _("Stage {stage} of {stages}").format(stage=view["stage"], stages=view["stages"]),
                "bold",
            ),
            Text(_("round {n}").format(n=view["round"])),
            Text(_("first player: {who}").format(who=self.name_of(view["first_player"]))),
        ]
        text.append_text(self.parts_line(head, ", "))
        text.append("\n")
        text.append_text(self.odometer_text())
        text.append("\n")
        up = " ".join(self.label(c) for c in view["odometer_km"]) or "-"
        text.append("  " + _("face up: {cards}").format(cards=up) + "\n")
        down = view["odometer_face_down"]
        if down:
            line = _("face down: {n}").format(n=len(down))
            if view.get("odometer_card") is not None:
                line += " " + _("(yours: {card})").format(
                    card=self.card_name(view["odometer_card"])
                )
            text.append("  " + line + "\n")
        if view["resolving"] is not None:
            card = view["resolving"]
            count = FREE_ROAD_CARDS[self.deck.kind[card]]
            text.append(
                ngettext(
                    "Now: {card}, +{n} card per run",
                    "Now: {card}, +{n} cards per run",
                    count,
                ).format(card=self.card_name(card), n=count)
                + "\n",
                style="bold",
            )
        if "run" in view:
            text.append_text(self.your_run_text())
        text.append(
            _("Draw pile {n}, discards {d}").format(n=view["draw_pile"], d=len(view["discard"]))
            + "\n"
        )
        return text

    def odometer_text(self) -> Text:
        view = self.view
        total, target = view["total"], view["target"]
        bar = NARROW_BAR if self.narrow else BAR
        filled = min(bar, total * bar // target) if target else 0
        full, empty = ("#", ".") if self.ascii_mode else ("█", "░")
        text = Text(_("Odometer") + " ")
        text.append("[" + full * filled, style="bold green")
        text.append(empty * (bar - filled) + "]")
        text.append(" " + _("{total} of {target} km").format(total=total, target=target))
        return text

    def your_run_text(self) -> Text:
        view = self.view
        run, score = view["run"], view["run_score"]
        text = Text(_("Your run:") + " ", style="bold")
        if run:
            text.append_text(self.run_text(run, score["breaks"], score["scored_from"]))
        else:
            text.append(_("(empty)"), style="dim")
        text.append(" = " + _("{km} km").format(km=score["score"]) + "\n")
        pending = view["pending"]
        if pending:
            text.append(
                "  "
                + _("then {cards}, when everybody has chosen").format(cards=self.in_order(pending))
                + "\n"
            )
        return text

    def score_of(self, seat: int) -> str:
        """The seat's km so far and, after it, what the last stage gave it ("430 (+160)"):
        beside each player's name, in the players' list, five players fit at 80 columns (a
        line of every stage's km by seat, "1:60/210/160", told nobody whose was whose)."""
        view = self.view
        scores = view.get("scores", [])
        if seat >= len(scores):
            return ""
        results = view.get("stage_results") or []
        if not results or view.get("over"):
            return str(scores[seat])
        return _("{total} (+{last})").format(total=scores[seat], last=results[-1]["scores"][seat])

    def score_brief(self, seat: int) -> str | None:
        scores = self.view.get("scores", [])
        return str(scores[seat]) if seat < len(scores) else None

    def note_of(self, seat: int) -> str:
        view = self.view
        if not view or view.get("over"):
            return ""
        note = _("run {n}").format(n=view["run_lengths"][seat])
        # (Narrow, the arrow alone says who still chooses: the room is the names'.)
        if view["phase"] in (RUN, FREE_ROAD) and view["chosen"][seat] and not self.narrow:
            note += ", " + _("chosen")
        return note

    # -- what to do now ----------------------------------------------------------------------------

    def free_road_need(self) -> int:
        """How many cards this seat still has to pick for a Free road (0: none now)."""
        view = self.view
        if view.get("phase") != FREE_ROAD or self.seat not in view.get("waiting", []):
            return 0
        return int(view["need"][self.seat])

    def prompt(self) -> str:
        view = self.view
        if view.get("over"):
            return _("The game is over.")
        if not self.my_turn:
            return self.waiting_text()
        phase = view["phase"]
        card = self.query_one(Hand).current
        name = self.card_name(card) if card is not None else ""
        keys = self.arrows
        if phase == RUN:
            return _("Your run: {keys} choose, enter lays {card} at its end").format(
                keys=keys, card=name
            )
        if phase == ODOMETER:
            return _("Odometer: {keys} choose, enter plays {card} face down").format(
                keys=keys, card=name
            )
        return self.free_road_hint(tuple(self.query_one(Hand).order), self.free_road_need())

    def free_road_hint(self, picked: tuple[int, ...], need: int) -> str:
        """What to do for the Free road or Completely free road being resolved, by its name."""
        resolving = self.view.get("resolving")
        road = self.card_name(resolving) if resolving is not None else _(NAMES[FREE_ROAD_CARD])
        if need == 1 and picked:
            return _("{road}: {card} selected, enter adds it to your run").format(
                road=road, card=self.card_name(picked[0])
            )
        if need == 1:
            return _("{road}: {keys} choose a card for your run, enter adds it").format(
                road=road, keys=self.arrows
            )
        if not picked:
            return _("{road}: space selects 2 cards, the 1st goes first; enter adds them").format(
                road=road
            )
        if len(picked) == 1:
            return _("1st: {card}; space selects the 2nd card, enter adds them").format(
                card=self.card_name(picked[0])
            )
        return _("1st: {a}, 2nd: {b}; enter adds them, space unselects").format(
            a=self.card_name(picked[0]), b=self.card_name(picked[1])
        )

    def waiting_text(self) -> str:
        view = self.view
        if self.client.awaiting:
            return _("Sent; waiting for the host...")
        phase = view.get("phase")
        if phase == ODOMETER:
            return _("Waiting for {name} to play to the odometer.").format(
                name=self.name_of(view["current"])
            )
        others = self.names(view.get("waiting", []))
        if self.seat is None:  # a watcher: who the table waits for ("Watching" says the rest)
            return _("Waiting for {names}.").format(names=others)
        if not view["need"][self.seat]:
            return _("You have no card to add; waiting for {names}.").format(names=others)
        if phase == FREE_ROAD:
            return _("Free road cards chosen; waiting for {names}.").format(names=others)
        return _("Run card chosen; waiting for {names}.").format(names=others)

    # -- the log -----------------------------------------------------------------------------------

    def describe(self, event: dict[str, Any]) -> str | None:
        kind = event["kind"]
        who = self.name_of(event.get("seat"))
        if kind == "stage_start":
            return (
                _("Stage {stage}: drive {target} km.").format(
                    stage=event["stage"], target=event["target"]
                )
                + " "
                + self.plays_first(event["first_player"])
            )
        if kind == "round_start":
            return (
                _("Round {round}.").format(round=event["round"])
                + " "
                + self.plays_first(event["first_player"])
            )
        if kind == "run_chosen":
            if "cards" in event and self.stand_in_move:
                return _("Your stand-in chose {card} for your run").format(
                    card=self.card_names(event["cards"])
                )
            if "cards" in event:
                return _("You chose {card} for your run").format(
                    card=self.card_names(event["cards"])
                )
            if event.get("seat") == self.seat and not self.stand_in_move:
                return _("You chose a run card")  # sealed, after a rejoin: the card is not known
            return _("{who} chose a run card").format(who=self.subject(event.get("seat")))
        if kind == "runs_added":
            return _("Run cards laid; runs: {lengths}").format(
                lengths=self.per_seat(event["run_lengths"])
            )
        if kind == "free_road_added":
            return _("Free road cards laid: {counts}").format(counts=self.per_seat(event["counts"]))
        if kind == "odometer_card":
            if "card" in event and self.stand_in_move:
                return _("Your stand-in put {card} face down on the odometer").format(
                    card=self.card_name(event["card"])
                )
            if "card" in event:
                return _("You put {card} face down on the odometer").format(
                    card=self.card_name(event["card"])
                )
            return _("{who} put a card face down on the odometer").format(
                who=self.subject(event.get("seat"))
            )
        if kind == "reveal":
            return self.describe_reveal(event, who)
        if kind == "free_road_chosen":
            if "cards" in event and self.stand_in_move:
                return _("Your stand-in chose {cards} for your run").format(
                    cards=self.in_order(event["cards"])
                )
            if "cards" in event:
                return _("You chose {cards} for your run").format(
                    cards=self.in_order(event["cards"])
                )
            if event.get("seat") == self.seat and not self.stand_in_move:
                return ngettext("You chose {n} card", "You chose {n} cards", event["count"]).format(
                    n=event["count"]
                )
            return ngettext("{who} chose {n} card", "{who} chose {n} cards", event["count"]).format(
                who=self.subject(event.get("seat")), n=event["count"]
            )
        if kind == "first_player":
            return _("The first-player card passes to {who}").format(who=who)
        if kind == "refill":
            if "cards" in event:
                return self.you_drew(event["cards"], self.card_name)
            return ngettext("{who} drew {n} card", "{who} drew {n} cards", event["count"]).format(
                who=self.subject(event.get("seat")), n=event["count"]
            )
        if kind == "reshuffle":
            return _("The discards were shuffled into a new draw pile ({n} cards)").format(
                n=event["size"]
            )
        if kind == "stage_end":
            return self.describe_stage_end(event)
        if kind == "game_end":
            return self.describe_game_end(event)
        return None

    def plays_first(self, seat: int) -> str:
        if seat == self.seat:
            return _("You play first.")
        return _("{who} plays first.").format(who=self.subject(seat))

    def per_seat(self, numbers: list[int]) -> str:
        """'you 3, Bo 2, Cy 3': one number per seat, in seat order."""
        return ", ".join(f"{self.name_of(s)}: {n}" for s, n in enumerate(numbers))

    def describe_reveal(self, event: dict[str, Any], who: str) -> str:
        card = self.card_name(event["card"])
        effect = event["effect"]
        if effect == "km":
            return _("Turned up (from {who}): {card}, odometer {total} km").format(
                who=who, card=card, total=event["total"]
            )
        if effect == "rest":
            return _("Turned up (from {who}): {card}, no effect").format(who=who, card=card)
        if effect == "lost_freight" and not event["km_lost"]:
            return _("Turned up (from {who}): {card}, the odometer is already at 0 km").format(
                who=who, card=card
            )
        if effect == "lost_freight":
            return _("Turned up (from {who}): {card}, -{lost} km, odometer {total} km").format(
                who=who, card=card, lost=event["km_lost"], total=event["total"]
            )
        if effect == "level_crossing":
            losses = ", ".join(
                f"{self.name_of(s)} "
                + (self.card_name(removed) if removed is not None else _("nothing"))
                for s, removed in enumerate(event["removed"])
            )
            return _(
                "Turned up (from {who}): {card}, every run loses its last card: {losses}"
            ).format(who=who, card=card, losses=losses)
        line = ngettext(
            "Turned up (from {who}): {card}, +{n} card per run",
            "Turned up (from {who}): {card}, +{n} cards per run",
            event["cards"],
        ).format(who=who, card=card, n=event["cards"])
        short = [s for s, n in enumerate(event["need"]) if n < event["cards"]]
        if short:
            line += " " + _("({names}: fewer, their hand is short)").format(names=self.names(short))
        return line

    def describe_stage_end(self, event: dict[str, Any]) -> str:
        stage, total, target = event["stage"], event["total"], event["target"]
        if event["reason"] == "round_limit":
            head = _("Stage {stage} ends after {rounds} rounds at {total} of {target} km").format(
                stage=stage, rounds=event["rounds"], total=total, target=target
            )
        elif event["reason"] == "no_cards":
            head = _("Stage {stage} ends: nobody has a card left").format(stage=stage)
        else:
            head = _("Stage {stage} is over: the odometer reached {total} of {target} km").format(
                stage=stage, total=total, target=target
            )
        lines = [head]
        for run in event["runs"]:
            cards = self.run_text(run["cards"], run["breaks"], run["scored_from"]).plain
            lines.append(
                _("{who}: {run} = {km} km").format(
                    who=self.subject(run["seat"]),
                    run=cards or _("(empty)"),
                    km=run["score"],
                )
            )
        return "\n".join(lines)

    def deal_summary(self, event: dict[str, Any]) -> tuple[str, list[str]]:
        """How the stage ended, then each run and what it scored, and the totals so far: both
        in seat order, as the players' list has them (the log tells the runs as they were
        turned over, from the stage's first player on)."""
        seat_order = {**event, "runs": sorted(event["runs"], key=lambda run: run["seat"])}
        head, *runs = self.describe_stage_end(seat_order).split("\n")
        totals = event.get("totals", event["scores"])
        lines = [*runs, ""]
        for seat, total in enumerate(totals):
            lines.append(
                _("{who}: +{km} km this stage, {total} km in all").format(
                    who=self.subject(seat), km=event["scores"][seat], total=total
                )
            )
        return head, lines

    def describe_game_end(self, event: dict[str, Any]) -> str:
        winners, scores = event["winners"], event["scores"]
        best = scores[winners[0]] if winners else 0
        if len(winners) > 1:
            return _("The game is over: {names} share the win with {km} km").format(
                names=self.names(winners), km=best
            )
        if winners == [self.seat]:
            return _("The game is over: you win with {km} km").format(km=best)
        return _("The game is over: {who} wins with {km} km").format(
            who=self.names(winners), km=best
        )

    @classmethod
    def result_lines(cls, outcome: Any, names: list[str], config: Any) -> list[str]:
        stages = outcome.detail.get("stage_scores", [])
        lines = [_("km per stage, then the total:")]
        for seat, name in enumerate(names):
            parts = " + ".join(str(stage[seat]) for stage in stages) or "0"
            lines.append(
                _("{name}: {parts} = {total} km").format(
                    name=name, parts=parts, total=outcome.scores[seat]
                )
            )
        return lines

    # -- playing -------------------------------------------------------------------------------------

    def refresh_all(self) -> None:
        """As the base, with the hand selecting (in order) only while a Free road asks for cards."""
        if self.view:
            need = self.free_road_need()
            hand = self.query_one(Hand)
            hand.multi = hand.ordered = need > 0
            hand.limit = need or None
            if not need and hand.selected:
                hand.clear_selection()
        super().refresh_all()
        keys = (self.view.get("phase"), self.my_turn)
        if keys != self.shown_keys:
            self.shown_keys = keys
            self.refresh_bindings()

    def can_use(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys of the step now (`parameters` names it), greyed while the others
        choose."""
        if action not in ("choose", "select"):
            return super().can_use(action, parameters)
        if (self.view.get("phase"),) != parameters:
            return False
        return True if self.my_turn else None

    def action_choose(self, step: str) -> None:
        self.query_one(Hand).action_choose()

    def action_select(self, step: str) -> None:
        self.query_one(Hand).action_select_card()

    def on_hand_moved(self, message: Hand.Moved) -> None:
        self.prompt_changed()

    def on_hand_selected(self, message: Hand.Selected) -> None:
        self.prompt_changed()

    def prompt_changed(self) -> None:
        """The prompt names the card under the cursor and the order of a Free road's cards."""
        if self.view:
            self.message = ""
            self.refresh_status()

    def on_hand_chosen(self, message: Hand.Chosen) -> None:
        message.stop()
        intent = self.intent(message.card, message.order)
        if isinstance(intent, str):
            self.say(intent)
        elif intent is not None:
            self.send_soon(intent)

    def intent(self, card: int | None, order: tuple[int, ...]) -> Action | str | None:
        """The action enter asks for, or why there is none."""
        view = self.view
        if view.get("over"):
            return _("The game is over.")
        if not self.my_turn:
            return self.waiting_text()
        if card is None:
            return None
        phase = view["phase"]
        action: Action
        if phase == RUN:
            action = AddToRun(card)
        elif phase == ODOMETER:
            action = PlayOdometer(card)
        else:
            need = self.free_road_need()
            picked = order or ((card,) if need == 1 else ())
            if len(picked) != need:  # what is missing: the prompt beside it says the rest
                missing = need - len(picked)
                return ngettext(
                    "Select {n} more card with space first.",
                    "Select {n} more cards with space first.",
                    missing,
                ).format(n=missing)
            action = FreeRoad(picked)
        if action not in self.legal():
            return _("That card cannot be played now.")
        return action
