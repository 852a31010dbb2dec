"""A table: seats, a host, the match in play and the versioned history everyone is sent.

This module holds no I/O: the app calls these methods, stores what they report and sends the views.
Every method either changes the table and bumps its version, or raises :class:`TableError` and
changes nothing. The rules themselves are the engine's: a table only decides who may act.
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from smear.actions import Action, parse_action
from smear.dealing import new_match, next_hand, team_sides
from smear.errors import ActionError, IllegalActionError
from smear.server.players.names import seat_marks
from smear.server.players.ratings import bot_level, bot_profile_id
from smear.server.social.chat import ChatRoom
from smear.server.tables.seats import BOT_NAMES, Seat, distinct_names, hash_token, new_code, new_token
from smear.server.tables.settings import TableError, TableSettings
from smear.server.wire.protocol import illegal_action_args, log_lines, public_event
from smear.state import Phase, State
from smear.transitions import apply

__all__ = ["EVENT_HISTORY", "Seat", "Table", "TableError", "TableSettings", "hash_token"]

# Public events kept for clients that reconnect; one further behind gets a full resync.
EVENT_HISTORY = 256


@dataclass
class Table:
    """A table and, once started, its match."""

    code: str
    settings: TableSettings
    seats: list[Seat]
    host_seat: int | None = 0
    status: str = "lobby"  # lobby, playing, finished
    version: int = 0
    match_number: int = 0
    seed: int = 0
    names: list[str] = field(default_factory=list)  # the seat names when the match started, each once
    state: State | None = None
    action_count: int = 0  # actions stored for the current match
    events: deque[tuple[int, dict[str, Any]]] = field(default_factory=lambda: deque(maxlen=EVENT_HISTORY))
    chat: ChatRoom = field(default_factory=ChatRoom)
    listed: bool = False  # on the landing page's list of open tables while in the lobby
    # After a match: the seats whose person will play again, and whether the host asks for new partners.
    rematch_ready: frozenset[int] = frozenset()
    new_partners: bool = False

    # --- creating and joining -------------------------------------------------------------------

    @classmethod
    def create(
        cls, settings: TableSettings, host_name: str, code: str | None = None, profile: str | None = None
    ) -> tuple[Table, str]:
        """A new table with its host in seat 0; returns the table and the host's seat token."""
        settings.check()
        token = new_token()
        seats = [Seat() for _ in range(settings.players)]
        seats[0] = Seat(name=host_name, token_hash=hash_token(token), profile=profile)
        table = cls(code=code or new_code(), settings=settings, seats=seats, host_seat=0)
        table.bump({"kind": "created"})
        return table, token

    def join(self, name: str, profile: str | None = None) -> tuple[int, str]:
        """Sit a newcomer in the first open seat; returns the seat and its token. A profile holds
        one seat at a table (``profile_already_seated``): two seats of one player, played by one
        person or one script, would make a match with itself."""
        if self.status != "lobby":
            raise TableError("not_in_lobby")
        if profile is not None and any(seat.profile == profile for seat in self.seats):
            raise TableError("profile_already_seated")
        for index, seat in enumerate(self.seats):
            if seat.is_open:
                token = new_token()
                self.seats[index] = Seat(name=name, token_hash=hash_token(token), profile=profile)
                if self.host_seat is None:
                    self.host_seat = index
                self.bump({"kind": "joined", "seat": index})
                return index, token
        raise TableError("table_full")

    # --- matchmade tables ---------------------------------------------------------------------------

    @classmethod
    def create_matchmade(
        cls, settings: TableSettings, name: str, profile: str | None = None, seed: int | None = None
    ) -> tuple[Table, str]:
        """A matchmade table, its match started at once: the person and bots in the other seats
        (partners drawn at random), no host. Returns the table and the person's seat token."""
        settings.check()
        token = new_token()
        bots = bot_profile_id(settings.bot_level)
        seats = [Seat(name=name, token_hash=hash_token(token), profile=profile)]
        seats += [Seat(name=bot, is_bot=True, profile=bots) for bot in BOT_NAMES[: settings.players - 1]]
        table = cls(code=new_code(), settings=settings, seats=seats, host_seat=None)
        table.bump({"kind": "created"})
        table._deal_match(seed, reseat=True)
        return table, token

    def take_bot_seat(self, name: str, profile: str | None = None) -> tuple[int, str]:
        """A person takes a bot's seat at this matchmade table from the next hand on (the bot plays
        the hand under way); returns the seat and its token."""
        if not self.settings.matchmade:
            raise TableError("table_full")
        if self.status != "playing":  # between two matches: a newcomer is not made to wait
            raise TableError("match_over")
        if profile is not None and any(seat.profile == profile for seat in self.seats):
            raise TableError("profile_already_seated")
        free = [index for index, seat in enumerate(self.seats) if seat.is_bot and not seat.arriving]
        if not free:
            raise TableError("table_full")
        token = new_token()
        self.seats[free[0]] = Seat(name=name, token_hash=hash_token(token), is_bot=True, profile=profile)
        self.bump({"kind": "arriving", "seat": free[0]})
        return free[0], token

    def next_matchmade_match(self, seed: int | None = None) -> None:
        """After a match at a matchmade table: the people who did not say they play again give
        their seats to bots (their match was finished, not left), and the next match starts with
        the same seats, those who arrived meanwhile playing from its first hand."""
        if not self.settings.matchmade or self.status != "finished":
            raise TableError("match_not_over")
        for index, seat in enumerate(self.seats):
            if seat.is_person and not seat.is_bot and index not in self.rematch_ready:
                self.seats[index] = Seat(name=seat.name, is_bot=True, profile=self.bot_profile)
        self._deal_match(seed, reseat=False)

    def bot_seats_free(self) -> int:
        """How many bots' seats people may still take (at a matchmade table whose match is on)."""
        if not self.settings.matchmade or self.status != "playing":
            return 0
        return sum(1 for seat in self.seats if seat.is_bot and not seat.arriving)

    # --- who is asking ------------------------------------------------------------------------------

    def seat_of(self, token: str) -> int:
        """The seat a token holds (raises ``bad_token``)."""
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return index
        raise TableError("bad_token")

    def playing_seat(self, token: str) -> int:
        """The seat a token holds, refused with ``not_your_turn`` while a bot plays it for a person
        who arrives at the next hand (who sees the table as a spectator until then)."""
        seat = self.seat_of(token)
        if self.seats[seat].arriving:
            raise TableError("not_your_turn")
        return seat

    def view_seat(self, seat: int | None) -> int | None:
        """The seat whose cards a follower of ``seat`` sees: none while it is a person's who arrives."""
        return None if seat is None or self.seats[seat].arriving else seat

    def _host(self, token: str) -> int:
        seat = self.seat_of(token)
        if seat != self.host_seat:
            raise TableError("not_host")
        return seat

    def _lobby(self) -> None:
        if self.status != "lobby":
            raise TableError("not_in_lobby")

    def _seat_index(self, seat: int) -> int:
        if not 0 <= seat < len(self.seats):
            raise TableError("no_such_seat", seat=seat)
        return seat

    # --- the lobby ----------------------------------------------------------------------------------

    def take_seat(self, token: str, seat: int) -> None:
        """Move to another open seat before the match starts."""
        self._lobby()
        current = self.seat_of(token)
        target = self._seat_index(seat)
        if target == current:
            return
        if not self.seats[target].is_open:
            raise TableError("seat_taken", seat=seat)
        self.seats[target], self.seats[current] = self.seats[current], Seat()
        if self.host_seat == current:
            self.host_seat = target
        self.bump({"kind": "seated", "seat": target})

    def set_bot(self, token: str, seat: int, bot: bool) -> None:
        """The host puts a bot in an open seat, or takes one out."""
        self._host(token)
        self._lobby()
        target = self._seat_index(seat)
        chair = self.seats[target]
        if bot:
            if not chair.is_open:
                raise TableError("seat_taken", seat=seat)
            taken = {s.name for s in self.seats}
            # Clients mark bots from the seat's flag, in the reader's language; the name stays bare.
            name = next((n for n in BOT_NAMES if n not in taken), "Bot")
            self.seats[target] = Seat(name=name, is_bot=True, profile=self.bot_profile)
        else:
            if not chair.is_bot:
                raise TableError("no_such_seat", seat=seat)
            self.seats[target] = Seat()
        self.bump({"kind": "bot", "seat": target, "bot": bot})

    def kick(self, token: str, seat: int) -> None:
        """The host removes a player (or bot) from a seat before the match starts."""
        host = self._host(token)
        self._lobby()
        target = self._seat_index(seat)
        if target == host or self.seats[target].is_open:
            raise TableError("no_such_seat", seat=seat)
        self.seats[target] = Seat()
        self.bump({"kind": "kicked", "seat": target})

    def leave(self, token: str) -> int:
        """A person leaves. In the lobby the seat opens; in a match a bot takes it over for good.

        If the host leaves, the host role passes to the next person clockwise.
        """
        seat = self.seat_of(token)
        if self.status == "lobby":
            self.seats[seat] = Seat()
        else:
            name = self.seats[seat].name or "Player"
            # The match stays in the leaver's history; the seat, and any rematch, is the bot's.
            self.seats[seat] = Seat(name=name, is_bot=True, profile=self.bot_profile)
        if self.host_seat == seat:
            self.host_seat = self._next_person(seat)
        self.bump({"kind": "left", "seat": seat})
        return seat

    @property
    def bot_profile(self) -> str:
        """The profile of the table's bots."""
        return bot_profile_id(self.settings.bot_level)

    def set_ratings(
        self, ratings: dict[str, float], finishes: dict[str, tuple[int, int]] | None = None
    ) -> None:
        """Show each seat's rating and a person's matches finished and left (by its profile; a
        profile without one shows none)."""
        finishes = finishes or {}
        self.seats = [
            replace(
                seat,
                rating=ratings.get(seat.profile) if seat.profile else None,
                finishes=finishes.get(seat.profile) if seat.profile and not seat.is_bot else None,
            )
            for seat in self.seats
        ]

    def leaving_profile(self, token: str) -> str | None:
        """The profile that leaves a match in progress if ``token``'s seat leaves now (a person's
        alone: it counts as a match left), or None."""
        seat = self.seats[self.seat_of(token)]
        return seat.profile if self.status == "playing" and not seat.is_bot else None

    def seat_marks(self) -> tuple[str | None, ...]:
        """The mark each seat's name is shown with (:func:`smear.server.players.names.marks`)."""
        return seat_marks(tuple((seat.name or "", seat.profile, seat.is_bot) for seat in self.seats))

    def set_profile_gone(self, player: str) -> None:
        """A profile was deleted: its seats here play on without one."""
        self.seats = [
            replace(seat, profile=None, rating=None, finishes=None) if seat.profile == player else seat
            for seat in self.seats
        ]

    def _next_person(self, after: int) -> int | None:
        n = len(self.seats)
        for step in range(1, n + 1):
            index = (after + step) % n
            if self.seats[index].is_person:
                return index
        return None

    def set_listed(self, token: str, listed: bool) -> None:
        """The host lists the table as open, for anyone to find and join, or takes it off the list."""
        self._host(token)
        self._lobby()
        if listed != self.listed:
            self.listed = listed
            self.bump({"kind": "listed", "listed": listed})

    # --- the chat -----------------------------------------------------------------------------------

    def set_chat(self, token: str, on: bool, spectators: bool) -> None:
        """The host turns the chat on or off and lets spectators write in it or not."""
        self._host(token)
        if (on, spectators) != (self.chat.on, self.chat.spectators):
            self.chat.on, self.chat.spectators = on, spectators
            self.bump({"kind": "chat_settings", "on": on, "spectators": spectators})

    def mute(self, token: str, seat: int, muted: bool) -> None:
        """The host mutes another seat in the chat, or lets it speak again."""
        host = self._host(token)
        target = self._seat_index(seat)
        if target == host:
            raise TableError("no_such_seat", seat=seat)
        if (target in self.chat.muted) != muted:
            self.chat.muted = self.chat.muted | {target} if muted else self.chat.muted - {target}
            self.bump({"kind": "muted", "seat": target, "muted": muted})

    def chat_refusal(self, seat: int | None) -> str | None:
        """Why a line from ``seat`` (None: a spectator) may not be written now, or None."""
        return self.chat.refusal(status=self.status, hand_over=self._hand_over, seat=seat)

    def _seat_arrivals(self) -> list[int]:
        """The people who took bots' seats play them from now on; returns those seats."""
        arrived = [index for index, seat in enumerate(self.seats) if seat.arriving]
        for index in arrived:
            self.seats[index] = replace(self.seats[index], is_bot=False)
        return arrived

    @property
    def _hand_over(self) -> bool:
        return self.state is not None and self.state.public.phase is Phase.HAND_OVER

    # --- the match ----------------------------------------------------------------------------------

    def start(self, token: str, seed: int | None = None) -> None:
        """The host starts the match: every seat must be filled (by people or bots).

        With teams, partners are drawn at random: everyone is reseated at random and partners sit
        across the table (or, in presets whose two teams alternate, every other seat).
        """
        self._host(token)
        if self.status == "playing":
            raise TableError("not_in_lobby")
        self._deal_match(seed, reseat=self.settings.teams)

    def _deal_match(self, seed: int | None, reseat: bool) -> None:
        """Start the next match, everyone reseated at random first if ``reseat``."""
        if any(seat.is_open for seat in self.seats):
            raise TableError("not_enough_players")
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        if reseat:
            host = self.seats[self.host_seat] if self.host_seat is not None else None
            rng.shuffle(self.seats)
            if host is not None:
                self.host_seat = self.seats.index(host)
        self.seed = rng.randrange(1 << 62)
        self._seat_arrivals()
        self.match_number += 1
        self.listed = False  # a match under way waits for nobody
        self.rematch_ready, self.new_partners = frozenset(), False
        self._begin_match()
        self.bump({"kind": "started", "match": self.match_number})

    def _begin_match(self) -> None:
        players = self.settings.players
        self.names = distinct_names([seat.name or f"Seat {i + 1}" for i, seat in enumerate(self.seats)])
        rules = self.settings.rules()
        teams = team_sides(players, rules.alternate_teams) if self.settings.teams else None
        self.state = new_match(rules, players, teams, seed=self.seed)
        self.status = "playing"
        self.action_count = 0

    @property
    def sides(self) -> list[list[int]]:
        assert self.state is not None
        return [list(side) for side in self.state.public.sides]

    def act(self, token: str, version: int, text: str) -> tuple[int, Action]:
        """A seat's action, checked in order: match on, seat held, its turn, version current, legal.

        Returns the seat and the action; the new state is in ``self.state``.
        """
        if self.status != "playing" or self.state is None:
            raise TableError("match_over" if self.status == "finished" else "not_in_lobby")
        seat = self.playing_seat(token)
        to_act = self.state.public.to_act
        if to_act != seat:
            raise TableError("not_your_turn")
        if version != self.version:
            raise TableError("stale_version", version=self.version)
        try:
            action = parse_action(text)
        except ActionError as err:
            raise TableError("bad_action", reason_code="not_an_action", reason=str(err)) from None
        self.apply_action(seat, action)
        return seat, action

    def apply_action(self, seat: int, action: Action) -> None:
        """Apply an action for ``seat`` (a person's, a bot's or the timer's); raises on an illegal one."""
        assert self.state is not None
        before = self.state.public
        try:
            self.state = apply(self.state, action, seat)
        except IllegalActionError as err:
            raise TableError("illegal_action", **illegal_action_args(err)) from None
        self.action_count += 1
        event = {"kind": "action", **public_event(seat, action)}
        lines = log_lines(before, self.state.public)
        if lines:  # what the action made happen, in the order the log shows it
            event["lines"] = lines
        if self.state.public.phase is Phase.MATCH_OVER:
            self.status = "finished"
        self.bump(event)

    def deal_next_hand(self) -> list[int]:
        """Deal the next hand once the last one has been shown; the people who arrived during the
        last one take their seats from the bots first. Returns those seats (to be stored)."""
        assert self.state is not None and self.state.public.phase is Phase.HAND_OVER
        arrived = self._seat_arrivals()
        self.state = next_hand(self.state)
        dealt: dict[str, Any] = {"kind": "deal", "hand": self.state.public.hand_number}
        if arrived:  # the log tells who came in, after the deal's own line
            dealt["lines"] = [{"kind": "took_seat", "seat": index} for index in arrived]
        self.bump(dealt)
        return arrived

    def rematch(self, token: str, ready: bool, new_partners: bool, seed: int | None = None) -> bool:
        """After a match, a seat says it will play again or not (the host also whether partners are
        drawn anew, where there are teams). When every person seated is ready (bots always are), the
        next match starts; returns whether it did."""
        seat = self.seat_of(token)
        if self.status != "finished":
            raise TableError("match_not_over")
        changed = False
        if seat == self.host_seat and self.settings.teams and new_partners != self.new_partners:
            self.new_partners, changed = new_partners, True
        if ready != (seat in self.rematch_ready):
            self.rematch_ready = self.rematch_ready | {seat} if ready else self.rematch_ready - {seat}
            changed = True
        if changed:
            self.bump({"kind": "rematch", "seat": seat, "ready": ready})
        return self.rematch_if_everyone_is_ready(seed)

    def rematch_if_everyone_is_ready(self, seed: int | None = None) -> bool:
        """Start the next match if a rematch was asked and every person seated has accepted."""
        if self.status != "finished" or not self.rematch_ready:
            return False
        if not all(chair.is_bot or index in self.rematch_ready for index, chair in enumerate(self.seats)):
            return False
        self._deal_match(seed, reseat=self.new_partners)
        return True

    def play_again(self, token: str, seed: int | None = None) -> None:
        """After a match, the host starts another one with the same people."""
        self._host(token)
        if self.status != "finished":
            raise TableError("not_in_lobby")
        self.status = "lobby"
        self.start(token, seed)

    # --- restoring after a restart ------------------------------------------------------------------

    def restore_match(self, number: int, seed: int, actions: list[tuple[int, str]]) -> None:
        """Rebuild the match in progress by replaying its stored actions through the engine."""
        self.match_number = number
        self.seed = seed
        self._begin_match()
        for seat, text in actions:
            assert self.state is not None
            if self.state.public.phase is Phase.HAND_OVER:
                self.state = next_hand(self.state)
            self.apply_action(seat, parse_action(text))

    # --- history ------------------------------------------------------------------------------------

    def bump(self, event: dict[str, Any]) -> None:
        """Every change gets the next version and a public event."""
        self.version += 1
        self.events.append((self.version, event))

    def events_since(self, version: int) -> list[tuple[int, dict[str, Any]]] | None:
        """The events after ``version``, or None when they are no longer all kept (resync)."""
        if version > self.version or version < 0:
            return None
        if version == self.version:
            return []
        if not self.events or self.events[0][0] > version + 1:
            return None
        return [(v, e) for v, e in self.events if v > version]

    def lobby_json(self, you: int | None) -> dict[str, Any]:
        """The table as everyone at it may see it."""
        marked = self.seat_marks()
        return {
            "code": self.code,
            "settings": self.settings.to_json(),
            "status": self.status,
            "host": self.host_seat,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "bot": s.is_bot,
                    "bot_level": (bot_level(s.profile) or self.settings.bot_level) if s.is_bot else None,
                    "open": s.is_open,
                    "arriving": s.arriving,
                    "player": s.profile,
                    "rating": s.rating,
                    "mark": marked[i],
                    "finished": None if s.finishes is None else s.finishes[0],
                    "left": None if s.finishes is None else s.finishes[1],
                }
                for i, s in enumerate(self.seats)
            ],
            "you": you,
            "you_arrive": None,
            "match_number": self.match_number,
            "chat": self.chat.controls_json()
            | {
                "refused": self.chat.refusals_json(
                    status=self.status, hand_over=self._hand_over, seats=len(self.seats)
                )
            },
            "listed": self.listed,
            "rematch": {"ready": sorted(self.rematch_ready), "new_partners": self.new_partners},
        }
