"""The matrix and the advisor in headless Chromium at 1280x800: what they show is what advise() computes."""

from __future__ import annotations

from typing import Any

from browser import MARKS

from iosched.knowledge.context import Context, ContextError
from iosched.planning.engine import advise
from iosched.render.links import location, page_url
from iosched.sitegen import advisor, matrix
from iosched.steps import kind_of as step_kind

pytestmark = MARKS
VIEWPORT = {"width": 1280, "height": 800}

# The visible matrix table: its column heads, and per cell (heads included) the hardware and workload it is
# for, the name shown and its link, its bounding box, how many lines the name takes and how tall the cell's
# content is against one line.
_READ_MATRIX = """() => {
  const tables = [...document.querySelectorAll("table[data-ios-table]")].filter(t => !t.hidden);
  if (tables.length !== 1) return {tables: tables.length};
  const table = tables[0];
  const hws = [...table.querySelectorAll("thead th[data-hw]")].map(th => th.dataset.hw);
  const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right}; };
  const oneLine = e => {
    const style = getComputedStyle(e);
    const height = e.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    return height < 1.5 * parseFloat(style.lineHeight);
  };
  const heads = [...table.querySelectorAll("thead th, tbody th")].map(th => ({box: box(th), oneLine: oneLine(th),
    lines: th.querySelector("a") ? th.querySelector("a").getClientRects().length : 1}));
  const cells = [];
  for (const tr of table.querySelectorAll("tbody tr")) {
    const workload = tr.querySelector("th[data-workload]").dataset.workload;
    [...tr.querySelectorAll("td")].forEach((td, i) => {
      const name = td.firstElementChild;
      cells.push({hw: hws[i], workload, text: name.textContent, href: name.getAttribute("href"),
                  box: box(td), lines: name.getClientRects().length, oneLine: oneLine(td),
                  background: getComputedStyle(td).backgroundColor});
    });
  }
  const width = document.documentElement.clientWidth;
  return {tables: 1, hws, heads, cells, width, scrolls: document.documentElement.scrollWidth > width};
}"""


def _expected(kb: Any, ctx: Context) -> tuple[str, str | None]:
    """The name a cell should show and the rule page its link should open."""
    try:
        plan = advise(kb, ctx)
    except ContextError:
        return matrix.NOT_ADVISED, None
    decided = [st.decide for st in plan.steps if st.kind == "scheduler" and st.decide is not None]
    if plan.scheduler is None and decided:
        return f"by {decided[0].fact}", None
    if plan.scheduler is None:
        return matrix.NO_ELEVATOR, None
    rule = kb.get(plan.scheduler_rules[0]) if plan.scheduler_rules else None
    return plan.scheduler, page_url(location(rule)[0]) if rule is not None else None


def _by_hand(kb: Any, plan: Any, step: Any) -> tuple[str, str | None, bool]:
    """A step's apply and undo as a person runs them (the Markdown plan's), and whether the undo restores what the
    apply found."""
    distro = kb.get(str(plan.context["distro"])) if plan.context.get("distro") else None
    return step_kind(step).by_hand_pair(step, distro)


def _first_command(kb: Any, plan: Any) -> str | None:
    """The first step's apply as a person runs it by hand."""
    return _by_hand(kb, plan, plan.steps[0])[0] if plan.steps else None


def _context(option: dict[str, str | None], hw: str, workload: str) -> Context:
    return Context(hw=hw, workload=workload, kernel=option["kernel"], distro=option["distro"])


def _options(page: Any, select: str) -> list[dict[str, str | None]]:
    return page.eval_on_selector_all(
        f"{select} option", "os => os.map(o => ({value: o.value, kernel: o.dataset.kernel || null, "
        "distro: o.dataset.distro || null, selected: o.selected}))"
    )  # fmt: skip


def _columns_fit(kb: Any, option: dict[str, str | None], read: dict[str, Any]) -> None:
    """Every matrix column is on screen and no cell wraps."""
    hardware = [h.id for h in kb.section("hardware")]
    assert read["tables"] == 1 and read["hws"] == hardware, option
    assert read["width"] <= VIEWPORT["width"] and not read["scrolls"], option
    assert len(read["cells"]) == len(hardware) * len(kb.section("workloads"))
    for cell in (*read["heads"], *read["cells"]):
        assert cell["box"]["left"] >= 0 and cell["box"]["right"] <= read["width"], (option, cell)
        assert cell["lines"] == 1 and cell["oneLine"], (option, cell)


def _legend_and_colours_follow_the_elevator(page: Any, option: dict[str, str | None], read: dict[str, Any]) -> None:
    cells = read["cells"]
    colours: dict[str, set[str]] = {}
    for cell in cells:
        if cell["text"] not in (matrix.NO_ELEVATOR, matrix.NOT_ADVISED):
            colours.setdefault(cell["text"], set()).add(cell["background"])
    assert all(len(c) == 1 for c in colours.values()), colours
    assert len({next(iter(c)) for c in colours.values()}) == len(colours), "two elevators share a colour"
    legend = page.eval_on_selector_all("[data-ios-legend] li:not([hidden])", _READ_LEGEND)
    assert {entry["key"] for entry in legend} == {cell["text"] for cell in cells}, (option, legend)
    shown = {entry["key"]: entry for entry in legend}
    for name in colours:  # on screen (as Playwright's is_visible judges it) and naming its elevator
        assert shown[name]["visible"] and name in shown[name]["text"], (option, shown[name])


_READ_LEGEND = """ls => ls.map(l => ({key: l.dataset.key, text: l.innerText,
  visible: l.getClientRects().length > 0 && getComputedStyle(l).visibility !== "hidden"}))"""


def _cells_show_what_the_engine_computes(kb: Any, option: dict[str, str | None], read: dict[str, Any]) -> None:
    assert read["tables"] == 1, option
    for cell in read["cells"]:
        name, rule_page = _expected(kb, _context(option, cell["hw"], cell["workload"]))
        assert cell["text"] == name, (option, cell)
        if rule_page is not None:
            assert cell["href"].endswith(rule_page.removeprefix("reference/")), (option, cell)


_READ_DECIDED = """() => [...document.querySelectorAll("table[data-ios-table]:not([hidden]) td.ios-decided")]
.map(td => ({
  text: td.firstElementChild.textContent,
  title: td.firstElementChild.title,
  rule: td.firstElementChild.getAttribute("href"),
  hw: td.closest("table").querySelectorAll("thead th[data-hw]")[td.cellIndex - 1].dataset.hw,
  workload: td.closest("tr").querySelector("th[data-workload]").dataset.workload,
}))"""


def _decided_cells_say_each_case(
    kb: Any, page: Any, option: dict[str, str | None], read: dict[str, Any], varying: set[str]
) -> set[str]:
    """A virtual disk's cells name the fact that decides, give each case's elevator and rule, and link to the rule
    stated once above the tables, never the "no change" dash; what they said."""
    said: set[str] = set()
    assert not [c for c in read["cells"] if c["hw"] in varying and c["text"] == matrix.NO_ELEVATOR], option
    for cell in page.evaluate(_READ_DECIDED):
        plan = advise(kb, _context(option, cell["hw"], cell["workload"]))
        (decide,) = [st.decide for st in plan.steps if st.kind == "scheduler" and st.decide is not None]
        for choice in decide.choices:
            assert f"{choice.seen}: {choice.value}" in cell["title"], (option, cell)
            assert all(rule in cell["title"] for rule in choice.because), (option, cell)
            said |= {choice.value, *choice.because}
        assert cell["rule"].endswith(f"#{matrix.QUEUE_RULE}"), cell
    return said


def test_the_matrix_for_each_era_and_distribution(kb, served: str, browser_page) -> None:
    """For every choice of the selector (one page, each choice read once): every column is on screen and no cell
    wraps; the legend and colours follow the elevator; each cell shows what the engine computes; a virtual
    disk's elevator depends on its queue count, set where it runs, and its cells say so (the rule is stated
    once above the tables)."""
    page, _ = browser_page
    page.set_viewport_size(VIEWPORT)
    page.goto(served + page_url(matrix.PAGE))
    varying = {h for d in kb.section("device_classes") if d.queues_vary for h in d.hardware}
    assert varying, "the KB has no device class whose queue count varies"
    options = _options(page, "#ios-matrix-setting")
    assert any(o["kernel"] for o in options) and any(o["distro"] for o in options)
    shown, said = set(), set()
    for option in options:
        page.select_option("#ios-matrix-setting", option["value"])
        read = page.evaluate(_READ_MATRIX)
        _columns_fit(kb, option, read)
        _legend_and_colours_follow_the_elevator(page, option, read)
        _cells_show_what_the_engine_computes(kb, option, read)
        said |= _decided_cells_say_each_case(kb, page, option, read, varying)
        shown.add(tuple(c["text"] for c in read["cells"]))
    assert len(shown) > 1, "every kernel era and distribution shows the same answers"
    assert said, "no matrix cell is decided on the machine"
    stated = page.locator(f"[id='{matrix.QUEUE_RULE}']").locator("xpath=ancestor::p[1]/following-sibling::ul[1]")
    page.locator(f"[id='{matrix.QUEUE_RULE}']").scroll_into_view_if_needed()
    assert all(word in stated.inner_text() for word in said), said
    intro = page.locator(f"[id='{matrix.QUEUE_RULE}']").locator("xpath=ancestor::p[1]").inner_text()
    assert all(d.title in intro for d in kb.section("device_classes") if d.queues_vary)


def _open_advisor(page: Any, served: str) -> None:
    """The advisor page, once its script has read the plans: it shows a plan or the engine's refusal."""
    page.goto(served + page_url(advisor.PAGE))
    page.wait_for_selector("[data-ios-scheduler], [data-ios-error]")


def _advisor_shows(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => ({
      scheduler: document.querySelector("[data-ios-scheduler]")?.textContent ?? null,
      command: document.querySelector("[data-ios-command]")?.textContent ?? null,
      error: document.querySelector("[data-ios-error]")?.textContent ?? null,
      risks: [...document.querySelectorAll("[data-ios-risk]")].map(d => d.dataset.iosRisk),
    })""")


def test_the_advisor_shows_the_plan_advise_gives(kb, served: str, browser_page) -> None:
    page, requests = browser_page
    page.set_viewport_size(VIEWPORT)
    _open_advisor(page, served)
    settings = _options(page, "#ios-advisor-setting")
    hardware, workloads = kb.section("hardware"), kb.section("workloads")
    picks = [(settings[i % len(settings)], hardware[i % len(hardware)].id, workloads[i % len(workloads)].id)
             for i in range(max(len(settings), len(hardware), len(workloads)))]  # fmt: skip
    for setting, hw, workload in picks:
        page.select_option("#ios-advisor-hw", hw)
        page.select_option("#ios-advisor-workload", workload)
        page.select_option("#ios-advisor-setting", setting["value"])
        shown = _advisor_shows(page)
        try:
            plan = advise(kb, _context(setting, hw, workload))
        except ContextError as exc:
            assert shown["error"] == str(exc)
            continue
        assert shown["scheduler"] == (plan.scheduler or matrix.NO_ELEVATOR), (setting, hw, workload)
        assert shown["command"] == _first_command(kb, plan), (setting, hw, workload)
        assert set(shown["risks"]) == {w.risk or "" for w in plan.warnings}
    assert sum(u.endswith(advisor.DATA.removeprefix("reference/")) for u in requests) == 1


def test_the_advisor_copies_a_command_exactly(kb, served: str, browser_page) -> None:
    page, _ = browser_page
    _open_advisor(page, served)
    setting = next(o for o in _options(page, "#ios-advisor-setting") if o["selected"])
    hw, workload, plan = next(
        (hw.id, wl.id, plan)
        for hw in kb.section("hardware")
        for wl in kb.section("workloads")
        if (plan := advise(kb, _context(setting, hw.id, wl.id))).steps
    )
    page.select_option("#ios-advisor-hw", hw)
    page.select_option("#ios-advisor-workload", workload)
    block = page.locator("pre:has([data-ios-command])").first
    block.hover()
    block.locator("button[data-md-type='copy']").click()
    assert page.evaluate("navigator.clipboard.readText()") == _first_command(kb, plan)


def test_an_advisor_link_opens_that_plan(kb, served: str, browser_page) -> None:
    page, _ = browser_page
    _open_advisor(page, served)
    setting = next(o for o in _options(page, "#ios-advisor-setting") if o["distro"] and not o["selected"])
    hw, workload = kb.section("hardware")[-1].id, kb.section("workloads")[-1].id
    page.goto(f"{served}{page_url(advisor.PAGE)}#hw={hw}&workload={workload}&setting={setting['value']}")
    page.reload()  # only the fragment changed: load the page again so it reads it
    page.wait_for_selector("[data-ios-scheduler], [data-ios-error]")
    plan = advise(kb, _context(setting, hw, workload))
    chosen = [page.input_value(s) for s in ("#ios-advisor-hw", "#ios-advisor-workload", "#ios-advisor-setting")]
    assert chosen == [hw, workload, setting["value"]]
    assert _advisor_shows(page)["scheduler"] == (plan.scheduler or matrix.NO_ELEVATOR)


def test_both_pages_work_after_in_site_navigation(kb, served: str, browser_page) -> None:
    """The theme loads pages without a reload: the script must start again on each."""
    page, _ = browser_page
    page.set_viewport_size(VIEWPORT)
    page.goto(served)
    page.click(f"a[href$='{page_url(advisor.PAGE).removeprefix('reference/')}']")
    page.wait_for_selector("[data-ios-scheduler], [data-ios-error]")
    page.click(f".md-content a[href$='{page_url(matrix.PAGE).removeprefix('reference/')}']")
    page.wait_for_url(f"**/{page_url(matrix.PAGE)}")
    option = _options(page, "#ios-matrix-setting")[0]
    page.select_option("#ios-matrix-setting", option["value"])
    read = page.evaluate(_READ_MATRIX)
    hw, workload = read["cells"][0]["hw"], read["cells"][0]["workload"]
    assert read["cells"][0]["text"] == _expected(kb, _context(option, hw, workload))[0]


def test_an_expected_step_is_checked_first_and_its_undo_restores_what_was_found(kb, served: str, browser_page) -> None:
    """A value assumed, not read, and equal to the plan's: the page says to check first, shows the check before
    the apply, and the undo writes back what the apply found instead of repeating the apply."""
    page, _ = browser_page
    page.set_viewport_size(VIEWPORT)
    _open_advisor(page, served)
    setting = next(o for o in _options(page, "#ios-advisor-setting") if o["selected"])
    plans = [(hw.id, wl.id, advise(kb, _context(setting, hw.id, wl.id)))
             for hw in kb.section("hardware") for wl in kb.section("workloads")]  # fmt: skip
    hw, workload, plan, n = next(
        (hw, workload, plan, n)
        for hw, workload, plan in plans
        for n, step in enumerate(plan.steps)
        if step.expected_already
    )
    step = plan.steps[n]
    page.select_option("#ios-advisor-hw", hw)
    page.select_option("#ios-advisor-workload", workload)
    heading = page.locator(".ios-result h3").nth(n)
    assert heading.inner_text().endswith("(check first)")
    body = heading.locator("xpath=following-sibling::*").evaluate_all(
        "(es, stop) => { const out = []; for (const e of es) { if (e.tagName === 'H3' || e.tagName === 'H2') break;"
        " out.push({tag: e.tagName, text: e.innerText, check: e.hasAttribute('data-ios-check-first')}); }"
        " return out; }"
    )
    codes = [e["text"].strip() for e in body if e["tag"] == "DIV"]
    labels = [e["text"] for e in body if e["tag"] == "P"]
    apply, undo, found = _by_hand(kb, plan, step)
    kind = step_kind(step)
    assert any(e["check"] for e in body) and kind.expect(step) in next(e["text"] for e in body if e["check"])
    assert codes[:2] == [kind.verify(step), apply], body  # the check comes before the apply
    assert found and undo is not None and codes[2] == undo != apply
    assert any(label.startswith("Check first") for label in labels)
    assert not any(label.startswith("Apply:") for label in labels)


def test_each_advisor_select_stays_on_the_line_of_its_label(served: str, browser_page) -> None:
    page, _ = browser_page
    for width in (1280, 760, 420):
        page.set_viewport_size({"width": width, "height": 800})
        _open_advisor(page, served)
        pairs = page.eval_on_selector_all(
            ".ios-advisor .ios-control",
            "cs => cs.map(c => [c.querySelector('label'), c.querySelector('select')]"
            ".map(e => e.getBoundingClientRect()))"
            ".map(([l, s]) => ({top: [l.top, s.top], bottom: [l.bottom, s.bottom], right: s.right}))",
        )
        assert len(pairs) == 3, width
        for pair in pairs:  # the label's line box lies within the select's: one line
            assert pair["top"][0] >= pair["top"][1] - 1 and pair["bottom"][0] <= pair["bottom"][1] + 1, (width, pair)
            assert pair["right"] <= width, (width, pair)
