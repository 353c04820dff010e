"""Why a table could not be joined, in the player's words and language, and what to fix.

The client says why it gave up with a code (`protocol.client.Failed`); here each code becomes a
sentence and the field of the join form that most likely needs the fix.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.address import DEFAULT_PORT, AddressError, parse_address
from protocol.client import Failed, LinkDown
from ui.i18n import N_, _


@dataclass(frozen=True)
class Explained:
    text: str
    field: str | None
    """The join form's field to fix ("address", "password"; "spectator", the box to tick to
    watch a table that has no seat left), or None: nothing to retry."""
    loud: bool = False


def explain(
    failed: Failed, address: str, *, refused_deal: bool = False, game_on: bool = False
) -> Explained:
    """`refused_deal`: the client left because the host broke the fair deal's rules;
    `game_on`: a game was being played (its deal is then not checked)."""
    if failed.code == "sealed_lie":
        warning = _(
            "The host does not deal the way its table said (sealed or not): a table that says "
            "sealed and deals as a trusted dealer would see every hand. This program left "
            "without taking part in that deal."
        )
        return Explained(warning + "\n\n" + failed.reason, None, loud=True)
    if failed.code == "cheated":
        warning = _(
            "The game stopped: this program caught a cheat at this sealed table, and says "
            "whose below. The deal is not verified."
        )
        return Explained(warning + "\n\n" + failed.reason, None, loud=True)
    if failed.code == "host_silent":
        said = _(
            "The host stopped answering: its connection stayed open, but nothing came from it, "
            "not even an answer to a ping, so this program gave up on the table."
        )
        if game_on:
            said += " " + _("The deal of the game under way is not checked.")
        return Explained(said, None, loud=game_on)
    if refused_deal:
        warning = _(
            "The host broke the rules of the fair deal, so this program left before "
            "the game began: the host may be trying to choose the cards."
        )
        return Explained(warning + "\n\n" + failed.reason, None, loud=True)
    try:
        host, _port = parse_address(address)
    except AddressError:
        host = address
    code = failed.code
    if code == "unknown_host":
        return Explained(
            _("No machine called {host} was found: check the name, or type its IP address.").format(
                host=host
            ),
            "address",
        )
    if code == "no_listener":
        return Explained(
            _("Nobody answers at {address}: is the table open, and is the port right?").format(
                address=address
            ),
            "address",
        )
    if code == "no_answer":
        return Explained(
            _(
                "{address} does not answer: check the address, or whether a firewall blocks it."
            ).format(address=address),
            "address",
        )
    if code == "not_a_table":
        return Explained(
            _(
                "{address} answered, but it is not a netcards table: check the port "
                "(netcards uses {port} unless the host chose another)."
            ).format(address=address, port=DEFAULT_PORT),
            "address",
        )
    if code == "replaced":
        return Explained(
            _(
                "Another program took your seat at this table (netcards started again, or a "
                "second copy joining under your name): this one has left it."
            ),
            None,
        )
    if code == "unreachable":
        return Explained(
            _("Could not reach {address}: {reason}").format(
                address=address, reason=failed.reason.removeprefix("could not reach the table: ")
            ),
            "address",
        )
    if code == "wrong_password":
        return Explained(_("Wrong password for this table."), "password")
    if code == "password_required":
        return Explained(_("This table has a password: type it to join."), "password")
    if code == "untrusted":
        return Explained(_("You did not trust the host's key, so you did not join."), "address")
    if code == "table_over":
        return Explained(
            _(
                "The game at {address} is over, and its host has not opened the table for "
                "another yet: press enter again once they have (they choose Play again)."
            ).format(address=address),
            "address",
        )
    if code == "table_full":
        return Explained(
            _(
                "This table has no free seat (it is full, or its game has begun); you may "
                "still watch it as a spectator: space ticks the box, enter joins."
            ),
            "spectator",
        )
    if code == "host_key_changed":
        advice = _(
            "If the host really made a new key, forget the old one in "
            "Settings > Known hosts (f), then join again."
        )
        return Explained(failed.reason + "\n\n" + advice, "address", loud=True)
    if code == "lost":
        return Explained(_("The connection to the table was lost and did not come back."), None)
    return Explained(failed.reason, None)


LINK_LOST = {
    "closed": N_("the host closed the connection"),
    "no_listener": N_("the table does not answer (its host may be restarting)"),
    "no_answer": N_("the table stopped answering"),
    "unknown_host": N_("the host's name is no longer found"),
}


def link_lost(notice: LinkDown) -> str:
    """A banner over the lobby or the table: the connection dropped, and whether it is coming
    back, in the player's words (the client's reason is English, for logs)."""
    why = _(LINK_LOST.get(notice.code, N_("the connection broke")))
    if notice.retrying:
        return _("Connection lost: {reason}. Reconnecting...").format(reason=why)
    return _("Connection lost: {reason}.").format(reason=why)
