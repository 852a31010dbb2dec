"""Reconnecting: a resume replays the missed events and then the state, or sends one state marked
resync when the client is too far behind.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from serverkit import session
from tablechecks import (
    PATIENT,
    next_turn,
    people_table,
    run,
)


def test_resume_replays_the_missed_events_then_the_state(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            clients = await people_table(s)
            code = clients[0].table
            assert code is not None
            actor, view = await next_turn(clients, 0)
            away = clients[(actor.seat_now + 3) % 4]  # it acts last of the four, after three others
            assert away.seat_now is not None
            seen = away.state
            hand = seen["game"]["hand"]
            await away.close()
            present = [c for c in clients if c is not away]
            await present[0].wait_for(
                lambda st: (
                    st["version"] == seen["version"]
                    and st["table"]["seats"][away.seat_now]["connected"] is False
                )
            )

            last, sent = seen["version"] - 1, []
            while True:
                view = await present[0].wait_for(
                    lambda st, last=last: st["version"] > last and st["game"]["public"]["to_act"] is not None
                )
                last = view["version"]
                seat = view["game"]["public"]["to_act"]
                if seat == away.seat_now:
                    break
                actor = next(c for c in present if c.seat_now == seat)
                view = await actor.wait_for(lambda st, last=last: st["version"] == last)
                action = view["game"]["legal"][-1]["text"]
                assert (await actor.send("act", version=last, action=action))["ok"]
                sent.append((seat, action))
            assert len(sent) == 3

            back, reply = await s.resume(code, away.token or "", seen["version"])
            assert reply == {"ok": True, "seat": away.seat_now, "version": view["version"], "replayed": 3}
            await asyncio.sleep(0.05)
            kinds = [kind for kind, _ in back.received]
            assert kinds == ["event", "event", "event", "state"]
            events = back.events
            assert [e["version"] for e in events] == list(range(seen["version"] + 1, view["version"] + 1))
            assert [(e["event"]["seat"], e["event"]["action"]["text"]) for e in events] == sent
            state = back.state
            assert state["version"] == view["version"] and state["resync"] is False
            assert state["table"]["you"] == away.seat_now and state["game"]["hand"] == hand
            assert state["game"]["legal"]  # its turn, kept for it
            # The others saw it leave and come back as seat changes, not as new events.
            for client in present:
                seats = await client.wait_for(
                    lambda st: (
                        st["version"] == view["version"]
                        and st["table"]["seats"][away.seat_now]["connected"] is True
                    )
                )
                assert seats["resync"] is False
                versions = client.event_versions()
                assert versions == sorted(set(versions)), versions
            assert (
                await back.send("act", version=view["version"], action=state["game"]["legal"][0]["text"])
            )["ok"]

    run(scenario)


def test_resume_too_far_behind_gets_one_state_marked_resync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("smear.server.tables.table.EVENT_HISTORY", 2)

    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            host = await s.create("Kemal", players=4)
            code = host.table
            assert code is not None
            away = await s.join(code, "Ayse")
            token, seen = away.token or "", away.state["version"]
            await away.close()
            for name in ("Bo", "Cem"):
                await s.join(code, name)
            started = await host.send("start")
            now = started["version"]
            assert now == seen + 3  # only the last two of those three events are kept

            for version in (seen, now + 1000):
                back, reply = await s.resume(code, token, version)
                assert reply == {"ok": True, "seat": 1, "version": now, "replayed": 0}
                await asyncio.sleep(0.05)
                assert [kind for kind, _ in back.received] == ["state"]
                state = back.state
                assert state["resync"] is True and state["version"] == now
                assert state["table"]["you"] == 1 and len(state["game"]["hand"]) == 6
                await back.close()

            # One version closer, and the history still holds everything missed.
            back, reply = await s.resume(code, token, now - 2)
            assert reply["ok"] and reply["replayed"] == 2
            await asyncio.sleep(0.05)
            assert [kind for kind, _ in back.received] == ["event", "event", "state"]
            assert back.state["resync"] is False

    run(scenario)
