"""Players in the browser: the profile made on the first table, renamed, carried to another browser
with a one-time code and deleted; a finished match in the profile's history and its replay; a record
file replayed from the /replay page (and every step of it on a phone, in every language); the profile
page at two widths in two languages, and by keyboard."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browserkit import Watched, create_table, play_until, start_with_bots
from playwright.sync_api import Locator, Page, expect

from smear.arena import ArenaConfig, play_match

PROFILE_ID = re.compile(r"^[A-Za-z0-9_-]{12}$")
TRANSFER_CODE = re.compile(r"^[A-Z0-9]{2,16}(?:-[A-Z0-9]{2,16})+$")
# A true minus sign in scores the client shows ("−3").
MINUS = "\u2212"

# Each card of a replay's trick as its code ("Ah", "Td", "BJ"), with the seat's name and whether it
# took the trick: read from the faces (the suit class and the corner's rank), not from any label.
READ_TRICK = """(items) => items.map((li) => ({
  name: li.querySelector('.replay-trick-seat .name-text').textContent,
  won: li.classList.contains('won'),
  cards: [...li.querySelectorAll('.replay-trick-cards .card')].map((card) => {
    const rank = card.querySelector('.corner .rank').textContent;
    if (card.classList.contains('joker')) return rank === '★' ? 'BJ' : 'LJ';
    const suit = [...card.classList].find((c) => c.startsWith('suit-')).slice(5);
    return (rank === '10' ? 'T' : rank) + suit;
  }),
}))"""


def stored_profile(page: Page) -> dict[str, str] | None:
    """This browser's profile as profile.ts keeps it in localStorage, or None."""
    raw = page.evaluate("() => localStorage.getItem('smear.profile')")
    return json.loads(raw) if raw else None


def api_json(page: Page, url: str) -> tuple[int, Any]:
    """``GET url`` from the page's browser context (not the page: its console stays quiet)."""
    response = page.request.get(url)
    return response.status, response.json()


def take_expected_http_errors(watched: Watched, status: int) -> None:
    """The console errors Chromium logs for an answer with an error status the test provoked: they
    must be there, and are taken off the page's errors (any other error still fails the test)."""
    expected = f"the server responded with a status of {status}"
    found = [error for error in watched.errors if expected in error]
    assert found, (status, watched.errors)
    watched.errors[:] = [error for error in watched.errors if expected not in error]


def score_numbers(text: str) -> list[int]:
    """The scores in a text such as "11 – −3 – 7"."""
    return [int(n) for n in re.findall(r"-?\d+", text.replace(MINUS, "-"))]


def finish_a_match_against_bots(
    open_page: Callable[..., Watched], url: str, name: str, *, top_bid: bool = False
) -> Watched:
    """A player's page that created a three-player table to 11, filled it with bots and played it
    to the end through the UI; the profile is made with the table. With ``top_bid`` the player bids
    the highest short of the moon whenever it may (see :func:`browserkit.take_turn`)."""
    watched = open_page()
    page = watched.page
    create_table(page, url, name, players=3, target=11)
    start_with_bots(page)
    end = page.locator(".match-end")
    play_until([page], lambda: end.count() > 0, top_bid=top_bid)
    expect(end).to_be_visible()
    return watched


def open_my_profile(page: Page) -> None:
    """Through the menu's "My profile" link, as a player would."""
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("link", name="My profile").click()
    expect(page).to_have_url(re.compile(r"/p/[A-Za-z0-9_-]+$"))


def tab_to(page: Page, target: Locator, limit: int = 40) -> int:
    """Press Tab until ``target`` holds the focus; returns how many presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if target.evaluate("(el) => el === document.activeElement"):
            return presses
    raise AssertionError(f"Tab never reached {target} in {limit} presses")


def no_horizontal_overflow(page: Page) -> None:
    widths = page.evaluate("() => ({scroll: document.scrollingElement.scrollWidth, view: window.innerWidth})")
    assert widths["scroll"] <= widths["view"], widths


# --- 1. the profile's life -----------------------------------------------------------------------


def test_a_profile_is_made_renamed_carried_to_a_second_browser_and_deleted(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    first_watched = open_page()
    first = first_watched.page
    first.goto(url)
    # A newcomer has no profile and no link to one until a name is given at a table.
    expect(first.get_by_role("button", name="Play now")).to_be_visible()
    assert stored_profile(first) is None
    expect(first.get_by_role("link", name="My profile")).to_have_count(0)

    create_table(first, url, "Rosa")
    made = stored_profile(first)
    assert made is not None and made["name"] == "Rosa", made
    player = made["player"]
    assert PROFILE_ID.match(player), player
    status, profile = api_json(first, f"{url}/api/players/{player}")
    assert status == 200 and (profile["name"], profile["ratings"], profile["stats"]) == ("Rosa", {}, {})

    # The profile page, from the menu: the name, marked as this browser's own, with its tools.
    open_my_profile(first)
    assert first.url == f"{url}/p/{player}"
    heading = first.get_by_role("heading", level=1)
    expect(heading).to_contain_text("Rosa")
    expect(heading.locator(".tag.host")).to_have_text("you")
    expect(first.get_by_role("heading", name="Match history")).to_be_visible()
    expect(first.get_by_text("No finished matches yet.").first).to_be_visible()

    # Renamed: the heading, the server and the stored profile all have the new name, after a reload too.
    rename = first.get_by_role("button", name="Rename")
    expect(rename).to_be_disabled()  # nothing to save while the name is the same
    first.get_by_label("Your name").fill("Rosalind")
    rename.click()
    expect(first.locator("#rename-note")).to_have_text("Your name is now Rosalind.")
    expect(heading.locator(".name-text")).to_have_text("Rosalind")
    status, profile = api_json(first, f"{url}/api/players/{player}")
    assert (status, profile["name"]) == (200, "Rosalind")
    renamed = stored_profile(first)
    assert renamed is not None and renamed["name"] == "Rosalind"
    first.reload()
    expect(first.get_by_role("heading", level=1).locator(".name-text")).to_have_text("Rosalind")
    expect(first.get_by_label("Your name")).to_have_value("Rosalind")

    # "Use on another device": a one-time code, and the link that carries it.
    first.get_by_role("button", name="Use on another device").click()
    code_shown = first.locator(".transfer-code")
    expect(code_shown).to_have_text(TRANSFER_CODE)
    code = code_shown.inner_text().strip()
    link = first.get_by_label("Or open this link there")
    expect(link).to_have_value(f"{url}/claim?code={code}")
    expect(first.get_by_text(re.compile(r"The code works once, for 10 minutes"))).to_be_visible()

    # A second browser (its own storage): no profile of its own; the code typed by hand, in small
    # letters and without its dash, brings the same profile.
    second_watched = open_page(375, 812)
    second = second_watched.page
    second.goto(f"{url}/claim")
    expect(second.get_by_role("heading", name="Use your profile here")).to_be_visible()
    assert stored_profile(second) is None
    second.get_by_label("Transfer code").fill(code.replace("-", "").lower())
    second.get_by_role("button", name="Use this profile").click()
    expect(second).to_have_url(f"{url}/p/{player}")
    second_heading = second.get_by_role("heading", level=1)
    expect(second_heading.locator(".name-text")).to_have_text("Rosalind")
    expect(second_heading.locator(".tag.host")).to_have_text("you")
    expect(second.get_by_text("This browser now uses your profile.")).to_be_visible()
    claimed = stored_profile(second)
    assert claimed is not None
    assert (claimed["player"], claimed["name"]) == (player, "Rosalind")
    assert claimed["secret"] != renamed["secret"], "each device gets a secret of its own"
    # The second browser may use the profile: its rename form is there, its secret works.
    expect(second.get_by_label("Your name")).to_have_value("Rosalind")

    # The code works once: the link, opened again, fills it in, and the server refuses it.
    second.goto(f"{url}/claim?code={code}")
    expect(second.get_by_label("Transfer code")).to_have_value(code)
    expect(second.get_by_text("This browser now uses the profile “Rosalind”.", exact=False)).to_be_visible()
    second.get_by_role("button", name="Use this profile").click()
    expect(second.get_by_role("alert")).to_have_text("That code is unknown, already used or expired.")
    take_expected_http_errors(second_watched, 404)
    after_refusal = stored_profile(second)
    assert after_refusal is not None and after_refusal["player"] == player

    # Deleted from the first browser, once the confirmation is accepted: gone from the server, and
    # the page goes home with no profile left.
    dialogs: list[str] = []

    def accept(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    first.on("dialog", accept)
    first.get_by_role("button", name="Delete my profile").click()
    expect(first).to_have_url(f"{url}/")
    expect(first.get_by_role("button", name="Play now")).to_be_visible()
    expect(first.get_by_text("Your profile has been deleted.")).to_be_visible()
    assert dialogs == [
        "Delete your profile for good? Your ratings, statistics and history will be lost. "
        "This browser then starts a new, empty profile."
    ]
    status, answer = api_json(first, f"{url}/api/players/{player}")
    assert (status, answer["error"]["code"]) == (404, "no_such_player")
    assert stored_profile(first) is None
    expect(first.get_by_role("link", name="My profile")).to_have_count(0)

    # The second browser learns it on its next look at the profile, and forgets it too.
    second.goto(f"{url}/p/{player}")
    expect(second.get_by_text("There is no such player: the profile may have been deleted.")).to_be_visible()
    expect(second.get_by_role("link", name="Home")).to_be_visible()
    second.wait_for_function("() => localStorage.getItem('smear.profile') === null")
    take_expected_http_errors(second_watched, 404)

    # The first browser still remembers the name: the app, started again, makes a new, empty profile
    # under it at once (profile.ts, startProfile).
    first.reload()
    expect(first.get_by_role("link", name="My profile")).to_be_visible()
    fresh = stored_profile(first)
    assert fresh is not None and fresh["name"] == "Rosalind" and fresh["player"] != player, fresh
    status, profile = api_json(first, f"{url}/api/players/{fresh['player']}")
    assert status == 200 and (profile["name"], profile["stats"]) == ("Rosalind", {})


# --- 2. a finished match in the history, and its replay ---------------------------------------------


def test_a_match_finished_against_bots_is_in_the_history_and_replays_to_its_final_score(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(deals=7)
    page = finish_a_match_against_bots(open_page, url, "Mira").page
    profile = stored_profile(page)
    assert profile is not None
    player = profile["player"]
    status, history = api_json(page, f"{url}/api/players/{player}/matches")
    assert status == 200 and len(history["matches"]) == 1, history
    summary = history["matches"][0]
    sides, scores = summary["sides"], summary["scores"]
    mine = next(side for side, seats in enumerate(sides) if summary["seat"] in seats)

    open_my_profile(page)
    # The statistics of the game played, and the match in the history: won or lost, the score with
    # the player's side first, the other players named.
    expect(page.get_by_role("heading", name="House", level=3)).to_be_visible()
    stats = page.get_by_role("table", name="Statistics: House")

    def stat(label: str) -> Locator:
        return stats.locator("tr", has=page.locator("th", has_text=re.compile(f"^{label}$"))).locator("td")

    expect(stat("Matches")).to_have_text("1")
    expect(stat("Wins")).to_have_text("1 (100%)" if summary["won"] else "0 (0%)")
    expect(stat("Hands played")).to_have_text(re.compile(r"^[1-9]\d*$"))
    items = page.locator(".history-list .history-item")
    expect(items).to_have_count(1)
    item = items.first
    result = "Won" if summary["won"] else "Lost"
    expect(item.locator(".history-result")).to_contain_text(result)
    shown_score = item.locator(".history-score").inner_text()
    order = [mine] + [side for side in range(len(sides)) if side != mine]
    assert score_numbers(shown_score) == [scores[side] for side in order], (shown_score, scores)
    expect(item.locator(".history-players")).to_contain_text("Against")

    # Its replay, from the history.
    item.locator(".history-link").click()
    # The viewer opens at the first step and writes it into the address.
    expect(page).to_have_url(f"{url}/m/{summary['match']}?hand=1&step=0")
    expect(page.get_by_role("heading", name="Match replay", level=1)).to_be_visible()
    status, replay = api_json(page, f"{url}/api/matches/{summary['match']}/replay")
    assert status == 200
    view = replay["view"]
    hands = view["hands"]
    last_hand = hands[-1]
    tricks = len(last_hand["tricks"])
    position = page.locator(".replay-position")
    first_steps = len(hands[0]["tricks"]) + 2  # the auction, each trick, the result
    expect(position).to_have_text(f"Hand 1 of {len(hands)}, step 1 of {first_steps}: Auction")
    header_scores = page.locator(".replay-sides .replay-side-score")
    expect(header_scores).to_have_count(len(sides))
    assert [score_numbers(text)[0] for text in header_scores.all_inner_texts()] == scores
    expect(page.locator(".replay-outcome")).to_contain_text("Winner:")

    # End (focus in the replay): the last hand's result, with the final score of the history.
    page.locator(".replay-stage").focus()
    page.keyboard.press("End")
    steps = tricks + 2
    expect(position).to_have_text(f"Hand {len(hands)} of {len(hands)}, step {steps} of {steps}: Result")
    expect(page).to_have_url(f"{url}/m/{summary['match']}?hand={len(hands)}&step={tricks + 1}")
    expect(page.locator(".replay-scores h2")).to_have_text(f"Score after hand {last_hand['number']}")
    expect(page.locator(".replay-end")).to_have_text("Match over")
    final = page.locator(".sides-table td.score")
    expect(final).to_have_count(len(sides))
    assert [score_numbers(text)[0] for text in final.all_inner_texts()] == scores
    strip = page.locator(".replay-scores li strong")
    assert [score_numbers(text)[0] for text in strip.all_inner_texts()] == scores

    # One step back: the last trick, each card by the seat that played it, and who took it.
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(
        f"Hand {len(hands)} of {len(hands)}, step {tricks + 1} of {steps}: Trick {tricks} of {tricks}"
    )
    expect(page).to_have_url(f"{url}/m/{summary['match']}?hand={len(hands)}&step={tricks}")
    last_trick = last_hand["tricks"][-1]
    names = view["players"]
    expected = [
        {"name": names[play["seat"]], "won": play["seat"] == last_trick["winner"], "cards": [play["card"]]}
        for play in last_trick["plays"]
    ]
    trick = page.locator(".replay-trick > li")
    expect(trick).to_have_count(len(expected))
    assert trick.evaluate_all(READ_TRICK) == expected
    expect(page.locator(".replay-trick-outcome")).to_have_text(
        f"{names[last_trick['winner']]} takes the trick"
    )

    # The address keeps the step: reloaded, the page shows the same trick.
    page.reload()
    expect(page.locator(".replay-position")).to_have_text(
        f"Hand {len(hands)} of {len(hands)}, step {tricks + 1} of {steps}: Trick {tricks} of {tricks}"
    )


# --- 3. a record file replayed ----------------------------------------------------------------------

NAMES = ["Ana", "Bruno", "Chloé", "Dmitri"]


def a_record() -> dict[str, Any]:
    """A whole match between bots, as a record file holds it, with people's names."""
    config = ArenaConfig(
        preset="house", players=4, teams=True, lineup=("random",) * 4, matches=1, changes=(("target", 11),)
    )
    record = play_match(config, 0, keep_record=True).record
    assert record is not None and len(record["hands"]) >= 2
    record["players"] = list(NAMES)
    return record


def test_a_record_file_replays_and_a_broken_one_shows_the_servers_reason(
    serve: Callable[..., str], open_page: Callable[..., Watched], tmp_path: Path
) -> None:
    url = serve()
    watched = open_page()
    page = watched.page
    record = a_record()
    good = tmp_path / "match.json"
    good.write_text(json.dumps(record), encoding="utf-8")

    page.goto(f"{url}/replay")
    expect(page.get_by_role("heading", name="Replay a match record", level=1)).to_be_visible()
    expect(page.get_by_role("button", name="Choose a record file…")).to_be_enabled()
    page.locator("#replay-file").set_input_files(good)
    expect(page.locator(".replay-upload-status")).to_have_text("Record: match.json")
    # The sides with the players' names and their final scores; the viewer at its first step.
    expect(page.get_by_role("heading", name="Match replay", level=2)).to_be_visible()
    expect(page.locator(".replay-sides li")).to_have_text(
        [re.compile(r"^Ana & Chloé\s*-?\d+"), re.compile(r"^Bruno & Dmitri\s*-?\d+")]
    )
    hands = len(record["hands"])
    actions = record["hands"][0]["actions"]
    first_card = next(i for i, action in enumerate(actions) if action.split()[0] not in {"pass", "bid"})
    first_tricks = len(actions[first_card:]) // 4
    assert first_tricks == 6, "the house deals six cards each, and the hand is played out"
    position = page.locator(".replay-position")
    expect(position).to_have_text(f"Hand 1 of {hands}, step 1 of {first_tricks + 2}: Auction")
    dealer = NAMES[record["hands"][0]["dealer"]]
    expect(page.locator(".replay-step")).to_contain_text(f"{dealer} deals.")
    seats = page.locator(".replay-seat .replay-seat-head .name-text")
    expect(seats).to_have_text(NAMES)

    # Stepping: the next button shows the first trick as played; the address does not follow a file.
    page.get_by_role("button", name="Next step").click()
    expect(position).to_have_text(
        f"Hand 1 of {hands}, step 2 of {first_tricks + 2}: Trick 1 of {first_tricks}"
    )
    first_trick = actions[first_card : first_card + 4]
    shown = page.locator(".replay-trick > li").evaluate_all(READ_TRICK)
    assert [entry["cards"][0] for entry in shown] == first_trick
    assert page.url == f"{url}/replay"
    # The keyboard: Right to the next trick, End to the last step, Home back to the start.
    page.locator(".replay-stage").focus()
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(
        f"Hand 1 of {hands}, step 3 of {first_tricks + 2}: Trick 2 of {first_tricks}"
    )
    page.keyboard.press("End")
    expect(position).to_have_text(re.compile(rf"^Hand {hands} of {hands}, step (\d+) of \1: Result$"))
    expect(page.locator(".replay-end")).to_have_text("Match over")
    page.keyboard.press("Home")
    expect(position).to_have_text(f"Hand 1 of {hands}, step 1 of {first_tricks + 2}: Auction")
    # The hand chooser goes to the start of a hand.
    page.get_by_label("Hand", exact=True).select_option(label="Hand 2")
    expect(position).to_have_text(re.compile(rf"^Hand 2 of {hands}, step 1 of \d+: Auction$"))

    # A broken record: two cards of hand 2 played in each other's turn. The page shows what the server
    # said about it, which names the hand and the action.
    broken = copy.deepcopy(record)
    plays = broken["hands"][1]["actions"]
    at = next(i for i, action in enumerate(plays) if action.split()[0] not in {"pass", "bid"})
    plays[at], plays[at + 1] = plays[at + 1], plays[at]
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps(broken), encoding="utf-8")
    answer = page.request.post(
        f"{url}/api/replay",
        data=bad.read_text(encoding="utf-8"),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_record"
    assert f"hand 2, action {at + 1}:" in error["message"], error

    page.get_by_role("button", name="Open another record…").click()  # the chooser opens: no matter
    page.locator("#replay-file").set_input_files(bad)
    problem = page.locator(".replay-error")
    expect(problem.locator(".replay-error-title")).to_have_text("This file is not a valid match record.")
    expect(problem.locator(".replay-error-detail")).to_have_text(error["message"])
    expect(page.locator(".replay-stage")).to_have_count(0)  # no viewer left from the good file
    expect(page.get_by_role("button", name="Choose a record file…")).to_be_enabled()
    take_expected_http_errors(watched, 400)


# The /replay page's heading in each language (replay.upload_title in web/src/i18n/pages/*.ts).
REPLAY_UPLOAD_TITLE = {
    "en": "Replay a match record",
    "fr": "Rejouer un relevé de partie",
    "es": "Ver la repetición de un registro",
    "pt": "Ver o replay de um registro",
    "it": "Rivedi una partita da un registro",
}


def test_every_step_of_a_replay_fits_a_phone_in_every_language(
    serve: Callable[..., str], open_page: Callable[..., Watched], tmp_path: Path
) -> None:
    """At 375 px the widest parts are the tables: the header's final standings and the result's table
    of sides (their headings are long in Italian and Portuguese). Their words may break; what still
    does not fit scrolls in its own box, never the page."""
    url = serve()
    record = tmp_path / "match.json"
    record.write_text(json.dumps(a_record()), encoding="utf-8")
    page = open_page(375, 740).page
    page.goto(f"{url}/replay")
    expect(page.locator("#replay-file")).to_be_attached()
    for lang in ("en", "fr", "es", "pt", "it"):
        page.evaluate(f"() => localStorage.setItem('smear.lang', '{lang}')")
        page.goto(f"{url}/replay")
        # A language other than English is a chunk the page fetches before it speaks it.
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.get_by_role("heading", name=REPLAY_UPLOAD_TITLE[lang], level=1)).to_be_visible()
        page.locator("#replay-file").set_input_files(record)
        stage = page.locator(".replay-stage")
        # The server checks the record in its background workers, which a busy machine may slow.
        expect(stage).to_be_visible(timeout=30_000)
        position = page.locator(".replay-position")
        stage.focus()
        results = 0
        while True:
            no_horizontal_overflow(page)
            results += page.locator(".sides-table").count()
            if page.locator(".replay-end").count():
                break
            shown = position.inner_text()
            page.keyboard.press("ArrowRight")
            expect(position).not_to_have_text(shown)
        assert results >= 2, f"{lang}: every hand's result was seen"


# --- 4. the profile page: widths, languages, keyboard -------------------------------------------------

# Known strings of the catalogs (web/src/i18n/en.ts, fr.ts and the later pages' pages/en.ts, pages/fr.ts).
CATALOG = {
    "en": {
        "history": "Match history",
        "games": "Ratings and statistics",
        "name": "Your name",
        "rename": "Rename",
        "transfer": "Use on another device",
        "transfer_code": "Enter this code on the other device:",
        "delete": "Delete my profile",
        "yours": "you",
        "matches": "Matches",
    },
    "fr": {
        "history": "Historique des parties",
        "games": "Cotes et statistiques",
        "name": "Votre nom",
        "rename": "Renommer",
        "transfer": "Utiliser sur un autre appareil",
        "transfer_code": "Saisissez ce code sur l’autre appareil :",
        "delete": "Supprimer mon profil",
        "yours": "vous",
        "matches": "Parties",
    },
}


def test_the_profile_page_fits_phone_and_desktop_in_english_and_french_and_works_by_keyboard(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = finish_a_match_against_bots(open_page, url, "Maximiliano").page
    keys = stored_profile(page)
    assert keys is not None
    player = keys["player"]

    for lang in ("en", "fr"):
        words = CATALOG[lang]
        for width, height in ((1280, 800), (375, 812)):
            # This browser's profile, in a fresh browser with the language chosen.
            watched = open_page(width, height)
            view = watched.page
            view.context.add_init_script(
                f"localStorage.setItem('smear.profile', {json.dumps(json.dumps(keys))});"
                f"localStorage.setItem('smear.lang', '{lang}');"
            )
            view.goto(f"{url}/p/{player}")
            heading = view.get_by_role("heading", level=1)
            expect(heading.locator(".name-text")).to_have_text("Maximiliano")
            expect(heading.locator(".tag.host")).to_have_text(words["yours"])
            assert view.evaluate("document.documentElement.lang") == lang
            expect(view.get_by_role("heading", name=words["history"], level=2)).to_be_visible()
            expect(view.get_by_role("heading", name=words["games"], level=2)).to_be_visible()
            expect(view.locator(".history-list .history-item")).to_have_count(1)
            expect(view.locator(".stats-table th").first).to_have_text(words["matches"])
            expect(view.get_by_role("heading", name=words["delete"], level=2)).to_be_visible()
            no_horizontal_overflow(view)

            # The keyboard: the heading holds the focus first; Tab reaches the name field, then the
            # rename button once the name differs, the transfer button (Enter gives a code) and the
            # delete button.
            expect(heading).to_be_focused()
            field = view.get_by_label(words["name"], exact=True)
            assert tab_to(view, field) == 1, "the rename field comes first after the heading"
            view.keyboard.press("End")
            view.keyboard.type("o")
            expect(field).to_have_value("Maximilianoo")
            rename = view.get_by_role("button", name=words["rename"], exact=True)
            expect(rename).to_be_enabled()
            assert tab_to(view, rename) == 1
            transfer = view.get_by_role("button", name=words["transfer"])
            tab_to(view, transfer)
            view.keyboard.press("Enter")
            expect(view.get_by_text(words["transfer_code"])).to_be_visible()
            expect(view.locator(".transfer-code")).to_have_text(TRANSFER_CODE)
            tab_to(view, view.get_by_role("button", name=words["delete"]))
            # With the code and its link shown, the page still fits.
            no_horizontal_overflow(view)
            watched.context.close()
