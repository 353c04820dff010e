"""Parsing `host[:port]` as people type it: IPv4, IPv6 (bare or in brackets) and names."""

from __future__ import annotations

import ipaddress

DEFAULT_PORT = 47474
DEFAULT_SSH_PORT = 2222
"""The table's SSH door (`netcards host --ssh`), for friends who only have `ssh`."""


class AddressError(ValueError):
    """An address that cannot be understood; the message says how to write it."""


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """`192.0.2.1`, `192.0.2.1:5000`, `::1`, `[::1]:5000`, `host.lan:5000` -> (host, port)."""
    t = text.strip()
    if not t:
        raise AddressError("an address is needed, like 192.0.2.7 or [::1]:47474")
    if t.startswith("["):
        close = t.find("]")
        if close < 0:
            raise AddressError(f"{text!r}: an IPv6 address in brackets needs its closing ']'")
        host, rest = t[1:close], t[close + 1 :]
        if rest and not rest.startswith(":"):
            raise AddressError(f"{text!r}: write [IPv6]:port")
        port_text = rest[1:] if rest else ""
        _check_ip(host, text)
    elif t.count(":") > 1:
        host, port_text = t, ""
        try:
            _check_ip(host, text)
        except AddressError:  # more than one ':' and no IPv6 address: a port typed twice?
            raise AddressError(
                f"{text!r} is not an address: write host:port, or an IPv6 address with a port "
                "in brackets, [2001:db8::7]:47474"
            ) from None
    elif ":" in t:
        host, port_text = t.split(":", 1)
    else:
        host, port_text = t, ""
    if not host:
        raise AddressError(f"{text!r}: the host part is empty")
    if all(part.isdigit() for part in host.split(".")):  # meant as an IPv4 address, not a name
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise AddressError(
                f"{text!r}: {host} is not an IPv4 address (four numbers from 0 to 255, like "
                "192.0.2.7)"
            ) from None
    if not port_text:
        return host, default_port
    if not port_text.isdigit():
        raise AddressError(f"{text!r}: the port must be a number")
    port = int(port_text)
    if not 1 <= port <= 65535:
        raise AddressError(f"{text!r}: the port must be between 1 and 65535")
    return host, port


def _check_ip(host: str, text: str) -> None:
    try:
        ipaddress.IPv6Address(host.split("%", maxsplit=1)[0])
    except ValueError:
        raise AddressError(f"{text!r}: {host!r} is not an IPv6 address") from None


def format_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
