"""The Practice page against a real server holding hand-made positions (a seat's view at a real
moment of a house match, its legal actions as the choices, a made-up answer): a run of positions
answered with every choice's value shown and the best marked, the streak kept and lost, a theme
picked, the daily position, at a desktop's size in English and a phone's in Spanish, where the hand
and the choices are in sight together; axe finds nothing on the question nor on the answer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axekit import Audit
from browserkit import Watched, click_card
from leakkit.practice import position_record
from playwright.sync_api import Page, expect

from smear import apply, find_rules, legal_actions, new_match
from smear.server.storage.practicestore import import_positions

# What the page says in each language tested (web/src/ui/practice/words).
WORDS = {
    "en": {
        "streak": "streak {n}",
        "daily": "Daily position",
        "lead": "Leading",
        "right": "Right: that is the best choice",
    },
    "es": {
        "streak": "racha {n}",
        "daily": "Posición del día",
        "lead": "Salir",
        "right": "Correcto: es la mejor opción",
    },
}


def made_position(seed: int, kind: str, theme: str, preset: str = "house") -> dict[str, Any]:
    """A decision of the seat to act in a ``preset`` match dealt with ``seed``: its first bid
    (``bid``), or the first lead once the auction is over (``card``); the first choice is the best."""
    state = new_match(find_rules(preset), 4, seed=seed)
    if kind == "card":
        while state.public.phase.value != "play":
            state = apply(state, legal_actions(state)[-1])
    choices = [str(action) for action in legal_actions(state)]
    return position_record(state, preset, choices, kind, best=0, theme=theme)


def positions() -> list[dict[str, Any]]:
    bids = [made_position(seed, "bid", "bid_the_hand") for seed in range(1, 7)]
    return bids + [made_position(seed, "card", "lead") for seed in (11, 12)]


def question_shown(page: Page, ask: Callable[[], object]) -> dict[str, Any]:
    """The question the page asks for with ``ask``, once it is drawn."""
    with page.expect_response(lambda r: "/practice/next" in r.url or "/practice/daily" in r.url) as answer:
        ask()
    question: dict[str, Any] = answer.value.json()["position"]
    assert "answer" not in question
    expect(page.locator(".practice-position")).to_be_visible()
    return question


def choose(page: Page, question: dict[str, Any], right: bool) -> None:
    """Takes the best choice (the first) or another, as the table's controls offer them."""
    choice = question["choices"][0 if right else 1]
    if question["kind"] == "card":
        index = question["you"]["hand"].index(choice)
        click_card(page.locator(".practice .hand-card").nth(index))
    else:
        page.locator(".practice .bid-buttons button").nth(question["choices"].index(choice)).click()


@pytest.mark.parametrize(("width", "height", "lang"), [(1280, 800, "en"), (375, 740, "es")])
def test_a_run_of_positions_a_theme_and_the_daily_one_are_answered_with_every_choice_s_value(
    serve: Callable[..., str],
    open_page: Callable[..., Watched],
    tmp_path: Path,
    axe_script: Path,
    width: int,
    height: int,
    lang: str,
) -> None:
    url = serve()
    assert import_positions(f"sqlite:///{tmp_path / 'smear0.db'}", positions()) == (8, 0)
    words = WORDS[lang]
    watched = open_page(width, height, bypass_csp=True)
    page = watched.page
    page.context.add_init_script(f"localStorage.setItem('smear.lang', '{lang}')")
    page.goto(f"{url}/practice")
    # No profile yet: the page makes one under the name given.
    page.locator("#practice-name").fill("Pia")
    audit = Audit(axe_script)

    question = question_shown(page, lambda: page.keyboard.press("Enter"))
    for turn in range(5):
        if turn > 0:
            question = question_shown(page, lambda: page.locator(".practice-next").click())
            # The keyboard starts the next position at what to decide.
            expect(page.locator("#practice-decide")).to_be_focused()
        hand = page.locator(".practice .hand")
        panel = page.locator(".practice .action-panel")
        for part in (hand, panel):  # a decision without scrolling
            box = part.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (turn, box)
        if turn == 0:
            audit(
                page,
                "a practice position",
                lambda: expect(page.locator(".practice .action-panel")).to_be_visible(),
            )
            page.set_viewport_size({"width": width, "height": height})
        right = turn != 2
        choose(page, question, right)
        verdict = page.locator("#practice-verdict")
        expect(verdict).to_be_focused()
        if right:
            expect(verdict).to_have_text(words["right"])
        rows = page.locator(".practice-values tbody tr")
        expect(rows).to_have_count(len(question["choices"]))
        expect(page.locator(".practice-values tr.best")).to_have_count(1)
        expect(rows.first).to_have_class("best" + ("" if not right else " chosen"))
        streak = [1, 2, 0, 1, 2][turn]
        expect(page.locator(".practice-answer .practice-rating")).to_contain_text(
            words["streak"].format(n=streak)
        )
        if turn == 0:
            audit(
                page, "a practice answer", lambda: expect(page.locator("#practice-verdict")).to_be_visible()
            )
            page.set_viewport_size({"width": width, "height": height})

    # The rest of the hand, step by step.
    page.locator(".practice-answer .tool-row button.secondary").click()
    expect(page.locator(".practice-steps li")).to_have_count(1)

    # A theme picked: its positions only, named in the page's language.
    question = question_shown(page, lambda: page.locator(".practice-theme select").select_option("lead"))
    assert question["themes"] == ["lead"]
    expect(page.locator(".practice-themes")).to_have_text(words["lead"])
    choose(page, question, True)
    expect(page.locator("#practice-verdict")).to_have_text(words["right"])

    # The daily position: everyone's of the day.
    daily = question_shown(page, lambda: page.get_by_role("button", name=words["daily"]).click())
    expect(page.locator(".practice h1")).to_contain_text(words["daily"])
    choose(page, daily, True)
    expect(page.locator(".practice-values tr.best")).to_have_count(1)
    audit.check()


def test_a_long_hand_fits_a_phone_s_width(
    serve: Callable[..., str], open_page: Callable[..., Watched], tmp_path: Path
) -> None:
    """Ten cards (the ten-point game's deal) overlap to fit 375 px, as at the table: the page never
    grows wider than the window, and every card and choice is in it."""
    url = serve()
    position = made_position(3, "bid", "bid_the_hand", preset="ten_point")
    assert len(position["you"]["hand"]) == 10
    assert import_positions(f"sqlite:///{tmp_path / 'smear0.db'}", [position]) == (1, 0)
    page = open_page(375, 740).page
    page.goto(f"{url}/practice")
    page.locator("#practice-name").fill("Pia")
    question_shown(page, lambda: page.keyboard.press("Enter"))
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 375
    cards = page.locator(".practice .hand-card")
    expect(cards).to_have_count(10)
    for part in [*cards.all(), *page.locator(".practice .bid-buttons button").all()]:
        box = part.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= 740, box
