"""The egress policy of foraging: which addresses a foraged URL may reach.

A host name is resolved and every address it resolves to is checked: one private, loopback,
link-local, multicast, reserved or unspecified address (IPv4-mapped IPv6 included) refuses
the whole name, unless it lies in a network explicitly allowed. The fetcher connects to an
address this check returned (never resolving again), so a name that resolves elsewhere on a
second look (DNS rebinding) cannot slip through; and it checks again at every redirect."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wander.core.sandwich.ports import SourceError

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(SourceError):
    """The egress policy refused a target (the message names the address and why)."""


class Unreachable(SourceError):
    """The target cannot be resolved or reached (no network, no such host, refused, timed out)."""


def kind_of(ip: IpAddress) -> str | None:
    """What makes an address internal ('loopback', 'private', ...), or None for a public one."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for name in ("loopback", "link_local", "private", "multicast", "reserved", "unspecified"):
        if getattr(ip, f"is_{name}"):
            return name.replace("_", "-")
    if not ip.is_global:
        return "non-global"  # shared address space (100.64/10) and the like
    return None


def _resolve(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True)
class EgressPolicy:
    """allow: the internal networks explicitly allowed (none by default)."""

    allow: tuple[IpNetwork, ...] = ()
    resolver: Callable[[str, int], list[str]] = field(default=_resolve, compare=False, repr=False)

    @classmethod
    def from_settings(cls, networks: Sequence[str], *, beyond_loopback: bool = False, **kw: Any) -> EgressPolicy:
        """A server bound beyond loopback never reaches internal addresses, whatever is allowed."""
        if beyond_loopback:
            return cls((), **kw)
        return cls(tuple(ipaddress.ip_network(n, strict=False) for n in networks), **kw)

    def why_refused(self, address: str) -> str | None:
        """'a loopback address' (what makes it refused), or None when it may be reached."""
        ip = ipaddress.ip_address(address.split("%")[0])
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        kind = kind_of(ip)
        if kind is None or any(ip in n for n in self.allow if n.version == ip.version):
            return None
        return f"a {kind} address"

    def resolve(self, host: str, port: int) -> list[str]:
        """Every address of `host`, each checked; Refused when any is internal and not allowed."""
        host = host.strip("[]")
        try:
            addresses = [str(ipaddress.ip_address(host))]
        except ValueError:
            try:
                addresses = self.resolver(host, port)
            except (socket.gaierror, UnicodeError, OSError) as exc:
                raise Unreachable(f"cannot resolve {host} ({exc}); is the machine online?") from exc
        if not addresses:
            raise Unreachable(f"{host} resolves to no address")
        for a in addresses:
            why = self.why_refused(a)
            if why is not None:
                where = f"{host} resolves to {a}" if a != host else a
                raise Refused(
                    f"refused: {where}, {why}; internal addresses are foraged only where "
                    "WANDER_FORAGE_ALLOW_NETWORKS allows them, and never by a server bound beyond loopback"
                )
        return addresses
