"""The presets as the browser shows them are the engine's: the landing page's table sizes, teams and
kitty, and the How to play pages' deal and points tables, read from the page for every preset and
compared with smear.rules and with matches the engine deals. The client asks the server for these
facts (GET /api/presets); while the answer is on its way or broken, the page says so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browserkit import Watched, unfold_the_form
from playwright.sync_api import Locator, Page, Route, expect

from smear import PRESETS, Rules, new_match
from smear.cards import Rank
from smear.dealing import team_sides
from smear.rules import ELIMINATION_SCORE
from smear.server.wire.protocol import TARGETS

# The points and the table's words as the English page names them.
POINT_NAMES = {
    "high": "High",
    "low": "Low",
    "two": "Two",
    "jack": "Jack",
    "jick": "Jick",
    "big_joker": "Big joker",
    "little_joker": "Little joker",
    "game": "Game",
    "ten": "Ten of trump",
    "trey": "Trey",
}
RANK_LABELS = {rank: ("10" if rank.letter == "T" else rank.letter) for rank in Rank}


def sizes(rules: Rules) -> list[int]:
    return sorted(set(rules.player_counts) | set(rules.team_player_counts))


def rank_runs(ranks: list[Rank]) -> str:
    """Consecutive ranks as runs, the way a person writes them: "2, 9–A"."""
    runs: list[list[Rank]] = []
    for rank in ranks:
        if runs and rank == runs[-1][-1] + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    return ", ".join(
        RANK_LABELS[run[0]] if len(run) == 1 else f"{RANK_LABELS[run[0]]}–{RANK_LABELS[run[-1]]}"
        for run in runs
    )


def expected_deal(rules: Rules) -> tuple[list[str], list[list[str]]]:
    """The deal table the page should show, from the rules and a match the engine deals."""
    rows = []
    for players in sizes(rules):
        solo, teams = players in rules.player_counts, players in rules.team_player_counts
        state = new_match(rules, players, teams=not solo, seed=7)
        deck = rules.deck_mask(players)
        dealt = len(state.hand(0))
        undealt = state.public.stock_left - state.public.widow_left  # the widow is apart
        drawn_from = rules.refill or rules.take_stock
        row = {
            "Players": str(players),
            "Teams": "alone or in teams" if solo and teams else ("in teams" if teams else "alone"),
            "Ranks in each suit": rank_runs([rank for rank in Rank if deck >> (rank - 2) & 1]),
            "Jokers": str(rules.jokers),
            "Cards in the deck": str(deck.bit_count()),
            "Dealt to each": str(dealt),
            "Kept and played": str(rules.hand_size),
            "Widow": str(state.public.widow_left),
            "Stock": str(undealt if drawn_from else 0),
            "Sleeping": str(0 if drawn_from else undealt),
        }
        assert dealt * players + state.public.stock_left == deck.bit_count()
        rows.append(row)
    head = ["Players", "Teams", "Ranks in each suit", "Jokers", "Cards in the deck", "Dealt to each"]
    if any(row["Dealt to each"] != row["Kept and played"] for row in rows):
        head.append("Kept and played")
    head += [column for column in ("Widow", "Stock", "Sleeping") if any(row[column] != "0" for row in rows)]
    return head, [[row[column] for column in head] for row in rows]


def expected_points(rules: Rules) -> list[list[str]]:
    names = dict(POINT_NAMES, big_joker="Joker") if rules.jokers == 1 else POINT_NAMES
    rows = [[names[point], str(rules.point_values[point])] for point in rules.points]
    return [*rows, ["Every point of a hand", str(sum(rules.point_values.values()))]]


def read_table(table: Locator) -> tuple[list[str], list[list[str]]]:
    head = table.locator("thead th").all_inner_texts()
    rows = [row.locator("th, td").all_inner_texts() for row in table.locator("tbody tr").all()]
    return head, rows


def teams_box_state(page: Page) -> tuple[bool, bool]:
    box = page.get_by_role("checkbox", name="Play in teams")
    return box.is_enabled(), box.is_checked()


def test_the_landing_page_offers_each_preset_as_the_rules_allow(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    page.goto(url)
    unfold_the_form(page)
    radios = page.locator("input[name=preset]")
    expect(radios).to_have_count(len(PRESETS))
    assert [radios.nth(i).get_attribute("value") for i in range(len(PRESETS))] == list(PRESETS)
    players = page.get_by_label("Players")
    for name, rules in PRESETS.items():
        page.locator(f"input[name=preset][value={name}]").check()
        expect(players.locator("option")).to_have_text([str(n) for n in sizes(rules)])
        for n in sizes(rules):
            players.select_option(str(n))
            solo, teams = n in rules.player_counts, n in rules.team_player_counts
            expect(players).to_have_value(str(n))
            enabled, checked = teams_box_state(page)
            # Teams can be chosen only where both are allowed, and are forced where only teams are.
            assert enabled == (solo and teams), (name, n)
            if not enabled:
                assert checked == teams, (name, n)
            note = page.locator("#teams-note").inner_text()
            if rules.alternate_teams and teams:
                first, second = team_sides(n, alternate=True)
                for seat in (*first, *second):
                    assert str(seat + 1) in note, (name, n, note)
        kitty = page.get_by_role("checkbox", name="Kitty", exact=True)
        expect(kitty).to_have_count(1 if rules.kitty_option else 0)


def test_how_to_play_shows_every_presets_deal_and_points_as_the_engine_has_them(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    page.goto(url)
    page.get_by_role("button", name="How to play").first.click()
    dialog = page.get_by_role("dialog", name="How to play")
    tabs = dialog.locator(".tabs button")
    expect(tabs).to_have_count(len(PRESETS))
    for index, (name, rules) in enumerate(PRESETS.items()):
        tabs.nth(index).click()
        expect(tabs.nth(index)).to_have_attribute("aria-pressed", "true")
        deal = dialog.locator("table.facts-deal")
        expect(deal).to_have_count(1)
        assert read_table(deal) == expected_deal(rules), name
        points = dialog.locator("table.facts-points")
        expect(points).to_have_count(1)
        assert read_table(points) == (["Point", "Worth"], expected_points(rules)), name
        text = dialog.inner_text()
        assert "{" not in text and "}" not in text, name  # every number the prose names is filled in
        # The prose's numbers are the preset's: the bids, the moon, the target and elimination.
        assert f"from {rules.min_bid} to {rules.max_bid}" in text, name
        assert f"“Moon”: {rules.max_bid + 1} in this game." in text, name
        choices = f"{', '.join(map(str, TARGETS[:-1]))}, or {TARGETS[-1]}"
        assert f"played to {choices} points ({rules.target} is the usual)" in text, name
        assert f"Elimination at −{-ELIMINATION_SCORE}: " in text, name


def test_the_landing_page_waits_for_the_presets_and_offers_a_retry_when_they_fail(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # answered below

    page.route("**/api/presets", hold)
    page.goto(url)
    # Asked for, not answered yet: no game is offered, none is guessed.
    expect(page.get_by_role("status").filter(has_text="Loading the games")).to_be_visible()
    expect(page.locator("input[name=preset]")).to_have_count(0)
    expect(page.get_by_role("button", name="Create the table")).to_have_count(0)
    expect(page.get_by_role("button", name="How to play").first).to_be_disabled()
    # A broken answer (anything but the facts) is a failure, said with a way to try again.
    assert len(held) == 1
    held[0].fulfill(status=200, content_type="application/json", body='{"presets": []}')
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("The games could not be loaded from the server.")
    expect(page.locator("input[name=preset]")).to_have_count(0)
    # The join form does not need the presets.
    expect(page.get_by_label("Table code or invite link")).to_be_visible()

    page.unroute("**/api/presets")
    alert.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("button", name="Play now")).to_be_visible()
    unfold_the_form(page)
    expect(page.get_by_role("button", name="Create the table")).to_be_visible()
    expect(page.locator("input[name=preset]")).to_have_count(len(PRESETS))
    expect(page.get_by_role("alert")).to_have_count(0)


def test_the_page_asks_for_the_presets_once(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    asked: list[Any] = []
    page.on("request", lambda request: asked.append(request.url) if "/api/presets" in request.url else None)
    page.goto(url)
    unfold_the_form(page)
    page.get_by_role("radio", name="Ten-point").check()
    page.get_by_role("button", name="How to play").first.click()
    expect(page.locator("table.facts-deal")).to_have_count(1)
    page.keyboard.press("Escape")
    page.get_by_role("radio", name="Widow").check()
    expect(page.get_by_label("Players").locator("option")).to_have_text(["3", "4"])
    assert len(asked) == 1, asked
