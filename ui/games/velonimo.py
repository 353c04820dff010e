"""Velonimo's table: the attack to beat, the jersey, the finishing order, and your hand.

Combinations are built with the selection (space) and played with enter, so a play of five
cards takes the same keys as a play of one. Every other decision of the rules (whose hand the
turtles raid, the cards given back, who leads after a last card, where the duel's reward goes)
is a numbered choice or one card at a time, so the whole game needs the keyboard only. The
screen checks a selection as it grows and says why it is not a play, so an illegal move is
never sent; the host checks again anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.binding import Binding

from netcards.action import Action
from netcards.games.velonimo.actions import (
    ChooseLeader,
    ChooseVictim,
    GiveBack,
    GiveReward,
    Pass,
    Play,
)
from netcards.games.velonimo.cards import COLOUR, VALUE, is_hare
from netcards.games.velonimo.choices import jersey_wearable
from netcards.games.velonimo.combos import JERSEY_BONUS, combination_value
from ui.games.base import GameScreen
from ui.games.velonimo_log import (
    VelonimoLog,
    card_word,
    play_words,
)
from ui.i18n import N_, NP_, _, ngettext, pgettext
from ui.session import Session
from ui.widgets.cardface import Look
from ui.widgets.hand import Hand

# Translators: the letter (or two) on a card's face for its colour; keep them distinct.
COLOUR_LETTERS = (  # in a context of their own: Auf Achse's rest card is a "P" too
    NP_("colour", "R"),
    NP_("colour", "O"),
    NP_("colour", "Y"),
    NP_("colour", "G"),
    NP_("colour", "Bl"),
    NP_("colour", "P"),
    NP_("colour", "Br"),
)
COLOUR_STYLES = ("#d70000", "#ff8700", "#ffff00", "#00d700", "#5f87ff", "#af00d7", "#af5f00")
"""Seven colours that stay seven at every colour depth a terminal may have. Each is a colour
of the 256-colour cube (160, 208, 226, 40, 69, 128, 130), so a 256-colour terminal shows it
as chosen, and each is nearest to a different colour of the 16 (red, bright red, bright
yellow, green, bright blue, magenta, and yellow, the 16-colour palette's brown), so an
8/16-colour terminal shows seven too. None is bold: many terminals brighten bold text in
the 16 colours, which made red and orange one colour, and brown and yellow another. Named
ANSI colours are avoided too: the app turns them into its theme's colours, which the
terminal's 16 then bend (red became magenta). The letters on the faces say the colour
without any of this."""
HARE_STYLE = "bold"

CHOICE_PHASES = ("victim", "next_leader", "reward")
"""The phases that ask for a seat (with the digit keys)."""

SHOWN_PLAYS = 4
"""Plays of the current attack listed on the table; older ones are counted (the log has them)."""


def colour_letter(colour: int) -> str:
    return pgettext("colour", COLOUR_LETTERS[colour])


def short_code(card: int) -> str:
    """A card as on its face, in one word: '5R', '1Bl', 'H35'."""
    if is_hare(card):
        return f"H{VALUE[card]}"
    return str(VALUE[card]) + colour_letter(COLOUR[card])


def code_text(cards: Sequence[int]) -> Text:
    """Cards as face codes in their colours (the letter says the colour too)."""
    text = Text()
    for n, card in enumerate(sorted(cards)):
        if n:
            text.append(" ")
        style = HARE_STYLE if is_hare(card) else COLOUR_STYLES[COLOUR[card]]
        text.append(short_code(card), style=style)
    return text


def play_problem(cards: Sequence[int], jersey: bool, beat: int | None) -> str | None:
    """Why these cards are not a play on a table worth `beat` (None: they are one)."""
    if not cards:
        return _("choose cards first (space selects)")
    if len(cards) > 1:
        if any(is_hare(c) for c in cards):
            return _("a hare is always played alone")
        if len({COLOUR[c] for c in cards}) > 1 and len({VALUE[c] for c in cards}) > 1:
            return _("mixed colours and values: a combination shares one or the other")
    elif jersey and is_hare(cards[0]):
        return _("the jersey cannot be added to a lone hare")
    value = play_value(cards, jersey)
    if beat is not None and value <= beat:
        return _("{value} is not higher than {beat}").format(value=value, beat=beat)
    return None


def play_value(cards: Sequence[int], jersey: bool) -> int:
    return combination_value(sorted(cards)) + (JERSEY_BONUS if jersey else 0)


class VelonimoScreen(VelonimoLog, GameScreen):
    """Velonimo.

    | Key | Action |
    | :- | :- |
    | left / right | Move along your hand |
    | space | Select or unselect a card for a combination |
    | enter | Play the selection (or the card under the cursor); give back that card |
    | p | Pass |
    | j | Add the jersey to the play (+10, its holder, once a round) |
    | 1-5 | Choose a seat: whose cards your turtles take, who leads, where the reward goes |
    | s | Sort the hand by colour or by value |
    """

    BINDINGS: ClassVar[list[Any]] = [
        # Priority keys, as all of a game screen's (see GameScreen).
        Binding("enter", "play", N_("Play")),
        Binding("enter", "give", N_("Give back")),
        Binding("space", "select", N_("Select")),
        Binding("p", "pass", N_("Pass")),
        Binding("j", "jersey", N_("Jersey")),
        Binding("1", "pick(0)", N_("Choose"), key_display="1-5"),
        Binding("2", "pick(1)", show=False),
        Binding("3", "pick(2)", show=False),
        Binding("4", "pick(3)", show=False),
        Binding("5", "pick(4)", show=False),
        Binding("s", "sort", N_("Sort"), show=False),
        *GameScreen.BINDINGS,
    ]
    game_id = "velonimo"
    deal_ends = frozenset({"round_end"})
    part_start = "round_start"
    move_kinds = frozenset({"play", "pass", "leader_take", "leader_give", "next_leader", "reward"})
    next_part = N_("Next round")
    previous_part = N_("Previous round")
    multi_select = True
    score_title = N_("points")
    next_deal = N_("Next round in {n}s.")

    def __init__(self, session: Session, *, ascii_mode: bool = False) -> None:
        super().__init__(session, ascii_mode=ascii_mode)
        self.jersey_on = False
        """j was pressed: the next play wears the jersey."""
        self.by_value = False
        """s was pressed: the hand is sorted by value instead of by colour."""
        self.keys_shown: tuple[Any, ...] = ()

    # -- results -------------------------------------------------------------------------------

    @classmethod
    def result_lines(cls, outcome: Any, names: list[str], config: Any) -> list[str]:
        detail = outcome.detail
        difficulties = detail.get("difficulties", [])
        rounds = detail.get("round_scores", [])
        lines = [
            _("Rounds played: {n} (difficulty {list})").format(
                n=len(rounds), list=", ".join(str(d) for d in difficulties)
            )
            if rounds
            else _("No round was finished.")  # the host closed the table during the first
        ]
        for seat, name in enumerate(names):
            points = " + ".join(str(r[seat]) for r in rounds) or "0"
            lines.append(
                _("{name}: {points} = {total}").format(
                    name=name, points=points, total=outcome.scores[seat]
                )
            )
        holder = detail.get("jersey")
        if holder is None:
            lines.append(_("Nobody holds the polka-dot jersey."))
        else:
            lines.append(_("Polka-dot jersey: {name}").format(name=names[holder]))
        if detail.get("reason") == "duel_target":
            lines.append(_("The duel ended when a player reached the target."))
        return lines

    # -- cards -------------------------------------------------------------------------------------

    def look(self, card: int) -> Look:
        value = VALUE[card]
        if is_hare(card):
            return Look(f"H{value}", "", HARE_STYLE, card_word(card))
        colour = COLOUR[card]
        return Look(
            str(value),
            colour_letter(colour),
            COLOUR_STYLES[colour],
            card_word(card),
        )

    def hand_cards(self) -> list[int]:
        hand = list(self.view.get("hand", []))
        if self.by_value:
            return sorted(hand, key=lambda c: (VALUE[c], c))
        return sorted(hand)

    @property
    def sep(self) -> str:
        return " | " if self.ascii_mode else " · "

    # -- facts from the view ---------------------------------------------------------------------

    def still_in(self) -> list[int]:
        return [s for s, n in enumerate(self.view.get("hand_sizes", [])) if n]

    def passers(self) -> list[int]:
        """Who passed since the last play: the seats still holding cards after its player."""
        view = self.view
        last, count = view.get("last_player"), view.get("passes", 0)
        if last is None or not count:
            return []
        players = view["players"]
        sizes = view["hand_sizes"]
        order = [(last + step) % players for step in range(1, players)]
        return [s for s in order if sizes[s]][:count]

    def can_wear_jersey(self) -> bool:
        view = self.view
        if self.seat is None or not view:
            return False
        jersey = view["jersey"]
        return jersey_wearable(view["mode"] == "duel", jersey["holder"], jersey["used"], self.seat)

    def my_phase(self) -> str | None:
        """The phase if this seat is asked to act now, else None."""
        if not self.view or self.view.get("over") or not self.my_turn:
            return None
        return str(self.view["phase"])

    def selection(self) -> tuple[int, ...]:
        return tuple(sorted(self.query_one(Hand).selected))

    def seat_choices(self) -> list[int]:
        """The seats offered in the phases that ask for one."""
        view = self.view
        phase = view.get("phase")
        if phase == "victim":
            return [s for s in self.still_in() if s != self.seat]
        if phase == "next_leader":
            return self.still_in()
        if phase == "reward" and self.seat is not None:
            return [self.seat, 1 - self.seat]
        return []

    # -- the table ---------------------------------------------------------------------------------

    def table_text(self) -> RenderableType:
        view = self.view
        text = Text()
        head = [
            Text(_("Round {n} of {total}").format(n=view["round"], total=view["rounds"]), "bold"),
            Text(_("difficulty {d}").format(d=view["difficulty"]), "bold"),
        ]
        if view["mode"] == "duel":
            head.append(Text(_("target {n} points").format(n=view["duel_target"])))
        elif not view["over"]:
            left = len(self.still_in())
            if left > 1:
                head.append(Text(_("next out +{n}").format(n=view["difficulty"] * (left - 1))))
        text.append_text(self.parts_line(head, self.sep))
        text.append("\n")
        # The most pressing first: a big duel hand leaves the table only a few lines.
        self.exchange_text(text)
        self.attack_text(text)
        passed = self.passers()
        if passed and not self.narrow:  # (narrow, the players' notes alone say it: rows are few)
            text.append(
                _("Passed: {names}").format(names=", ".join(self.name_of(s) for s in passed)) + "\n"
            )
        if view["mode"] == "duel":
            text.append(_("Reward: "))
            if view["reward"] is None:
                text.append(_("none"), style="dim")
            else:
                text.append_text(code_text([view["reward"]]))
                text.append(" " + card_word(view["reward"]), style="dim")
            text.append(self.sep + _("draw pile {n}").format(n=view["draw_pile"]) + "\n")
        jersey = view["jersey"]
        holder = jersey["holder"]
        if holder is None:
            text.append(_("Jersey: nobody holds it") + "\n")
        elif view["mode"] == "duel":
            text.append(
                _("Jersey: {name} (no bonus in the duel)").format(name=self.name_of(holder)) + "\n"
            )
        else:
            state = _("used this round") if jersey["used"] else _("+10 once this round")
            text.append(
                _("Jersey: {name} ({state})").format(name=self.name_of(holder), state=state) + "\n"
            )
        finished = view["finished"]
        if finished:
            parts = [
                f"{n}. {self.name_of(s)} +{view['round_points'][s]}"
                for n, s in enumerate(finished, 1)
            ]
            text.append(_("Out: {order}").format(order="  ".join(parts)) + "\n")
        text.rstrip()
        return text

    def attack_text(self, text: Text) -> None:
        view = self.view
        attack = view["attack"]
        if not attack:
            if not view["over"] and view["phase"] == "play":
                if view["current"] == self.seat:
                    text.append(_("New attack: you lead") + "\n")
                else:
                    leader = self.name_of(view["current"])
                    text.append(_("New attack: {name} leads").format(name=leader) + "\n")
            return
        text.append(_("Attack: {value} to beat").format(value=view["attack_value"]) + "\n")
        hidden = len(attack) - SHOWN_PLAYS
        if hidden > 0:
            text.append(
                "  "
                + ngettext("({n} earlier play)", "({n} earlier plays)", hidden).format(n=hidden)
                + "\n",
                style="dim",
            )
        width = max(len(self.name_of(p["seat"])) for p in attack[-SHOWN_PLAYS:])
        for play in attack[-SHOWN_PLAYS:]:
            text.append("  " + self.name_of(play["seat"]).ljust(min(width, 16)) + "  ")
            text.append_text(code_text(play["cards"]))
            text.append(f" = {play['value']}", style="bold")
            if play["jersey"]:
                text.append(" " + _("(jersey)"))
            text.append("\n")

    def exchange_text(self, text: Text) -> None:
        """A leader's exchange under way: the cards only for the two seats involved."""
        exchange = self.view.get("exchange")
        if not exchange:
            return
        thief, victim, count = exchange["thief"], exchange["victim"], exchange["count"]
        if victim is None:
            if thief == self.seat:
                question = ngettext(
                    "Your turtle takes {n} card: from whom?",
                    "Your turtles take {n} cards: from whom?",
                    count,
                ).format(n=count)
            else:
                question = ngettext(
                    "{thief}'s turtle takes {n} card: from whom?",
                    "{thief}'s turtles take {n} cards: from whom?",
                    count,
                ).format(thief=self.subject(thief), n=count)
            text.append(question + "\n", style="bold")
            return
        taken = exchange.get("taken")
        if taken is not None and thief == self.seat:
            line = Text(_("You took from {name}: ").format(name=self.name_of(victim)))
            line.append_text(code_text(taken))
        elif taken is not None and victim == self.seat:
            line = Text(_("{name} took from you: ").format(name=self.subject(thief)))
            line.append_text(code_text(taken))
        else:
            line = Text(
                ngettext(
                    "{thief} took {n} card from {victim}",
                    "{thief} took {n} cards from {victim}",
                    count,
                ).format(thief=self.subject(thief), victim=self.name_of(victim), n=count)
            )
        line.stylize("bold")
        text.append_text(line)
        to_give = exchange["to_give"]
        text.append(
            "\n  "
            + ngettext("{n} more to give back", "{n} more to give back", to_give).format(n=to_give)
            + "\n"
        )

    def score_of(self, seat: int) -> str:
        view = self.view
        total = view["totals"][seat]
        now = view["round_points"][seat]
        return f"{total} +{now}" if now and not view["over"] else str(total)

    def score_brief(self, seat: int) -> str | None:
        return str(self.view["totals"][seat])

    def note_of(self, seat: int) -> str:
        view = self.view
        notes = []
        if self.my_phase() in CHOICE_PHASES and seat in self.seat_choices():
            notes.append(_("key {n}").format(n=seat + 1))
        if view["jersey"]["holder"] == seat:
            notes.append(_("jersey"))
        if seat in view["finished"]:
            notes.append(_("out #{n}").format(n=view["finished"].index(seat) + 1))
        elif seat in self.passers():
            notes.append(_("passed"))
        return ", ".join(notes)

    # -- what to do now -----------------------------------------------------------------------------

    def prompt(self) -> str:
        view = self.view
        if view.get("over"):
            return _("The game is over.")
        phase = self.my_phase()
        if phase is None:
            return self.waiting_prompt()
        if phase == "play":
            return self.play_prompt()
        if phase == "give_back":
            exchange = view["exchange"]
            return ngettext(
                "Enter gives this card to {name}: {n} more to give back",
                "Enter gives this card to {name}: {n} more to give back",
                exchange["to_give"],
            ).format(name=self.name_of(exchange["victim"]), n=exchange["to_give"])
        if phase == "victim":
            count = view["exchange"]["count"]
            head = ngettext(
                "Your turtle takes {n} card from:", "Your turtles take {n} cards from:", count
            ).format(n=count)
        elif phase == "next_leader":
            head = _("Who leads the next attack?")
        else:
            reward = view["reward"]
            head = _("You won {card}: into whose hand?").format(
                card=card_word(reward) if reward is not None else _("the reward")
            )
        return self.choice_line(head)

    def choice_line(self, head: str) -> str:
        """The question and its numbered answers, or only the digits when the names do not
        fit (the players list marks each seat's digit)."""
        choices = self.seat_choices()
        line = head + " " + self.sep.join(f"{s + 1} {self.name_of(s)}" for s in choices)
        if len(line) <= self.status_room():
            return line
        digits = ", ".join(str(s + 1) for s in choices)
        return _("{question} Press {digits} (see the players list)").format(
            question=head, digits=digits
        )

    def play_prompt(self) -> str:
        beat = self.view["attack_value"]
        jersey = self.jersey_on and self.can_wear_jersey()
        cards = self.selection()
        if cards:
            problem = play_problem(cards, jersey, beat)
            if problem is not None:
                return _("Not a play: {why}").format(why=problem)
            words = play_words(cards)
            if jersey:
                words = _("{play} with the jersey").format(play=words)
            return _("{play} = {value}: enter plays it").format(
                play=words, value=play_value(cards, jersey)
            )
        extra = " " + _("(with the jersey)") if jersey else ""
        if beat is None:
            return _("You lead: select cards (space), enter plays{extra}").format(extra=extra)
        return _("Beat {value}: select (space), enter plays{extra}, p passes").format(
            value=beat, extra=extra
        )

    def waiting_prompt(self) -> str:
        view = self.view
        who = self.subject(view["current"])
        phase = view["phase"]
        if phase == "victim":
            return _("{name} chooses whose cards the turtles take.").format(name=who)
        if phase == "give_back":
            return _("{name} gives cards back.").format(name=who)
        if phase == "next_leader":
            return _("{name} chooses who leads the next attack.").format(name=who)
        if phase == "reward":
            return _("{name} chooses where the reward goes.").format(name=who)
        if view["current"] == self.seat:
            return _("Your move is on its way...")
        return _("Waiting for {name}.").format(name=self.name_of(view["current"]))

    def refresh_all(self) -> None:
        if self.view and not self.can_wear_jersey():
            self.jersey_on = False
        super().refresh_all()
        keys = (self.my_phase(), self.view.get("attack_value") is None, self.can_wear_jersey())
        if keys != self.keys_shown:  # the footer is rebuilt only when its keys change
            self.keys_shown = keys
            self.refresh_bindings()

    # -- keys --------------------------------------------------------------------------------------------

    def describe_move(self, action: Action) -> str:
        if isinstance(action, Play):
            words = _("play {cards}").format(cards=play_words(action.cards))
            return words + (" + " + _("jersey") if action.jersey else "")
        if isinstance(action, ChooseVictim):
            return _("take from {name}").format(name=self.name_of(action.seat))
        if isinstance(action, GiveBack):
            return _("give back {card}").format(card=card_word(action.card))
        if isinstance(action, ChooseLeader):
            return _("let {name} lead").format(name=self.name_of(action.seat))
        if isinstance(action, GiveReward):
            return _("give the reward to {name}").format(name=self.name_of(action.to_seat))
        return _("pass")

    def card_code(self, card: int) -> str:
        return short_code(card)  # the value alone would leave out the colour

    def key_for(self, action: Action) -> str | None:
        if isinstance(action, Pass):
            return "p"
        if isinstance(action, ChooseVictim | ChooseLeader):
            return str(action.seat + 1)
        if isinstance(action, GiveReward):
            return str(action.to_seat + 1)
        return None

    def point_at(self, action: Action) -> None:
        super().point_at(action)
        if isinstance(action, Play) and action.jersey and self.can_wear_jersey():
            self.jersey_on = True

    def can_use(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show (and take) only the keys that mean something now; a selection may be made
        while the others play, ready for your turn."""
        phase = self.my_phase()
        if action == "play":
            return True if phase == "play" else None if phase is None else False
        if action == "give":
            return phase == "give_back"
        if action == "select":
            return phase in (None, "play")
        if action == "pass":
            return phase == "play" and self.view.get("attack_value") is not None
        if action == "jersey":
            return phase == "play" and self.can_wear_jersey()
        if action == "pick":
            return phase in CHOICE_PHASES
        return super().can_use(action, parameters)

    def key_display(self, binding: Binding) -> str | None:
        """The digits that choose a seat go as far as this table's seats (1-2 in a duel)."""
        players = self.view.get("players")
        if binding.action == "pick(0)" and players:
            return f"1-{players}"
        return None  # (before the first view: the binding's own 1-5)

    def action_select(self) -> None:
        self.query_one(Hand).action_select_card()

    def action_play(self) -> None:
        self.query_one(Hand).action_choose()

    def action_give(self) -> None:
        self.query_one(Hand).action_choose()

    def action_sort(self) -> None:
        hand = self.query_one(Hand)
        current = hand.current
        self.by_value = not self.by_value
        self.refresh_all()
        if current in hand.cards:  # the cursor stays on its card, wherever the card went
            hand.cursor = hand.cards.index(current)

    def on_hand_selected(self, message: Hand.Selected) -> None:
        message.stop()
        self.message = ""
        self.refresh_status()

    def on_hand_chosen(self, message: Hand.Chosen) -> None:
        message.stop()
        self.choose(message.card, message.selection)

    def choose(self, card: int | None, selection: tuple[int, ...]) -> None:
        phase = self.my_phase()
        if phase is None:
            self.say(_("it is not your turn"))
            return
        if phase == "give_back":
            if card is not None:
                self.submit(GiveBack(card), _("you cannot give that card"))
            return
        if phase != "play":
            self.say(_("press the digit of your choice"))
            return
        cards = selection or (() if card is None else (card,))
        jersey = self.jersey_on and self.can_wear_jersey()
        problem = play_problem(cards, jersey, self.view["attack_value"])
        if problem is not None:
            if not selection:  # a selection's problem is in the prompt already: not twice
                self.say(problem)
            return
        if self.submit(Play(tuple(sorted(cards)), jersey), _("that is not a legal play")):
            self.jersey_on = False
            self.query_one(Hand).clear_selection()

    def submit(self, action: Action, refusal: str) -> bool:
        """Send `action` if the rules allow it now, else say `refusal`."""
        if action not in self.legal():
            self.say(refusal)
            return False
        self.send_soon(action)
        return True

    def action_pass(self) -> None:
        if self.submit(Pass(), _("you lead this attack: you cannot pass")):
            self.query_one(Hand).clear_selection()

    def action_jersey(self) -> None:
        if not self.can_wear_jersey():
            self.say(_("you cannot wear the jersey now"))
            return
        self.jersey_on = not self.jersey_on
        self.message = ""
        self.refresh_status()

    def action_pick(self, index: int) -> None:
        phase = self.my_phase()
        choices = self.seat_choices()
        if phase is None or not choices:
            return
        if index not in choices:
            self.say(_("{n} is not one of the choices").format(n=index + 1))
            return
        action: Action
        if phase == "victim":
            action = ChooseVictim(index)
        elif phase == "next_leader":
            action = ChooseLeader(index)
        else:
            action = GiveReward(index)
        self.submit(action, _("that is not a choice now"))
