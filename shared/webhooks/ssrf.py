"""Where a webhook may go: http(s) on a documented port, to public addresses only.

The host is resolved and every address checked at registration and again at every
connection, and the connection goes to the checked address itself (never a second
lookup), so DNS rebinding cannot slip a private address in between. ``allow_private``
(``WEBHOOK_ALLOW_PRIVATE``) lets an operator, or the tests, reach private addresses.

An IPv6 address that carries an IPv4 address a router or translator would go on to
(IPv4-mapped and -translated, IPv4-compatible, NAT64, 6to4, Teredo) is judged by that
IPv4 address too: ``64:ff9b::127.0.0.1`` is loopback on a NAT64 network.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from shared.games.errors import Invalid

SCHEMES = {"http": 80, "https": 443}
MIN_PORT = 1024
"""Ports allowed: 80, 443 and the unprivileged 1024-65535 (no 22, 25, 111 ...)."""
METADATA = {
    ipaddress.ip_address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack
    ipaddress.ip_address("fd00:ec2::254"),  # AWS over IPv6
    ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud
    ipaddress.ip_address("168.63.129.16"),  # Azure wire server
}
MAX_URL = 2048


@dataclass(frozen=True)
class Target:
    """A checked URL: scheme, host name (for Host and SNI), port and path with query."""

    scheme: str
    host: str
    port: int
    path: str


def refused(detail: str, **params: Any) -> Invalid:
    return Invalid("webhook-url-refused", detail, **params)


def parse(url: str) -> Target:
    """The URL's parts; ``webhook-url-refused`` for a scheme, port or form we refuse."""
    if len(url) > MAX_URL:
        raise refused("A webhook URL has at most {max} characters.", max=MAX_URL)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise refused("The webhook URL is malformed.") from error
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise refused("A webhook URL is http:// or https:// with a host.")
    if parts.username or parts.password:
        raise refused("A webhook URL carries no user name or password.")
    port = port or SCHEMES[parts.scheme]
    if port not in SCHEMES.values() and port < MIN_PORT:
        raise refused("A webhook URL's port is 80, 443 or 1024-65535.")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path)


NAT64 = ipaddress.ip_network("64:ff9b::/96")
"""The well-known NAT64 prefix (RFC 6052): the IPv4 address is the last 32 bits."""
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
"""The local-use NAT64 prefix (RFC 8215): not globally reachable, and where the IPv4
address sits depends on the prefix length the network chose (RFC 6052: /48 to /96), so
no check can find it: refused whole (Python >= 3.12.4 also calls it non-global)."""
TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")
"""IPv4-translated addresses (SIIT, RFC 2765): ``::ffff:0:a.b.c.d``."""
COMPATIBLE = ipaddress.ip_network("::/96")
"""IPv4-compatible addresses (deprecated, RFC 4291): ``::a.b.c.d``."""


def embedded(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (a translator or tunnel would go on
    to them): IPv4-mapped and -translated, IPv4-compatible, NAT64, 6to4, and Teredo's
    server and client."""
    low = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    found = []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if ip in TRANSLATED or ip in NAT64 or (ip in COMPATIBLE and int(ip) > 1):
        found.append(low)
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    return found


def _bad(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return ip in METADATA or not ip.is_global or ip.is_multicast


def is_forbidden(address: str) -> bool:
    """Loopback, private, link-local, metadata, multicast or otherwise non-global; for
    IPv6, also when an IPv4 address it carries is (see :func:`embedded`), and the whole
    local-use NAT64 prefix."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv4Address):
        return _bad(ip)
    if ip.ipv4_mapped is not None:  # a plain IPv4 address written the IPv6 way
        return _bad(ip.ipv4_mapped)
    if ip in NAT64_LOCAL:
        return True
    return _bad(ip) or any(_bad(v4) for v4 in embedded(ip))


def resolve(target: Target, allow_private: bool) -> list[str]:
    """The target's addresses, all checked; ``webhook-url-refused`` if any is forbidden
    or none resolve."""
    try:
        infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise refused("The webhook host {host!r} does not resolve.", host=target.host) from error
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise refused("The webhook host {host!r} does not resolve.", host=target.host)
    if not allow_private:
        bad = [a for a in addresses if is_forbidden(a)]
        if bad:
            raise refused(
                "The webhook host {host!r} resolves to a private or reserved "
                "address ({address}); only public addresses are called.",
                host=target.host,
                address=bad[0],
            )
    return addresses


def check(url: str, allow_private: bool) -> Target:
    """Parse and resolve ``url`` now (registration): the checked target."""
    target = parse(url)
    resolve(target, allow_private)
    return target
