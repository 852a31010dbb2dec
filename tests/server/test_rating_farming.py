"""Ratings that cannot be farmed (docs/players.md, "What counts as a rated match").

The farm seen from outside: one profile and two guest seats played by the same script, three
tables at once, target 11: 36 matches put the profile above the expert bot. It is replayed here
through the storage's rating path (``Storage.finish_match`` with the outcome the server builds from
a real final state), and so are its variants (fresh profiles instead of guests, a weak bot beaten
again and again); a normal match still moves everyone's rating, and one profile cannot hold two
seats at a table.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from serverkit import http_json, session

from smear import apply, legal_actions, new_match, next_hand
from smear.bots import random_action
from smear.dealing import team_sides
from smear.record import record_of
from smear.server.players.playerstats import seat_stats, side_ranks
from smear.server.players.ratings import (
    BOT_START,
    ESTABLISHED,
    NEW_PLAYER,
    STEP,
    Rating,
    bot_profile_id,
    rate_match,
)
from smear.server.storage.database import Storage
from smear.server.storage.playerstore import BoardEntry, MatchOutcome
from smear.server.storage.rows import SeatRow
from smear.server.tables.table import TableSettings, hash_token
from smear.state import Phase, State

PRESET = "house"
LEVELS = ("random", "beginner", "heuristic", "expert")
SETTINGS = TableSettings(preset=PRESET, players=3, target=11)
FARMER = "farmer"
ROUNDS = 12  # three tables at once: 36 matches


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    with Storage(f"sqlite:///{tmp_path / 'smear.db'}") as opened:
        opened.players.ensure_bots(LEVELS, [PRESET], now=1.0)
        opened.players.create_profile(FARMER, "Farmer", hash_token("farmer-secret"), now=1.0)
        yield opened


def finished_match(seed: int, players: int = 3, teams: bool = False) -> State:
    """A match of house to 11 played to its end by the random bot's choices (which end a match:
    they pass often and bid low)."""
    settings = TableSettings(preset=PRESET, players=players, teams=teams, target=11)
    rules = settings.rules()
    rng = random.Random(seed)
    state = new_match(
        rules, players, team_sides(players, rules.alternate_teams) if teams else None, seed=seed
    )
    while state.public.phase is not Phase.MATCH_OVER:
        if state.public.phase is Phase.HAND_OVER:
            state = next_hand(state)
            continue
        state = apply(state, random_action(legal_actions(state), rng))
    return state


def store_match(
    storage: Storage, code: str, number: int, state: State, profiles: list[str | None], now: float
) -> None:
    """Match ``number`` of table ``code``, held by ``profiles`` (None: a guest), stored as the server
    stores it: its start with the seats, then its end with the outcome worked out from ``state``."""
    names = [player or f"Guest {seat}" for seat, player in enumerate(profiles)]
    bots = [player is not None and player.startswith("bot-") for player in profiles]
    seats = [
        SeatRow(seat, names[seat], None if bots[seat] else f"token-{seat}", bots[seat], player)
        for seat, player in enumerate(profiles)
    ]
    pub = state.public
    sides = [list(side) for side in pub.sides]
    if number == 1:
        storage.create_table(code, SETTINGS.to_json(), 0, seats, now)
    storage.start_match(code, number, number, sides, names, seats=seats)
    outcome = MatchOutcome(
        preset=PRESET,
        sides=sides,
        scores=list(pub.scores),
        winner=pub.winner,
        ranks=side_ranks(state),
        stats=[seat_stats(state, seat) for seat in range(pub.players)],
        names=names,
    )
    storage.finish_match(code, number, record_of(state, names), outcome, now=now)


def farm(storage: Storage, opponents: Iterator[tuple[str | None, str | None]]) -> None:
    """The farm: three tables at once, twelve matches each; the farmer always sits where the winner
    sits (the script's other seats lose on purpose) and ``opponents`` hold the other two seats."""
    now = 1_000.0
    for number in range(1, ROUNDS + 1):
        for table in range(3):
            state = finished_match(seed=number * 10 + table)
            assert state.public.winner is not None
            others = iter(next(opponents))
            profiles = [FARMER if seat == state.public.winner else next(others) for seat in range(3)]
            now += 7.0
            store_match(storage, f"farm-{table}", number, state, profiles, now)


def place(board: list[BoardEntry], player: str) -> int | None:
    return next((index for index, entry in enumerate(board) if entry.player == player), None)


def test_a_profile_farming_guest_seats_is_not_rated_and_the_leaderboard_does_not_move(
    storage: Storage,
) -> None:
    before = storage.players.leaderboard(PRESET)
    farm(storage, iter(lambda: (None, None), ()))
    assert storage.players.leaderboard(PRESET) == before  # nobody moved: the expert bot is still first
    assert place(before, bot_profile_id("expert")) == 0
    assert storage.players.ratings_of([FARMER], PRESET) == {}
    # The matches are kept all the same: the farmer's history and statistics have every one.
    matches, more = storage.players.player_matches(FARMER, limit=100)
    assert len(matches) == 3 * ROUNDS and not more


def test_fresh_profiles_losing_on_purpose_lift_the_farmer_at_most_a_step(storage: Storage) -> None:
    count = iter(range(1_000_000))

    def fresh_pair() -> tuple[str, str]:
        pair = f"sybil-{next(count)}", f"sybil-{next(count)}"
        for player in pair:
            storage.players.create_profile(player, player, hash_token(player), now=2.0)
        return pair

    farm(storage, iter(fresh_pair, ()))
    farmer = storage.players.ratings_of([FARMER], PRESET)[FARMER]
    assert farmer.mu <= NEW_PLAYER.mu + STEP + 1e-9
    board = storage.players.leaderboard(PRESET)
    farmer_place, expert_place = place(board, FARMER), place(board, bot_profile_id("expert"))
    heuristic_place = place(board, bot_profile_id("heuristic"))
    assert farmer_place is not None and expert_place is not None and heuristic_place is not None
    assert expert_place < heuristic_place < farmer_place


def test_a_weak_bot_beaten_again_and_again_lifts_nobody_past_it(storage: Storage) -> None:
    random_bot = bot_profile_id("random")
    farm(storage, iter(lambda: (random_bot, random_bot), ()))
    farmer = storage.players.ratings_of([FARMER], PRESET)[FARMER]
    assert farmer.mu <= max(NEW_PLAYER.mu, BOT_START["random"].mu + STEP) + 1e-9
    board = storage.players.leaderboard(PRESET)
    farmer_place, heuristic_place = place(board, FARMER), place(board, bot_profile_id("heuristic"))
    assert farmer_place is not None and heuristic_place is not None and heuristic_place < farmer_place


def test_a_normal_match_with_friends_or_against_bots_moves_every_rating(storage: Storage) -> None:
    for friend in ("ann", "ben"):
        storage.players.create_profile(friend, friend.title(), hash_token(friend), now=2.0)
    # Ann and Ben, new, against each other and a bot: the winner up, the last down.
    state = finished_match(seed=5)
    winner = state.public.winner
    assert winner is not None
    profiles: list[str | None] = ["ann", "ben", bot_profile_id("heuristic")]
    store_match(storage, "friends", 1, state, profiles, now=3_000.0)
    after = storage.players.ratings_of(["ann", "ben", bot_profile_id("heuristic")], PRESET)
    ranks = side_ranks(state)
    for seat, held in enumerate(profiles):
        assert held is not None
        start = BOT_START["heuristic"] if held.startswith("bot-") else NEW_PLAYER
        if seat == winner:
            assert after[held].mu > start.mu, (held, after[held])
        elif ranks[seat] == max(ranks):
            assert after[held].mu < start.mu, (held, after[held])
    # Partners against two bots: both move together.
    teams = finished_match(seed=9, players=4, teams=True)
    assert teams.public.winner is not None and list(teams.public.sides[0]) == [0, 2]
    bot = bot_profile_id("expert")
    store_match(storage, "with-bots", 1, teams, ["ann", bot, "ben", bot], now=3_100.0)
    again = storage.players.ratings_of(["ann", "ben"], PRESET)
    won = teams.public.winner == 0
    for player in ("ann", "ben"):
        assert again[player].mu != after[player].mu
        assert (again[player].mu > after[player].mu) == won


def test_established_people_rate_each_other_as_openskill_says() -> None:
    """Past :data:`ESTABLISHED` rated matches a person's results vouch for their opponents' wins:
    beating them is not bounded, however far the winner is above them."""
    strong, weak = Rating(40.0, 3.0), Rating(25.0, 3.0)
    ratings = {"ann": strong, "ben": weak}
    free = rate_match(["ann", "ben"], ratings, [[0], [1]], [1, 2])
    assert free["ann"].mu > strong.mu
    assert rate_match(["ann", "ben"], ratings, [[0], [1]], [1, 2], {"ann": 0, "ben": ESTABLISHED}) == free
    # Ben a newcomer: Ann is more than a step above him already, so beating him lifts her no more.
    bounded = rate_match(["ann", "ben"], ratings, [[0], [1]], [1, 2], {"ann": 50, "ben": ESTABLISHED - 1})
    assert bounded["ann"].mu == strong.mu and bounded["ben"] == free["ben"]


def test_guests_and_a_second_seat_feed_no_rating() -> None:
    assert rate_match(["ann", None, None], {}, [[0], [1], [2]], [1, 2, 3], {}) == {}
    assert rate_match(["ann", "ann"], {}, [[0], [1]], [1, 2], {}) == {}
    # A guest partner plays as a new player would; the guest's side still has Ann to rate.
    new = rate_match(["ann", "ben", None, "bot-expert"], {}, [[0, 2], [1, 3]], [1, 2], {})
    assert set(new) == {"ann", "ben", "bot-expert"}


def test_a_profile_cannot_take_a_second_seat_at_a_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            status, fay = await http_json("POST", f"{s.url}/api/players", {"name": "Fay"})
            assert status == 201, fay
            proof = {"player": fay["player"], "secret": fay["secret"]}
            host = await s.connect()
            reply = await host.call(
                "create_table",
                {"name": "Fay", "preset": PRESET, "players": 3, "teams": False, "profile": proof},
            )
            assert reply["ok"], reply
            code = reply["table"]
            table = s.server.live.tables[code]
            version = table.version
            second = await s.connect()
            refused = await second.call("join_table", {"table": code, "name": "Fay two", "profile": proof})
            assert not refused["ok"] and refused["error"]["code"] == "profile_already_seated"
            assert table.version == version and [seat.name for seat in table.seats] == ["Fay", None, None]
            stored = s.server.storage.table(code)
            assert stored is not None and [seat.name for seat in stored.seats] == ["Fay", None, None]
            # The same person as a guest, or someone else, may still sit down.
            guest = await second.call("join_table", {"table": code, "name": "Cy"})
            assert guest["ok"], guest

    asyncio.run(scenario())
