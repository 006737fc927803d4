"""The playground in a real browser (Debian's chromium, driven by Playwright): the bundled
specs and the editor show, a broken spec is marked at the right line and the mark goes
when it is fixed, a game is played to the end and stepped through, a diff runs, and the
page works at a phone's width.

Skipped without Playwright, the web extra or a chromium binary, unless
DDZRULES_EXPECT_BROWSER=1 (.ci/run sets it), which makes their absence a failure."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

EXPECTED = os.environ.get("DDZRULES_EXPECT_BROWSER") == "1"


def _missing() -> str | None:
    for module in ("starlette", "hypercorn", "playwright"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install -e '.[web-test]')"
    import browser as helpers

    if helpers.chromium_path() is None:
        return "no chromium binary (apt install chromium)"
    return None


_why = _missing()
if _why is not None:
    if EXPECTED:
        raise RuntimeError(f"DDZRULES_EXPECT_BROWSER=1 but {_why}")
    pytest.skip(_why, allow_module_level=True)

import browser as helpers

from ddzrules.spec import bundled_names


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with helpers.playground_server(seconds=120) as base:
        yield base


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with helpers.browser() as b:
        yield b


@pytest.fixture()
def page(chromium: Any, url: str) -> Iterator[Any]:
    p = chromium.new_page(viewport=helpers.DESKTOP)
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(url + "/")
    helpers.wait_validated(p)
    yield p
    p.close()
    assert errors == [], f"the page raised: {errors}"


def test_the_bundled_specs_and_the_editor_show(page: Any) -> None:
    options = page.locator("#spec-pick option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == bundled_names()
    assert "name: hubei-3p" in page.locator("#source").input_value()
    assert page.locator("#status").text_content().startswith("valid")
    assert page.locator("#gutter .ln").count() == page.locator("#source").input_value().count("\n") + 1


def test_a_broken_spec_is_marked_at_its_line_and_the_mark_goes_when_fixed(page: Any) -> None:
    page.select_option("#spec-pick", "jiaofen")
    page.click("#load-spec")
    page.wait_for_function("() => document.querySelector('#source').value.includes('name: jiaofen')")
    helpers.wait_validated(page)
    good = page.locator("#source").input_value()
    lines = good.split("\n")
    at = next(i for i, line in enumerate(lines) if "plugin: show-hand" in line)
    helpers.replace_text(page, good.replace("plugin: show-hand", "plugin: show-hnd"))
    page.wait_for_selector(f"#gutter .ln.error[data-line='{at + 1}']")
    assert page.locator("#gutter .ln.error").count() == 1
    problem = page.locator("#problems li.error").first
    col = lines[at].index("show-hand") + 1
    assert problem.locator(".where").text_content() == f"{at + 1}:{col}"
    assert "show-hand" in problem.text_content()  # did you mean
    assert page.locator(f"#backdrop mark[data-line='{at + 1}']").text_content() == "show-hnd"
    assert "error" in page.locator("#status").text_content()
    problem.click()  # the caret goes to the problem
    assert page.evaluate("document.querySelector('#source').selectionStart") == (
        sum(len(x) + 1 for x in lines[:at]) + col - 1)
    helpers.replace_text(page, good)
    page.wait_for_selector("#status.ok")
    assert page.locator("#gutter .ln.error").count() == 0 and page.locator("#backdrop mark").count() == 0


def test_a_game_is_played_to_the_end_and_stepped_through(page: Any) -> None:
    helpers.new_game(page, 4)
    assert page.locator("#seats .seat").count() == 3
    helpers.play_to_the_end(page)
    result = page.locator("#result-text").text_content()
    assert "win" in result
    page.click("#step-record")
    page.wait_for_selector("#replay-verdict")
    assert page.locator("#replay-verdict").text_content().startswith("verified:")
    steps = page.locator("#replay-log li").count()
    assert steps >= 2
    page.click("#step-last")
    assert page.locator("#step-label").text_content() == f"step {steps - 1} of {steps - 1}"
    page.click("#step-first")
    assert page.locator("#replay-log li.current").count() == 1


def test_an_illegal_play_is_refused_with_the_reason(page: Any) -> None:
    helpers.new_game(page, 9)
    for _ in range(20):  # through the bidding: bid the most, to lead the first trick
        if not page.locator("#actions button.decide").count():
            break
        helpers.take_turn(page, "last")
    if not page.locator("#play-selected").count() or page.locator("#trick").text_content() != "you lead this trick":
        pytest.skip("seat 0 does not lead this deal's first trick")
    cards = page.locator("#hand .card")
    faces = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
    pick = [i for i, c in enumerate(faces) if faces.count(c) == 1][:2]  # two different singles: no combo
    for i in pick:
        cards.nth(i).click()
    page.click("#play-selected")
    page.wait_for_function("() => document.querySelector('#play-message').textContent.startsWith('illegal')")
    assert page.locator("#hand .card").count() == len(faces)  # nothing was played


def test_a_diff_runs_and_shows_its_report(page: Any) -> None:
    page.select_option("#spec-pick", "jiaofen")
    page.click("#load-spec")
    page.wait_for_function("() => document.querySelector('#source').value.includes('name: jiaofen')")
    page.click("button[data-tab=diff]")
    assert page.locator("#diff-other").input_value() == "hubei-3p"  # the parent, by default
    page.click("#diff-form button[type=submit]")
    page.wait_for_selector("#diff-summary", timeout=120_000)
    assert "rule change" in page.locator("#diff-summary").text_content()
    frame = page.frame_locator("#diff-frame")
    assert "jiaofen" in frame.locator("body").text_content() or "hubei-3p" in frame.locator("body").text_content()
    assert page.locator("#diff-frame").get_attribute("sandbox") == ""  # no script runs in the report


def test_the_census_and_the_sheet(page: Any) -> None:
    page.click("button[data-tab=census]")
    page.click("#census-form button[type=submit]")
    page.wait_for_selector("#census-table")
    assert "total distinct" in page.locator("#census-table").text_content()
    page.click("button[data-tab=sheet]")
    page.select_option("#sheet-lang", "zh")
    page.click("#sheet-form button[type=submit]")
    page.wait_for_selector("#sheet-frame:not([hidden])", timeout=120_000)
    assert "hubei-3p" in page.frame_locator("#sheet-frame").locator("body").text_content()


def test_the_page_fits_a_phone(chromium: Any, url: str) -> None:
    p = chromium.new_page(viewport=helpers.PHONE)
    try:
        p.goto(url + "/")
        helpers.wait_validated(p)
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= helpers.PHONE["width"], f"the page scrolls sideways: {width} px"
        box = p.locator("#source").bounding_box()
        assert box is not None and box["width"] > 250
        p.click("button[data-tab=play]")
        assert p.locator("#new-game").is_visible()
    finally:
        p.close()


def test_an_errors_caret_stands_under_its_character(page: Any) -> None:
    """An error's excerpt was shown in the page's proportional font, its caret a count of
    spaces: misaligned, the more so after 汉字 or an emoji. The caret now stands under the
    character the message names, and no message names an internal editor.yaml."""
    helpers.replace_text(page, "name: x\nextends: hubei-3p\ntitle: {zh: 汉字汉字😀, en: x, bogus: 1}\n")
    helpers.wait_validated(page)
    page.click("button[data-tab=census]")
    page.click("#census-form button[type=submit]")
    page.wait_for_selector("#census-out pre.excerpt")
    text = page.locator(".error-text").first.text_content()
    assert "x.yaml:3:27" in text and "editor.yaml" not in text
    offset = page.evaluate("""() => {
        const pre = document.querySelector("pre.excerpt");
        const src = pre.firstChild, caret = pre.lastChild;
        const under = pre.querySelector(".under").textContent;
        const at = document.createRange();
        at.setStart(src, under.length); at.setEnd(src, under.length + 1);
        const hat = document.createRange();
        hat.setStart(caret, 0); hat.setEnd(caret, 1);
        return [at.toString(), hat.getBoundingClientRect().left - at.getBoundingClientRect().left];
    }""")
    assert offset[0] == "b" and abs(offset[1]) < 1, offset
