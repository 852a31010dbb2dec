"""New profiles and transfer codes are paced by what abuse costs (smear.server.players.profilepace): a class
behind one address each get a profile, a flood from it is refused past its allowance with when to
ask again, and wrong transfer codes spend allowances of their own (per address and per code), never
the one for new profiles."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from serverkit import fire_concurrently, http_json, session, stopped_pace

from smear.server.limits import Limits

__all__ = ["stopped_pace"]  # the pace stands still: an allowance spent stays spent

CLASS = 12  # players behind one address, at once
PROXY = Limits(trusted_proxies=("127.0.0.1",))  # the test names the client's address


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 120))


async def post(url: str, body: Any, address: str | None = None) -> tuple[int, Any, str | None]:
    """``POST url`` on a connection of its own (from ``address``, through the trusted proxy): the
    status, the decoded answer and its ``Retry-After``."""
    headers = {} if address is None else {"X-Forwarded-For": address}
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http,
        http.post(url, json=body, headers=headers) as response,
    ):
        return response.status, await response.json(), response.headers.get("Retry-After")


def refused_with_retry(answer: tuple[int, Any, str | None]) -> None:
    status, body, retry_after = answer
    assert (status, body["error"]["code"]) == (429, "rate_limited"), answer
    assert retry_after is not None and retry_after.isdigit() and int(retry_after) >= 1, answer


def test_a_class_behind_one_address_each_get_a_profile_and_a_flood_from_it_is_refused(
    tmp_path: Path,
) -> None:
    burst = PROXY.profile_burst

    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=PROXY) as s:
            players = f"{s.url}/api/players"
            made = await fire_concurrently(CLASS, lambda i: post(players, {"name": f"Pupil {i}"}))
            assert [status for status, _, _ in made] == [201] * CLASS, made
            assert len({body["player"] for _, body, _ in made}) == CLASS
            for _, body, _ in made:  # each profile is there, under its name
                status, shown = await http_json("GET", f"{players}/{body['player']}")
                assert (status, shown["name"]) == (200, body["name"])
            # A script from the same address: the rest of the allowance, and no more.
            flood = [await post(players, {"name": f"Bot {i}"}) for i in range(burst - CLASS + 20)]
            assert [status for status, _, _ in flood[: burst - CLASS]] == [201] * (burst - CLASS)
            for answer in flood[burst - CLASS :]:
                refused_with_retry(answer)
            # Another address has an allowance of its own.
            assert (await post(players, {"name": "Ann"}, "203.0.113.9"))[0] == 201

    run(scenario)


def test_wrong_transfer_codes_spend_their_own_allowance_and_not_the_profiles(tmp_path: Path) -> None:
    limits = Limits()

    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            transfer, players = f"{s.url}/api/transfer", f"{s.url}/api/players"
            guesses = [
                await post(transfer, {"code": f"ABCD-{n:04d}"}) for n in range(limits.transfer_burst + 3)
            ]
            assert [status for status, _, _ in guesses[: limits.transfer_burst]] == [
                404
            ] * limits.transfer_burst
            for answer in guesses[limits.transfer_burst :]:
                refused_with_retry(answer)
            # The address's profiles are untouched: its whole allowance is there, and no more.
            made = [await post(players, {"name": f"Pupil {i}"}) for i in range(limits.profile_burst + 1)]
            assert [status for status, _, _ in made] == [201] * limits.profile_burst + [429]
            # And its guesses are still refused, a right code too (what was paid for is spent).
            ann = made[0][1]
            status, code = await http_json(
                "POST", f"{players}/{ann['player']}/transfer", secret=ann["secret"]
            )
            assert status == 200
            refused_with_retry(await post(transfer, {"code": code["code"]}))

    run(scenario)


def test_one_code_tried_from_many_addresses_is_refused_past_its_own_allowance(tmp_path: Path) -> None:
    tries = PROXY.transfer_code_tries

    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=PROXY) as s:
            transfer = f"{s.url}/api/transfer"
            guesses = [
                await post(transfer, {"code": "wxyz-2345"}, f"203.0.113.{n}") for n in range(tries + 1)
            ]
            assert [status for status, _, _ in guesses[:tries]] == [404] * tries
            refused_with_retry(guesses[tries])
            # Typed another way, it is the same code; another code is not held back.
            refused_with_retry(await post(transfer, {"code": "WXYZ 2345"}, "198.51.100.1"))
            assert (await post(transfer, {"code": "WXYZ-2346"}, "198.51.100.1"))[0] == 404

    run(scenario)


def test_a_right_code_spends_nothing_and_claims_the_profile(tmp_path: Path) -> None:
    limits = Limits(transfer_burst=1)

    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=limits) as s:
            status, ann, _ = await post(f"{s.url}/api/players", {"name": "Ann"})
            assert status == 201
            for _ in range(3):  # each code claimed: the one wrong guess allowed is still there
                status, code = await http_json(
                    "POST", f"{s.url}/api/players/{ann['player']}/transfer", secret=ann["secret"]
                )
                assert status == 200
                status, claimed, _ = await post(f"{s.url}/api/transfer", {"code": code["code"]})
                assert (status, claimed["player"]) == (200, ann["player"])
            assert (await post(f"{s.url}/api/transfer", {"code": "ABCD-EFGH"}))[0] == 404
            refused_with_retry(await post(f"{s.url}/api/transfer", {"code": "ABCD-EFGJ"}))

    run(scenario)
