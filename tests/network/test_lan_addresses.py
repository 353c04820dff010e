"""The addresses a host shows its players: found locally, never by sending anything."""

from __future__ import annotations

import pytest

from protocol import lan


def test_a_table_on_loopback_or_one_address_shows_just_that() -> None:
    assert lan.lan_addresses("127.0.0.1") == ["127.0.0.1"]
    assert lan.lan_addresses("192.0.2.9") == ["192.0.2.9"]


def test_a_table_on_every_interface_shows_the_route_s_address_first_and_no_loopback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lan, "route_address", lambda: "192.0.2.20")
    monkeypatch.setattr(
        lan,
        "interface_addresses",
        lambda: ["127.0.0.1", "198.51.100.4", "192.0.2.20", "169.254.1.1"],
    )
    assert lan.lan_addresses("0.0.0.0") == ["192.0.2.20", "198.51.100.4"]


def test_without_a_route_the_interfaces_still_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan, "route_address", lambda: None)
    monkeypatch.setattr(lan, "interface_addresses", lambda: ["127.0.0.1"])
    assert lan.lan_addresses("0.0.0.0") == []


def test_the_route_is_found_by_connecting_a_udp_socket_which_sends_nothing() -> None:
    assert lan.route_address("127.0.0.1") == "127.0.0.1"  # loopback: the probe never leaves
