"""The addresses other players can use to reach this machine, found without sending a packet.

A host shows them in its lobby so that nobody has to look up an IP address. Two sources, neither
of which puts anything on the network: the address the system would send from towards the LAN
(a UDP socket's `connect` only picks a route), and on Linux every interface's IPv4 address.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys

ROUTE_PROBE = "192.0.2.1"
"""TEST-NET-1 (RFC 5737), reserved for documentation: never a real host. A UDP `connect` to it
sends nothing; it only makes the system choose the source address of its default route."""

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def route_address(probe: str = ROUTE_PROBE) -> str | None:
    """The local address the default route would use, or None without one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect((probe, 9))
            return str(sock.getsockname()[0])
        except OSError:
            return None


def interface_addresses() -> list[str]:
    """Every interface's IPv4 address (Linux; elsewhere none)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            with contextlib.suppress(OSError):
                answer = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, request)
                found.append(socket.inet_ntoa(answer[20:24]))
    return found


def lan_addresses(bind: str = "0.0.0.0") -> list[str]:
    """Where players may reach a table listening on `bind`: the route's address first, then the
    other interfaces'; loopback only when the table listens on loopback alone."""
    try:
        bound = ipaddress.ip_address(bind)
    except ValueError:
        return [bind]
    if bound.is_loopback:
        return [bind]
    if not bound.is_unspecified:
        return [bind]
    candidates = [route_address(), *interface_addresses()]
    addresses: list[str] = []
    for address in candidates:
        if address is None or address in addresses:
            continue
        parsed = ipaddress.ip_address(address)
        if parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified:
            continue
        addresses.append(address)
    return addresses
