"""Teams sit partners across and may be drawn at random; a spectator sees the public state and no
card not yet played, and every follower gets each change as one state carrying its event.
"""

from __future__ import annotations

from pathlib import Path

from serverkit import session
from tablechecks import (
    PATIENT,
    cards_in,
    next_turn,
    people_table,
    played_cards,
    run,
)

from smear.actionjson import record_action_json

# --- teams --------------------------------------------------------------------------------------------


def test_teams_sit_partners_across_and_partners_are_drawn_at_random(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.connect()
            guests = [await s.connect() for _ in range(3)]
            names = ["Ayse", "Bo", "Cem", "Dee"]
            partners = []
            for _ in range(12):
                created = await host.call(
                    "create_table", {"name": "Ayse", "preset": "house", "players": 4, "teams": True}
                )
                code, token = created["table"], created["token"]
                for guest, name in zip(guests, names[1:], strict=True):
                    assert (await guest.call("join_table", {"table": code, "name": name}))["ok"]
                started = await host.call("start", {"table": code, "token": token})
                assert started["ok"], started
                state = await host.wait_for(
                    lambda st, code=code, v=started["version"]: (
                        st["table"]["code"] == code and st["version"] == v
                    )
                )
                table, public = state["table"], state["game"]["public"]
                assert public["sides"] == [[0, 2], [1, 3]]
                assert public["seat_side"] == [0, 1, 0, 1]
                seated = [seat["name"] for seat in table["seats"]]
                assert sorted(seated) == names
                you = table["you"]
                assert seated[you] == "Ayse" and table["host"] == you  # the host role moves with the host
                partners.append(seated[(you + 2) % 4])
            assert len(set(partners)) > 1, partners

            # Six players with teams: three pairs, each pair across the table.
            six = await s.create("Ayse", players=6, teams=True)
            for seat in range(1, 6):
                assert (await six.send("set_bot", seat=seat, bot=True))["ok"]
            started = await six.send("start")
            state = await six.wait_for(lambda st: st["version"] == started["version"])
            assert state["game"]["public"]["sides"] == [[0, 3], [1, 4], [2, 5]]
            assert state["table"]["host"] == state["table"]["you"]

    run(scenario)


# --- spectators ---------------------------------------------------------------------------------------


def test_a_spectator_sees_the_public_state_and_no_unplayed_card(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.create("Kemal", preset="ten_point", players=4, teams=True)
            code = host.table
            assert code is not None
            for seat in (1, 2, 3):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            spectator = await s.watch(code)
            assert (await host.send("start"))["ok"]
            # The host walks away: a bot takes the seat, and the host only watches from now on.
            assert (await host.send("leave"))["ok"]
            await spectator.wait_for(
                lambda st: (
                    st["game"] is not None
                    and (len(st["game"]["results"]) >= 2 or st["table"]["status"] == "finished")
                ),
                timeout=20,
            )

            states = [st for st in spectator.states if st["game"] is not None]
            assert states
            for state in states:
                game = state["game"]
                assert state["table"]["you"] is None
                assert {"hand", "discards", "legal", "seat"}.isdisjoint(game)
                assert set(game) >= {"players", "sides", "scores", "trick", "tricks", "results"}
                shown = cards_in({k: v for k, v in game.items() if k != "results"})
                assert shown <= played_cards(game), (state["version"], shown - played_cards(game))
            by_version = {state["version"]: state for state in spectator.states}
            discards = 0
            for event in spectator.events:
                change = event["event"]
                taken = change.get("action") or {}
                if taken.get("kind") == "discard":
                    discards += 1
                    assert set(taken) == {"kind", "count"}  # never its cards
                named = cards_in(change)  # its log lines too
                assert named <= ({taken["card"]} if taken.get("kind") == "play" else set())
                if named:
                    assert named <= played_cards(by_version[event["version"]]["game"])
            assert discards >= 4  # ten_point: every seat discards down to 6, and nobody saw what

    run(scenario)


def test_a_change_reaches_each_follower_as_one_state_carrying_its_event(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            clients = await people_table(s)
            code = clients[0].table
            assert code is not None
            spectator = await s.watch(code)
            actor, view = await next_turn(clients, 0)
            await spectator.wait_for(lambda st: st["version"] == view["version"])
            followers = [*clients, spectator]
            counts = [len(client.received) for client in followers]
            action = view["game"]["legal"][0]["text"]
            reply = await actor.send("act", version=view["version"], action=action)
            assert reply["ok"], reply
            event = {"kind": "action", "seat": actor.seat_now, "action": record_action_json(action)}
            for client, count in zip(followers, counts, strict=True):
                await client.wait_for(lambda st: st["version"] == reply["version"])
                new = client.received[count:]
                assert [kind for kind, _ in new] == ["state"]
                assert new[0][1]["event"] == event and new[0][1]["version"] == reply["version"]
                assert client.events[-1] == {"version": reply["version"], "event": event}

            # A seat dropping changes no version: the others get states with no event.
            counts = [len(client.received) for client in followers]
            away = next(client for client in clients if client is not actor)
            await away.close()
            for client, count in zip(followers, counts, strict=True):
                if client is away:
                    continue
                state = await client.wait_for(
                    lambda st: (
                        st["version"] == reply["version"]
                        and not st["table"]["seats"][away.seat_now]["connected"]
                    )
                )
                assert state["event"] is None
                assert [kind for kind, _ in client.received[count:]] == ["state"]

    run(scenario)
