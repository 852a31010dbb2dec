"""What the fuzz benchmark (``fuzz.py``) sends that is wrong on purpose: the events it names, texts
that are no action, odd and refused names and numbers, and the ways it mutates a request."""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import Any

from fuzzkit.wire import dumps, short

MAX_VERSION = 2**53 - 1

KNOWN_EVENTS = (
    "create_table",
    "join_table",
    "watch_table",
    "resume",
    "take_seat",
    "set_bot",
    "kick",
    "start",
    "act",
    "play_again",
    "leave",
    "hint",
    "react",
    "chat",
    "chat_history",
    "chat_settings",
    "mute",
    "list_table",
    "rematch",
    "hello",
    "find_game",
    "take_bot_seat",
)
# How often each event is picked for a wrong request.
WRONG_WEIGHTS = (3, 3, 1, 3, 3, 3, 3, 2, 14, 2, 2, 3, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2)

CARDS = tuple(rank + suit for suit in "cdhs" for rank in "23456789TJQKA")
# Texts that are no action in record notation, nor another spelling of one.
NOT_ACTIONS = (
    "bid",
    "bid two",
    "bid 1234",
    "play Ah",
    "Ahh",
    "Zz",
    "trump x",
    "trump hearts please",
    "discard Zz",
    "pass pass",
    "widow now",
    "\u0000",
    "ＡＨ",
    "A♥",
    "undo",
    "x" * 160,
    "bid -1",
    "0x3",
)
# Actions to try in a phase where they do not belong (each is checked against the legal ones).
OUT_OF_PHASE = ("bid 2", "bid 3", "bid 5", "pass", "trump h", "trump s", "widow", "Ah", "7d", "Qc", "BJ")
# Names that fit the schema, and names it refuses.
ODD_NAMES = (
    "Ana",
    "  Zoë  ",
    "e\u0301e\u0301",
    "名前",
    "🃏 Joker",
    "Ω" * 24,
    "O'Brien <b>",
    "x\u200by",
    "Ｆｕｚｚ",
)
BAD_NAMES = (
    "",
    "   ",
    "\u202eevil",
    "a\u0000b",
    "line\u2028break",
    "\ue000",
    "\U000e0001",
    "x" * 25,
    "e\u0301" * 30,
    "\u200b",
    "\ud800",
    "\t\n",
)
UNKNOWN_NAMES = (
    "act ",
    "ACT",
    "Act",
    "act\u0000",
    "hint2",
    "",
    " ",
    "актер",
    "🃏",
    "__init__",
    "constructor",
    "toString",
    "on_connect",
    "create-table",
    "watch_table\n",
    "\ud800",
)
RESERVED_NAMES = ("connect", "disconnect", "*", "message", "connect_error", "error", "state", "event")
# Numbers that are no version or seat: out of range, not integers, or past what JSON readers hold.
ODD_NUMBERS: tuple[Any, ...] = (-1, 2**53, 2**64, -(2**63), 10**30, 0.0, 1.5, 21.0, True, False, None, "1")
RAW_NUMBERS = ("1e400", "-0", "NaN", "Infinity", "-Infinity", "0x10", "01", "1" + "0" * 5000, "1.0e2")
PRESETS = ("house", "ten_point", "no_jick", "cutthroat", "five_point", "mcleod", "widow", "nine_card")

CODE_CHARS = string.ascii_letters + string.digits + "_-"


def random_code(rng: random.Random) -> str:
    """A code of the server's format that no table has."""
    return "".join(rng.choice(CODE_CHARS) for _ in range(16))


def random_token(rng: random.Random) -> str:
    return "".join(rng.choice(CODE_CHARS) for _ in range(32))


def odd_text(rng: random.Random, text: str) -> str:
    """``text`` with a unicode oddity or a format problem."""
    variants: list[Callable[[str], str]] = [
        lambda s: s + "\n",
        lambda s: " " + s,
        lambda s: s.translate({ord(c): ord(c) + 0xFEE0 for c in string.ascii_letters + string.digits}),
        lambda s: s[:4] + "\u200b" + s[4:],
        lambda s: "\u202e" + s,
        lambda s: s + "\ud800",
        lambda s: "\u0430" + s[1:],  # a Cyrillic a
        lambda s: s + "\u0000",
        lambda s: "\ufeff" + s,
        lambda s: s * 10,
        lambda s: s[:7],
        lambda s: "",
        lambda s: s[:6] + "/../" + s[6:],
        lambda s: s[:5] + "%20" + s[5:],
    ]
    return rng.choice(variants)(text)


# --- mutations ------------------------------------------------------------------------------------------


def mutate(rng: random.Random, event: str, payload: dict[str, Any]) -> tuple[str, str]:
    """The body of ``[event, payload]`` changed in one way; returns it and what was done."""
    fields = list(payload) or ["table"]
    name = rng.choice(fields)
    value = payload.get(name)
    choice = rng.randrange(14)
    if choice == 0:
        flipped: Any = rng.choice(
            [str(value), [value], {"v": value}, None, True, 0, -1, 21.0, "", 10**20]
            if not isinstance(value, str)
            else [len(value), None, [value], {"": value}, True, 1.5, value.encode().hex()]
        )
        return dumps([event, {**payload, name: flipped}]), f"{name} as {type(flipped).__name__}"
    if choice == 1:
        return dumps([event, {k: v for k, v in payload.items() if k != name}]), f"{name} dropped"
    if choice == 2:
        extra = rng.choice(
            [
                ("extra", 1),
                ("__proto__", {"ok": True}),
                ("", None),
                (name.upper(), value),
                (" " + name, value),
            ]
        )
        return dumps([event, {**payload, extra[0]: extra[1]}]), f"extra field {extra[0]!r}"
    if choice == 3:
        size = rng.choice([200, 3000, 4090])
        return dumps([event, {**payload, name: "Z" * size}]), f"{name} of {size} chars"
    if choice == 4 and isinstance(value, str):
        return dumps([event, {**payload, name: odd_text(rng, value)}]), f"odd {name}"
    if choice == 5:
        odd = (
            {**payload, "name": rng.choice(BAD_NAMES)}
            if "name" in payload
            else {**payload, name: rng.choice(BAD_NAMES)}
        )
        return dumps([event, odd]), "a name the schema refuses"
    if choice == 6:
        number_field = next((f for f in ("version", "seat", "players", "target") if f in payload), name)
        odd_number = rng.choice(ODD_NUMBERS)
        how = f"{number_field} = {short(dumps(odd_number), 30)}"
        return dumps([event, {**payload, number_field: odd_number}]), how
    if choice == 7:
        number_field = next((f for f in ("version", "seat", "players", "target") if f in payload), name)
        raw = rng.choice(RAW_NUMBERS)
        text = dumps({**payload, number_field: 0}).replace(
            f'"{number_field}":0', f'"{number_field}":{raw}', 1
        )
        return f'["{event}",{text}]', f"{number_field} = {short(raw, 20)} (raw)"
    if choice == 8:
        return dumps([event, dumps(payload)]), "payload as JSON text"
    if choice == 9:
        text = dumps(payload)
        broken = rng.choice(
            [text[:-1], text + "x", "NaN", "[]", "null", text.replace(":", "=", 1), "\ufeff" + text]
        )
        return dumps([event, broken]), "payload as broken JSON text"
    if choice == 10:
        text = dumps(payload)
        duplicate = text[:-1] + f',"{name}":' + dumps(rng.choice(["other", 0, None])) + "}"
        return f'["{event}",{duplicate}]', f"{name} given twice"
    if choice == 11:
        other = rng.choice([[], [payload], "x", 5, True, None, 1.5])
        return dumps([event, other]), f"payload is {type(other).__name__}"
    if choice == 12:
        return dumps([event, {k.title(): v for k, v in payload.items()}]), "field names capitalised"
    # (also where choice 4 found no text to change)
    odd_points = "\u0000\u202e\ud800\ufffe\U0010ffff"  # NUL, an override, a lone surrogate, non-characters
    return dumps([event, {**payload, name: odd_points}]), f"{name} of odd code points"
