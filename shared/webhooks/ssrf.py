"""Where a webhook may go: http(s) on a documented port, to public addresses only.

The host is resolved and every address checked at registration and again at every
connection, and the connection goes to the checked address itself (never a second
lookup), so DNS rebinding cannot slip a private address in between. ``allow_private``
(``WEBHOOK_ALLOW_PRIVATE``) lets an operator, or the tests, reach private addresses.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from shared.http.errors import ApiError

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


def refused(detail: str) -> ApiError:
    return ApiError(422, "webhook-url-refused", detail)


def parse(url: str) -> Target:
    """The URL's parts; 422 ``webhook-url-refused`` for a scheme, port or form we refuse."""
    if len(url) > MAX_URL:
        raise refused(f"A webhook URL has at most {MAX_URL} characters.")
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


def is_forbidden(address: str) -> bool:
    """Loopback, private, link-local, metadata, multicast or otherwise non-global."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip in METADATA or not ip.is_global or ip.is_multicast


def resolve(target: Target, allow_private: bool) -> list[str]:
    """The target's addresses, all checked; 422 if any is forbidden or none resolve."""
    try:
        infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise refused(f"The webhook host {target.host!r} does not resolve.") from error
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise refused(f"The webhook host {target.host!r} does not resolve.")
    if not allow_private:
        bad = [a for a in addresses if is_forbidden(a)]
        if bad:
            raise refused(
                f"The webhook host {target.host!r} resolves to a private or reserved "
                f"address ({bad[0]}); only public addresses are called."
            )
    return addresses


def check(url: str, allow_private: bool) -> Target:
    """Parse and resolve ``url`` now (registration): the checked target."""
    target = parse(url)
    resolve(target, allow_private)
    return target
