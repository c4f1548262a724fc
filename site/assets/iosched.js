/* The matrix's kernel/distribution selector and the advisor. No library, nothing fetched from elsewhere:
   the advisor reads the JSON the site build wrote beside its page and builds the answer from text nodes. */
(() => {
  "use strict";

  /* An element with attributes and children; strings become text nodes, never HTML. */
  const el = (tag, attributes = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    node.append(...children);
    return node;
  };

  const initMatrix = (root) => {
    const select = root.querySelector("[data-ios-setting]");
    const note = root.querySelector("[data-ios-note]");
    const legend = root.querySelectorAll("[data-ios-legend] [data-key]");
    const show = () => {
      const option = select.selectedOptions[0];
      for (const table of root.querySelectorAll("[data-ios-table]")) table.hidden = table.id !== option.dataset.table;
      const cells = root.querySelectorAll(`#${CSS.escape(option.dataset.table)} tbody td`);
      const keys = new Set([...cells].map((td) => td.firstElementChild.textContent));
      for (const item of legend) item.hidden = !keys.has(item.dataset.key);
      note.textContent = option.dataset.note || "";
    };
    select.addEventListener("change", show);
    show();
  };

  /* ------------------------------------------------------------------ advisor */

  /* Renders one plan of the advisor's JSON: a list in the order of data.fields; its steps and notices are
     indexes into data.steps and data.notices, and every string an index into data.strings. */
  const planView = (data, row) => {
    const S = (i) => data.strings[i];
    const plan = Object.fromEntries(data.fields.map((name, i) => [name, row[i]]));
    const warnings = plan.warnings.map((i) => data.notices[i]);
    const link = (id, text = id, child = text) => {
      const target = data.links[id];
      if (target) return el("a", { href: target[0], title: target[1] }, [child]);
      return typeof child === "string" ? el("code", {}, [child]) : child;
    };
    const links = (ids, labelled = false) =>
      ids.flatMap((id, i) => [...(i ? [", "] : []), link(id, labelled && data.links[id] ? data.links[id][1] : id)]);
    let blocks = 0;
    const command = (label, text, marker) => {
      const id = `ios-cmd-${++blocks}`;
      /* The markup of the theme's own code blocks, so its copy button works here too. */
      const copy = el("button", { class: "md-code__button", title: "Copy to clipboard",
                                  "data-clipboard-target": `#${id} > code`, "data-md-type": "copy" });
      const code = el("code", marker ? { [marker]: "" } : {}, [text]);
      const block = el("pre", { id }, [el("nav", { class: "md-code__nav" }, [copy]), code]);
      return [el("p", { class: "ios-label" }, [label].flat()), el("div", { class: "highlight" }, [block])];
    };

    const chosen = plan.scheduler === null ? "—" : S(plan.scheduler);
    const name = el("code", { "data-ios-scheduler": "" }, [chosen]);
    const summary = [el("strong", {}, ["Scheduler: "]), link(chosen, chosen, name)];
    summary.push(" on ", el("code", {}, [S(plan.device)]));
    if (plan.rules.length) summary.push(", chosen by ", ...links(plan.rules.map(S), true));
    if (plan.scheduler === null) {
      summary.push(S(plan.path) === "bio" ? ": no elevator, a bio-based device has no scheduler on this kernel"
                                          : ": no change, no rule picks an elevator");
    }
    summary.push(`. Kernel ${S(plan.kernel)}, ${S(plan.path)} path.`);
    const out = [el("p", { class: "ios-summary" }, summary)];
    if (plan.unchanged.length) {
      out.push(el("p", {}, ["Already as recommended, nothing to do: "]),
               el("ul", {}, plan.unchanged.map(([target, value, because]) => el("li", {}, [
                 el("code", {}, [S(target)]), " is already ", el("code", {}, [S(value)]), " (",
                 ...links(because.map(S)), ")"]))));
    }

    if (warnings.length) out.push(el("h2", {}, ["Warnings"]));
    for (const [risk, label, admonition] of data.risks) {
      const found = warnings.filter((w) => S(w[1]) === risk);
      if (!found.length) continue;
      const items = found.map(([id, , text, sources]) => {
        const cited = sources.length ? [" (", el("span", { class: "ios-sources" }, links(sources.map(S))), ")"] : [];
        return el("li", {}, [link(S(id)), `: ${S(text)}`, ...cited]);
      });
      out.push(el("div", { class: `admonition ${admonition}`, "data-ios-risk": risk },
                  [el("p", { class: "admonition-title" }, [label]), el("ul", {}, items)]));
    }

    if (plan.steps.length) out.push(el("h2", {}, ["Steps"]));
    /* A step expected already (its value now assumed, not read, and equal to the plan's) is checked first: its
       verify comes before the apply, which is to run only if the check shows something else. */
    plan.steps.map((i) => data.steps[i]).forEach(([title, apply, verify, expect, undo, because, sources, check], n) => {
      out.push(el("h3", {}, [`${n + 1}. ${S(title)}`, ...(check ? [" (check first)"] : [])]));
      if (because.length) out.push(el("p", {}, ["Because of ", ...links(because.map(S), true), "."]));
      const expected = el("code", {}, [S(expect)]);
      if (check) {
        out.push(el("p", { "data-ios-check-first": "" }, [
          "Expected already: the current value was assumed, not read from the machine. Check first; if it shows ",
          expected.cloneNode(true), ", nothing needs to change.",
        ]));
        out.push(...command(["Check first (expect ", expected, "):"], S(verify)),
                 ...command("Only if it shows something else, apply (it keeps what it finds for the undo):", S(apply),
                            "data-ios-command"));
      } else {
        out.push(...command("Apply:", S(apply), "data-ios-command"),
                 ...command(["Verify (expect ", expected, "):"], S(verify)));
      }
      if (undo !== null) out.push(...command(check ? "Undo (back to what the apply found):" : "Undo:", S(undo)));
      if (sources.length) out.push(el("p", { class: "ios-sources" }, ["Sources: ", ...links(sources.map(S))]));
    });

    if (plan.advice.length) {
      out.push(el("h2", {}, ["Also consider"]),
               el("ul", {}, plan.advice.map((i) => data.notices[i])
                                      .map(([id, , text]) => el("li", {}, [link(S(id)), `: ${S(text)}`]))));
    }
    return out;
  };

  const render = (data, choice, result) => {
    const row = data.shown[choice.setting]?.[data.hardware.indexOf(choice.hw)];
    const pick = row?.[data.workloads.indexOf(choice.workload)];
    if (pick === undefined) {
      result.replaceChildren(el("p", {}, ["No plan for this choice."]));
    } else if (pick < 0) {
      result.replaceChildren(el("div", { class: "admonition failure" }, [
        el("p", { class: "admonition-title" }, ["Not advised"]),
        el("p", { "data-ios-error": "" }, [data.strings[-1 - pick]]),
      ]));
    } else {
      result.replaceChildren(...planView(data, data.plans[pick]));
    }
  };

  const initAdvisor = (root) => {
    const controls = {
      hw: root.querySelector("#ios-advisor-hw"),
      workload: root.querySelector("#ios-advisor-workload"),
      setting: root.querySelector("[data-ios-setting]"),
    };
    const note = root.querySelector("[data-ios-note]");
    const result = root.querySelector("[data-ios-result]");
    const wanted = new URLSearchParams(location.hash.slice(1));
    for (const [key, select] of Object.entries(controls)) {
      const value = wanted.get(key);
      if ([...select.options].some((o) => o.value === value)) select.value = value;
    }
    const choice = () => Object.fromEntries(Object.entries(controls).map(([key, select]) => [key, select.value]));
    fetch(root.dataset.src)
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.json();
      })
      .then((data) => {
        const update = (remember) => {
          const chosen = choice();
          note.textContent = controls.setting.selectedOptions[0].dataset.note || "";
          render(data, chosen, result);
          if (remember) history.replaceState(null, "", `#${new URLSearchParams(chosen)}`);
        };
        for (const select of Object.values(controls)) select.addEventListener("change", () => update(true));
        update(false);
      })
      .catch((error) => {
        result.replaceChildren(el("p", { class: "ios-error" }, [
          `The plans could not be loaded (${error.message}). Serve the site over HTTP, e.g. with make serve.`,
        ]));
      });
  };

  /* Opened from disk (file://), a browser lets no page fetch: search, the advisor and folder links need a web
     server. Every page says so, and how to serve it, instead of failing quietly. */
  const warnFromDisk = () => {
    const content = document.querySelector(".md-content__inner");
    if (location.protocol !== "file:" || !content || content.querySelector("[data-ios-from-disk]")) return;
    content.prepend(el("div", { class: "admonition warning", "data-ios-from-disk": "" }, [
      el("p", { class: "admonition-title" }, ["Opened from disk"]),
      el("p", {}, [
        "Search, the advisor and links to sections need a web server; a browser allows none of them from file://. ",
        "In the repository run ", el("code", {}, ["make serve"]), " and open ", el("code", {}, ["http://127.0.0.1:8000/"]),
        ", or serve the built copy: ", el("code", {}, ["python3 -m http.server -b 127.0.0.1 -d build/site 8000"]), ".",
      ]),
    ]));
  };

  /* A link from a plan names the KB the plan was made from (?kb=); a page built from another KB says so at
     its top, and the footer marks the KB as the plan's when they agree. */
  const checkKb = () => {
    const wanted = new URLSearchParams(location.search).get("kb");
    const built = document.querySelector('meta[name="iosched-kb"]')?.content;
    const content = document.querySelector(".md-content__inner");
    const footer = document.querySelector("[data-ios-build]");
    if (!wanted || !built || !content || content.querySelector("[data-ios-kb-check]")) return;
    if (wanted === built) {
      if (footer && !footer.querySelector("[data-ios-kb-check]")) {
        footer.append(el("span", { "data-ios-kb-check": "same" }, [" The plan that linked here was made from it too."]));
      }
      return;
    }
    content.prepend(el("div", { class: "admonition warning", "data-ios-kb-check": "other" }, [
      el("p", { class: "admonition-title" }, ["Another KB"]),
      el("p", {}, [
        "The plan that linked here was made from KB ", el("code", {}, [wanted]), "; this page reflects KB ",
        el("code", {}, [built]), ". What it says may differ from that plan: make the plan again with this KB, ",
        "or read the site built from the plan's.",
      ]),
    ]));
  };

  /* A link to where an entity used to be (an anchor on the page it left) lands on a link that keeps that
     anchor (data-ios-moved): follow it to the entity's own page. */
  const followMoved = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id ? document.getElementById(id) : null;
    if (!(target && target.hasAttribute("data-ios-moved") && target.href)) return;
    const moved = new URL(target.href, location.href);
    if (!moved.search) moved.search = location.search;  // a plan's ?kb= goes on to the page it meant
    location.replace(moved.href);
  };

  /* A link to the advisor preset to a release carries its choice (data-ios-preset) as its fragment: a Markdown
     link's fragment must name a heading, so the page cannot say it there. */
  const presetLinks = () => {
    for (const link of document.querySelectorAll("a[data-ios-preset]")) link.hash = link.dataset.iosPreset;
  };

  /* Each widget is set up once, whichever of the page load and the theme's document$ comes first (from
     file:// the theme's instant navigation cannot start, and document$ may never emit). */
  const init = () => {
    followMoved();
    presetLinks();
    warnFromDisk();
    checkKb();
    for (const [selector, setUp] of [["[data-ios-matrix]", initMatrix], ["[data-ios-advisor]", initAdvisor]]) {
      for (const root of document.querySelectorAll(`${selector}:not([data-ios-ready])`)) {
        root.setAttribute("data-ios-ready", "");
        setUp(root);
      }
    }
  };

  if (typeof document$ !== "undefined") document$.subscribe(init);
  window.addEventListener("hashchange", followMoved);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
