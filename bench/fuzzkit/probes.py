"""The messages the fuzz benchmark makes about one of its tables, from that table's state: requests
that fit the schema but the table must refuse, their mutations, unknown and reserved events, wrong
packet shapes, oversized, nested and binary messages, and the legal moves that keep the tables going."""

from __future__ import annotations

import base64
import random
import string
from typing import Any

from fuzzkit.tables import Holder, Honest, TargetTable
from fuzzkit.texts import (
    CARDS,
    KNOWN_EVENTS,
    MAX_VERSION,
    NOT_ACTIONS,
    ODD_NAMES,
    OUT_OF_PHASE,
    PRESETS,
    RESERVED_NAMES,
    UNKNOWN_NAMES,
    WRONG_WEIGHTS,
    mutate,
    random_code,
    random_token,
)
from fuzzkit.wire import ACK_TIMEOUT, PUSH_WAIT, RAW_WAIT, SHAPE_WAIT, Frame, Probe, dumps, short


class ProbeMaker:
    """Makes probes about the fuzzer's tables; its own state is only which tables there are."""

    def __init__(self, tables: list[TargetTable], honest: Honest) -> None:
        self.tables = tables
        self.honest = honest

    def other_code(self, rng: random.Random, table: TargetTable | None = None) -> str:
        """A code of another real table, or of none."""
        codes = [t.code for t in self.tables if t is not table] + [self.honest.code]
        return rng.choice(codes) if rng.random() < 0.7 and codes else random_code(rng)

    def foreign_token(self, rng: random.Random, table: TargetTable) -> str:
        """A seat token of another of the fuzzer's tables, or a random one."""
        tokens = [h.token for t in self.tables if t is not table for h in t.holders]
        return rng.choice(tokens) if rng.random() < 0.8 and tokens else random_token(rng)

    def valid_request(
        self, rng: random.Random, table: TargetTable
    ) -> tuple[Holder, str, dict[str, Any]] | None:
        if table.status == "finished":
            host = table.holder_at(table.host_seat)
            if host is None or host.impaired:
                return None
            return host, "play_again", {"table": table.code, "token": host.token}
        holder = table.holder_at(table.to_act)
        if holder is None or holder.impaired or holder.version < table.version:
            return None
        action = self.legal_action(rng, holder)
        if action is None:
            return None
        return (
            holder,
            "act",
            {"table": table.code, "token": holder.token, "version": holder.version, "action": action},
        )

    @staticmethod
    def legal_action(rng: random.Random, holder: Holder) -> str | None:
        legal = holder.legal()
        if legal:
            return str(rng.choice(legal))
        discard = holder.game.get("discard")
        if isinstance(discard, dict):  # too many discards to list: build one from the rule
            required = list(discard.get("required") or [])
            choosable = list(discard.get("choosable") or [])
            count = int(discard.get("count") or 0)
            rng.shuffle(choosable)
            return "discard " + " ".join(required + choosable[: count - len(required)])
        return None

    # --- kind: wrong ------------------------------------------------------------------------------------

    def probe_wrong(self, rng: random.Random, table: TargetTable) -> Probe:
        event, payload, note = self.wrong_request(rng, table)
        probe = Probe("wrong", f"{event}: {note}", dumps([event, payload]), event=event)
        return probe

    def wrong_request(self, rng: random.Random, table: TargetTable) -> tuple[str, dict[str, Any], str]:
        """A request that fits the schema but that the table must refuse: (event, payload, why)."""
        event = rng.choices(KNOWN_EVENTS, WRONG_WEIGHTS)[0]
        code = table.code
        status = table.status
        players = int(table.spec.settings["players"])
        holders = table.holders
        host = table.holder_at(table.host_seat) or holders[0]
        guests = [h for h in holders if h is not host] or holders
        anyone = rng.choice(holders)
        out_of_range = rng.randint(players, 7) if players < 8 else 7
        if event == "act":
            return (event, *self.wrong_act(rng, table))
        if event == "join_table":
            if rng.random() < 0.2:
                return event, {"table": random_code(rng), "name": rng.choice(ODD_NAMES)}, "no such table"
            return event, {"table": code, "name": rng.choice(ODD_NAMES)}, "full or started table"
        if event == "watch_table":
            return event, {"table": random_code(rng)}, "no such table"
        if event == "resume":
            version = rng.choice([0, max(0, table.version - 1), table.version, MAX_VERSION])
            token = self.foreign_token(rng, table)
            return event, {"table": code, "token": token, "version": version}, "another table's token"
        if event == "take_seat":
            if status != "lobby":
                return (
                    event,
                    {"table": code, "token": anyone.token, "seat": rng.randrange(players)},
                    "not in lobby",
                )
            taken = [h.seat for h in holders if h is not anyone and h.seat >= 0]
            if rng.random() < 0.5 and taken:
                return event, {"table": code, "token": anyone.token, "seat": rng.choice(taken)}, "seat taken"
            if rng.random() < 0.5:
                return (
                    event,
                    {"table": code, "token": anyone.token, "seat": out_of_range},
                    "seat out of range",
                )
            token = self.foreign_token(rng, table)
            return (
                event,
                {"table": code, "token": token, "seat": rng.randrange(players)},
                "another table's token",
            )
        if event == "set_bot":
            seat = rng.randrange(players)
            if rng.random() < 0.4:
                return (
                    event,
                    {"table": code, "token": rng.choice(guests).token, "seat": seat, "bot": True},
                    "not host",
                )
            if status != "lobby":
                return event, {"table": code, "token": host.token, "seat": seat, "bot": True}, "not in lobby"
            if rng.random() < 0.5:
                return event, {"table": code, "token": host.token, "seat": seat, "bot": False}, "no bot there"
            bot = rng.random() < 0.5
            return (
                event,
                {"table": code, "token": host.token, "seat": out_of_range, "bot": bot},
                "seat out of range",
            )
        if event == "kick":
            if rng.random() < 0.4:
                return (
                    event,
                    {"table": code, "token": rng.choice(guests).token, "seat": host.seat},
                    "not host",
                )
            if status != "lobby":
                return (
                    event,
                    {"table": code, "token": host.token, "seat": rng.randrange(players)},
                    "not in lobby",
                )
            seat = rng.choice([host.seat, out_of_range])
            return event, {"table": code, "token": host.token, "seat": seat}, "own seat or out of range"
        if event == "start":
            if status == "playing" and rng.random() < 0.5:
                return event, {"table": code, "token": host.token}, "already started"
            return event, {"table": code, "token": rng.choice(guests).token}, "not host"
        if event == "play_again":
            if status != "finished" and rng.random() < 0.5:
                return event, {"table": code, "token": host.token}, "match not over"
            return event, {"table": code, "token": rng.choice(guests).token}, "not host"
        if event == "leave":
            if rng.random() < 0.2:
                return event, {"table": random_code(rng), "token": anyone.token}, "no such table"
            return event, {"table": code, "token": self.foreign_token(rng, table)}, "another table's token"
        if event == "hint":
            if not table.hints or status == "lobby":
                return event, {"table": code, "token": anyone.token}, "hints off or not started"
            waiting = [h for h in holders if h.seat != table.to_act]
            if table.to_act is not None and waiting:  # (between hands, the deal may make anyone's turn)
                return event, {"table": code, "token": rng.choice(waiting).token}, "not their turn"
            return event, {"table": code, "token": self.foreign_token(rng, table)}, "another table's token"
        talk = self.wrong_talk(rng, event, table) or self.wrong_matchmaking(rng, event, table)
        if talk is not None:
            return talk
        return event, self.refused_settings(rng), "settings the rules refuse"

    @staticmethod
    def wrong_matchmaking(
        rng: random.Random, event: str, table: TargetTable
    ) -> tuple[str, dict[str, Any], str] | None:
        """A find_game for a game the rules refuse, or a bot's seat asked of a table that is not
        matchmade (the fuzzer's never are); None for another event."""
        name = rng.choice(ODD_NAMES)
        if event == "find_game":
            game = {"preset": "house", "players": rng.choice([3, 5]), "teams": True}
            return event, {"name": name, **game}, "a game the rules refuse"
        if event == "take_bot_seat":
            code = table.code if rng.random() < 0.8 else random_code(rng)
            return event, {"table": code, "name": name}, "not a matchmade table"
        return None

    def wrong_talk(
        self, rng: random.Random, event: str, table: TargetTable
    ) -> tuple[str, dict[str, Any], str] | None:
        """A reaction, chat line, host's switch or rematch the table must refuse, or None for
        another event."""
        code = table.code
        host = table.holder_at(table.host_seat) or table.holders[0]
        guest = rng.choice([h for h in table.holders if h is not host] or table.holders)
        if event == "react":
            payload = {"table": code, "token": self.foreign_token(rng, table), "reaction": "oops"}
            return event, payload, "another table's token"
        if event == "chat":
            payload = {"table": code, "token": self.foreign_token(rng, table), "text": rng.choice(ODD_NAMES)}
            return event, payload, "another table's token"
        if event == "chat_history":
            return event, {"table": random_code(rng)}, "a table this socket does not follow"
        if event == "hello":
            proof = {"player": host.token[:20], "secret": guest.token}
            return event, {"profile": proof}, "a profile its secret does not prove"
        if event == "chat_settings":
            return event, {"table": code, "token": guest.token, "on": False, "spectators": True}, "not host"
        if event == "mute":
            return event, {"table": code, "token": guest.token, "seat": host.seat, "muted": True}, "not host"
        if event == "list_table":
            return event, {"table": code, "token": guest.token, "listed": True}, "not host"
        if event == "rematch":
            if table.status != "finished":
                return event, {"table": code, "token": host.token, "ready": True}, "match not over"
            return event, {"table": code, "token": self.foreign_token(rng, table), "ready": True}, "bad token"
        return None

    def wrong_act(self, rng: random.Random, table: TargetTable) -> tuple[dict[str, Any], str]:
        code, version = table.code, max(0, table.version)
        acting = table.holder_at(table.to_act)
        plausible = rng.choice(acting.legal() or list(OUT_OF_PHASE)) if acting else rng.choice(OUT_OF_PHASE)
        waiting = [h for h in table.holders if h is not acting]

        def act(token: str, at: int, action: str) -> dict[str, Any]:
            return {"table": code, "token": token, "version": at, "action": action}

        if acting is None:  # in the lobby, between hands, or the match is over
            return act(rng.choice(table.holders).token, version, plausible), f"no turn ({table.status})"
        choice = rng.randrange(8)
        if choice == 0 and waiting:
            return act(rng.choice(waiting).token, version, plausible), "not their turn"
        if choice == 1:
            return act(acting.token, rng.randint(0, max(0, version - 1)), plausible), "stale version"
        if choice == 2:
            ahead = rng.choice([version + 3, version + 1000, MAX_VERSION])
            return act(acting.token, min(ahead, MAX_VERSION), plausible), "future version"
        if choice == 3:
            return act(acting.token, version, self.illegal_action(rng, acting)), "illegal action"
        if choice == 4:
            return act(acting.token, version, rng.choice(NOT_ACTIONS)), "not an action"
        if choice == 5:
            return act(self.foreign_token(rng, table), version, plausible), "another table's token"
        if choice == 6:
            return {
                **act(acting.token, version, plausible),
                "table": self.other_code(rng, table),
            }, "other table"
        legal = set(acting.legal())
        card = rng.choice([c for c in CARDS if c not in legal] or list(CARDS))
        return act(acting.token, version, card), "a card (not held, or not playable now)"

    @staticmethod
    def illegal_action(rng: random.Random, holder: Holder) -> str:
        """An action the rules refuse for this holder now: a card not held, or out of phase."""
        legal = set(holder.legal())
        hand = set(holder.hand())
        discarding = isinstance(holder.game.get("discard"), dict)
        for _ in range(20):
            if rng.random() < 0.5:
                text = rng.choice([card for card in CARDS if card not in hand] or list(CARDS))
            else:
                text = rng.choice(OUT_OF_PHASE)
            if text not in legal and not (discarding and text.startswith("discard")):
                return text
        return "bid 99"

    @staticmethod
    def refused_settings(rng: random.Random) -> dict[str, Any]:
        """`create_table` settings of the right types that the rules refuse."""
        base = {"name": rng.choice(ODD_NAMES), "preset": "house", "players": 4, "teams": False}
        variant = rng.randrange(6)
        if variant == 0:
            return {**base, "players": 2}
        if variant == 1:
            return {**base, "kitty": True}
        if variant == 2:
            return {**base, "bot_level": "zzz"}
        if variant == 3:
            return {**base, "preset": "cutthroat", "players": 4}
        if variant == 4:
            return {**base, "preset": "five_point", "teams": False}
        return {**base, "preset": "mcleod", "players": 5, "teams": True}

    # --- kind: mutated and no_ack -----------------------------------------------------------------------

    def probe_mutated(self, rng: random.Random, table: TargetTable) -> Probe:
        if rng.random() < 0.1:
            event, payload, note = "create_table", self.refused_settings(rng), "settings"
            if rng.random() < 0.5:  # a valid table now and then: its mutations reach the rules
                payload = {
                    "name": rng.choice(ODD_NAMES),
                    "preset": rng.choice(PRESETS),
                    "players": 4,
                    "teams": True,
                }
        else:
            event, payload, note = self.wrong_request(rng, table)
        body, how = mutate(rng, event, payload)
        # Raw numbers past what JSON readers take make the packet undecodable: no ack can come.
        wait = SHAPE_WAIT if "(raw)" in how else ACK_TIMEOUT
        return Probe("mutated", f"{event}: {note}, {how}", body, event=event, wait=wait)

    def probe_no_ack(self, rng: random.Random, table: TargetTable) -> Probe:
        """A refused request sent without an ack id: the server should push an `error`."""
        event, payload, note = self.wrong_request(rng, table)
        if rng.random() < 0.3:
            body, how = mutate(rng, event, payload)
            note += f", {how}"
        else:
            body = dumps([event, payload])
        if rng.random() < 0.1:
            body, note = dumps([rng.choice(UNKNOWN_NAMES), payload]), "unknown event"
        return Probe("no_ack", f"{event}: {note}", body, ack=False, event=event, wait=PUSH_WAIT)

    # --- kinds: unknown events, reserved names, packet shapes -------------------------------------------

    def probe_unknown_event(self, rng: random.Random, table: TargetTable) -> Probe:
        _, payload, _ = self.wrong_request(rng, table)
        name: Any = (
            rng.choice(UNKNOWN_NAMES)
            if rng.random() < 0.6
            else "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 60)))
        )
        if rng.random() < 0.1:
            name = rng.choice([5, None, True, 1.5, {}, [], "a" * 3000])
        body = dumps([name, payload]) if rng.random() < 0.8 else dumps([name])
        return Probe("unknown_event", f"name {short(dumps(name), 40)}", body)

    def probe_reserved(self, rng: random.Random, table: TargetTable) -> Probe:
        event, payload, _ = self.wrong_request(rng, table)
        name = rng.choice(RESERVED_NAMES)
        shapes = [[name], [name, {}], [name, payload], [name, {"token": random_token(rng)}, {}]]
        if name == "*":
            shapes += [["*", event, payload], ["*", "watch_table", {"table": table.code}]]
        if name == "disconnect":
            shapes.append(["disconnect", "client namespace disconnect"])
        body = dumps(rng.choice(shapes))
        ack = rng.random() < 0.7
        return Probe("reserved", short(body, 60), body, ack=ack, wait=SHAPE_WAIT if ack else PUSH_WAIT)

    def probe_shape(self, rng: random.Random, table: TargetTable) -> Probe:
        """Socket.IO events whose array is wrong: empty, not an array, two data arguments, none."""
        event, payload, _ = self.wrong_request(rng, table)
        text = dumps(payload)
        bodies = [
            "[]",
            "{}",
            '"act"',
            "5",
            "null",
            "true",
            "",
            f'["{event}",{text},{text}]',
            f'["{event}",{text},{{}}]',
            f'["{event}",{text},null,1,"x"]',
            f'["{event}"]',
            f'["{event}",null]',
            f"[{text}]",
            f'[["{event}"],{text}]',
            f'{{"0":"{event}","1":{text}}}',
            f'"{event}",{text}',
        ]
        body = rng.choice(bodies)
        ack = rng.random() < 0.6 and not body[:1].isdigit()  # a digit would read as part of the ack id
        wait = SHAPE_WAIT if ack else PUSH_WAIT
        return Probe("shape", short(body or "(nothing)", 60), body, ack=ack, wait=wait)

    # --- kinds: size and depth --------------------------------------------------------------------------

    def probe_oversized(self, rng: random.Random, table: TargetTable) -> Probe:
        event, payload, _ = self.wrong_request(rng, table)
        roll = rng.random()
        if roll < 0.3:
            field_name = rng.choice(list(payload))
            size = rng.choice([4100, 5000, 9000])
            payload = {**payload, field_name: "A" * size}
            body, note = dumps([event, payload]), f"{field_name} of {size} chars"
        elif roll < 0.45:
            body, note = dumps([event, dumps(payload) + " " * 5000]), "payload as 5 KB of JSON text"
        elif roll < 0.6:
            body, note = dumps([event, {f"k{i}": i for i in range(700)}]), "700 fields"
        elif roll < 0.72:
            body, note = dumps(["x" * 10_000, payload]), "event name of 10,000 chars"
        elif roll < 0.97:
            size = rng.choice([16_500, 40_000])
            body, note = dumps([event, {**payload, "pad": "B" * size}]), f"frame over {size // 1000} KB"
        else:
            body, note = dumps([event, {**payload, "pad": "C" * 1_000_000}]), "frame of 1 MB"
        # Past the server's buffer (16 KB) the connection is closed: no ack comes then.
        wait = SHAPE_WAIT if len(body) > 16_000 else ACK_TIMEOUT
        return Probe("oversized", note, body, event=event, wait=wait)

    def probe_nested(self, rng: random.Random, table: TargetTable) -> Probe:
        """Deeply nested JSON: in the packet, in a field, and inside a payload given as text."""
        depth = rng.choice([1000, 5000, 5000, 20_000])
        event, payload, _ = self.wrong_request(rng, table)
        arrays = "[" * depth + "]" * depth
        objects = '{"a":' * (depth // 2) + "1" + "}" * (depth // 2)
        variants = [
            (f'["{event}",{arrays}]', f"arrays {depth} deep as the payload"),
            (f'["{event}",{{"table":{arrays}}}]', f"arrays {depth} deep in a field"),
            (f"[{arrays}]", f"arrays {depth} deep as the event name"),
            (f'["{event}",{objects}]', f"objects {depth // 2} deep as the payload"),
            (dumps([event, "[" * 2000 + "]" * 2000]), "arrays 2000 deep in the payload's JSON text"),
            (dumps([event, payload])[:-1] + "," + arrays + "]", f"arrays {depth} deep as a second argument"),
        ]
        body, note = rng.choice(variants)
        probe = Probe("nested", note, body, wait=SHAPE_WAIT)
        if rng.random() < 0.2:
            probe.ack, probe.wait = False, PUSH_WAIT
        return probe

    # --- kinds: garbage and binary frames ---------------------------------------------------------------

    def probe_binary(self, rng: random.Random, table: TargetTable) -> Probe:
        """Binary frames alone, Socket.IO binary events with attachments, and non-UTF-8 text."""
        event, payload, _ = self.wrong_request(rng, table)
        placeholder = {"_placeholder": True, "num": 0}
        attachment = rng.choice(
            [
                dumps(payload).encode(),
                b"\xff\xfe\xfd" + dumps(payload).encode(),
                rng.randbytes(rng.randint(1, 300)),
            ]
        )
        variant = rng.randrange(11)
        if variant == 0:
            probe = Probe(
                "binary", "binary frame alone", frames=[("binary", rng.randbytes(rng.randint(0, 400)))]
            )
        elif variant == 1:
            probe = Probe(
                "binary",
                "binary frame b'4...'",
                frames=[("binary", b"42" + dumps([event, payload]).encode())],
            )
        elif variant == 2:
            body = dumps([event, placeholder])
            probe = Probe(
                "binary", "event with an attachment", body, head="451-", attachments=[("binary", attachment)]
            )
        elif variant == 3:
            body = dumps([event, {"table": placeholder, "token": "x" * 20}])
            probe = Probe(
                "binary", "attachment in a field", body, head="451-", attachments=[("binary", attachment)]
            )
        elif variant == 4:
            body = dumps([event, {"_placeholder": True, "num": rng.choice([3, -1, "0", None, 10**9])}])
            probe = Probe(
                "binary", "placeholder out of range", body, head="451-", attachments=[("binary", attachment)]
            )
        elif variant == 5:
            body = dumps([placeholder, payload])
            probe = Probe("binary", "binary event name", body, head="451-", attachments=[("binary", b"act")])
        elif variant == 6:
            body = dumps([event, placeholder, {"_placeholder": True, "num": 1}])
            probe = Probe("binary", "2 attachments announced, 1 sent", body, head="452-", poison=True)
            probe.attachments = [("binary", attachment)]
            probe.wait = SHAPE_WAIT
        elif variant == 7:
            # An Engine.IO text message as the attachment (any other text frame is not a message).
            body = dumps([event, placeholder])
            attachments: list[Frame] = [("text", "4" + dumps(payload))]
            probe = Probe(
                "binary", "text message as the attachment", body, head="451-", attachments=attachments
            )
        elif variant == 8:
            frames: list[Frame] = [("text", "461-5" + dumps([placeholder])), ("binary", attachment)]
            probe = Probe("binary", "binary ack from the client", frames=frames)
        elif variant == 9:
            encoded = base64.b64encode(b"42" + dumps([event, payload]).encode()).decode()
            probe = Probe("binary", "base64 message frame", frames=[("text", "b" + encoded)])
        else:
            raw = b'42["' + event.encode() + b'",{"table":"\xff\xfe' + table.code.encode() + b'"}]'
            probe = Probe("binary", "text frame not UTF-8", frames=[("bad_text", raw)])
        if variant in (2, 7):  # the attachment is the whole request: an accepted one explains its change
            probe.event = event
        if probe.frames is not None:
            probe.wait = RAW_WAIT
        elif rng.random() < 0.2 and not probe.poison:
            probe.ack, probe.wait = False, PUSH_WAIT
        elif not probe.poison:
            probe.wait = SHAPE_WAIT
        return probe

    # --- kinds: bursts, hint floods, spectators ---------------------------------------------------------
