"""The rules a webhook URL must keep (rule ``webhook-url``): the server sends requests to it,
so it is untrusted input. http(s) only, no credentials in it, and every address its host
resolves to is public: loopback, private, link-local, multicast, unspecified, reserved and
other non-global ranges are refused unless the operator allows private webhooks. The check
is made when a hook is registered and again before each delivery (after DNS resolution,
whose addresses the delivery then connects to, so a rebinding name gains nothing)."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

MAX_URL_LENGTH = 2000
SCHEMES = {"http": 80, "https": 443}

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class WebhookUrlError(ValueError):
    """A URL refused by the webhook rules (the message says which)."""


@dataclass(frozen=True)
class Target:
    """Where a checked URL points: its parts, and the addresses its host resolved to."""
    url: str
    parts: SplitResult
    host: str
    port: int
    addresses: tuple[str, ...]


def refused_range(ip: IPAddress) -> str | None:
    """Why an address may not be a webhook's (None: a public address)."""
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        return refused_range(mapped)
    for name in ("loopback", "private", "link_local", "multicast", "unspecified", "reserved"):
        if getattr(ip, f"is_{name}"):
            return name.replace("_", "-")
    if not ip.is_global:
        return "not globally routable"
    return None


def parse(url: object) -> tuple[SplitResult, str, int]:
    """The URL's parts, host and port, when its shape is allowed."""
    if not isinstance(url, str) or not url:
        raise WebhookUrlError("a webhook URL is a non-empty string")
    if len(url) > MAX_URL_LENGTH:
        raise WebhookUrlError(f"a webhook URL is at most {MAX_URL_LENGTH} characters long")
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise WebhookUrlError("a webhook URL may not hold spaces or control characters")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise WebhookUrlError(f"a webhook URL is http:// or https://, not {scheme or 'schemeless'}")
    if "@" in parts.netloc or parts.username is not None or parts.password is not None:
        raise WebhookUrlError("a webhook URL may not hold credentials (user:password@)")
    host = parts.hostname
    if not host:
        raise WebhookUrlError("a webhook URL needs a host")
    try:
        port = parts.port or SCHEMES[scheme]
    except ValueError:
        raise WebhookUrlError("a webhook URL's port is not a number from 1 to 65535") from None
    return parts, host, port


def resolve(host: str, port: int) -> list[IPAddress]:
    """The addresses ``host`` resolves to (an address literal: itself)."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise WebhookUrlError(f"the webhook host {host!r} does not resolve: {e}") from None
    out: list[IPAddress] = []
    for info in infos:
        ip = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if ip not in out:
            out.append(ip)
    if not out:
        raise WebhookUrlError(f"the webhook host {host!r} does not resolve")
    return out


def check(url: object, *, allow_private: bool) -> Target:
    """The URL checked by the rules, resolved (:class:`WebhookUrlError` when refused)."""
    parts, host, port = parse(url)
    addresses = resolve(host, port)
    if not allow_private:
        for ip in addresses:
            why = refused_range(ip)
            if why is not None:
                raise WebhookUrlError(f"the webhook host {host!r} is {ip}, a {why} address; webhooks go to public "
                                      "addresses only (the operator may allow private ones: "
                                      "trackage serve --allow-private-webhooks)")
    assert isinstance(url, str)
    return Target(url, parts, host, port, tuple(str(ip) for ip in addresses))
