"""The play log's lines are the server's: each action event carries, in ``lines``, what the action
made happen (a trick won, the kitty or the stock the bidder took, a refill after a discard) in the
order a player reads it, so a client shows the events in turn and never rebuilds the order from the
phases. The lines name seats and counts, never a card.
"""

from __future__ import annotations

from typing import Any

from serverkit import Client, session
from tablechecks import cards_in, run

from smear.server.tables.table import Table, TableSettings
from smear.state import Phase, PublicState
from smear.views import player_view

# A log line as a reader sees it: what happened, to which seat, how many cards (None: no count).
Line = tuple[str, int, int | None]


def first_hand(preset: str, players: int, **settings: Any) -> tuple[list[Line], PublicState]:
    """The log of a table's first hand, each seat taking its first legal action (the bidder's first
    legal discard too), and the state that ends the hand."""
    table, token = Table.create(TableSettings(preset=preset, players=players, **settings), "Ann")
    for bot in range(1, players):
        table.set_bot(token, bot, True)
    table.start(token, seed=7)
    log: list[Line] = []
    state = table.state
    assert state is not None
    while state.public.phase is not Phase.HAND_OVER:
        seat = state.public.to_act
        assert seat is not None
        table.apply_action(seat, player_view(state, seat).legal_actions[0])
        log.extend(lines_of(table.events[-1][1]))
        state = table.state
        assert state is not None
    return log, state.public


def lines_of(event: dict[str, Any]) -> list[Line]:
    """An action event as the log shows it: its own line, then the lines it carries."""
    action = event["action"]
    own = (action["kind"], event["seat"], action.get("count"))
    return [own, *((line["kind"], line["seat"], line.get("count")) for line in event.get("lines", []))]


def check_tricks(log: list[Line], pub: PublicState) -> None:
    """Each trick's winner comes right after the card that completed it, and nowhere else."""
    plays = [i for i, (kind, _, _) in enumerate(log) if kind == "play"]
    won = [i for i, (kind, _, _) in enumerate(log) if kind == "trick"]
    ends, played = [], 0
    for trick in pub.tricks:
        played += len(trick.cards)
        ends.append(plays[played - 1] + 1)
    assert won == ends
    assert [log[i][1] for i in won] == [trick.winner for trick in pub.tricks]


def test_the_kitty_comes_right_after_the_last_bid_and_before_the_bidders_discard() -> None:
    log, pub = first_hand("five_point", 4, teams=True, kitty=True)
    bidder = pub.bidder
    assert bidder is not None
    last_bid = max(i for i, (kind, _, _) in enumerate(log) if kind in ("bid", "pass"))
    assert log[last_bid + 1] == ("kitty", bidder, 3)
    assert log[last_bid + 2] == ("discard", bidder, 3)
    assert [kind for kind, _, _ in log].count("kitty") == 1
    check_tricks(log, pub)


def test_the_stock_comes_right_before_the_bidders_discard() -> None:
    log, pub = first_hand("mcleod", 4, teams=True)
    bidder = pub.bidder
    assert bidder is not None
    stock = [i for i, (kind, _, _) in enumerate(log) if kind == "stock"]
    assert len(stock) == 1
    assert log[stock[0]] == ("stock", bidder, pub.bidder_draws().stock)
    assert log[stock[0] + 1][:2] == ("discard", bidder)
    assert "refill" not in [kind for kind, _, _ in log]  # McLeod deals nobody back
    check_tricks(log, pub)


def test_the_widow_then_each_refill_after_its_discard_then_the_stock() -> None:
    log, pub = first_hand("widow", 3)
    bidder = pub.bidder
    assert bidder is not None
    kinds = [kind for kind, _, _ in log]
    assert kinds.index("widow") < kinds.index("trump") < kinds.index("discard")
    discards = [i for i, (kind, _, _) in enumerate(log) if kind == "discard"]
    others = [i for i in discards if log[i][1] != bidder]
    assert len(others) == 2
    for i in others:  # each seat but the bidder is dealt back right after its own discard
        seat = log[i][1]
        assert log[i + 1] == ("refill", seat, pub.refilled(seat))
    (own,) = [i for i in discards if log[i][1] == bidder]
    assert own > max(others)
    assert log[own - 1] == ("stock", bidder, pub.bidder_draws().stock)
    assert kinds.count("refill") == 2 and kinds.count("stock") == 1 and "kitty" not in kinds
    check_tricks(log, pub)


def test_in_nine_card_everyone_refills_the_bidder_too_and_single_card_tricks_are_won() -> None:
    log, pub = first_hand("nine_card", 4)
    discards = [i for i, (kind, _, _) in enumerate(log) if kind == "discard"]
    assert len(discards) == 4
    for i in discards:
        seat = log[i][1]
        assert log[i + 1] == ("refill", seat, pub.refilled(seat))
    assert "stock" not in [kind for kind, _, _ in log]
    check_tricks(log, pub)


def test_an_action_that_makes_nothing_else_happen_carries_no_lines() -> None:
    table, token = Table.create(TableSettings(preset="house", players=4), "Ann")
    for bot in range(1, 4):
        table.set_bot(token, bot, True)
    table.start(token, seed=3)
    state = table.state
    assert state is not None
    seat = state.public.to_act
    assert seat is not None
    table.apply_action(seat, player_view(state, seat).legal_actions[0])
    assert "lines" not in table.events[-1][1]


# --- over a real connection ---------------------------------------------------------------------------

LINE_FIELDS = {"trick": {"kind", "seat"}, "kitty": {"kind", "seat", "count"}}
LINE_FIELDS |= {"stock": LINE_FIELDS["kitty"], "refill": LINE_FIELDS["kitty"]}


def hidden_in_events(events: list[dict[str, Any]]) -> list[Any]:
    """The events that name a card other than the one card they play, or carry a line that is more
    than a seat and a count."""
    found: list[Any] = []
    for message in events:
        event = message["event"]
        action = event.get("action") or {}
        played = {action["card"]} if action.get("kind") == "play" else set()
        if cards_in(event) - played:
            found.append(event)
        for line in event.get("lines", []):
            if set(line) != LINE_FIELDS.get(line.get("kind"), set()):
                found.append(line)
    return found


def test_hidden_in_events_finds_a_card_in_a_line_or_a_discard() -> None:
    play: dict[str, Any] = {
        "kind": "action",
        "seat": 1,
        "action": {"kind": "play", "card": "Ah", "text": "Ah"},
    }
    refill: dict[str, Any] = {"kind": "refill", "seat": 1, "count": 2}
    fine: list[dict[str, Any]] = [
        {"event": play | {"lines": [{"kind": "trick", "seat": 1}]}},
        {"event": {"kind": "x", "lines": [refill]}},
    ]
    assert hidden_in_events(fine) == []
    drew = refill | {"cards": ["Kd", "2c"]}
    discard = {"kind": "action", "seat": 0, "action": {"kind": "discard", "count": 1, "cards": ["3s"]}}
    assert hidden_in_events([{"event": play | {"lines": [drew]}}, {"event": discard}]) == [
        play | {"lines": [drew]},
        drew,
        discard,
    ]


def flattened(events: list[dict[str, Any]]) -> list[Line]:
    return [
        line
        for message in events
        if message["event"]["kind"] == "action"
        for line in lines_of(message["event"])
    ]


def test_a_seat_and_a_spectator_get_the_lines_live_and_again_on_resume_and_never_a_hidden_card(
    tmp_path: Any,
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.with_bots(players=3, preset="widow")
            assert host.table is not None and host.token is not None
            spectator = await s.watch(host.table)
            assert (await host.send("start"))["ok"]
            started = await host.wait_for(
                lambda st: st["event"] is not None and st["event"]["kind"] == "started"
            )
            await play_first_hand(host)
            over = await host.wait_for(lambda st: st["game"]["public"]["phase"] == "hand_over")
            await spectator.wait_for(lambda st: st["version"] >= over["version"])

            back, reply = await s.resume(host.table, host.token, started["version"])
            assert reply["ok"], reply
            await back.wait_for(lambda st: True)
            for client in (host, spectator, back):
                assert hidden_in_events(client.events) == []
            live = [m for m in host.events if started["version"] < m["version"] <= over["version"]]
            replayed = [m for m in back.events if m["version"] <= over["version"]]
            assert flattened(replayed) == flattened(live)
            kinds = [kind for kind, _, _ in flattened(live)]
            assert {"widow", "refill", "stock", "trick"} <= set(kinds)

    run(scenario)


async def play_first_hand(client: Client) -> None:
    """The person takes its first legal action whenever it is its turn (a discard not listed: its
    required cards and then the first it may choose), until the first hand is over."""

    def done(state: dict[str, Any]) -> bool:
        pub = state["game"]["public"]
        return bool(pub["hand_number"] > 1 or pub["phase"] == "hand_over")

    after = 0
    while True:
        state = await client.wait_for(
            lambda st, after=after: (
                st is client.states[-1]
                and st["version"] >= after
                and st["game"] is not None
                and (done(st) or bool(st["game"]["legal"] or st["game"]["discard"]))
            ),
            timeout=60,
        )
        if done(state):
            return
        view = state["game"]
        if view["legal"]:
            action = view["legal"][0]["text"]
        else:
            discard = view["discard"]
            free = discard["count"] - len(discard["required"])
            action = " ".join(["discard", *discard["required"], *discard["choosable"][:free]])
        reply = await client.send("act", version=state["version"], action=action)
        assert reply["ok"], reply
        after = reply["version"]
