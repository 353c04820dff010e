"""Why a table could not be joined, in the player's words and language, and what to fix.

The client says why it gave up with a code (`protocol.client.Failed`); here each code becomes a
sentence and the field of the join form that most likely needs the fix.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.address import AddressError, parse_address
from protocol.client import Failed
from ui.i18n import _


@dataclass(frozen=True)
class Explained:
    text: str
    field: str | None
    """The join form's field to fix ("address", "password"), or None: nothing to retry."""
    loud: bool = False


def explain(failed: Failed, address: str, *, refused_deal: bool = False) -> Explained:
    """`refused_deal`: the client left because the host broke the fair deal's rules."""
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
    if code == "refused":
        return Explained(
            _("Nobody answers at {address}: is the table open, and is the port right?").format(
                address=address
            ),
            "address",
        )
    if code == "timeout":
        return Explained(
            _(
                "{address} does not answer: check the address, or whether a firewall blocks it."
            ).format(address=address),
            "address",
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
    if code == "table_full":
        return Explained(_("The table is full; you may still watch it as a spectator."), "address")
    if code == "host_key_changed":
        advice = _(
            "If the host really made a new key, forget the old one in "
            "Settings > Known hosts (f), then join again."
        )
        return Explained(failed.reason + "\n\n" + advice, "address", loud=True)
    return Explained(failed.reason, None)
