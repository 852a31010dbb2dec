"""The friends' and blocks' routes in the leak audit: who may learn where a profile is.

A profile (the "host") sits at a table from a page that said whose it is; it has a friend, a
stranger, and a player it blocks. What is checked: the host's table code reaches its friend's list
and invitation alone, never the stranger's nor the blocked player's answers; and every answer the
blocked player gets about the host (asking to be friends, inviting, listing) is the one the
stranger gets about anyone who is not a friend, so nothing tells a block apart.
"""

from __future__ import annotations

import asyncio
from typing import Any

import socketio  # type: ignore[import-untyped]

from leakkit.audit import Leak

Answer = tuple[int, Any]


async def _profile(http: Any, url: str, name: str) -> dict[str, str]:
    async with http.post(f"{url}/api/players", json={"name": name}) as response:
        return dict(await response.json())


async def _call(http: Any, url: str, who: dict[str, str], method: str, path: str, body: Any = None) -> Answer:
    headers = {"Authorization": f"Bearer {who['secret']}"}
    address = f"{url}/api/players/{who['player']}{path}"
    async with http.request(method, address, json=body, headers=headers) as response:
        return response.status, await response.json()


async def audit_friends(http: Any, url: str) -> tuple[int, list[Leak]]:
    """Returns how many answers were checked and the leaks found."""
    host, friend, stranger, blocked, other = [
        await _profile(http, url, name) for name in ("Host", "Friend", "Stranger", "Blocked", "Other")
    ]
    invited: list[Any] = []
    sockets = [socketio.AsyncClient(reconnection=False) for _ in range(4)]
    for socket, who in zip(sockets, (host, friend, stranger, blocked), strict=True):
        socket.on("invitation", lambda data, who=who: invited.append((who["player"], data)))
        await socket.connect(url, transports=["websocket"])
        proof = {"player": who["player"], "secret": who["secret"]}
        await socket.call("hello", {"profile": proof})
    try:
        proof = {"player": host["player"], "secret": host["secret"]}
        created = await sockets[0].call(
            "create_table",
            {"name": "Host", "preset": "house", "players": 4, "teams": False, "profile": proof},
        )
        code = str(created["table"])
        await _call(http, url, host, "POST", "/friends", {"player": friend["player"]})
        await _call(http, url, friend, "POST", f"/friends/{host['player']}/accept")
        await _call(http, url, blocked, "POST", "/friends", {"player": host["player"]})
        await _call(http, url, host, "POST", "/blocks", {"player": blocked["player"]})
        answers: dict[str, list[Answer]] = {}
        for name, who, target in (("stranger", stranger, other), ("blocked", blocked, host)):
            answers[name] = [
                await _call(http, url, who, "POST", f"/friends/{target['player']}/invite"),
                await _call(http, url, who, "POST", f"/friends/{target['player']}/accept"),
            ]
        await _call(http, url, host, "POST", f"/friends/{friend['player']}/invite")
        lists = {
            name: await _call(http, url, who, "GET", "/friends")
            for name, who in (("friend", friend), ("stranger", stranger), ("blocked", blocked))
        }
        for _ in range(200):  # the invitation's way back through the socket
            if invited:
                break
            await asyncio.sleep(0.01)
    finally:
        for socket in sockets:
            await socket.disconnect()
    return _judged(code, friend, answers, lists, invited)


def _judged(
    code: str,
    friend: dict[str, str],
    answers: dict[str, list[Answer]],
    lists: dict[str, Answer],
    invited: list[Any],
) -> tuple[int, list[Leak]]:
    leaks: list[Leak] = []
    if answers["blocked"] != answers["stranger"]:
        leaks.append(Leak("a blocked player is answered unlike a stranger", (), "friends", answers))
    for name in ("stranger", "blocked"):
        if code in str(lists[name]):
            leaks.append(Leak(f"the {name}'s friends list names the table", (), "friends", lists[name]))
    if lists["blocked"] != lists["stranger"]:
        leaks.append(Leak("the blocked player's list differs from a stranger's", (), "friends", lists))
    if code not in str(lists["friend"]):
        leaks.append(Leak("the friend's list does not name the table", (), "friends", lists["friend"]))
    if [player for player, _ in invited] != [friend["player"]]:
        leaks.append(Leak("an invitation reached someone else than the friend", (), "friends", invited))
    return len(answers["stranger"]) + len(answers["blocked"]) + len(lists) + len(invited), leaks
