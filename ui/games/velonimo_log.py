"""Velonimo in words: its cards named for the log, and each of its events said as a player
reads it ('Ann played red 3/4/5: 12', 'Your turtle took blue 1 (turtle) from Bob').

Kept apart from the table's screen (`ui/games/velonimo.py`), which draws and plays: this is
what the screen's log, the replay and the summaries between rounds read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from netcards.games.velonimo.cards import COLOUR, VALUE, is_hare
from netcards.sealed_cards import is_slot
from ui.i18n import N_, _, ngettext

# In the order of the engine's colour indices (cards.COLOURS).
COLOUR_NAMES = (N_("red"), N_("orange"), N_("yellow"), N_("green"), N_("blue"), N_("purple"),
                N_("brown"))  # fmt: skip
# The runners the rule sheet names; the others are known by their number.
ANIMALS = {1: N_("turtle"), 2: N_("dromedary"), 5: N_("tiger")}


def card_word(card: int) -> str:
    """A card in words for the log: 'red 5 (tiger)', 'blue 1 (turtle)', 'hare 35'."""
    value = VALUE[card]
    if is_hare(card):
        return _("hare {value}").format(value=value)
    name = _("{colour} {value}").format(colour=_(COLOUR_NAMES[COLOUR[card]]), value=value)
    animal = ANIMALS.get(value)
    return f"{name} ({_(animal)})" if animal else name


def cards_words(cards: Sequence[int]) -> str:
    """Several cards one by one, for the private lines (taken, given back, drawn)."""
    return ", ".join(card_word(c) for c in sorted(cards))


def play_words(cards: Sequence[int]) -> str:
    """A play in words: one card by its name, a combination by its shared colour or value
    ('red 3/4/5', 'red/blue/green 4')."""
    cards = sorted(cards)
    if len(cards) == 1:
        return card_word(cards[0])
    colours = {COLOUR[c] for c in cards}
    if len(colours) == 1:
        values = "/".join(str(VALUE[c]) for c in cards)
        return _("{colour} {value}").format(colour=_(COLOUR_NAMES[COLOUR[cards[0]]]), value=values)
    names = "/".join(_(COLOUR_NAMES[COLOUR[c]]) for c in cards)
    return _("{colour} {value}").format(colour=names, value=VALUE[cards[0]])


class VelonimoLog:
    """The log's words of Velonimo's events, for its screen (a `GameScreen`: `name_of`,
    `subject`, `seat`, `stand_in_move` come from there)."""

    seat: int | None
    stand_in_move: bool

    if TYPE_CHECKING:  # the screen's own (`GameScreen`), which comes after this in its bases

        def name_of(self, seat: int | None) -> str: ...

        def subject(self, seat: int | None, *, mover: bool = True) -> str: ...

    # -- the log ---------------------------------------------------------------------------------------

    def describe(self, event: dict[str, Any]) -> str | None:
        kind = event["kind"]
        seat = event.get("seat")
        who = self.subject(seat)
        me = seat is not None and seat == self.seat
        if kind == "play":
            line = _("{who} played {play}: {value}").format(
                who=who, play=play_words(event["cards"]), value=event["value"]
            )
            if event.get("jersey"):
                line += " " + _("(with the jersey)")
            return line
        if kind == "pass":
            return _("{who} passed").format(who=who)
        if kind == "attack_won":
            if event.get("finished"):
                if me:
                    return _("You won the attack with your last cards: name who leads next")
                return _("{who} won the attack with a last play and names who leads next").format(
                    who=who
                )
            if me:
                return _("You won the attack and lead the next one")
            return _("{who} won the attack and leads the next one").format(who=who)
        if kind == "finish":
            if me:
                return _("You are out (#{place}) and score {points}").format(
                    place=event["place"], points=event["points"]
                )
            return _("{who} is out (#{place}) and scores {points}").format(
                who=who, place=event["place"], points=event["points"]
            )
        if kind == "water_draw":
            return self.describe_draw(event, who, me)
        if kind == "leader_take":
            return self.describe_take(event)
        if kind == "leader_give":
            return self.describe_give(event)
        if kind == "next_leader":
            return _("{who} chose {leader} to lead the next attack").format(
                who=who, leader=self.name_of(event["leader"])
            )
        if kind == "reward":
            card, to = card_word(event["card"]), event["to"]
            if to == seat and me and self.stand_in_move:
                return _("Your stand-in put the reward {card} into your hand").format(card=card)
            if to == seat and me:
                return _("You put the reward {card} into your hand").format(card=card)
            if to == seat:
                return _("{who} put the reward {card} into their own hand").format(
                    who=who, card=card
                )
            if to == self.seat:
                return _("{who} gave you the reward {card}").format(who=who, card=card)
            return _("{who} gave the reward {card} to {name}").format(
                who=who, card=card, name=self.name_of(to)
            )
        if kind == "reward_revealed":
            if event["card"] is None:
                return _("The draw pile is empty: no new reward")
            if is_slot(event["card"]):  # a sealed table: turned up for everyone just after
                return _("A new reward is turned up ({n} left in the draw pile)").format(
                    n=event["draw_pile"]
                )
            return _("New reward: {card} ({n} left in the draw pile)").format(
                card=card_word(event["card"]), n=event["draw_pile"]
            )
        if kind == "reveal" and event.get("seat") is None and event.get("cards"):
            return _("The new reward is {card}").format(card=card_word(event["cards"][0]))
        if kind == "round_end":
            return self.describe_round_end(event)
        if kind == "round_start":
            if event["first_player"] == self.seat:
                return _("Round {n} (difficulty {d}) begins: you lead").format(
                    n=event["round"], d=event["difficulty"]
                )
            return _("Round {n} (difficulty {d}) begins: {who} leads").format(
                n=event["round"], d=event["difficulty"], who=self.name_of(event["first_player"])
            )
        if kind == "game_end":
            first, *others = event["winners"]
            winners = ", ".join([self.subject(first), *(self.name_of(s) for s in others)])
            line = _("Game over: {names} won").format(names=winners)
            if event.get("reason") == "duel_target":
                line += " " + _("(target reached)")
            return line
        return None

    def describe_draw(self, event: dict[str, Any], who: str, me: bool) -> str:
        count, dromedaries = event["count"], event["dromedaries"]
        if me and "cards" in event:
            if not count:
                return _("Your dromedaries (water carriers) drew nothing: the pile is empty")
            return ngettext(
                "Your dromedary (water carrier) drew {cards}",
                "Your dromedaries (water carriers) drew {cards}",
                dromedaries,
            ).format(cards=cards_words(event["cards"]))
        return ngettext(
            "{who}'s dromedary (water carrier) drew {n} card",
            "{who}'s dromedaries (water carriers) drew {n} cards",
            dromedaries,
        ).format(who=who, n=count)

    def describe_take(self, event: dict[str, Any]) -> str:
        thief, victim, count = event["seat"], event["victim"], event["count"]
        cards = event.get("cards")
        if cards is not None and thief == self.seat and self.stand_in_move:
            return ngettext(
                "Your stand-in chose {name}: your turtle took {cards}",
                "Your stand-in chose {name}: your turtles took {cards}",
                len(cards),
            ).format(cards=cards_words(cards), name=self.name_of(victim))
        if cards is not None and thief == self.seat:
            return ngettext(
                "Your turtle took {cards} from {name}",
                "Your turtles took {cards} from {name}",
                len(cards),
            ).format(cards=cards_words(cards), name=self.name_of(victim))
        if thief == self.seat:  # at a sealed table, before the cards reach us
            return ngettext(
                "Your turtle took {n} card from {name}",
                "Your turtles took {n} cards from {name}",
                count,
            ).format(n=count, name=self.name_of(victim))
        if cards is not None and victim == self.seat:
            return ngettext(
                "{name}'s turtle took your {cards}",
                "{name}'s turtles took your {cards}",
                len(cards),
            ).format(name=self.subject(thief), cards=cards_words(cards))
        return ngettext(
            "{thief}'s turtle took {n} card from {victim}",
            "{thief}'s turtles took {n} cards from {victim}",
            count,
        ).format(thief=self.subject(thief), victim=self.name_of(victim), n=count)

    def describe_give(self, event: dict[str, Any]) -> str:
        giver, victim, left = event["seat"], event["victim"], event["to_give"]
        card = event.get("card")
        if card is not None and giver == self.seat and self.stand_in_move:
            line = _("Your stand-in gave {card} back to {name}").format(
                card=card_word(card), name=self.name_of(victim)
            )
        elif card is not None and giver == self.seat:
            line = _("You gave {card} back to {name}").format(
                card=card_word(card), name=self.name_of(victim)
            )
        elif card is not None and victim == self.seat:
            line = _("{name} gave you {card}").format(
                name=self.subject(giver), card=card_word(card)
            )
        else:
            line = _("{giver} gave a card back to {victim}").format(
                giver=self.subject(giver), victim=self.name_of(victim)
            )
        if left:
            line += " " + ngettext("({n} more to go)", "({n} more to go)", left).format(n=left)
        return line

    def deal_summary(self, event: dict[str, Any]) -> tuple[str, list[str]]:
        """Each player in the order they went out: the round's points and the total."""
        lines = []
        for place, seat in enumerate(event["finish_order"], 1):
            lines.append(
                _("{place}. {name}: +{points}, {total} in all").format(
                    place=place,
                    name=self.subject(seat),
                    points=event["scores"][seat],
                    total=event["totals"][seat],
                )
            )
        holder = event["jersey"]
        if holder is not None:
            lines.append(_("Polka-dot jersey: {name}").format(name=self.subject(holder)))
        return _("Round {n} is over").format(n=event["round"]), lines

    def describe_round_end(self, event: dict[str, Any]) -> str:
        scores = ", ".join(
            f"{self.name_of(s)} {event['scores'][s]}" for s in range(len(event["scores"]))
        )
        holder = event["jersey"]
        jersey = (
            _("nobody holds the jersey")
            if holder is None
            else _("the jersey goes to {name}").format(name=self.name_of(holder))
        )
        return _("Round {n} is over: {scores}; {jersey}").format(
            n=event["round"], scores=scores, jersey=jersey
        )
