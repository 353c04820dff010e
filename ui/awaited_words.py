"""Whom a sealed table waits for, in the player's words: the game screen's status line, and
why a sealed game closed halfway was not checked (the results screen).

The client works out whom the table waits for, and for what (`TableClient.awaited`, from
`protocol/sealed_play/awaited.py`, the same answer `netcards bot` and the host give); here each
`Wait` becomes a sentence in the player's language, seats named as players read them (their
name and their number from 1).
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.client_sealed import SPECTATOR_UNCHECKED
from protocol.sealed_play.awaited import Awaited, Unchecked, Wait, waits
from ui.i18n import N_, _, names_list

WAIT_WORDS = {
    "key": N_("Waiting for {who} to send their signing key."),
    "mask": N_("Waiting for {who} to shuffle the cards."),
    "rekey": N_("Waiting for {who} to re-key the cards."),
    "scalars": N_("Waiting for {who} to open the cards dealt to {to}."),
    "scalars_me": N_("Waiting for {who} to open the cards dealt to you."),
    "pass_key": N_("Waiting for {who} to send the key of a card passed to them."),
    "pass": N_("Waiting for {who} to pass a card to {to}."),
    "pass_me": N_("Waiting for {who} to pass a card to you."),
    "reveal": N_("Waiting for {who} to show a card to everyone."),
    "draw_commit": N_("Waiting for {who} to commit to a random draw."),
    "draw_open": N_("Waiting for {who} to open a random draw."),
    "choice": N_("Waiting for {who} to open a committed choice."),
    "secrets": N_("Waiting for {who} to publish their secrets."),
    "round": N_("Waiting for the host to begin a sealing round."),
    "open": N_("Waiting for the host to ask for the cards dealt to {to}."),
    "open_me": N_("Waiting for the host to ask for the cards dealt to you."),
    "show": N_("Waiting for the host to ask for a card to be shown to everyone."),
    "relay": N_("Waiting for the host to pass on your step."),
}
"""Each step (`protocol.sealed_play.awaited.STEPS`), and a step whose cards go to this player
(`_me`), as the status line says it."""


def seat_words(seat: int, names: Sequence[str]) -> str:
    """`Bob (seat 2)`."""
    name = names[seat] if 0 <= seat < len(names) else "?"
    return _("{name} (seat {n})").format(name=name, n=seat + 1)


def wait_sentence(wait: Wait, names: Sequence[str], me: int | None) -> str:
    """One thing the table waits for, as a sentence."""
    mine = wait.to is not None and wait.to == me
    template = WAIT_WORDS[wait.step + "_me" if mine else wait.step]
    who = names_list([seat_words(s, names) for s in wait.seats])
    to = "" if wait.to is None else seat_words(wait.to, names)
    return _(template).format(who=who, to=to)


def waiting_line(found: Sequence[Awaited], names: Sequence[str], me: int | None) -> str:
    """What the table waits for, in sentences ("" while nothing but a move is awaited)."""
    return " ".join(wait_sentence(wait, names, me) for wait in waits(found, me))


UNCHECKED_WORDS = {
    "waiting": N_("the table closed; {waiting}"),
    "unanswered": N_("{who} did not play when their time ran out"),
    "left": N_("{who} left before publishing their secrets"),
    "ended": N_("the game ended before every seat published its secrets"),
}
"""Each kind of reason why a sealed game closed halfway was not checked (`Unchecked`)."""


WHOLE_REASONS = {
    SPECTATOR_UNCHECKED: N_(
        "a spectator holds no seat's secrets and sees none of the sealing steps: each player's "
        "program checks the deal"
    ),
}
"""Reasons a deal is not checked that the verdict gives whole, in the player's words."""


def unchecked_reasons(why: Sequence[Unchecked], names: Sequence[str], me: int | None) -> list[str]:
    """The reasons a sealed game closed halfway was not checked, in the player's words (the
    verdict's own are English, for programs to compare)."""
    said = []
    for reason in why:
        waiting = ""
        if reason.wait is not None:
            sentence = wait_sentence(reason.wait, names, me).rstrip(".")
            waiting = sentence[:1].lower() + sentence[1:]
        who = "" if reason.seat is None else seat_words(reason.seat, names)
        said.append(_(UNCHECKED_WORDS[reason.kind]).format(waiting=waiting, who=who))
    return said
