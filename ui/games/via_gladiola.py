"""Via Gladiola's table: the walk pile with its cadence, your hand with its blisters."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.binding import Binding

from netcards.action import Action
from netcards.games.via_gladiola.actions import PlayGladiola, Rest, Walk
from netcards.games.via_gladiola.cards import deck_for, kind_of
from ui.games.base import GameScreen
from ui.i18n import N_, _, ngettext
from ui.session import Session
from ui.widgets.cardface import Look
from ui.widgets.hand import Hand


def _card_label(card: int, deck: Any) -> str:
    kind = kind_of(card)
    if kind == "distance":
        return str(deck.value[card])
    return {"finish": "FIN", "gladiola": "GLA"}.get(kind, "S")


BLISTER_COLOURS = ("green", "green", "yellow", "yellow", "red", "red")


class ViaGladiolaScreen(GameScreen):
    """Via Gladiola.

    | Key | Action |
    | :- | :- |
    | left / right | Choose a card |
    | enter | Walk it (or lay a Gladiola, on day 4) |
    | r | Rest: draw one card |
    """

    BINDINGS: ClassVar[list[Any]] = [
        *GameScreen.BINDINGS,
        Binding("enter", "play", N_("Walk")),
        Binding("r", "rest", N_("Rest")),
    ]
    game_id = "via-gladiola"
    deal_ends = frozenset({"day_end"})
    part_start = "day_start"
    move_kinds = frozenset({"walk", "rest", "gladiola", "draw"})  # a draw follows a walk or rest
    next_part = N_("Next day")
    previous_part = N_("Previous day")
    score_title = N_("blisters")
    next_deal = N_("Next day in {n}s.")

    def __init__(self, session: Session, *, ascii_mode: bool = False) -> None:
        super().__init__(session, ascii_mode=ascii_mode)
        config = session.client.config
        self.deck = deck_for(config.options.get("deck") if config else None)

    @classmethod
    def result_lines(cls, outcome: Any, names: list[str], config: Any) -> list[str]:
        deck = deck_for(config.options.get("deck") if config else None)
        lines = []
        for seat, hand in enumerate(outcome.detail.get("hands", [])):
            parts = " + ".join(f"{_card_label(c, deck)}:{deck.blisters[c]}" for c in hand) or "-"
            total = outcome.scores[seat]
            lines.append(
                _("{name}: {cards}, {parts} = {blisters}").format(
                    name=names[seat],
                    cards=ngettext("{n} card", "{n} cards", len(hand)).format(n=len(hand)),
                    parts=parts,
                    blisters=ngettext("{n} blister", "{n} blisters", total).format(n=total),
                )
            )
        return lines

    def key_for(self, action: Action) -> str | None:
        return "r" if isinstance(action, Rest) else None

    def look(self, card: int) -> Look:
        kind = kind_of(card)
        blisters = self.deck.blisters[card]
        mark = ("b" if self.ascii_mode else "•") + str(blisters)
        colour = BLISTER_COLOURS[min(blisters, 5)]
        if kind == "distance":
            value = self.deck.value[card]
            return Look(str(value), mark, colour, f"{value}")
        if kind == "finish":
            return Look("FIN", mark, "bold cyan", _("Finish"))
        if kind == "gladiola":
            return Look("GLA", mark, "magenta", _("Gladiola"))
        return Look("S", "", "", _("Start"))

    def card_name(self, card: int) -> str:
        kind = kind_of(card)
        if kind == "distance":
            return str(self.deck.value[card])
        if kind == "finish":
            return _("a Finish")
        if kind == "gladiola":
            return _("a Gladiola")
        return _("a Start card")

    def pile_name(self, card: int) -> str:
        """A card in the walk pile, in a word (the pile is a row of them)."""
        kind = kind_of(card)
        if kind == "finish":
            return _("Finish")
        return "0" if kind == "start" else self.card_name(card)

    def describe_move(self, action: Action) -> str:
        if isinstance(action, Walk):
            return _("walk {card}").format(card=self.card_name(action.card))
        if isinstance(action, PlayGladiola):
            return _("lay {card}").format(card=self.card_name(action.card))
        return _("rest")

    # -- the table --------------------------------------------------------------------------------

    def table_text(self) -> RenderableType:
        view = self.view
        text = Text()
        text.append(_("Day {day} of 4").format(day=view["day"]), style="bold")
        text.append("   " + _("draw pile: {n}").format(n=view["draw_pile"]) + "\n")
        pile = [self.pile_name(c) for c in view["walk_pile"]]
        arrow = " > " if self.ascii_mode else " → "
        shown = pile if len(pile) <= 9 else ["...", *pile[-8:]]
        text.append(_("Walk pile: ") + arrow.join(shown) + "\n")
        top = view["top_value"]
        if top < 50:
            # Nothing is above 50 km (the Finish): the steps that would pass it are not said.
            ranges = [
                _("{a}-{b} draw {n}").format(a=top + lo, b=min(top + hi, 50), n=n)
                if top + lo < min(top + hi, 50)
                else _("{a} draw {n}").format(a=top + lo, n=n)
                for lo, hi, n in ((1, 5, 0), (6, 10, 1), (11, 15, 2))
                if top + lo <= 50
            ]
            sep = _("; ")  # (French puts a space before it)
            said = _("From {top}: {ranges}")
            if top + 16 <= 50:
                said = _("From {top}: {ranges}; more is too fast")
            if self.narrow:  # broken between two steps, never inside one ("18-22 draw 0")
                head, tail = said.format(top=top, ranges="\0").split("\0")
                steps = [head + ranges[0], *ranges[1:]]
                steps[-1] += tail
                text.append_text(self.parts_line([Text(s, "dim") for s in steps], sep))
                text.append("\n")
            else:
                text.append(said.format(top=top, ranges=sep.join(ranges)) + "\n", style="dim")
        if view["gladiolas"]:
            text.append(_("Gladiolas laid aside: {n}").format(n=len(view["gladiolas"])) + "\n")
        # Day 4 ends the game: its pile is never shuffled back.
        days = [f"{d['day']}" for d in view["finished_days"] if d["day"] < 4]
        if days:
            text.append(_("Finished days still to reshuffle: {days}").format(days=", ".join(days)))
        return text

    def score_of(self, seat: int) -> str:
        final = self.view.get("final_hands")
        if final:
            return str(sum(self.deck.blisters[c] for c in final[seat]))
        if seat == self.seat:
            return str(sum(self.deck.blisters[c] for c in self.view.get("hand", [])))
        return ""

    def prompt(self) -> str:
        view = self.view
        if view.get("over"):
            return _("The game is over.")
        if not self.my_turn:
            current = view.get("current")
            return _("Waiting for {name}.").format(name=self.name_of(current))
        if view["day"] == 4:
            return _("Your turn: enter walks the card (or lays a Gladiola); r rests")
        return _("Your turn: enter walks the card; r rests (draw one)")

    # -- the log --------------------------------------------------------------------------------------

    def describe(self, event: dict[str, Any]) -> str | None:
        kind = event["kind"]
        who = self.name_of(event.get("seat"))
        if kind == "walk":
            draws = event["cadence_draws"]
            pace = (_("normal"), _("fast"), _("very fast"))[draws]
            return _("{who} walked {card} ({pace})").format(
                who=self.subject(event.get("seat")), card=self.card_name(event["card"]), pace=pace
            )
        if kind == "draw":
            if event.get("cards"):
                return self.you_drew(event["cards"], self.card_name)
            return ngettext("{who} drew {n} card", "{who} drew {n} cards", event["count"]).format(
                who=self.subject(event.get("seat")), n=event["count"]
            )
        if kind == "rest":
            return _("{who} rested").format(who=self.subject(event.get("seat")))
        if kind == "gladiola":
            return _("{who} laid a Gladiola aside").format(who=self.subject(event.get("seat")))
        if kind == "reshuffle":
            return _("Day {day}'s walk pile was shuffled into a new draw pile ({n} cards)").format(
                day=event["day"], n=event["size"]
            )
        if kind == "stalemate":
            return _("Nobody could move any more: the day ends (stalemate guard)")
        if kind == "day_end":
            return _("Day {day} is over").format(day=event["day"])
        if kind == "day_start":
            if event.get("seat") == self.seat:
                return _("Day {day} begins: you start").format(day=event["day"])
            return _("Day {day} begins: {who} starts").format(day=event["day"], who=who)
        if kind == "game_end":
            return _("The game is over")
        return None

    def deal_summary(self, event: dict[str, Any]) -> tuple[str, list[str]]:
        """How the day ended, and the cards each walker still holds (blisters count at the
        end of day 4, for the cards then in hand)."""
        if event.get("reason") == "stalemate":
            how = _("Nobody could move any more.")
        else:
            how = _("{who} walked the Finish.").format(who=self.subject(event.get("seat")))
        lines = [how, ""]
        sizes = self.view.get("hand_sizes", [])
        for seat, size in enumerate(sizes):
            line = ngettext("{who}: {n} card in hand", "{who}: {n} cards in hand", size).format(
                who=self.subject(seat, mover=False), n=size
            )
            if seat == self.seat:
                blisters = int(self.score_of(seat) or 0)
                line += " " + ngettext("({n} blister)", "({n} blisters)", blisters).format(
                    n=blisters
                )
            lines.append(line)
        return _("Day {day} is over").format(day=event["day"]), lines

    # -- playing -----------------------------------------------------------------------------------------

    def on_hand_chosen(self, message: Hand.Chosen) -> None:
        message.stop()
        self.play_card(message.card)

    def play_card(self, card: int | None) -> None:
        if not self.my_turn:
            self.say(_("it is not your turn"))
            return
        if card is None:
            return
        legal = self.legal()
        for action in (Walk(card), PlayGladiola(card)):
            if action in legal:
                self.send_soon(action)
                return
        top = self.view["top_value"]
        if kind_of(card) == "gladiola":
            self.say(_("Gladiolas can only be laid on day 4"))
        elif kind_of(card) == "distance" and self.deck.value[card] <= top:
            self.say(
                _("{card} is not higher than {top}").format(card=self.card_name(card), top=top)
            )
        else:
            self.say(
                _("{card} is too far above {top} (more than +15)").format(
                    card=self.card_name(card), top=top
                )
            )

    def can_use(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("play", "rest"):
            return True if self.my_turn else None
        return super().can_use(action, parameters)

    def action_play(self) -> None:
        self.query_one(Hand).action_choose()

    def action_rest(self) -> None:
        if Rest() in self.legal():
            self.send_soon(Rest())
        else:
            self.say(_("it is not your turn"))
