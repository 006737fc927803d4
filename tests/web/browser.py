"""A real browser on the playground: the server (Hypercorn in a thread, on a free loopback
port) and Debian's chromium driven by Playwright (never a downloaded browser).

Used by tests/web/test_browser.py and by ``python tests/web/browser.py DIR``, which writes
the screenshots docs/playground.md shows (desktop and phone widths)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: the flags a root, offline, headless chromium needs here (no sandbox as root; no calls home)
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]
DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    found = os.environ.get("DDZRULES_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    return found if found and os.path.exists(found) else None


@contextmanager
def playground_server(**limits: Any) -> Iterator[str]:
    """The playground on a free loopback port, for the duration: its base URL."""
    from ddzrules.web.app import create_app
    from ddzrules.web.lanes import Limits
    from ddzrules.web.server import in_thread

    with in_thread(create_app(Limits(**limits))) as url:
        yield url


@contextmanager
def browser() -> Iterator[Any]:
    """Playwright's chromium at Debian's binary (Playwright gives it a fresh, empty profile)."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        raise RuntimeError("no chromium binary (apt install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        try:
            yield b
        finally:
            b.close()


def replace_text(page: Any, text: str) -> None:
    """Type ``text`` into the editor as a person would (select all, type)."""
    editor = page.locator("#source")
    editor.click()
    editor.press("Control+a")
    editor.press("Delete")
    page.keyboard.insert_text(text)


def wait_validated(page: Any, timeout: float = 30_000) -> None:
    """Until the answer to the editor's last text is shown."""
    page.wait_for_function("() => document.body.dataset.validated && !document.querySelector('#status')"
                           ".textContent.startsWith('checking')", timeout=timeout)


def new_game(page: Any, seed: int, bots: str = "heuristic") -> None:
    """Start a game of the editor's spec from the Play tab, and wait for the hand."""
    page.click("button[data-tab=play]")
    page.select_option("#play-bots", bots)
    page.fill("#play-seed", str(seed))
    page.click("#new-game")
    page.wait_for_selector("#hand .card")


def take_turn(page: Any, which: str = "first") -> None:
    """Click the ``first`` (or ``last``) declaration button and wait for the log to grow."""
    before = page.locator("#log li").count()
    getattr(page.locator("#actions button.decide"), which).click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}"
                           " || !document.querySelector('#result').hidden", timeout=60_000)


def play_to_the_end(page: Any, limit: int = 400) -> None:
    """Click through a game: a declaration's first button, else 提示 hint then Play."""
    for _ in range(limit):
        if page.locator("#result").is_visible():
            return
        page.wait_for_selector("#actions button:not([disabled]), #result:not([hidden])", timeout=60_000)
        if page.locator("#result").is_visible():
            return
        decide = page.locator("#actions button.decide")
        if decide.count():
            before = page.locator("#log li").count()
            decide.first.click()
        else:
            page.click("#hint")
            page.wait_for_function("() => document.querySelector('#play-message').textContent.includes('hint')")
            before = page.locator("#log li").count()
            if page.locator("#hand [aria-pressed=true]").count():
                page.click("#play-selected")
            else:
                page.click("#pass")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}"
                               " || !document.querySelector('#result').hidden", timeout=60_000)
    raise AssertionError(f"the game did not end in {limit} actions")


def screenshots(out: str) -> list[str]:
    """The docs' screenshots: the editor with a problem marked, a game, a diff; at desktop
    and phone widths."""
    os.makedirs(out, exist_ok=True)
    written = []
    with playground_server() as url, browser() as b:
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page = b.new_page(viewport=size)
            page.goto(url + "/?spec=jiaofen")
            wait_validated(page)
            text = page.locator("#source").input_value()
            replace_text(page, text.replace("plugin: show-hand", "plugin: show-hnd"))
            wait_validated(page)
            page.wait_for_selector("#gutter .ln.error")
            path = os.path.join(out, f"playground-editor-{label}.png")
            page.screenshot(path=path, full_page=label == "phone")
            written.append(path)
            replace_text(page, text)
            wait_validated(page)
            new_game(page, 7)
            for _ in range(8):  # into the tricks: the highest bid, then each declaration's last
                page.wait_for_selector("#actions button:not([disabled]), #result:not([hidden])")
                if not page.locator("#actions button.decide").count():
                    break
                take_turn(page, "last")
            page.wait_for_selector("#hand .card")
            page.locator("#hand .card").nth(0).click()
            path = os.path.join(out, f"playground-game-{label}.png")
            page.screenshot(path=path, full_page=label == "phone")
            written.append(path)
            if label == "desktop":
                page.click("button[data-tab=diff]")
                page.select_option("#diff-other", "hubei-3p")
                page.click("#diff-form button[type=submit]")
                page.wait_for_selector("#diff-summary", timeout=60_000)
                page.frame_locator("#diff-frame").locator("h1, h2").first.wait_for()
                page.wait_for_timeout(500)
                path = os.path.join(out, "playground-diff-desktop.png")
                page.screenshot(path=path)
                written.append(path)
            page.close()
    return written


if __name__ == "__main__":
    for written_path in screenshots(sys.argv[1] if len(sys.argv) > 1 else "docs/img"):
        print(written_path)
