"""Seats and the people's keys to them: codes and names, avatars, the rejoin link and short code
derived from a seat's token (with its QR code), and who is connected since when.

A seat's token (256 bits) is the only key to it; the database keeps its SHA-256, and of the
rejoin keys derived from it (HMAC-SHA256) only their hashes too (P-345).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import re
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import segno

from unotable.web.protocol import ProtocolError
from unotable.web.records import Secrets, StoredOccupant

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes and rejoin codes use letters and digits that cannot be mistaken for one another."""
CODE_LENGTH: Final = 8
"""Characters of a new room code: 40 bits (P-440)."""
OLD_CODE_LENGTH: Final = 6
"""Characters of the room codes made before (30 bits): still valid."""
REJOIN_CODE_LENGTH: Final = 8
"""Characters of a seat's short rejoin code (40 bits), shown as ``ABCD-EFGH``."""
MAX_NAME: Final = 24
"""Characters in a player's name at most."""
PALETTE: Final = (
    "#b91c1c",
    "#c2410c",
    "#a16207",
    "#15803d",
    "#0f766e",
    "#0369a1",
    "#1d4ed8",
    "#6d28d9",
    "#a21caf",
    "#be185d",
    "#4d7c0f",
    "#57534e",
)
"""Avatar colours (white letters on each are readable: contrast at least 4.5:1)."""
COLOR_RE: Final = re.compile(r"#[0-9a-fA-F]{6}")


def hash_token(token: str) -> str:
    """What the database keeps of a seat's token, rejoin secret or rejoin code (the secret itself
    is only the browser's)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code() -> str:
    """A fresh room code (40 bits; the database refuses a taken one)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_name(name: Any) -> str:
    """A player's name, stripped; raises ``bad_name`` unless it is 1 to :data:`MAX_NAME` printable
    characters."""
    if not isinstance(name, str):
        raise ProtocolError("bad_name", limit=MAX_NAME)
    text = " ".join(name.split())
    if not 0 < len(text) <= MAX_NAME or any(unicodedata.category(c)[0] == "C" for c in text):
        raise ProtocolError("bad_name", limit=MAX_NAME)
    return text


def clean_color(color: Any, name: str) -> str:
    """An avatar colour ``#rrggbb`` (lower case): ``color``, or one of :data:`PALETTE` chosen by
    ``name`` when none is given; raises ``bad_color`` for anything else."""
    if color is None:
        return PALETTE[int(hash_token(name.casefold()), 16) % len(PALETTE)]
    if not isinstance(color, str) or not COLOR_RE.fullmatch(color):
        raise ProtocolError("bad_color")
    return color.lower()


def initial(name: str) -> str:
    """The letter an avatar shows: the first letter or digit of ``name``, in upper case."""
    for c in name:
        if c.isalnum():
            return c.upper()
    return name[:1] or "?"


def rejoin_secret(token: str) -> str:
    """The secret of a seat's rejoin link, derived from its token (128 bits)."""
    digest = hmac.new(token.encode("utf-8"), b"unotable rejoin link", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode("ascii").rstrip("=")


def rejoin_code(token: str) -> str:
    """A seat's short rejoin code, derived from its token: ``ABCD-EFGH`` (40 bits)."""
    digest = hmac.new(token.encode("utf-8"), b"unotable rejoin code", hashlib.sha256).digest()
    bits = int.from_bytes(digest[:5], "big")
    chars = "".join(CODE_ALPHABET[bits >> (5 * i) & 31] for i in range(REJOIN_CODE_LENGTH))
    return f"{chars[:4]}-{chars[4:]}"


def normal_code(code: str) -> str:
    """A typed rejoin code as stored: dashes and spaces left out, upper case."""
    return "".join(c for c in code.upper() if c not in "- ")


def secrets_of(token: str) -> Secrets:
    """The hashes the database keeps of a seat's token and of the rejoin keys derived from it."""
    return Secrets(
        hash_token(token), hash_token(rejoin_secret(token)), hash_token(normal_code(rejoin_code(token)))
    )


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an SVG document (black on white, sized by its ``viewBox``)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", xmldecl=False, svgns=True, omitsize=True, border=2, dark="#000", light="#fff"
    )
    return out.getvalue().decode("utf-8")


@dataclass
class Seat:
    """A player's seat: a bot (``bot``), or a person's, free until someone takes it."""

    player: int
    bot: str | None
    name: str | None = None
    token_hash: str | None = None
    color: str | None = None
    rejoin_hash: str | None = None
    code_hash: str | None = None

    @property
    def free(self) -> bool:
        """A person's seat nobody has taken."""
        return self.bot is None and self.token_hash is None

    def take(self, name: str | None, color: str | None, keys: Secrets | None) -> None:
        """Give the seat to a person (``keys``), or to nobody (``None``)."""
        self.name = name
        self.color = color
        self.token_hash = None if keys is None else keys.token_hash
        self.rejoin_hash = None if keys is None else keys.rejoin_hash
        self.code_hash = None if keys is None else keys.code_hash


class Presence:
    """Since when each person's seat has had no open connection (P-341)."""

    def __init__(self) -> None:
        self.offline_since: dict[int, float] = {}
        """Person's seats taken and not connected -> since when (monotonic seconds)."""
        self.grace = 0.0

    def went(self, player: int, now: float) -> None:
        """``player``'s last connection closed (or the seat was just taken)."""
        self.offline_since.setdefault(player, now)

    def came(self, player: int) -> None:
        """A connection to ``player``'s seat opened."""
        self.offline_since.pop(player, None)

    def forget(self, player: int) -> None:
        """The seat is no longer a person's."""
        self.offline_since.pop(player, None)

    def away(self, player: int, now: float) -> bool:
        """Whether ``player`` has been offline for the whole grace."""
        since = self.offline_since.get(player)
        return since is not None and now - since >= self.grace

    def next_away(self, now: float) -> float | None:
        """Seconds until the next person's grace ends, if one is running."""
        left = [since + self.grace - now for since in self.offline_since.values() if now - since < self.grace]
        return max(0.0, min(left)) if left else None


Stint = tuple[int, str | None, str | None]
"""Who sat in a seat from when in one game: (the log length then, the person's name, the bot)."""


def stints_of(occupants: Sequence[StoredOccupant], player: int, game: int) -> list[Stint]:
    """Who sat in ``player``'s seat during game ``game``, in order: whoever sat there when it
    began (log length 0), then each change; one replaced before the log grew is left out."""
    out: list[Stint] = []
    for o in occupants:
        if o.player != player or o.game > game:
            continue
        stint = (0 if o.game < game else o.seq, o.name, o.bot)
        if out and out[-1][0] == stint[0]:
            out[-1] = stint
        else:
            out.append(stint)
    return out


def seat_history(
    stints: Sequence[Stint], ends: Sequence[int], dealt: int, finished: bool
) -> list[dict[str, Any]]:
    """A seat's occupants in one game as the table shows them (P-580): ``{"name", "bot",
    "from_hand", "to_hand"}`` each, hands counted from 0, ``to_hand`` null while they still sit
    there in a game that goes on. ``ends``: the log's length as each finished hand ended;
    ``dealt``: the hands dealt so far. Hand ``h`` is the log from ``ends[h - 1]`` (0 for the
    first) to ``ends[h]``; whoever sat in the seat during it played part of it. Someone who sat
    down after the last hand ended has ``from_hand`` the next hand."""
    out: list[dict[str, Any]] = []
    last = len(stints) - 1
    for i, (since, name, bot) in enumerate(stints):
        until = stints[i + 1][0] if i < last else None
        played = [
            h
            for h in range(dealt)
            if (until is None or (ends[h - 1] if h else 0) < until) and (h >= len(ends) or since < ends[h])
        ]
        if not played and i < last:
            continue  # sat and left between two hands
        still = i == last and not finished
        out.append(
            {
                "name": name,
                "bot": bot,
                "from_hand": played[0] if played else dealt,
                "to_hand": None if still else (played[-1] if played else None),
            }
        )
    return out


def rejoin_keys(code: str, token: str, base: str) -> dict[str, Any]:
    """A seat's rejoin link (``url`` in the site, ``link`` in full) and short code, for its
    ``token``, in room ``code``; ``base`` is the page's address (``http://host:port``). Cheap
    (two HMACs): every welcome to a seat carries them. The link's QR code (:func:`qr_svg`, a few
    milliseconds) is made only when the page asks for it (the ``qr`` message), off the loop."""
    url = f"/r/{code}?rejoin={rejoin_secret(token)}"
    return {"url": url, "link": base + url, "code": rejoin_code(token)}


__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MAX_NAME",
    "OLD_CODE_LENGTH",
    "PALETTE",
    "Presence",
    "Seat",
    "Stint",
    "clean_color",
    "clean_name",
    "hash_token",
    "initial",
    "new_code",
    "normal_code",
    "qr_svg",
    "rejoin_code",
    "rejoin_keys",
    "rejoin_secret",
    "seat_history",
    "secrets_of",
    "stints_of",
]
