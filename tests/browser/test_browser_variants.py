"""The other presets and the table options in the browser: five-point with the moon, how to play."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from browserkit import (
    HAND_CARDS,
    PLAYABLE_NOW,
    Watched,
    actions_sent,
    cards_sent,
    click_card,
    create_table,
    play_until,
    spoken_name,
    start_with_bots,
    unfold_the_form,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, WebSocketRoute, expect

from smear.server.app import Timing

SCREENSHOTS = Path(__file__).parent / "screenshots"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FIVE_POINTS = ["High", "Low", "Jack", "Joker", "Game"]


def choose_preset(page: Page, name: str) -> None:
    unfold_the_form(page)
    page.get_by_role("radio", name=name).check()


def test_the_landing_page_keeps_each_preset_to_the_tables_it_allows(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    page.goto(url)
    unfold_the_form(page)
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
    expect(dialog.get_by_role("heading", name="5-point game (2 teams)")).to_be_visible()
    expect(dialog.get_by_role("button", name="Five-point")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    # On our turn to bid, the moon is the last button, named for what it risks.
    moon_seen = False
    overlay = page.locator(".summary-overlay")
    end = page.locator(".match-end")

    # Looked at when our bid buttons are up, before we bid (a check between turns could miss them).
    def see_moon(page: Page) -> None:
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

    def done() -> bool:
        return overlay.count() > 0 or end.count() > 0

    play_until([page], done, on_bid=see_moon)
    assert len(cards_sent(host)) >= 6, actions_sent(host)  # the whole hand, clicked (see actions_sent)
    log = page.locator(".log")
    # A bot may have shot the moon before our turn: then only a pass was left to us.
    assert moon_seen or log.get_by_text("shoots the moon").count() > 0

    if end.count():  # a moon ended the match on the first hand: its summary is one click away
        expect(end.locator(".end-reason")).to_contain_text("shot the moon (6)")
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
    expect(page.get_by_role("checkbox", name="Monte", exact=True)).to_be_visible()
    expect(page.locator("#kitty-note")).to_contain_text("recoge tres cartas más")

    page.get_by_role("button", name="Cómo se juega").first.click()
    dialog = page.get_by_role("dialog", name="Cómo se juega")
    expect(dialog.get_by_role("heading", name="A 5 puntos (2 equipos)")).to_be_visible()
    expect(dialog.get_by_role("button", name="A cinco puntos")).to_have_attribute("aria-pressed", "true")
    for preset in ["De la casa (6 puntos)", "A diez puntos", "Sin jick", "Todos contra todos"]:
        expect(dialog.get_by_role("button", name=preset)).to_be_visible()
    expect(dialog.get_by_role("heading", name="Los puntos", exact=True)).to_be_visible()
    points = dialog.locator("table.facts-points")
    expect(points.locator("tbody th")).to_have_text(
        ["Alto", "Bajo", "Jota", "Comodín", "Juego", "Todos los puntos de una mano"]
    )
    expect(points.locator("tbody td")).to_have_text(["1", "1", "1", "1", "1", "5"])
    expect(dialog).to_contain_text("los asientos 1, 3 y 5 juegan contra los asientos 2, 4 y 6")
    expect(dialog).to_contain_text("Comodín: para el equipo que lo gana.")
    expect(dialog.get_by_role("heading", name="Opción: el monte")).to_have_count(1)
    expect(dialog).to_contain_text("aunque sean las del propio monte")
    expect(dialog).not_to_contain_text("Five-point")
    expect(dialog).not_to_contain_text("The five points")

    dialog.get_by_role("button", name="Opciones de la mesa: meta, luna, eliminación").click()
    options = dialog.locator("#howto-options")
    expect(options.get_by_role("heading", name="Opciones de la mesa")).to_be_in_viewport()
    expect(options).to_contain_text("su puntuación solo vuelve a 0")
    expect(options).to_contain_text("Eliminación en −21")
    expect(options).to_contain_text("Monte: tras la subasta")

    # Every preset's page ends with the same options.
    dialog.get_by_role("button", name="Todos contra todos").click()
    expect(dialog.get_by_role("heading", name="Todos contra todos (3 jugadores)")).to_be_visible()
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
        page.get_by_role("checkbox", name="Kitty", exact=True).check()
        page.get_by_label("Your name").fill("Ann")
        expect(page.get_by_role("button", name="Create the table")).to_be_enabled()
        # Nothing is wider than the window.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.evaluate("window.scrollTo(0, 0)")
        path = SCREENSHOTS / f"landing-{width}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        data = path.read_bytes()
        assert data[:8] == PNG_MAGIC and len(data) > 10_000


def test_the_kitty_option_is_offered_by_five_point_only_and_remembered(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    watched = open_page()
    page = watched.page
    page.goto(url)
    kitty = page.get_by_role("checkbox", name="Kitty", exact=True)
    choose_preset(page, "House (6 points)")
    expect(kitty).to_have_count(0)
    choose_preset(page, "Five-point")
    expect(kitty).not_to_be_checked()
    expect(page.locator("#kitty-note")).to_have_text(
        "The bidder picks up three extra cards and puts any three back face down."
    )
    kitty.check()
    page.reload()
    expect(kitty).to_be_checked()

    # Another preset hides the box, keeps the choice for later, and does not send it.
    choose_preset(page, "Ten-point")
    expect(kitty).to_have_count(0)
    page.reload()
    choose_preset(page, "Five-point")
    expect(kitty).to_be_checked()
    choose_preset(page, "Ten-point")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("heading", name="Seats")).to_be_visible()
    expect(page.locator(".chips li.kitty")).to_have_count(0)
    sent = [frame for frame in watched.sent if '["create_table",' in frame]
    assert len(sent) == 1 and '"kitty"' not in sent[0], sent


def test_five_point_with_the_kitty_the_host_bids_exchanges_and_sees_its_discard(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    # The summary stays up 5 seconds; phone width, where nine cards must overlap to fit.
    url = serve(Timing(bot_pause=0.05, hand_pause=5.0, grace=30.0))
    host = open_page(375, 812)
    page = host.page
    create_table(page, url, "Ann", players=4, teams=True, preset="Five-point", kitty=True)
    expect(page.locator(".chips li.kitty")).to_have_text("kitty")
    sent = [frame for frame in host.sent if '["create_table",' in frame]
    assert len(sent) == 1 and '"kitty":true' in sent[0], sent
    watcher = open_page().page
    watcher.goto(page.get_by_label("Spectator link", exact=True).input_value())
    expect(watcher.get_by_role("heading", name="Seats")).to_be_visible()
    start_with_bots(page)
    expect(page.locator(".scores-panel .rules-line")).to_contain_text("Kitty (3 cards)")

    # The host bids the highest bid offered (5), which nobody can top. If a bot already holds 5,
    # the host passes, the hand is played out, and the next hand gives it another try.
    panel = page.locator(".action-panel.mine")
    exchange = page.get_by_role("heading", name="Pick up the kitty: choose 3 cards to put back")
    tries = 0

    def act() -> bool:
        nonlocal tries
        try:
            if exchange.count():
                return True
            if panel.locator(".bid-buttons").count():
                bids = panel.locator(".bid-btn")
                if bids.count():
                    expect(bids.last).to_have_text("5")
                    bids.last.click(timeout=2000)
                else:
                    panel.locator(".pass-btn").click(timeout=2000)
                tries += 1
                assert tries <= 4, "a bot held the contract at 5 in four hands running"
            elif page.get_by_role("heading", name="Play a card").count():
                # Only in play: a click during the exchange would choose a card to put back.
                playable = page.locator(PLAYABLE_NOW)
                if playable.count() and not exchange.count():
                    click_card(playable.first)
        except PlaywrightError:
            pass  # the table moved on while we looked
        page.wait_for_timeout(30)
        return False

    deadline = time.monotonic() + 240
    while not act():
        assert time.monotonic() < deadline, f"no kitty for the host after {tries} auctions"

    # The exchange: nine cards, three chosen by clicking, then confirmed.
    cards = page.locator(HAND_CARDS)
    expect(cards).to_have_count(9)
    hand_number = int(page.locator(".contract dt").first.inner_text().split()[-1])
    log = page.locator(".log")
    expect(log.get_by_text("Ann picks up the kitty (3 cards)", exact=True)).to_have_count(1)
    expect(page.locator(".contract")).to_contain_text("Ann: 5")
    # The three cards from the kitty are marked, and named so.
    marked = page.locator(f"{HAND_CARDS}.from-kitty")
    expect(marked).to_have_count(3)
    expect(marked.first).to_have_accessible_name(re.compile(r", from the kitty$"))
    expect(page.locator(".action-panel.mine")).to_contain_text("The cards from the kitty are tinted gold.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # Everyone else is told what the bidder is doing, and sees no more of it than that.
    expect(watcher.locator(".action-panel.watching")).to_contain_text("Ann is exchanging with the kitty…")
    expect(watcher.locator(".log").get_by_text("Ann picks up the kitty (3 cards)")).to_have_count(1)
    expect(watcher.locator(HAND_CARDS)).to_have_count(0)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.locator("section.bottom").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "table-kitty-discard-375.png"), animations="disabled")

    labels = cards.evaluate_all("(els) => els.map((el) => el.getAttribute('aria-label'))")
    names = [spoken_name(label.removesuffix(", from the kitty")) for label in labels]
    # One card from the kitty and two of the first, a middle and the last card, on their visible edges.
    first_from_kitty = next(i for i, label in enumerate(labels) if label.endswith(", from the kitty"))
    picks = [first_from_kitty, *[i for i in (0, 4, 8) if i != first_from_kitty][:2]]
    confirm = page.locator(".action-panel.mine").get_by_role("button", name="Discard", exact=True)
    for count, index in enumerate(picks, start=1):
        click_card(cards.nth(index))
        expect(cards.nth(index)).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".action-panel.mine")).to_contain_text(f"{count} of 3 chosen")
    expect(page.locator(f"{HAND_CARDS}.selected")).to_have_count(3)
    page.screenshot(path=str(SCREENSHOTS / "table-kitty-chosen-375.png"), animations="disabled")
    confirm.click()
    discarded = sorted(names[i] for i in picks)

    # Six cards left, and the bidder leads: its first card sets trump.
    expect(cards).to_have_count(6)
    expect(marked).to_have_count(0)
    expect(page.locator(".action-panel.mine")).to_contain_text("becomes trump")
    expect(log.get_by_text("Ann discards 3 cards", exact=True)).to_have_count(1)
    kept = [
        spoken_name(label)
        for label in cards.evaluate_all("(els) => els.map((el) => el.getAttribute('aria-label'))")
    ]
    assert not set(kept) & set(discarded), (kept, discarded)
    click_card(page.locator(f"{HAND_CARDS}.playable").first)
    expect(cards).to_have_count(5)

    # The hand played out, its summary shows the host's discard and the two sleeping cards.
    summary = page.get_by_role("dialog", name=f"End of hand {hand_number}")
    end = page.locator(".match-end")
    play_until([page], lambda: summary.count() > 0 or end.count() > 0)
    if end.count():  # not expected at 21 after a few hands, but then the summary is one click away
        end.get_by_role("button", name="Last hand").click()
        summary = end.locator(".end-last-hand")
    expect(summary).to_be_visible()
    lines = summary.locator(".discard-line")
    expect(lines).to_have_count(1)
    expect(lines.locator(".discard-name")).to_have_text("Ann")
    shown = lines.locator("[role=img]").evaluate_all(
        "(els) => els.map((el) => el.getAttribute('aria-label'))"
    )
    assert sorted(shown) == discarded, (shown, discarded)
    out = summary.locator(".summary-cards").filter(has_text="Cards nobody played")
    expect(out.locator("[role=img]")).to_have_count(2)
    lines.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "table-kitty-summary-375.png"), animations="disabled")


def test_a_kitty_refused_by_the_server_is_explained_in_the_players_language(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    # The page never asks for a kitty outside five-point; a changed frame stands for an older client.
    url = serve()
    page = open_page().page

    def add_a_kitty(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            if isinstance(message, str) and '["create_table",' in message:
                message = message.replace('"hints":true', '"hints":true,"kitty":true')
            server.send(message)

        ws.on_message(to_server)

    page.route_web_socket(re.compile(r"/socket\.io/"), add_a_kitty)
    page.goto(url)
    page.get_by_role("button", name="Menu").click()
    page.get_by_label("Language").select_option("fr")
    page.keyboard.press("Escape")
    choose_preset(page, "À dix points")
    expect(page.get_by_role("checkbox", name="Chien", exact=True)).to_have_count(0)
    page.get_by_label("Votre nom").fill("Ann")
    page.get_by_role("button", name="Créer la table").click()
    expect(page.locator(".toast")).to_contain_text("À dix points n’a pas d’option « Chien ».")
    assert "/t/" not in page.url
