"""Played by the keyboard alone, the table keeps the focus where the next key is wanted: after each
action it is in the hand or on the turn's choices (bids, suits), never on the page's body (the hand
re-sorted once trump is named keeps it on its card); between two hands it waits on the table's title,
and goes to the next hand as soon as it is dealt, then to the bids on this seat's turn."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from browserkit import PLAYABLE_NOW, Watched, create_table
from playwright.sync_api import Page, expect

from smear.server.limits import Timing

# Bots act at once and a hand's summary stays up only briefly: the test reaches the second hand soon.
QUICK = Timing(bot_pause=0.01, hand_pause=0.01, grace=30.0)

# Where the focus is: "body" when it fell to the page, else whether it is in the hand, on a choice of
# this seat's turn (a bid, a suit) or on the table's title, with the element's own description and the
# number of cards in the hand, read together (the next hand may be dealt between two reads).
FOCUS = """() => {
  const el = document.activeElement;
  const cards = document.querySelectorAll('.hand .hand-card').length;
  if (el === null || el === document.body) return { where: 'body', what: '', cards };
  const where = el.closest('.hand') ? 'hand' : el.closest('.action-panel.mine') ? 'choices'
    : el.matches('.game h1') ? 'title' : 'elsewhere';
  return { where, what: el.outerHTML.slice(0, 120), cards };
}"""


# What this seat may use on its turn (a card is marked playable only when no request is waiting).
USABLE = (
    f"{PLAYABLE_NOW}, .action-panel.mine .bid-buttons button:not(:disabled), "
    ".action-panel.mine .trump-buttons button:not(:disabled)"
)


def focus_on_a_playable_card(page: Page) -> None:
    """From a card of the hand, the arrow keys to a card that may be played."""
    page.keyboard.press("Home")
    for _ in range(12):
        if page.evaluate("() => document.activeElement.classList.contains('playable')"):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError("no playable card reached by the arrow keys")


# A desktop, and a phone (the hand laid out in rows, the summary under the felt between two hands).
@pytest.mark.parametrize("size", [(1280, 800), (375, 740)], ids=["desktop", "phone"])
def test_after_each_action_by_keyboard_the_focus_is_in_the_hand_or_the_next_choice(
    serve: Callable[..., str], open_page: Callable[..., Watched], size: tuple[int, int]
) -> None:
    url = serve(QUICK)
    page = open_page(*size).page
    create_table(page, url, "Kim", target=21)
    start = page.get_by_role("button", name="Start the match")
    page.get_by_role("button", name="Fill the empty seats with bots").click()
    expect(start).to_be_enabled()
    start.focus()
    page.keyboard.press("Enter")  # the Start button goes with the lobby
    expect(page.locator(".game")).to_be_visible()

    done: list[str] = []
    cards = 0
    while cards < 8:  # the first hand's six cards, and into the second hand
        # This seat's turn, its request answered: a card or a choice that can be used.
        expect(page.locator(USABLE).first).to_be_visible(timeout=30_000)
        seen = page.evaluate(FOCUS)
        assert seen["where"] in ("hand", "choices"), (done, seen)
        if page.locator(".action-panel.mine .bid-buttons, .action-panel.mine .trump-buttons").count():
            # The turn's choices have the focus: Enter takes the first one.
            assert seen["where"] == "choices", (done, seen)
            done.append("choice")
        else:
            assert seen["where"] == "hand", (done, seen)
            focus_on_a_playable_card(page)
            done.append("card")
            cards += 1
        acted = page.evaluate_handle("document.activeElement")
        page.keyboard.press("Enter")
        page.wait_for_function("(el) => !el.isConnected", arg=acted)
        seen = page.evaluate(FOCUS)
        # The hand's last card played: no hand, no choice, and the table's title has the focus.
        home = ("hand", "choices") if seen["cards"] else ("title",)
        assert seen["where"] in home, (done, seen)
    assert "choice" in done, done
