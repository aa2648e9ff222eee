"""Where the share listens: ``--share ADDR[:PORT]`` (or ``BOARDBANK_SHARE``), or the unit's LAN address.

The page is for the home network: the share binds one address, the LAN address of the unit unless told
otherwise. ``0.0.0.0`` (every interface) is taken only when it is written out, and the caller says so.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

DEFAULT_PORT = 8024
"""The TCP port the share listens on when none is given."""

EVERY_INTERFACE = ("0.0.0.0", "::")


class AddressError(ValueError):
    """An address the share cannot listen on (not an IP address, a bad port)."""


@dataclass(frozen=True, slots=True)
class Address:
    """An IP address and a TCP port (1..65535; 0 in tests: the system picks one)."""

    host: str
    port: int

    @property
    def every_interface(self) -> bool:
        """Whether this binds every interface of the unit (0.0.0.0 or ::)."""
        return self.host in EVERY_INTERFACE

    def url_host(self) -> str:
        """The host as written in a URL (IPv6 in brackets)."""
        return f"[{self.host}]" if ":" in self.host else self.host

    def __str__(self) -> str:
        return f"{self.url_host()}:{self.port}"


def parse_address(text: str, *, allow_port_zero: bool = False) -> Address:
    """``"192.168.1.20"``, ``"192.168.1.20:8024"``, ``"[fe80::1]:8024"`` or ``":8024"`` (the LAN
    address, that port) -> an :class:`Address`; :class:`AddressError` with one clear line otherwise."""
    text = text.strip()
    host, port_text = text, ""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise AddressError(f"--share {text!r}: an IPv6 address in brackets lacks its ']'")
        host, rest = text[1:end], text[end + 1:]
        if rest and not rest.startswith(":"):
            raise AddressError(f"--share {text!r}: expected [ADDR]:PORT")
        port_text = rest[1:]
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    if not host:
        host = lan_address()
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise AddressError(f"--share {text!r}: expected an IP address of this unit such as 192.168.1.20, "
                           f"optionally with :PORT") from None
    port = DEFAULT_PORT
    if port_text:
        if not port_text.isdigit() or not (0 if allow_port_zero else 1) <= int(port_text) <= 65535:
            raise AddressError(f"--share {text!r}: the port is a number from 1 to 65535, got {port_text!r}")
        port = int(port_text)
    return Address(host, port)


def lan_address() -> str:
    """The unit's address on its local network: the source address of the default route (a UDP socket's
    connect() sends no packet), else the first private address of an interface (a home network without a
    gateway); :class:`AddressError` when the unit has no network but loopback."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing decides the source address, nothing is sent
        host = str(probe.getsockname()[0])
    except OSError:
        host = ""
    finally:
        probe.close()
    if not host or host.startswith("127.") or host == "0.0.0.0":
        host = next(iter(interface_addresses()), "")
    if not host:
        raise AddressError("the unit has no local network address; give one with --share ADDR[:PORT]")
    return host


def interface_addresses() -> list[str]:
    """The IPv4 addresses of the unit's interfaces that a phone on the home network can reach (private,
    not loopback nor link-local), read with the SIOCGIFADDR ioctl (Linux; no packet is sent); [] elsewhere."""
    try:
        import fcntl
        import struct

        names = [name for _, name in socket.if_nameindex()]
    except (ImportError, OSError):
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for name in names:
            try:
                packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # no IPv4 address on this interface
            address = ipaddress.ip_address(packed[20:24])
            if address.is_private and not address.is_loopback and not address.is_link_local:
                found.append(str(address))
    return found


def advertised_host(address: Address) -> str | None:
    """The host a phone uses to reach a share listening on ``address``: the address itself, or the LAN
    address when it listens on every interface (None when the unit has none)."""
    if not address.every_interface:
        return address.url_host()
    try:
        return lan_address()
    except AddressError:
        return None


def choose_address(cli_value: str | None) -> Address:
    """The address from ``--share`` / ``BOARDBANK_SHARE`` when one is written, else the LAN address with
    the default port."""
    if cli_value:
        return parse_address(cli_value, allow_port_zero=True)
    return Address(lan_address(), DEFAULT_PORT)
