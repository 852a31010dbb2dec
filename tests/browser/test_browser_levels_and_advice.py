"""The bots' three levels on the create-table form and in the lobby, and the bid advisor in the auction:
in English on a wide screen and in another language at phone width."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from browserkit import Watched, join_from_invite, requests_sent, unfold_the_form
from playwright.sync_api import Locator, Page, expect

PHONE = 375
# The server's names for the levels the form offers, weakest first.
LEVELS = ["beginner", "heuristic", "expert"]


@dataclass(frozen=True)
class Words:
    """The words of one language's catalog (web/src/i18n/<lang>.ts) that these tests look for."""

    lang: str
    your_name: str
    timer: str
    timer_off: str
    bots: str
    hints: str
    create: str
    seats: str
    join: str
    fill: str
    start: str
    # bot.beginner, bot.heuristic, bot.expert
    levels: tuple[str, str, str]
    # settings.bots, with {level}
    bots_chip: str
    bid_title: str
    pass_: str
    # act.bid_n and advice.moon, with {n}
    bid_n: str
    moon: str
    advice: str
    hide: str
    # advice.caption.other, with {n}
    caption: str
    columns: tuple[str, str, str, str]
    best: str


EN = Words(
    lang="en",
    your_name="Your name",
    timer="Turn timer",
    timer_off="Off",
    bots="Bots",
    hints="Allow hints",
    create="Create the table",
    seats="Seats",
    join="Join",
    fill="Fill the empty seats with bots",
    start="Start the match",
    levels=("Beginner", "Normal", "Expert"),
    bots_chip="bots: {level}",
    bid_title="Your bid",
    pass_="Pass",
    bid_n="Bid {n}",
    moon="Moon ({n})",
    advice="Bid advice",
    hide="Hide advice",
    caption="Bid advice from {n} sampled deals",
    columns=("Choice", "Wins bid", "Makes it", "Expected"),
    best="best",
)

FR = Words(
    lang="fr",
    your_name="Votre nom",
    timer="Temps par tour",
    timer_off="Aucun",
    bots="Robots",
    hints="Autoriser les conseils",
    create="Créer la table",
    seats="Places",
    join="Rejoindre",
    fill="Compléter les places libres avec des robots",
    start="Lancer la partie",
    levels=("Débutants", "Normaux", "Experts"),
    bots_chip="robots : {level}",
    bid_title="Votre annonce",
    pass_="Passer",
    bid_n="Annoncer {n}",
    moon="Lune ({n})",
    advice="Conseil d’annonce",
    hide="Masquer le conseil",
    caption="Conseil tiré de {n} donnes simulées",
    columns=("Choix", "Remporte l’annonce", "La réussit", "Attendu"),
    best="le meilleur",
)

ES = Words(
    lang="es",
    your_name="Tu nombre",
    timer="Tiempo por turno",
    timer_off="Sin límite",
    bots="Bots",
    hints="Permitir pistas",
    create="Crear la mesa",
    seats="Asientos",
    join="Unirme",
    fill="Completar los asientos libres con bots",
    start="Empezar la partida",
    levels=("Principiantes", "Normales", "Expertos"),
    bots_chip="bots: {level}",
    bid_title="Tu apuesta",
    pass_="Paso",
    bid_n="Apostar {n}",
    moon="Luna ({n})",
    advice="Consejo de apuesta",
    hide="Ocultar consejo",
    caption="Consejo a partir de {n} repartos de muestra",
    columns=("Opción", "Gana la apuesta", "La cumple", "Esperado"),
    best="la mejor",
)

# (the language's words, the window's width and height)
WIDE_ENGLISH = pytest.param(EN, 1280, 800, id="en-1280")
PHONE_FRENCH = pytest.param(FR, PHONE, 812, id="fr-375")
PHONE_SPANISH = pytest.param(ES, PHONE, 812, id="es-375")

MINE = ".action-panel.mine"
BID_BUTTONS = f"{MINE} .bid-buttons"
ADVICE = "#bid-advice"
# A share of the deals as the language writes a percentage ("46%", "46 %"), or a dash for none.
SHARE = re.compile(r"^(\d{1,3}\s?%|–)$")
# An expected score change with one decimal, signed unless zero ("+1.2", "-0,4", "0.0").
POINTS = re.compile(r"^([+\-−]\d+|0)[.,]\d$")


def fits(page: Page, width: int) -> None:
    """At phone width nothing makes the page scroll sideways."""
    if width <= PHONE:
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"the page is {scroll} px wide in a {width} px window"


def choose_language(page: Page, words: Words) -> None:
    """Switch the page to the language from the menu (remembered in the browser for the next pages)."""
    if words.lang == "en":
        return
    page.get_by_role("button", name="Menu").click()
    page.get_by_label("Language").select_option(words.lang)
    expect(page.locator("html")).to_have_attribute("lang", words.lang)
    page.keyboard.press("Escape")
    expect(page.locator("#main-menu")).to_have_count(0)


def fill_the_form(page: Page, url: str, words: Words, name: str, *, hints: bool = True) -> None:
    """Open the landing page's table form and fill in a name, no turn timer and the hints choice."""
    page.goto(url)
    unfold_the_form(page)
    page.get_by_label(words.your_name, exact=True).fill(name)
    page.get_by_label(words.timer, exact=True).select_option(label=words.timer_off)
    box = page.get_by_role("checkbox", name=words.hints)
    if hints:
        box.check()
    else:
        box.uncheck()


def create(page: Page, words: Words) -> str:
    """Send the form; returns the new table's code."""
    page.get_by_role("button", name=words.create).click()
    expect(page.get_by_role("heading", name=words.seats)).to_be_visible()
    assert "/t/" in page.url
    return page.url.rsplit("/t/", 1)[1].split("?")[0]


def bots_chip(page: Page, words: Words, level: int) -> None:
    """The lobby's settings name the table's bot level, and no other."""
    chips = page.locator(".lobby .chips li")
    chip = words.bots_chip.format(level=words.levels[level])
    expect(chips.filter(has_text=re.compile(rf"^{re.escape(chip)}$"))).to_have_count(1)
    for other, label in enumerate(words.levels):
        if other != level:
            expect(chips.filter(has_text=label)).to_have_count(0)


@pytest.mark.parametrize(("words", "width", "height"), [WIDE_ENGLISH, PHONE_FRENCH])
def test_each_of_the_three_bot_levels_is_sent_and_shown_to_everyone_in_the_lobby(
    serve: Callable[..., str], open_page: Callable[..., Watched], words: Words, width: int, height: int
) -> None:
    url = serve()
    host = open_page(width, height)
    guest = open_page(width, height)
    spectator = open_page(width, height)
    for page in (host.page, guest.page, spectator.page):
        page.goto(url)
        choose_language(page, words)

    for level, server_name in enumerate(LEVELS):
        page = host.page
        fill_the_form(page, url, words, "Host")
        select = page.get_by_label(words.bots, exact=True)
        # Exactly the three levels named for players, weakest first.
        expect(select.locator("option")).to_have_text(list(words.levels))
        values = select.locator("option").evaluate_all("(options) => options.map((o) => o.value)")
        assert values == LEVELS
        select.select_option(label=words.levels[level])
        expect(select).to_have_value(server_name)
        fits(page, width)
        before = len(requests_sent(host, "create_table"))
        code = create(page, words)

        created = requests_sent(host, "create_table")
        assert len(created) == before + 1
        assert created[-1]["bot_level"] == server_name
        bots_chip(page, words, level)
        fits(page, width)

        # A spectator sees the level, and so does another player, before and after taking a seat.
        watching = spectator.page
        watching.goto(f"{url}/t/{code}?watch=1")
        expect(watching.get_by_role("heading", name=words.seats)).to_be_visible()
        bots_chip(watching, words, level)
        fits(watching, width)
        other = guest.page
        other.goto(f"{url}/t/{code}")
        expect(other.get_by_role("heading", name=words.seats)).to_be_visible()
        bots_chip(other, words, level)
        join_from_invite(other, f"{url}/t/{code}", f"Guest {level + 1}", join=words.join)
        bots_chip(other, words, level)
        fits(other, width)
        # The host sees the guest sit down, at the table of that level.
        expect(page.locator(".seat-list li", has_text=f"Guest {level + 1}")).to_have_count(1)
        bots_chip(page, words, level)


def solo_auction(
    open_page: Callable[..., Watched], url: str, words: Words, width: int, height: int, *, hints: bool
) -> Watched:
    """A table of one player and three bots, created and started in the language, up to the player's
    first turn in the auction."""
    player = open_page(width, height)
    page = player.page
    page.goto(url)
    choose_language(page, words)
    fill_the_form(page, url, words, "Solo", hints=hints)
    create(page, words)
    page.get_by_role("button", name=words.fill).click()
    start = page.get_by_role("button", name=words.start)
    expect(start).to_be_enabled()
    start.click()
    expect(page.locator(BID_BUTTONS)).to_be_visible()
    expect(page.locator(f"{MINE} h2")).to_have_text(words.bid_title)
    return player


def legal_choices(page: Page, words: Words) -> list[str]:
    """The auction choices the bid buttons offer, named as the advice names them: the pass, then each
    bid ("Bid 3", the moon as "Moon (7)")."""
    names = []
    if page.locator(f"{BID_BUTTONS} .pass-btn").count():
        expect(page.locator(f"{BID_BUTTONS} .pass-btn")).to_have_text(words.pass_)
        names.append(words.pass_)
    for button in page.locator(f"{BID_BUTTONS} .bid-btn").all():
        label = button.get_attribute("aria-label") or ""
        number = re.search(r"\d+", label)
        assert number, label
        moon = "moon-btn" in (button.get_attribute("class") or "")
        names.append((words.moon if moon else words.bid_n).format(n=number.group()))
    assert names, "no bid button"
    return names


def points(texts: list[str]) -> list[float]:
    """The expected changes as numbers ("+1,2" is 1.2)."""
    for text in texts:
        assert POINTS.match(text), text
    return [float(text.replace("−", "-").replace(",", ".")) for text in texts]


def the_best(values: list[float]) -> int:
    """The choice the advice marks best: the highest expected change, the first of equals."""
    return values.index(max(values))


def check_rows(table: Locator, words: Words, choices: list[str]) -> None:
    """The narrow screen's table: a row per choice, its chances and expected points, the best marked."""
    expect(table.locator("thead th")).to_have_text(list(words.columns))
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(len(choices))
    for row, choice in zip(rows.all(), choices, strict=True):
        expect(row.locator("th")).to_have_text(re.compile(rf"^{re.escape(choice)}(\s|$)"))
        cells = row.locator("td")
        expect(cells).to_have_count(3)
        expect(cells.nth(0)).to_have_text(SHARE)
        expect(cells.nth(1)).to_have_text(SHARE)
        expect(cells.nth(2).locator(".advice-points")).to_have_text(POINTS)
    best = the_best(points(table.locator("tbody .advice-points").all_inner_texts()))
    expect(table.locator("tbody tr.best")).to_have_count(1)
    marked = rows.nth(best)
    expect(marked).to_have_class(re.compile(r"\bbest\b"))
    expect(marked.locator(".advice-star")).to_be_visible()
    expect(marked.locator("th .visually-hidden")).to_have_text(f"({words.best})")


def check_columns(table: Locator, words: Words, choices: list[str]) -> None:
    """The wide screen's table: a column per choice (headed as briefly as the bid buttons), a row each
    for the chances and the expected points, the best column marked."""
    heads = table.locator("thead th")
    expect(heads).to_have_count(len(choices))
    for head, choice in zip(heads.all(), choices, strict=True):
        # Heard in full, shown as briefly as the bid buttons put it ("3", "☾ 7").
        expect(head.locator(".visually-hidden").first).to_have_text(choice)
        short = words.pass_ if choice == words.pass_ else re.sub(r"\D", "", choice)
        expect(head.locator("span[aria-hidden=true]").first).to_have_text(re.compile(rf"^(☾ )?{short}$"))
    rows = table.locator("tbody tr")
    expect(rows.locator("th")).to_have_text(list(words.columns[1:]))
    for index in range(3):
        expect(rows.nth(index).locator("td")).to_have_count(len(choices))
    for cell in rows.nth(0).locator("td").all() + rows.nth(1).locator("td").all():
        expect(cell).to_have_text(SHARE)
    best = the_best(points(rows.nth(2).locator(".advice-points").all_inner_texts()))
    expect(table.locator("thead th.best")).to_have_count(1)
    expect(heads.nth(best)).to_have_class(re.compile(r"\bbest\b"))
    expect(heads.nth(best).locator(".advice-star")).to_be_visible()
    expect(heads.nth(best).locator(".visually-hidden", has_text="(")).to_have_text(f"({words.best})")
    for index in range(3):  # the whole column is marked
        expect(rows.nth(index).locator("td.best")).to_have_count(1)
        expect(rows.nth(index).locator("td").nth(best)).to_have_class(re.compile(r"\bbest\b"))


@pytest.mark.parametrize(("words", "width", "height"), [WIDE_ENGLISH, PHONE_SPANISH])
def test_the_bid_advice_shows_each_choice_and_goes_when_the_turn_passes(
    serve: Callable[..., str], open_page: Callable[..., Watched], words: Words, width: int, height: int
) -> None:
    url = serve()
    player = solo_auction(open_page, url, words, width, height, hints=True)
    page = player.page
    choices = legal_choices(page, words)

    button = page.locator(f"{MINE} .advice-btn")
    expect(button).to_have_accessible_name(words.advice)
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(page.locator(f"{ADVICE} table")).to_have_count(0)
    assert requests_sent(player, "bid_advice") == []
    button.click()

    wide = width > 980
    shown = page.locator(f"{ADVICE} .advice-across" if wide else f"{ADVICE} .advice-down")
    folded = page.locator(f"{ADVICE} .advice-down" if wide else f"{ADVICE} .advice-across")
    # Worked out by the expert's search on the server, within about half a second (longer when busy).
    expect(shown).to_be_visible(timeout=30_000)
    expect(folded).to_be_hidden()
    expect(button).to_have_accessible_name(words.hide)
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(shown.locator("caption")).to_have_text(
        re.compile("^" + re.escape(words.caption).replace(r"\{n\}", r"\d+") + "$")
    )
    if wide:
        check_columns(shown, words, choices)
        expect(page.locator(f"{ADVICE} .advice-note")).to_be_hidden()  # in the table's title instead
    else:
        check_rows(shown, words, choices)
        expect(page.locator(f"{ADVICE} .advice-note")).to_be_visible()
    # The table fits its place, without a scroll bar of its own.
    assert page.locator(ADVICE).evaluate("(el) => el.scrollWidth <= el.clientWidth")
    expect(page.locator(BID_BUTTONS)).to_be_visible()
    fits(page, width)
    assert len(requests_sent(player, "bid_advice")) == 1

    # Put away and asked for again: the same choices, for the same turn.
    button.click()
    expect(page.locator(f"{ADVICE} table")).to_have_count(0)
    expect(button).to_have_accessible_name(words.advice)
    expect(button).to_have_attribute("aria-expanded", "false")
    button.click()
    expect(shown).to_be_visible(timeout=30_000)
    if wide:
        check_columns(shown, words, choices)
    else:
        check_rows(shown, words, choices)
    assert len(requests_sent(player, "bid_advice")) == 2

    # Bidding passes the turn: the advice and its button go with the bid buttons.
    pass_button = page.locator(f"{BID_BUTTONS} .pass-btn")
    (pass_button if pass_button.count() else page.locator(f"{BID_BUTTONS} .bid-btn").first).click()
    expect(page.locator(BID_BUTTONS)).to_have_count(0)
    expect(page.locator(f"{ADVICE} table")).to_have_count(0)
    expect(page.locator(".advice-btn")).to_have_count(0)
    fits(page, width)


@pytest.mark.parametrize(("words", "width", "height"), [WIDE_ENGLISH, PHONE_SPANISH])
def test_a_table_without_hints_offers_no_bid_advice(
    serve: Callable[..., str], open_page: Callable[..., Watched], words: Words, width: int, height: int
) -> None:
    url = serve()
    player = solo_auction(open_page, url, words, width, height, hints=False)
    page = player.page
    expect(page.locator(f"{MINE} .bid-buttons .btn").first).to_be_visible()
    expect(page.locator(".advice-btn")).to_have_count(0)
    expect(page.get_by_role("button", name=words.advice)).to_have_count(0)
    expect(page.locator(ADVICE)).to_have_count(0)
    fits(page, width)
    assert requests_sent(player, "create_table")[0]["hints"] is False
    assert requests_sent(player, "bid_advice") == []
