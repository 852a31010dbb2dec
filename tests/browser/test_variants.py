"""The other presets and the table options in the browser: five-point with the moon, how to play."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from browserkit import HAND_CARDS, Watched, create_table, play_until, start_with_bots
from playwright.sync_api import Page, expect

from smear.server.app import Timing

SCREENSHOTS = Path(__file__).parent / "screenshots"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FIVE_POINTS = ["High", "Low", "Jack", "Joker", "Game"]


def choose_preset(page: Page, name: str) -> None:
    page.get_by_role("radio", name=name).check()


def test_the_landing_page_keeps_each_preset_to_the_tables_it_allows(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    page.goto(url)
    players = page.get_by_label("Players")
    teams = page.get_by_role("checkbox", name="Play in teams")
    for name in ["House (6 points)", "Ten-point", "No jick", "Cut-throat", "Five-point"]:
        expect(page.get_by_role("radio", name=name)).to_have_count(1)

    choose_preset(page, "Cut-throat")
    expect(players.locator("option")).to_have_text(["3"])
    expect(teams).to_be_disabled()
    expect(teams).not_to_be_checked()

    choose_preset(page, "Five-point")
    expect(players.locator("option")).to_have_text(["4", "6", "8"])
    expect(players).to_have_value("4")  # the nearest size five-point has
    expect(teams).to_be_disabled()
    expect(teams).to_be_checked()
    expect(page.locator("#teams-note")).to_contain_text("alternate")

    choose_preset(page, "Ten-point")
    players.select_option("8")
    expect(teams).to_be_checked()  # eight play ten-point in teams only
    expect(teams).to_be_disabled()
    players.select_option("6")
    expect(teams).to_be_enabled()
    expect(teams).to_be_checked()  # still the host's choice
    teams.uncheck()
    players.select_option("5")
    expect(teams).to_be_disabled()  # five cannot make teams
    expect(teams).not_to_be_checked()

    # The options are remembered with the other settings.
    page.get_by_role("checkbox", name="Shoot the moon").check()
    page.get_by_role("checkbox", name="Elimination at −21").check()
    page.reload()
    expect(page.get_by_role("radio", name="Ten-point")).to_be_checked()
    expect(players).to_have_value("5")
    expect(page.get_by_role("checkbox", name="Shoot the moon")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Elimination at −21")).to_be_checked()
    expect(page.locator("#moon-note")).to_contain_text("every point")


def test_five_point_with_the_moon_from_the_landing_page_to_the_end_of_a_hand(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    # The summary stays up 5 seconds: long enough to read it before the next deal.
    url = serve(Timing(bot_pause=0.05, hand_pause=5.0, grace=30.0))
    host = open_page()
    page = host.page
    create_table(page, url, "Ann", players=4, teams=True, target=11, preset="Five-point", moon=True)

    chips = page.locator(".chips li")
    expect(chips.filter(has_text="Five-point")).to_have_count(1)
    expect(chips.filter(has_text="shoot the moon")).to_have_count(1)
    expect(chips.filter(has_text="to 11")).to_have_count(1)
    expect(chips.filter(has_text="elimination")).to_have_count(0)
    expect(page.locator(".lobby")).to_contain_text("the two teams alternate seats")
    sent = [frame for frame in host.sent if '["create_table",' in frame]
    assert len(sent) == 1
    assert '"preset":"five_point"' in sent[0] and '"shoot_the_moon":true' in sent[0], sent[0]

    start_with_bots(page)
    rules = page.locator(".scores-panel .rules-line")
    expect(rules).to_contain_text("Five-point")
    expect(rules).to_contain_text("Shoot the moon")
    expect(page.locator(".scores-panel")).to_contain_text("First to 11")
    expect(page.locator(".score-list li")).to_have_count(2)
    expect(page.locator(HAND_CARDS)).to_have_count(6)

    # The table's "How to play" opens this table's game.
    page.locator(".side").get_by_role("button", name="How to play").click()
    dialog = page.get_by_role("dialog", name="How to play")
    expect(dialog.get_by_role("heading", name="Five-point game (two teams)")).to_be_visible()
    expect(dialog.get_by_role("button", name="Five-point")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    # On our turn to bid, the moon is the last button, named for what it risks.
    moon_seen = False
    overlay = page.locator(".summary-overlay")
    end = page.locator(".match-end")

    def done() -> bool:
        nonlocal moon_seen
        moon = page.locator(".action-panel.mine .bid-buttons .moon-btn")
        if not moon_seen and moon.count():
            expect(moon).to_have_text("☾ Moon")
            expect(moon).to_have_accessible_name(
                "Moon: bid 6 to take every point of the hand. "
                "Make it and your side wins the match; fall short and it loses the match."
            )
            expect(page.locator(".action-panel.mine .bid-btn").last).to_have_class(
                re.compile(r"\bmoon-btn\b")
            )
            SCREENSHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "table-moon-1280.png"), animations="disabled")
            moon_seen = True
        return overlay.count() > 0 or end.count() > 0

    actions = play_until([page], done, timeout=120)
    assert actions.count("card") == 6, actions
    log = page.locator(".log")
    # A bot may have shot the moon before our turn: then only a pass was left to us.
    assert moon_seen or log.get_by_text("shoots the moon").count() > 0

    if end.count():  # a moon ended the match on the first hand: its summary is one click away
        end.get_by_role("button", name="Last hand").click()
        summary = end.locator(".end-last-hand")
    else:
        summary = page.get_by_role("dialog", name="End of hand 1")
    expect(summary).to_be_visible()
    expect(summary.locator(".points-list .point-name")).to_have_text(FIVE_POINTS)
    expect(summary.locator(".sides-table tbody tr")).to_have_count(2)
    expect(summary.locator(".summary-verdict")).not_to_be_empty()
    page.screenshot(path=str(SCREENSHOTS / "table-five-point-summary-1280.png"), animations="disabled")


def test_six_players_of_five_point_sit_in_alternate_teams(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    create_table(page, url, "Ann", players=6, teams=True, preset="Five-point")
    start_with_bots(page)
    plates = page.locator(".seat-plate")
    expect(plates).to_have_count(6)
    colors = plates.evaluate_all("(els) => els.map((el) => el.style.getPropertyValue('--side'))")
    assert colors[0::2] == [colors[0]] * 3 and colors[1::2] == [colors[1]] * 3, colors
    assert colors[0] != colors[1], colors
    sides = page.locator(".score-list li .side-name")
    expect(sides).to_have_count(2)
    for side in sides.all():
        assert side.inner_text().count(" & ") == 2  # three players on each team


def test_how_to_play_five_point_in_spanish_with_the_table_options(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    page.goto(url)
    page.get_by_role("button", name="Menu").click()
    page.get_by_label("Language").select_option("es")
    page.keyboard.press("Escape")
    choose_preset(page, "A cinco puntos")
    expect(page.locator("#teams-note")).to_contain_text("se alternan")
    expect(page.get_by_role("checkbox", name="Apostar la luna")).to_be_visible()

    page.get_by_role("button", name="Cómo se juega").first.click()
    dialog = page.get_by_role("dialog", name="Cómo se juega")
    expect(dialog.get_by_role("heading", name="A cinco puntos (dos equipos)")).to_be_visible()
    expect(dialog.get_by_role("button", name="A cinco puntos")).to_have_attribute("aria-pressed", "true")
    for preset in ["De la casa (6 puntos)", "A diez puntos", "Sin jick", "Todos contra todos"]:
        expect(dialog.get_by_role("button", name=preset)).to_be_visible()
    expect(dialog).to_contain_text("Los cinco puntos")
    expect(dialog).to_contain_text("los asientos 1, 3 y 5 juegan contra el 2, el 4 y el 6")
    expect(dialog).to_contain_text("Comodín: para el equipo que lo gana.")
    expect(dialog).not_to_contain_text("Five-point")
    expect(dialog).not_to_contain_text("The five points")

    dialog.get_by_role("button", name="Opciones de la mesa: meta, luna, eliminación").click()
    options = dialog.locator("#howto-options")
    expect(options.get_by_role("heading", name="Opciones de la mesa")).to_be_in_viewport()
    expect(options).to_contain_text("su puntuación solo vuelve a 0")
    expect(options).to_contain_text("Eliminación en −21")

    # Every preset's page ends with the same options.
    dialog.get_by_role("button", name="Todos contra todos").click()
    expect(dialog.get_by_role("heading", name="Todos contra todos (tres jugadores)")).to_be_visible()
    expect(dialog.locator("#howto-options")).to_contain_text("Apostar la luna")


def test_screenshots_of_the_landing_page_with_the_options(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    SCREENSHOTS.mkdir(exist_ok=True)
    for width, height in [(1280, 800), (375, 812)]:
        page = open_page(width, height).page
        page.goto(url)
        choose_preset(page, "Five-point")
        page.get_by_role("checkbox", name="Shoot the moon").check()
        page.get_by_label("Your name").fill("Ann")
        expect(page.get_by_role("button", name="Create the table")).to_be_enabled()
        # Nothing is wider than the window.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.evaluate("window.scrollTo(0, 0)")
        path = SCREENSHOTS / f"landing-{width}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        data = path.read_bytes()
        assert data[:8] == PNG_MAGIC and len(data) > 10_000
