"""A real browser on the local page: headless Chromium (Debian's ``chromium``, driven by Playwright)
opens a lobby with ``/uno new``, adds two bots, starts, opens the hand, plays a card and sees the
table message change, on a desktop and a phone screen. The pages end up in
``artifacts/browser-table.png`` and ``artifacts/browser-phone.png``; with the card emojis, a
classic table and a rigged hand of 22 cards in ``artifacts/cards-1280.png`` and ``cards-390.png``,
a lobby in ``lobby-<width>.png``, a Flip table on its dark side in ``flip-dark-<width>.png``,
three DOS turns in ``browser-dos.png`` (on a phone ``browser-dos-phone.png``, with the hand's
decisions ``browser-dos-phone-hand.png`` and the private panel folded ``browser-dos-phone-folded.png``), a game's standings in ``standings-<width>.png``, a
/uno stats answer with its chart in ``stats-1280.png``.

Skipped when no ``chromium`` is installed (``scripts/test`` installs it when it runs as root).
Time stands still on the stand-in's clock and the bot has a seed, so the deal, the bots' moves
and with them alice's first move are the same on every run.
"""

from __future__ import annotations

import base64
import contextlib
import re
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.engine.cards import Color, Side
from bot.localdiscord.limits import FLAG_COMPONENTS_V2
from bot.localdiscord.records import WAIT_SECONDS, Clock
from bot.localdiscord.server import StandIn
from bot.localdiscord.testing import LocalDiscord, png
from bot.localdiscord.ui import UI
from bot.render.faces import EMOJI
from tests.e2e.conftest import make_bot, with_emojis
from tests.e2e.crashing import ACCEPTS
from tests.e2e.helpers import (
    bot_of,
    click,
    command,
    hand,
    labels,
    lobby_message,
    open_table,
    published_table,
    rig,
    rig_many_plays,
    table_of,
)
from tests.localdiscord.demo_bot import DemoBot

playwright_api = pytest.importorskip("playwright.async_api", reason="playwright is not installed")
async_playwright, expect = playwright_api.async_playwright, playwright_api.expect

CHROMIUM = shutil.which("chromium") or next(
    (p for p in ("/usr/bin/chromium", "/usr/lib/chromium/chromium") if Path(p).is_file()), None
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOT = Path(__file__).resolve().parents[2] / "artifacts" / "browser-table.png"
# How long the page may take to show what must come (Playwright's expectations and actions): each
# returns as soon as it comes, so a long deadline costs a passing test nothing, and a loaded
# machine fails none (the stand-in's waits allow as long, `WAIT_SECONDS`).
WAIT_MS = int(WAIT_SECONDS * 1000)
expect.set_options(timeout=WAIT_MS)
PHONE_WIDTH = 700  # px: the page's phone layout (its @media max-width), and a phone here

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium executable (Debian: apt-get install chromium; scripts/test does it as root)",
)


class StillClock(Clock):
    """A clock that stands still at 2026-01-01 (plus `advance`): the stand-in's ids and the
    page's timestamps are the same on every run."""

    def now(self) -> float:
        return 1_767_225_600.0 + self._offset


@contextlib.asynccontextmanager
async def chromium(
    width: int = 1280, height: int = 900, screenshot: Path | None = None
) -> AsyncIterator[tuple[Any, list[str]]]:
    """A page of headless Chromium at ``width`` × ``height`` px (CSS pixels), and the list its
    errors (page errors, console errors) are added to; the page is saved to ``screenshot`` at the
    end, even when the block fails. A width of at most `PHONE_WIDTH` is a phone, emulated as one
    (a mobile viewport, touch, 3 device pixels a CSS pixel): as on a real phone, a page without a
    viewport meta tag is then laid out at a desktop's width, shrunk."""
    problems: list[str] = []
    phone = width <= PHONE_WIDTH
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context(
                viewport={"width": width, "height": height},
                is_mobile=phone,
                has_touch=phone,
                device_scale_factor=3 if phone else 1,
            )
            page = await context.new_page()
            page.set_default_timeout(WAIT_MS)
            page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
            page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
            try:
                yield page, problems
            finally:
                if screenshot is not None:
                    screenshot.parent.mkdir(exist_ok=True)
                    await page.screenshot(path=str(screenshot), full_page=True)
                    print(f"screenshot: {screenshot}")
        finally:
            await browser.close()


def table_on(page: Any, my_hand: str = "My hand") -> Any:
    """The table message on the page: a Components V2 container with a My hand button (``my_hand``:
    its label in the reader's language). A turn's ping has the button too, under plain text
    (`bot.render.ping`)."""
    button = page.get_by_role("button", name=my_hand)
    return page.locator("#messages .msg").filter(has=page.locator(".container")).filter(has=button)


@pytest.fixture
def browser_env(tmp_path: Path) -> LocalDiscord:
    """The production bot with a seeded deal, in a guild with alice and bob and channel #uno."""
    return LocalDiscord(  # seed 5: alice holds a wild at her first move, so she names a color too
        # Bots think 0.7 s, so alice's move stays in the table's last eight lines while we look.
        lambda s: make_bot(s, tmp_path / "uno.db", seed=5, ai_delay_seconds=0.7),
        users=("alice", "bob"),
        channels=("uno",),
        clock=StillClock(),
    )


@pytest.mark.parametrize(
    ("width", "height", "screenshot"),
    [(1280, 900, SCREENSHOT), (390, 844, SCREENSHOT.with_name("browser-phone.png"))],
    ids=["desktop", "phone"],
)
async def test_play_a_card_in_chromium(
    browser_env: LocalDiscord,
    record_property: Callable[[str, object], None],
    width: int,
    height: int,
    screenshot: Path,
) -> None:
    """alice starts a game against two bots in the page, plays from her hand, the table shows it;
    on a desktop and on a phone, where nothing may stick out of the screen sideways."""
    record_property("screenshot", str(screenshot))
    async with chromium(width, height, screenshot) as (page, problems):
        await play_first_move(page, browser_env.stand_in.base_url)
        problems += await overflowing(page, width)
    assert not problems, problems


async def test_play_a_round_as_a_french_user_in_chromium(
    browser_env: LocalDiscord, record_property: Callable[[str, object], None]
) -> None:
    """alice picks French on the page in a French server: the page's own words turn French (the
    command's option types, who used a command, too); she opens the lobby with the command's
    French name, plays her first move from her hand in French,
    and the table says it in French (screenshot ``artifacts/browser-french.png``)."""
    screenshot = SCREENSHOT.with_name("browser-french.png")
    record_property("screenshot", str(screenshot))
    browser_env.stand_in.state.guild_locale = "fr"  # the server's language: the channel's too
    async with chromium(1280, 900, screenshot) as (page, problems):
        await page.goto(browser_env.stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        await page.locator("#locale").select_option("fr")
        await expect(page.locator("#locale option:checked")).to_have_text("fr")
        # The page's own words follow the language picked, as the bot's do.
        await expect(page.locator("aside h2")).to_contain_text("Visibles par toi seul")
        await expect(page.locator("#line")).to_have_attribute("placeholder", re.compile(r"^Tape /uno"))
        await page.locator("#line").fill(FRENCH["new"] + " ")  # the command's options, typed
        await expect(page.locator("#hint")).to_contain_text(":un entier]")
        await expect(page.locator("#hint")).to_contain_text(":un booléen]")
        table, hand = await open_a_game(page, FRENCH)
        # Who opened the lobby (above its message), in French.
        await expect(page.locator("#messages .via")).to_have_text("↪ alice a utilisé /uno nouvelle")
        cards = set((await hand.locator(".text", has_text="Tes cartes").inner_text()).splitlines()[1:])
        labels = [label.strip() for label in await hand.locator("button:enabled").all_inner_texts()]
        playable = [label for label in labels if label in cards and "joker" not in label]
        if playable:
            await hand.get_by_role("button", name=playable[0], exact=True).click()
            expected = re.compile(re.escape(f"alice a joué {playable[0]}"))
        else:  # draw, or take what is pending ("Piocher 4 cartes", "Passer son tour")
            choice = next(label for label in labels if label.startswith(("Piocher", "Passer son tour")))
            await hand.get_by_role("button", name=choice, exact=True).click()
            expected = re.compile(r"alice (a pioché \d+ cartes?|passe son tour)")
        await expect(table.locator(".container")).to_contain_text(expected)
        await expect(table.locator(".container")).to_contain_text("Derniers coups")
    assert not problems, problems


async def overflowing(page: Any, width: int) -> list[str]:
    """What sticks out of the page's ``width`` (px) sideways: the page itself, or a button or
    field cut off at the screen's edge; on a phone, also a page laid out wider than the screen
    (a desktop's width, shrunk: no viewport meta tag) or not in its phone layout."""
    found: list[str] = await page.evaluate(
        """(width) => {
            const out = [];
            if (window.innerWidth !== width)
                out.push(`the page is laid out ${window.innerWidth}px wide on a ${width}px screen`);
            if (width <= 700 && !matchMedia("(max-width: 700px)").matches)
                out.push("the page is not in its phone layout");
            if (document.documentElement.scrollWidth > width)
                out.push(`the page is ${document.documentElement.scrollWidth}px wide`);
            for (const el of document.querySelectorAll("button, select, input")) {
                const r = el.getBoundingClientRect();
                if (r.width && (r.left < 0 || r.right > width + 0.5))
                    out.push(`${el.tagName} ${JSON.stringify(el.innerText || el.id)} spans ${r.left}-${r.right}px`);
            }
            return out;
        }""",
        width,
    )
    return found


async def play_first_move(page: Any, url: str) -> None:
    """The player's path: choose alice, /uno new, Add bot twice, Start, My hand, play, look."""
    await page.goto(url)
    await page.locator("#who").select_option(label="alice")
    await expect(page.locator("#who option:checked")).to_have_text("alice")
    table, hand = await open_a_game(page, ENGLISH)
    before = await table.locator(".container").inner_text()  # as the move's hand opened: the move changes it
    expected = await make_a_move(hand)

    await expect(table.locator(".container")).to_contain_text(expected)
    assert await table.locator(".container").inner_text() != before


ENGLISH = {
    "new": "/uno new", "lobby": "UNO lobby", "seats": "Seats ({n}/10)", "add bot": "Add bot", "start": "Start",
    "my hand": "My hand", "waiting": "Waiting for alice", "hand": "Your hand", "move": "Your move",
}  # fmt: skip
FRENCH = {
    "new": "/uno nouvelle", "lobby": "Salon d’attente UNO", "seats": "Places ({n}/10)", "add bot": "Ajouter un bot",
    "start": "Commencer", "my hand": "Ma main", "waiting": "On attend alice", "hand": "Ta main", "move": "À toi",
}  # fmt: skip
"""What the page shows in each language the tests play in."""


async def open_a_game(page: Any, words: dict[str, str]) -> tuple[Any, Any]:
    """The page's user (alice) opens a lobby, adds two bots, starts, and opens her hand once the
    table waits for her; returns the table message and the hand (their locators)."""
    line = page.locator("#line")
    await line.fill(words["new"])
    await line.press("Enter")
    await expect(line).to_have_value("")  # the page clears it once the command went
    channel = page.locator("#messages")
    lobby = channel.locator(".msg", has_text=words["lobby"])
    for n in (2, 3):
        await lobby.get_by_role("button", name=words["add bot"]).click()
        await expect(lobby).to_contain_text(words["seats"].format(n=n))
    await lobby.get_by_role("button", name=words["start"]).click()
    # The table message (the one with My hand); bots may move first, then it waits for alice.
    table = table_on(page, words["my hand"])
    await expect(table).to_contain_text(words["waiting"])
    await table.get_by_role("button", name=words["my hand"]).click()
    hand = page.locator("#side .msg", has_text=words["hand"]).first
    await expect(hand).to_contain_text(words["move"])
    return table, hand


async def make_a_move(hand: Any) -> re.Pattern[str]:
    """Play a wild if one is playable (naming the first color), else the first playable card,
    else draw, else accept what is pending; returns the table log line to expect."""
    cards = set((await hand.locator(".text", has_text="Your cards").inner_text()).splitlines()[1:])
    buttons = hand.locator("button:enabled")
    labels = [label.strip() for label in await buttons.all_inner_texts()]
    playable = [label for label in labels if label in cards]
    if not playable:
        # Else accept what is pending (its button says the cost: "Take 4 cards", "Draw until …").
        choice = "Draw" if "Draw" in labels else next(label for label in labels if label.startswith(ACCEPTS))
        await hand.get_by_role("button", name=choice, exact=True).click()
        return re.compile(r"alice drew \d+ cards?")
    card = next((label for label in playable if "wild" in label), playable[0])
    await hand.get_by_role("button", name=card, exact=True).click()
    if "wild" not in card:
        return re.compile(re.escape(f"alice played {card}"))
    back = hand.get_by_role("button", name="Back")
    await expect(back).to_be_visible()  # the color picker replaced the cards
    color = hand.locator("button:enabled", has_not_text="Back").first
    name = (await color.inner_text()).split()[-1]
    await color.click()
    return re.compile(re.escape(f"alice played {card} → {name}"))


@pytest.fixture
def two_servers(tmp_path: Path) -> LocalDiscord:
    """The production bot serving two guilds (its commands synced globally, as a sharded bot's),
    with alice in both: #uno in the first, #cards in "Second Server"."""
    env = LocalDiscord(
        lambda s: make_bot(s, tmp_path / "uno.db", shards=(1, None)),
        users=("alice",),
        channels=("uno",),
        clock=StillClock(),
    )
    env.stand_in.add_guild("Second Server", channels=("cards",))
    return env


async def test_choose_a_server_in_chromium(two_servers: LocalDiscord) -> None:
    """With several servers the page offers them: alice picks the second, sees its channel alone,
    and her /uno new opens a lobby there."""
    async with chromium() as (page, problems):
        await page.goto(two_servers.stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        servers = page.locator("#guilds")
        await expect(servers).to_be_visible()
        await servers.select_option(label="Second Server")
        await expect(page.locator("#chan option")).to_have_text(["cards"])
        line = page.locator("#line")
        await line.fill(ENGLISH["new"])
        await line.press("Enter")
        await expect(page.locator("#messages .msg", has_text=ENGLISH["lobby"])).to_be_visible()
    cards = two_servers.stand_in.channel("cards")
    assert lobby_message(two_servers, cards).channel is cards
    assert not problems, problems


async def test_side_panel_keeps_the_newest_private_messages(browser_env: LocalDiscord) -> None:
    """The side panel shows the newest five private messages; the older ones wait behind a link."""
    async with chromium() as (page, problems):
        await page.goto(browser_env.stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        line, side = page.locator("#line"), page.locator("#side .msg")
        for sent in range(1, 8):  # no table here: each /uno hand is answered privately
            await line.fill("/uno hand")
            await line.press("Enter")
            await expect(side).to_have_count(min(sent, 5))
        older = page.locator("#older a")
        await expect(older).to_have_text("Show 2 older")
        await older.click()
        await expect(side).to_have_count(7)
        await page.locator("#older a").click()
        await expect(side).to_have_count(5)
    assert not problems, problems


async def test_a_dm_is_named_in_the_page_s_language(v2_env: LocalDiscord) -> None:
    """A DM in the private panel is said to be one ("DM with alice") in the language picked on
    the page, as the page's other words are."""
    stand_in = v2_env.stand_in
    alice = stand_in.user("alice")
    stand_in.state.create_message(stand_in.dm_channel(alice), stand_in.state.bot, {"content": "A secret"})
    async with chromium() as (page, problems):
        await page.goto(stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        where = page.locator("#side .msg", has_text="A secret").locator(".meta")
        await expect(where).to_have_text(re.compile(r" · DM with alice$"))
        said = {
            "fr": "Message privé avec alice",
            "es-ES": "Mensaje directo con alice",
            "pt-BR": "Mensagem direta com alice",
        }
        for locale, dm in said.items():
            await page.locator("#locale").select_option(locale)
            await expect(where).to_have_text(re.compile(f" · {dm}$"))
    assert not problems, problems


async def test_markdown_shows_as_discord_renders_it(browser_env: LocalDiscord) -> None:
    """The page renders the rules' Markdown (headings, bullets, code), and a custom Wild
    Customizable rule's Markdown, escaped by the bot, shows as the host typed it."""
    stand_in = browser_env.stand_in
    stand_in.grant(stand_in.user("alice"), "manage_channels")
    async with chromium() as (page, problems):
        await page.goto(stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        line = page.locator("#line")
        await line.fill("/uno rules variant:flip")
        await line.press("Enter")
        # The headings keep docs/rules.md's numbers (§7 is UNO Flip).
        rules = page.locator("#side .msg", has=page.locator(".h2", has_text="UNO Flip"))
        await expect(rules).to_have_count(1)
        await expect(rules.locator(".h3").first).to_have_text("7.1 Flip")
        await expect(rules.locator(".li")).to_have_count(2)
        await expect(rules).not_to_contain_text("Variant id")  # a developer's note, not shown
        assert "#" not in await rules.locator(".content").first.inner_text()
        await line.fill("/uno rules card:stacking")  # a house rule's id, as its setting takes it
        await line.press("Enter")
        stacking = page.locator("#side .msg", has_text="4.1 Stacking")
        await expect(stacking.locator("code").first).to_have_text("stacking")
        await line.fill('/uno settings customizable_rule:"**Sing** first"')
        await line.press("Enter")
        saved = page.locator("#side .msg", has_text="Channel settings saved")
        await expect(saved).to_contain_text("Wild Customizable: **Sing** first")
    assert not problems, problems


def data_uri(image: bytes) -> str:
    """``data:image/png;base64,...`` for an emoji upload."""
    return "data:image/png;base64," + base64.b64encode(image).decode()


@pytest.fixture
def v2_env() -> LocalDiscord:
    """The stand-in's demo bot (a V2 message is put in place by the test) with alice in #uno."""
    return LocalDiscord(DemoBot, users=("alice",), channels=("uno",), clock=StillClock())


@pytest.mark.parametrize(
    ("width", "height", "screenshot"),
    [
        (1280, 900, SCREENSHOT.with_name("browser-v2.png")),
        (390, 844, SCREENSHOT.with_name("browser-v2-phone.png")),
    ],
    ids=["desktop", "phone"],
)
async def test_components_v2_message_in_chromium(
    v2_env: LocalDiscord, width: int, height: int, screenshot: Path
) -> None:
    """A Components V2 table (a red container, a section with the top card's thumbnail on the
    right, a separator, a gallery, a card button with its custom emoji) shows its images from the
    stand-in's emoji route, fits a phone's width, and its button inside the container clicks."""
    stand_in = v2_env.stand_in
    state, uno = stand_in.state, stand_in.channel("uno")
    red = state.create_emoji("red_5", data_uri(png(48, 72, (0xE5, 0x39, 0x35))))
    blue = state.create_emoji("blue_7", data_uri(png(48, 72, (0x1E, 0x88, 0xE5))))
    url = f"{stand_in.base_url}/emojis/{{}}.png".format
    body = {
        "flags": FLAG_COMPONENTS_V2,
        "components": [
            {
                "type": 17,
                "accent_color": 0xE53935,
                "components": [
                    {
                        "type": 9,
                        "components": [
                            {
                                "type": 10,
                                "content": f"## UNO table\nTop card {red.mention} **Red 5** · alice to play",
                            }
                        ],
                        "accessory": {"type": 11, "media": {"url": url(red.id)}, "description": "Red 5"},
                    },
                    {"type": 14, "divider": True, "spacing": 1},
                    {"type": 10, "content": f"- bob played {blue.mention} Blue 7\n- alice drew 1 card"},
                    {
                        "type": 12,
                        "items": [{"media": {"url": url(red.id)}}, {"media": {"url": url(blue.id)}}],
                    },
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 2,
                                "style": 1,
                                "label": "Red 5",
                                "custom_id": "v2:red5",
                                "emoji": {"id": str(red.id), "name": "red_5"},
                            },
                            {"type": 2, "style": 2, "label": "My hand", "custom_id": "v2:hand"},
                        ],
                    },
                ],
            }
        ],
    }
    state.create_message(uno, state.bot, body)
    async with chromium(width, height, screenshot) as (page, problems):
        await page.goto(stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        box = page.locator("#messages .container")
        await expect(box).to_have_count(1)
        await expect(box).to_have_css("border-left-color", "rgb(229, 57, 53)")
        await expect(box.locator(".section .h2")).to_have_text("UNO table")
        images = box.locator("img")
        # thumbnail, emoji in the section, emoji in the list, two gallery items, the button's
        await expect(images).to_have_count(6)
        loaded = await images.evaluate_all("(all) => all.map((i) => i.complete && i.naturalWidth)")
        assert loaded == [48, 48, 48, 48, 48, 48], loaded
        text = await box.locator(".section .texts").bounding_box()
        thumb = await box.locator(".section .accessory img.thumb").bounding_box()
        assert text and thumb and thumb["x"] >= text["x"] + text["width"] - 1  # on the right
        card = box.get_by_role("button", name="Red 5")
        await expect(card.locator("img.emoji")).to_have_attribute("src", f"/emojis/{red.id}.png")
        problems += await overflowing(page, width)
        await card.click()
        run = await stand_in.wait_until(lambda: stand_in.interactions)
        assert run[-1].payload["data"]["custom_id"] == "v2:red5"
    assert not problems, problems


@pytest.fixture
def cards_env(tmp_path: Path) -> LocalDiscord:
    """The production bot with every card face's emoji, alice and bob, channel #uno."""
    return LocalDiscord(
        with_emojis(tmp_path / "uno.db", seed=5, ai_delay_seconds=0.7),
        users=("alice", "bob"),
        channels=("uno",),
        clock=StillClock(),
    )


BIG_HAND = [f"{c} {n}" for c in ("red", "yellow", "green", "blue") for n in (1, 4, 7, 9)] + [
    "red skip", "blue reverse", "green draw two", "yellow draw two", "wild", "wild draw four",
]  # fmt: skip


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)], ids=["desktop", "phone"])
async def test_a_classic_table_and_a_hand_of_22_with_card_emojis(
    cards_env: LocalDiscord, width: int, height: int
) -> None:
    """A classic table and alice's hand of 22 cards, with the card emojis, on a desktop and a
    phone (screenshots ``artifacts/cards-<width>.png``): nothing sticks out sideways."""
    env, ch = cards_env, cards_env.channel("uno")
    await env.stand_in.wait_until(bot_of(env).card_emojis.done.is_set)
    await open_table(env, ch, env.user("alice"), [env.user("bob")])
    rig(env, ch, variant="classic", dealer="bob", hands={"alice": BIG_HAND, "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"])  # fmt: skip
    table_of(env, ch).log.append("bob played 🟥 red 7")
    bot_of(env).service.publisher.publish(table_of(env, ch))
    shot = SCREENSHOT.with_name(f"cards-{width}.png")
    async with chromium(width, height, shot) as (page, problems):
        await page.goto(env.stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        table = table_on(page)
        await expect(table).to_contain_text("bob played")
        await table.get_by_role("button", name="My hand").click()
        hand = page.locator("#side .msg", has_text="Your hand").first
        await expect(hand).to_contain_text("22 cards")
        await expect(hand.locator("img").first).to_be_visible()
        problems += await overflowing(page, width)
    assert not problems, problems


async def test_a_hand_s_select_pages_on_a_phone(cards_env: LocalDiscord) -> None:
    """alice's Flip hand of 28 plays (more than a select holds) on a phone (screenshot
    ``artifacts/pager-390.png``): under the select, ◀, "Page 1 of 2" and ▶; ▶ turns to page 2,
    where ◀ turns back; nothing sticks out sideways."""
    env, ch = cards_env, cards_env.channel("uno")
    await env.stand_in.wait_until(bot_of(env).card_emojis.done.is_set)
    await open_table(env, ch, env.user("alice"), [env.user("bob")])
    rig_many_plays(env, ch)
    bot_of(env).service.publisher.publish(table_of(env, ch))
    async with chromium(390, 844, SCREENSHOT.with_name("pager-390.png")) as (page, problems):
        await page.goto(env.stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        table = table_on(page)
        await table.get_by_role("button", name="My hand").click()
        hand = page.locator("#side .msg", has_text="Your hand").first
        await expect(hand).to_contain_text("28 cards")
        await expect(hand.get_by_role("button", name="Page 1 of 2")).to_be_disabled()
        await expect(hand.get_by_role("button", name="◀")).to_be_disabled()
        await hand.get_by_role("button", name="▶").click()
        await expect(hand.get_by_role("button", name="Page 2 of 2")).to_be_visible()
        await expect(hand.get_by_role("button", name="▶")).to_be_disabled()
        await expect(hand.get_by_role("button", name="◀")).to_be_enabled()
        await hand.scroll_into_view_if_needed()
        problems += await overflowing(page, 390)
    assert not problems, problems


DOS_SHOT = SCREENSHOT.with_name("browser-dos.png")
DOS_TURNS = 3


@pytest.mark.parametrize(
    ("width", "height", "shot"),
    [(1280, 900, DOS_SHOT), (390, 844, DOS_SHOT.with_name("browser-dos-phone.png"))],
    ids=["desktop", "phone"],
)
async def test_a_few_dos_turns_in_chromium(
    cards_env: LocalDiscord, width: int, height: int, shot: Path
) -> None:
    """alice opens a DOS table against a bot in the page and plays three turns from her hand (the
    match select, a Wild DOS's colors, the cards to place, End the turn, Draw), each shown on the
    table message's Center Row and log, the cards with their DOS card pictures (screenshots
    ``artifacts/browser-dos.png``, ``browser-dos-phone.png``). Each select and button stays within
    its message's box; on a phone the table stays the main thing: the private panel (her hand)
    takes at most a third of the screen and folds away to its heading."""
    await cards_env.stand_in.wait_until(bot_of(cards_env).card_emojis.done.is_set)
    async with chromium(width, height, shot) as (page, problems):
        await page.goto(cards_env.stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        line = page.locator("#line")
        await line.fill("/uno new variant:dos")
        await line.press("Enter")
        channel = page.locator("#messages")
        lobby = channel.locator(".msg", has_text="DOS lobby")  # the edition names its lobby
        await expect(lobby).to_contain_text("Seats (1/10)")
        await lobby.get_by_role("button", name="Add bot").click()
        await expect(lobby).to_contain_text("Seats (2/10)")
        await lobby.get_by_role("button", name="Start").click()
        table = table_on(page)
        await expect(table).to_contain_text("Center Row")
        await expect(table.locator("img.emoji").first).to_be_visible()
        await table.get_by_role("button", name="My hand").click()
        hand = page.locator("#side .msg", has_text="Your hand").first  # kept up to date from now on
        await expect(hand.locator("img.emoji").first).to_be_visible()
        for turn in range(DOS_TURNS):
            await expect(table).to_contain_text("Waiting for alice")
            await expect(hand).to_contain_text("Your move")
            if turn == 0:  # her decisions on show: the match select is the widest thing
                await expect(hand.locator("select").first).to_be_visible()
                problems += await outside_their_box(page)
                await page.screenshot(path=str(shot.with_name(shot.stem + "-hand.png")))
                if width < 700:
                    await phone_panel(page, height)
            await play_a_dos_turn(hand, cards_env.stand_in)
        await expect(table).to_contain_text("alice")
        problems += await overflowing(page, width) + await outside_their_box(page)
        await bottom(page)
    assert not problems, problems


async def outside_their_box(page: Any) -> list[str]:
    """The selects and buttons that stick out of their message's box (a container, else the
    message) or of their column (the channel, the private panel), e.g. a select as wide as its
    longest option."""
    found: list[str] = await page.evaluate(
        """() => {
            const out = [];
            for (const el of document.querySelectorAll("#messages select, #messages button, aside select, aside button")) {
                const r = el.getBoundingClientRect();
                for (const box of [el.closest(".container") || el.closest(".msg"), el.closest("main, aside")]) {
                    const b = box.getBoundingClientRect();
                    if (r.width && (r.right > b.right + 0.5 || r.left < b.left - 0.5))
                        out.push(`${el.tagName} ${JSON.stringify(el.getAttribute("aria-label") || el.innerText)} spans ${r.left}-${r.right}px, its ${box.tagName.toLowerCase()}.${box.className} ${b.left}-${b.right}px`);
                }
            }
            return out;
        }"""
    )
    return found


async def phone_panel(page: Any, height: int) -> None:
    """On a phone the private panel takes at most a third of the screen, the channel more than
    half; its heading folds it away to one line and brings it back."""
    panel, channel = page.locator("aside"), page.locator("#messages")
    assert (await panel.bounding_box())["height"] <= height / 3 + 1
    assert (await channel.bounding_box())["height"] >= height / 2
    await page.locator("aside h2").click()
    await expect(page.locator("#side")).to_be_hidden()
    assert (await panel.bounding_box())["height"] <= 48
    await page.screenshot(path=str(SCREENSHOT.with_name("browser-dos-phone-folded.png")))
    await page.locator("aside h2").click()
    await expect(page.locator("#side")).to_be_visible()


async def play_a_dos_turn(hand: Any, stand_in: StandIn) -> None:
    """alice's decisions until her turn is over: the first match offered (and the first color a
    Wild DOS asks), else the first card to place, else End the turn, else Draw; each one once the
    page shows the bot's answer to the one before (:func:`answered`)."""
    for _ in range(20):
        text = await hand.inner_text()
        if "Your move" not in text:
            return
        selects = hand.locator(
            "select[aria-label='Make a match…'], select[aria-label^='Name'], select[aria-label^='Place']"
        )
        buttons = [
            hand.locator("button", has_text=re.compile(f"{w}$")) for w in ("Place .*", "End the turn", "Draw")
        ]
        if await selects.count():
            await answered(hand, stand_in, pick_first(selects.first))
        else:
            shown = [b for b in buttons if await b.count()]
            await answered(hand, stand_in, press(shown[0].first))
    raise AssertionError("alice's turn did not end")


async def answered(hand: Any, stand_in: StandIn, choice: Awaitable[None]) -> None:
    """Make ``choice`` (a click or pick in the hand) and wait until the page shows the bot's
    answer to it: the hand message at the revision that answered (or a later one). Until then the
    page may still show the hand as it was, whose components the answer replaced: a choice made
    there reaches the stand-in for a component no longer on the message, which it refuses as
    Discord does (400, a console error). Waiting for the text to change is not enough: an edit
    made for another reason (the hand kept up to date after the bot's moves) changes it too."""
    page = hand.page
    async with page.expect_response(re.compile(r"/ui/(click|select)$")) as sent:
        await choice
    body = await (await sent.value).json()
    assert "interaction" in body, body  # the stand-in took the click
    message = (await stand_in.state.interactions[int(body["interaction"])].answer()).message
    assert message is not None
    await page.wait_for_function(
        "([id, revision]) => +document.querySelector(`#side .msg[data-id='${id}']`)?.dataset.revision >= revision",
        arg=[str(message.id), message.revision],
    )


async def pick_first(select: Any) -> None:
    """Choose a select's first option."""
    await select.select_option(index=1)


async def press(button: Any) -> None:
    """Press a button of the hand."""
    await button.click()


async def bottom(page: Any) -> None:
    """Scroll the channel to its newest message (for a screenshot)."""
    await page.locator("#messages").evaluate("(box) => { box.scrollTop = box.scrollHeight; }")


@pytest.mark.parametrize(
    ("width", "height", "name"), [(1280, 900, "desktop"), (390, 844, "phone")], ids=["desktop", "phone"]
)
async def test_a_game_in_its_thread_and_its_rematch(
    browser_env: LocalDiscord, width: int, height: int, name: str
) -> None:
    """The channel set to a thread per game: alice's /uno new leaves a pointer in #uno with a link
    to its thread; the page follows it, the game is played there to its end (rigged: alice holds
    one card), the standings offer Rematch, which opens the next lobby in the same thread; back
    in #uno the pointer tells the result. Screenshots ``artifacts/thread-<step>-<name>.png``."""
    env = browser_env
    stand_in, parent = env.stand_in, env.channel("uno")
    stand_in.grant(env.user("alice"), "manage_channels")
    shot = SCREENSHOT.with_name(f"thread-rematch-{name}.png")
    async with chromium(width, height, shot) as (page, problems):
        await page.goto(stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        line = page.locator("#line")
        # Each command once answered: /uno new reads the channel's settings as saved by then
        # (typed at once, it could reach the bot before the settings were saved).
        for typed, answer in (
            ("/uno settings threads:True", page.locator("#side .msg", has_text="A thread per game: on")),
            ("/uno new scoring:single-round", page.locator("#messages .msg .thread")),
        ):
            await line.fill(typed)
            await line.press("Enter")
            await expect(line).to_have_value("")
            await expect(answer).to_have_count(1)
        link = page.locator("#messages .msg .thread")
        await expect(link).to_contain_text("UNO · alice's game")
        await bottom(page)
        await page.screenshot(path=str(SCREENSHOT.with_name(f"thread-pointer-{name}.png")), full_page=True)
        await link.click()
        await expect(page.locator("#chan option:checked")).to_contain_text("🧵 UNO · alice's game")
        lobby = page.locator("#messages .msg", has_text="UNO lobby")
        await lobby.get_by_role("button", name="Add bot").click()
        await expect(lobby).to_contain_text("Seats (2/10)")
        await lobby.get_by_role("button", name="Start").click()
        [thread] = stand_in.threads(parent)
        await stand_in.wait_until(lambda: (t := bot_of(env).service.tables.get(thread.id)) and t.game)
        rig(env, thread, variant="classic", dealer="Bot 1",
            hands={"alice": ["red 2"], "Bot 1": ["blue 5", "yellow 6"]},
            discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"])  # fmt: skip
        bot_of(env).service.publisher.publish(table_of(env, thread))
        table = table_on(page)
        await expect(table).to_contain_text("Waiting for alice")
        await table.get_by_role("button", name="My hand").click()
        hand = page.locator("#side .msg", has_text="Your hand").first
        await hand.get_by_role("button", name="red 2").click()
        standings = page.locator("#messages .msg", has_text="won!")
        await expect(standings).to_contain_text("alice won!")
        # Settled: the table message shows the end (without its buttons).
        await expect(page.locator("#messages .msg", has_text="The game is over")).to_have_count(1)
        await bottom(page)
        await page.screenshot(path=str(SCREENSHOT.with_name(f"thread-standings-{name}.png")), full_page=True)
        await standings.get_by_role("button", name="Rematch").click()
        # The first lobby message says the game started; the rematch's is new, below the standings.
        rematch = page.locator("#messages .msg", has_text="UNO lobby")
        await expect(rematch).to_have_count(1)
        await expect(rematch).to_contain_text("Bot 1")
        await expect(rematch.get_by_role("button", name="Join")).to_be_visible()
        await bottom(page)
        await page.screenshot(
            path=str(SCREENSHOT.with_name(f"thread-rematch-lobby-{name}.png")), full_page=True
        )
        problems += await overflowing(page, width)
        await page.locator("#parent a").click()
        await expect(page.locator("#messages .msg").first).to_contain_text("🏆 alice won")
        problems += await overflowing(page, width)
    assert not problems, problems


FLIP_HANDS = {
    "alice": ["red 1 / orange 6", "blue 2 / purple skip everyone", "green 3 / wild draw color", "yellow 4 / wild",
              "red 5 / teal 5", "blue 6 / pink draw five", "green 7 / orange reverse", "yellow 8 / teal 9",
              "red skip / purple 1", "blue draw one / pink 4", "green reverse / orange 2", "wild / teal 7"],
    "bob": ["yellow 7 / pink 2", "green 8 / teal skip everyone", "red flip / orange flip", "blue 9 / purple 3",
            "red 3 / pink 8", "green 1 / teal 6", "yellow skip / orange 8", "blue 4 / wild", "red 6 / purple 7",
            "yellow 2 / teal 1"],
    "Bot 1": ["red 2 / pink 9", "blue 3 / orange 3", "green 4 / purple 5", "yellow 5 / teal 2", "red 7 / pink 6",
              "blue 8 / orange 9", "green 9 / purple draw five", "yellow 1 / teal 8", "wild draw two / pink 1"],
    "Bot 2": ["red 4 / orange 4", "blue 5 / pink 7", "green 6 / teal 3", "yellow 6 / purple 8", "red 8 / orange 1",
              "blue 1 / pink 5", "green 2 / teal 4", "yellow 3 / purple 2", "blue 7 / wild draw color"],
}  # fmt: skip
"""Four long Flip hands: every hand's other side takes about 1,600 characters with its emojis,
more than an embed field's 1,024."""


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)], ids=["desktop", "phone"])
async def test_a_lobby_and_a_flip_table_on_its_dark_side_with_card_emojis(
    cards_env: LocalDiscord, width: int, height: int
) -> None:
    """A Flip lobby with two bots, then its table of four long hands turned to the dark side,
    with the card emojis (screenshots ``artifacts/lobby-<width>.png``, ``flip-dark-<width>.png``):
    the top card's picture beside the heading, every hand's light faces as pictures in one list
    (no "… (continued)"); nothing sticks out. alice's wild asks its color with four grey buttons
    (``flip-dark-colors-<width>.png``)."""
    env, ch = cards_env, cards_env.channel("uno")
    await env.stand_in.wait_until(bot_of(env).card_emojis.done.is_set)
    async with chromium(width, height, SCREENSHOT.with_name(f"lobby-{width}.png")) as (page, problems):
        await page.goto(env.stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        line = page.locator("#line")
        await line.fill("/uno new variant:flip")
        await line.press("Enter")
        lobby = page.locator("#messages .msg", has_text="UNO Flip lobby")
        for seated in ("Seats (2/10)", "Seats (3/10)"):
            await lobby.get_by_role("button", name="Add bot").click()
            await expect(lobby).to_contain_text(seated)
        problems += await overflowing(page, width)
    assert not problems, problems
    await click(env, env.user("bob"), lobby_message(env, ch), "Join")
    await click(env, env.user("alice"), lobby_message(env, ch), "Start")
    await env.stand_in.wait_until(lambda: published_table(env, ch))
    bots = [s.id for s in table_of(env, ch).seats if s.is_ai]
    hands = {"alice": FLIP_HANDS["alice"], "bob": FLIP_HANDS["bob"], bots[0]: FLIP_HANDS["Bot 1"],
             bots[1]: FLIP_HANDS["Bot 2"]}  # fmt: skip
    game = rig(env, ch, variant="flip", dealer="bob", hands=hands,
               discard=["red 9 / teal draw five"], draw=["blue 1 / pink 3", "green 2 / purple 4"])  # fmt: skip
    game.side, game.color = Side.DARK, Color.TEAL  # flipped by the red flip: the top card's dark face
    table_of(env, ch).log.append("bob played 🟥 red flip")
    bot_of(env).service.publisher.publish(table_of(env, ch))
    async with chromium(width, height, SCREENSHOT.with_name(f"flip-dark-{width}.png")) as (page, problems):
        await page.goto(env.stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        table = table_on(page)
        await expect(table).to_contain_text("The light side of every hand")
        await expect(table).not_to_contain_text("(continued)")
        await expect(table.locator("img.thumb")).to_have_count(1)
        faces = sum(map(len, FLIP_HANDS.values())) + 4  # and the top card's, the draw pile's, two moves'
        await expect(table.locator("img.emoji")).to_have_count(faces)
        await table.get_by_role("button", name="My hand").click()
        hand = page.locator("#side .msg", has_text="Your hand").first
        await expect(hand).to_contain_text("12 cards")
        problems += await overflowing(page, width)
        # Her wild's color picker: the dark side's four colors, all grey alike (none recommended).
        await hand.locator("button", has_text=re.compile(r"^\s*wild\s*$")).click()
        await expect(hand.get_by_role("button", name="Back")).to_be_visible()
        for color in (Color.PINK, Color.TEAL, Color.ORANGE, Color.PURPLE):
            button = hand.get_by_role("button", name=f"{EMOJI[color]} {color.value}", exact=True)
            await expect(button).to_have_class("btn s2")
        await page.screenshot(path=str(SCREENSHOT.with_name(f"flip-dark-colors-{width}.png")))
        problems += await overflowing(page, width)
    assert not problems, problems


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)], ids=["desktop", "phone"])
async def test_the_standings_with_card_emojis(cards_env: LocalDiscord, width: int, height: int) -> None:
    """A game of alice, bob and two bots won by alice: the standings message (Components V2, one
    line a player, Rematch) on a desktop and a phone (screenshots
    ``artifacts/standings-<width>.png``): every line whole, nothing sticks out sideways."""
    env = cards_env
    await won_by_alice(env)
    async with chromium(width, height, SCREENSHOT.with_name(f"standings-{width}.png")) as (page, problems):
        await page.goto(env.stand_in.base_url)
        await page.locator("#who").select_option(label="alice")
        standings = page.locator("#messages .msg", has_text="alice won!")
        await expect(standings).to_contain_text("🥇 alice — 91 points")
        await expect(standings).to_contain_text("🥈 🤖 Bot 2 — 0 points")  # tied players share a place
        await expect(standings.get_by_role("button", name="Rematch")).to_be_visible()
        await standings.scroll_into_view_if_needed()
        problems += await overflowing(page, width)
    assert not problems, problems


async def won_by_alice(env: LocalDiscord) -> None:
    """alice, bob and two bots play to 50 points with the card emojis; alice goes out with 91."""
    ch, alice, bob = env.channel("uno"), env.user("alice"), env.user("bob")
    await env.stand_in.wait_until(bot_of(env).card_emojis.done.is_set)
    await open_table(env, ch, alice, [bob], bots=2, target_score=50)
    rig(env, ch, variant="classic", dealer="Bot 2",
        hands={"alice": ["red 2"], "bob": ["wild draw four", "blue 7"], "Bot 1": ["green 5"],
               "Bot 2": ["yellow 9", "blue skip"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"])  # fmt: skip
    mine = await hand(env, alice, ch)
    await click(env, alice, mine, next(label for label in labels(mine) if label.endswith("red 2")))
    await env.stand_in.wait_for_message(ch, lambda m: "won!" in m.text)


async def test_the_stats_chart_shows_on_the_page(cards_env: LocalDiscord) -> None:
    """After a finished game, bob asks for alice's /uno stats: its chart (an uploaded PNG shown
    in the answer's media gallery) loads on the local page from the stand-in's attachment URL
    (screenshot ``artifacts/stats-1280.png``)."""
    env = cards_env
    await won_by_alice(env)
    await command(env, env.user("bob"), env.channel("uno"), "uno stats", member=env.user("alice"))
    async with chromium(1280, 900, SCREENSHOT.with_name("stats-1280.png")) as (page, problems):
        await page.goto(env.stand_in.base_url)
        await page.locator("#who").select_option(label="bob")
        stats = page.locator("#messages .msg", has_text="alice's UNO record")
        chart = stats.locator(".gallery img")
        await expect(chart).to_be_visible()
        await chart.scroll_into_view_if_needed()
        # Shown is not loaded: the picture's size may be known before its last bytes came.
        await expect(chart).to_have_js_property("complete", True)
        assert await chart.evaluate("(img) => img.naturalWidth") > 300
        # Discord's timestamps read as the reader's clock, never as raw <t:…:R> markup.
        await expect(stats.locator(".timestamp").first).to_be_visible()
        assert "<t:" not in await stats.inner_text()
    assert not problems, problems


async def test_the_page_shows_what_changed_while_its_socket_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page reads the state, then opens its socket: a message posted in between, announced
    before the socket listened, still shows (the socket is told at once that something changed)."""
    opened = UI.socket

    async def late(ui: UI, request: web.Request) -> web.WebSocketResponse:
        if not ui.sockets:  # the page's first socket: the page has read the state already
            await ui.stand_in.say(ui.stand_in.user("bob"), ui.stand_in.channel("uno"), "said meanwhile")
        return await opened(ui, request)

    monkeypatch.setattr(UI, "socket", late)
    async with LocalDiscord(DemoBot, users=("alice", "bob"), clock=StillClock()) as env:
        async with chromium() as (page, problems):
            await page.goto(env.stand_in.base_url)
            await expect(page.locator("#messages .msg", has_text="said meanwhile")).to_be_visible()
        assert not problems, problems
