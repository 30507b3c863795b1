#!/usr/bin/env node
/*
 * report_test.js - opens `trx report` pages in headless Chromium (Debian's,
 * driven by playwright-core; nothing is downloaded) from file:// with the
 * network cut, and checks what a user would see:
 *   - the page loads without script errors and requests nothing but itself;
 *   - every thread lane that has events or run time has coloured pixels;
 *   - zoomed out (single core), each lane's run bar in each pixel column is
 *     as high as the part of the column's time it ran, from the events' next
 *     context (trx export --to csv);
 *   - clicking an event shows its name and decoded fields, as
 *     `trx events --format jsonl` has them (captions, values);
 *   - the mouse wheel zooms (the visible range shrinks, around the pointer),
 *     a drag pans, a drag on the ruler zooms to that range, sequential mode
 *     switches the axis to event numbers;
 *   - every statistic in the tables equals `trx stats --json`;
 *   - search finds events by name and moves next / previous;
 *   - as many cause -> effect flows as the Chrome export; an effect's details
 *     name its cause; arrows at the first view (every flow ending in view when
 *     they are few, else one per column of pixels), all of them once zoomed
 *     in to a few.
 * Saves a screenshot per trace; with BIG.trx also reports the first paint of
 * that (large) trace's report and its zoomed-out frame's draw time (printed, not asserted).
 *
 * The first trace again with --ticks-per-us 100: ruler and details in µs.
 * With --gaps FILE LOST (a trace with lost-event gaps) it checks that the
 * header counts them, a band marks each and the event after a gap says so.
 *
 * The first trace again with --from / --to (a part): its events, numbers and
 * names as `trx events` has them, the header saying it is a part; and
 * --max-events 7.
 *
 * Late-instance marks given to the first trace's page are drawn at their
 * events (by time and by number), at most one per few pixels.
 *
 * With --registry-full FILE (a trace whose object registry filled) the header
 * must say so, with what it cost.
 *
 * usage: node report_test.js TRX CHROMIUM WORK_DIR TRACE... [--gaps FILE LOST] [--big BIG.trx]
 *        [--registry-full FILE]
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

let chromium;
try {
  ({ chromium } = require("playwright-core"));
} catch (e) {
  console.error("FAIL: playwright-core is not installed: (cd tests/browser && " +
                "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install)");
  process.exit(1);
}

const [trx, chromiumPath, work, ...rest] = process.argv.slice(2);
function option(name, count) { /* removes `name` and its values from rest */
  const at = rest.indexOf(name);
  return at < 0 ? null : rest.splice(at, count + 1).slice(1);
}
const bigOpt = option("--big", 1), gapOpt = option("--gaps", 2), fullOpt = option("--registry-full", 1);
const sysbiosOpt = option("--sysbios", 3);
const benchOpt = option("--sysbios-durations", 3);
const loadOpt = option("--sysbios-load", 3);
const big = bigOpt ? bigOpt[0] : null;
const traces = rest;
const failures = [];
function check(cond, what) {
  if (!cond) failures.push(what);
}
fs.mkdirSync(work, { recursive: true });

function trxRun(args) {
  return execFileSync(trx, args, { maxBuffer: 1 << 30 }).toString();
}

/* Opens a report with the network cut; returns { page, requests, errors }. */
async function open(browser, html) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, offline: true });
  const requests = [], errors = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url === "file://" + html) return route.continue();
    requests.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto("file://" + html);
  await page.waitForFunction(() => window.trxReport && window.trxReport.timings, null, { timeout: 60000 });
  return { page, context, requests, errors };
}

/* Counts coloured (saturated) pixels of the canvas inside a CSS-pixel rectangle. */
async function colouredPixels(page, r) {
  return page.evaluate((r) => {
    const c = document.getElementById("timeline"), dpr = c.width / c.clientWidth;
    const d = c.getContext("2d").getImageData(Math.round(r.x * dpr), Math.round(r.y * dpr),
                                              Math.round(r.width * dpr), Math.round(r.height * dpr)).data;
    let k = 0;
    for (let i = 0; i < d.length; i += 4) {
      const mx = Math.max(d[i], d[i + 1], d[i + 2]), mn = Math.min(d[i], d[i + 1], d[i + 2]);
      if (mx - mn > 40) k++;
    }
    return k;
  }, r);
}

function getPath(obj, key) {
  return key.split(".").reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

/* The arrows the current view draws: each ends in view, every flow when
 * at most rule.all end in view, else exactly the first flow of each
 * rule.step-pixel column that has one (some arrows, never two per column). */
async function checkArrows(page, tag) {
  /* the view is drawn at the next animation frame */
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const r = await page.evaluate(() => {
    const lane = trxReport.lanes()[0], rule = trxReport.flowRule();
    const xs = trxReport.flowEnds(true).map((e) => trxReport.positionOf(e)).map((p) => trxReport.xAt(p));
    const inView = xs.filter((x) => x >= lane.x && x <= lane.x + lane.width);
    const drawn = trxReport.flowsDrawn().map((f) => trxReport.xAt(trxReport.positionOf(f[1])));
    return { rule, left: lane.x, width: lane.width, inView: inView.length, drawn: drawn.length, xs: inView, dx: drawn };
  });
  check(r.dx.every((x) => x >= r.left && x <= r.left + r.width), tag + "an arrow ends outside the view");
  if (r.inView <= r.rule.all) {
    check(r.drawn === r.inView, tag + r.drawn + " arrows for " + r.inView + " flows ending in view");
  } else {
    const col = (x) => Math.floor((x - r.left) / r.rule.step);
    const want = new Set(r.xs.map(col));
    const got = r.dx.map(col);
    check(got.length === want.size && new Set(got).size === got.length && got.every((c) => want.has(c)),
          tag + r.drawn + " arrows in " + new Set(got).size + " columns; " + want.size +
          " columns have flows ending there (" + r.inView + " flows in view)");
  }
  return r;
}

/* The fields of one CSV line (quoted fields may hold commas and "" quotes). */
function csvFields(line) {
  const out = [];
  let at = 0;
  while (at <= line.length) {
    if (line[at] === '"') {
      let v = "", k = at + 1;
      for (;;) {
        const q = line.indexOf('"', k);
        if (q < 0) { v += line.slice(k); k = line.length; break; }
        v += line.slice(k, q);
        if (line[q + 1] === '"') { v += '"'; k = q + 2; } else { k = q + 1; break; }
      }
      out.push(v);
      at = k + 1;
    } else {
      const c = line.indexOf(",", at), end = c < 0 ? line.length : c;
      out.push(line.slice(at, end));
      at = end + 1;
    }
  }
  return out;
}

/* Zoomed out (the whole trace in view): each lane's run bar in each pixel
 * column is as high as the part of the column's span its context ran - run
 * slices from the events' next context (trx export --to csv), one core:
 * a slice from the event where a context becomes the next one to the event
 * where it stops being it. Every column of every lane whose name is its own
 * is compared (heights in CSS pixels); some must be partly run, so that a
 * solid bar cannot pass. Returns the columns compared. */
async function checkRunHeights(page, trace, tag) {
  const lines = trxRun(["export", "--to", "csv", trace]).trim().split("\n");
  const head = csvFields(lines[0]), tAt = head.indexOf("ticks"), nAt = head.indexOf("next_context_name");
  const slices = new Map(); /* lane name -> [[from, to] ticks, ...] */
  let cur = null, start = 0, last = 0;
  const push = (name, s, e) => { if (!slices.has(name)) slices.set(name, []); slices.get(name).push([s, e]); };
  for (let k = 1; k < lines.length; k++) {
    const f = csvFields(lines[k]), ticks = Number(f[tAt]), next = f[nAt];
    if (cur !== null && next !== cur) { push(cur, start, ticks); cur = null; }
    if (cur === null) { cur = next; start = ticks; }
    last = ticks;
  }
  if (cur !== null) push(cur, start, last);
  await page.click("#fit");
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const st = await page.evaluate(() => ({ view: trxReport.view(), lanes: trxReport.lanes(), bars: trxReport.bars() }));
  const v0 = st.view.start, v1 = st.view.end, bars = st.bars;
  let columns = 0, partial = 0;
  const wrong = [];
  st.lanes.forEach((l, row) => {
    if (!["thread", "isr", "init", "idle"].includes(l.kind) || st.lanes.filter((o) => o.name === l.name).length > 1) return;
    const drawn = new Map(), rects = bars.rows[row];
    for (let k = 0; k < rects.length; k += 4)
      for (let x = rects[k]; x < rects[k] + rects[k + 1]; x++) drawn.set(x, rects[k + 2]);
    const mine = slices.get(l.name) || [];
    let first = 0;
    for (let x = l.x; x < l.x + l.width; x++) {
      const a = v0 + (x - l.x) / l.width * (v1 - v0), b = v0 + (x + 1 - l.x) / l.width * (v1 - v0);
      while (first < mine.length && mine[first][1] < a) first++;
      let ran = 0;
      for (let k = first; k < mine.length && mine[k][0] < b; k++)
        ran += Math.max(0, Math.min(b, mine[k][1]) - Math.max(a, mine[k][0]));
      const part = ran / (b - a), want = part > 0 ? Math.max(bars.least, Math.min(1, part) * bars.full) : 0;
      const got = drawn.has(x) ? drawn.get(x) : 0;
      if (Math.abs(got - want) > 1e-6) wrong.push(l.name + " x=" + x + ": height " + got + ", ran " + part.toFixed(4) + " of the column");
      if (part > 0.05 && part < 0.95) partial++;
      columns++;
    }
  });
  check(wrong.length === 0, tag + wrong.length + " run-bar columns differ from the events' run time: " + wrong.slice(0, 4).join("; "));
  check(partial > 0, tag + "no column partly run: the run heights are not tested");
  return { columns, partial };
}

async function checkTrace(browser, trace) {
  const name = path.basename(trace, ".trx");
  const html = path.resolve(work, name + ".html");
  trxRun(["report", trace, "-o", html]);
  const stats = JSON.parse(trxRun(["stats", "--json", trace]));
  const events = trxRun(["events", "--format", "jsonl", trace]).trim().split("\n").map((l) => JSON.parse(l));
  const { page, context, requests, errors } = await open(browser, html);
  const tag = name + ": ";

  check(requests.length === 0, tag + "the page requested " + requests.join(", "));
  check((await page.evaluate(() => trxReport.eventCount())) === events.length,
        tag + "event count differs from trx events");

  /* lanes: coloured pixels where there is something to draw */
  const lanes = await page.evaluate(() => trxReport.lanes());
  check(lanes.filter((l) => l.kind === "thread").length > 0, tag + "no thread lanes");
  for (const l of lanes) {
    if (l.kind !== "thread") continue;
    const k = await colouredPixels(page, l);
    /* (an empty lane may still be crossed by a priority-inversion band) */
    if (l.events > 0 || l.slices > 0)
      check(k > 0, tag + "lane " + l.name + " is blank although it has " + l.events + " events");
  }

  /* zoomed out: run bars as high as the part of each column the lane ran (one core) */
  if (JSON.parse(trxRun(["info", "--json", trace])).cores <= 1) {
    const h = await checkRunHeights(page, trace, tag);
    console.log(tag + "run-bar heights of " + h.columns + " columns as the events' run time (" + h.partial + " partly run)");
  }

  /* the legend names only the kinds of events the trace has (ThreadX's ids:
     event flags 40-49, mutex 50-59, queue 60-72, semaphore 80-89) */
  const legendText = await page.textContent("#legend");
  for (const [kind, lo, hi] of [["event flags", 40, 49], ["mutex", 50, 59], ["queue", 60, 72], ["semaphore", 80, 89]]) {
    const has = events.some((e) => !e.synthetic && e.id >= lo && e.id <= hi);
    check(legendText.includes(kind) === has, tag + "legend " + (has ? "lacks " : "names ") + kind +
          " (the trace has " + (has ? "" : "no ") + kind + " events)");
  }

  /* multi-core traces: a "CPU n" lane per core, drawn, with migrations
   * marked when threads migrate (issue 14); none on single-core traces */
  const info = JSON.parse(trxRun(["info", "--json", trace]));
  const cpus = await page.evaluate(() => trxReport.cpuLanes());
  if (info.cores > 1) {
    const ran = new Set();
    for (const c of stats.smp.per_core) if (c.threads.some((t) => t.ticks > 0)) ran.add(c.core);
    check(cpus.length === ran.size && cpus.every((l, k) => l.name === "CPU " + [...ran].sort((a, b) => a - b)[k]),
          tag + "CPU lanes " + cpus.map((l) => l.name).join(", ") + " for cores " + [...ran].join(", "));
    for (const l of lanes) {
      if (l.kind !== "cpu") continue;
      check((await colouredPixels(page, l)) > 0, tag + "lane " + l.name + " is blank");
    }
    const migrated = stats.smp.threads.some((t) => t.migrations > 0);
    check(!migrated || cpus.some((l) => l.migrations > 0), tag + "no migration marked on the CPU lanes");
  } else {
    check(cpus.length === 0, tag + "CPU lanes on a single-core trace");
  }

  /* the lane names are DOM text over the label column, one per lane row */
  const labels = await page.$$eval("#lane-labels div", (ds) => ds.map((d) => d.textContent));
  check(JSON.stringify(labels) === JSON.stringify(lanes.map((l) => l.name)),
        tag + "lane labels " + JSON.stringify(labels.slice(0, 4)) + " are not the lanes");

  /* click: the event under the pointer, with its decoded fields */
  const box = await page.locator("#timeline").boundingBox();
  let target = events.findIndex((e) => !e.synthetic && Object.keys(e.args).length >= 2);
  if (target < 0) target = 0;
  await page.evaluate((i) => { trxReport.select(i); trxReport.select(-1); }, target); /* bring into view */
  const pt = await page.evaluate((i) => trxReport.eventPoint(i), target);
  await page.mouse.click(box.x + pt.x, box.y + pt.y);
  const sel = await page.evaluate(() => trxReport.selected());
  check(sel >= 0, tag + "clicking event " + target + " selected nothing");
  if (sel >= 0) {
    const e = events[sel];
    const title = await page.textContent("#detail-name");
    check(title === e.name, tag + "details show '" + title + "' for " + e.name);
    const rows = await page.$$eval("#details tr.field", (trs) => trs.map((tr) =>
      [tr.children[0].textContent, tr.children[1].textContent]));
    for (const [label, value] of Object.entries(e.args)) {
      const row = rows.find((r) => r[0] === label);
      check(row && row[1].startsWith(String(value) + " "),
            tag + "event " + sel + ": field " + label + "=" + value + " shown as " + JSON.stringify(row));
    }
    check(Object.keys(e.args).length === 0 || rows.length > 0, tag + "no decoded fields shown");
  }

  /* flows: as many as the Chrome export's s/f pairs; the effect names its cause */
  const chrome = JSON.parse(trxRun(["export", "--to", "chrome-json", trace]));
  const pairs = chrome.traceEvents.filter((e) => e.ph === "s").length;
  check((await page.evaluate(() => trxReport.flowCount())) === pairs, tag + "flows differ from chrome-json's " + pairs);
  if (pairs > 0) {
    const effect = (await page.evaluate(() => trxReport.flowEnds()))[0];
    await page.evaluate((i) => trxReport.select(i), effect);
    check((await page.textContent("#details")).includes("caused by"), tag + "event " + effect + " does not name its cause");
    await page.evaluate(() => trxReport.select(-1));
    const first = await checkArrows(page, tag + "first view: ");
    console.log(tag + "arrows at the first view: " + first.drawn + " of the " + first.inView + " flows ending in view");
    /* zoomed in around the 10th flow's effect: a view with a few flows ends, all drawn */
    const ends = await page.evaluate(() => trxReport.flowEnds(true));
    const view = await page.evaluate(() => trxReport.view());
    const p = await page.evaluate((i) => trxReport.positionOf(i), ends[Math.min(9, ends.length - 1)]);
    const w = (view.end - view.start) / 64;
    await page.evaluate((v) => trxReport.setView(v[0], v[1]), [p - w / 2, p + w / 2]);
    const all = await checkArrows(page, tag + "zoomed in 64 times: ");
    check(all.inView > 0 && all.inView <= all.rule.all && all.drawn === all.inView,
          tag + "zoomed in: " + all.drawn + " arrows drawn of the " + all.inView + " flows ending in view");
    await page.evaluate((v) => trxReport.setView(v.start, v.end), view);
  }

  /* zoom with the wheel, around the pointer */
  const before = await page.evaluate(() => trxReport.view());
  const cx = box.x + 150 + (box.width - 158) / 2, cy = box.y + 40;
  await page.mouse.move(cx, cy);
  await page.mouse.wheel(0, -600);
  /* wheel events are dispatched asynchronously: wait (up to 5 s) for the view to change */
  await page.waitForFunction((b) => trxReport.view().end - trxReport.view().start !== b.end - b.start, before,
                             { timeout: 5000 }).catch(() => {});
  const zoomed = await page.evaluate(() => trxReport.view());
  check(zoomed.end - zoomed.start < (before.end - before.start) * 0.7,
        tag + "wheel did not zoom in: " + JSON.stringify([before, zoomed]));
  const mid0 = (before.start + before.end) / 2, mid1 = (zoomed.start + zoomed.end) / 2;
  check(Math.abs(mid0 - mid1) < (before.end - before.start) * 0.02, tag + "zoom did not keep the pointer's place");
  /* pan */
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.mouse.move(cx - 200, cy, { steps: 4 });
  await page.mouse.up();
  const panned = await page.evaluate(() => trxReport.view());
  check(panned.start > zoomed.start && Math.abs((panned.end - panned.start) - (zoomed.end - zoomed.start)) < 1e-6 * (zoomed.end - zoomed.start) + 1e-9,
        tag + "drag did not pan right: " + JSON.stringify([zoomed, panned]));
  /* drag on the ruler: zoom to that range */
  await page.click("#fit");
  await page.mouse.move(box.x + 400, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + 600, box.y + 10, { steps: 4 });
  await page.mouse.up();
  const ranged = await page.evaluate(() => trxReport.view());
  check(ranged.end - ranged.start < (before.end - before.start) * 0.4, tag + "ruler drag did not zoom to the range");
  /* sequential mode */
  await page.click("#fit");
  await page.check("#sequential");
  await page.click("#fit");
  const sq = await page.evaluate(() => trxReport.view());
  check(sq.sequential && sq.start < 0 && sq.end > events.length - 2 && sq.end < events.length * 1.05,
        tag + "sequential view is not over event numbers: " + JSON.stringify(sq));
  await page.uncheck("#sequential");
  await page.click("#fit");

  /* search by name: next and previous */
  const wanted = events.find((e) => !e.synthetic).name;
  const count = events.filter((e) => e.name.toLowerCase().includes(wanted.toLowerCase())).length;
  await page.fill("#search", wanted);
  await page.press("#search", "Enter");
  const s1 = await page.evaluate(() => trxReport.selected());
  check(s1 >= 0 && events[s1].name === wanted, tag + "search did not find " + wanted);
  check((await page.textContent("#search-status")).endsWith("/ " + count.toLocaleString("en-US")),
        tag + "search status " + (await page.textContent("#search-status")) + ", expected " + count + " matches");
  if (count > 1) {
    await page.click("#search-next");
    const s2 = await page.evaluate(() => trxReport.selected());
    check(s2 > s1 && events[s2].name === wanted, tag + "next match is not later");
    await page.click("#search-prev");
    check((await page.evaluate(() => trxReport.selected())) === s1, tag + "previous match is not the first again");
  }

  /* statistics tables equal trx stats --json */
  let compared = 0;
  for (const tab of await page.evaluate(() => trxReport.tabs())) {
    await page.evaluate((t) => trxReport.showTab(t), tab);
    const cells = await page.$$eval("[data-stat]", (tds) => tds.map((td) => [td.dataset.stat, td.textContent]));
    for (const [key, text] of cells) {
      const want = getPath(stats, key);
      check(Number(text.replace(/,/g, "")) === want, tag + "table " + tab + ": " + key + " shows " + text + ", stats " + want);
      compared++;
    }
  }
  check(compared >= 9 + 2 + 4 * stats.threads.length, tag + "only " + compared + " statistics compared");

  await page.click("#fit");
  await page.evaluate((i) => trxReport.select(i), sel >= 0 ? sel : 0);
  const shot = path.resolve(work, name + ".png");
  await page.screenshot({ path: shot, fullPage: true });
  check(errors.length === 0, tag + "page errors: " + errors.join("; "));
  console.log(name + ": " + events.length + " events, " + lanes.length + " lanes, " + compared +
              " statistics compared; screenshot " + shot);
  await context.close();
}

/* --from / --to: a part of the trace; its events and numbers as trx events has them */
async function checkWindow(browser, trace) {
  const all = trxRun(["events", "--format", "jsonl", trace]).trim().split("\n").map((l) => JSON.parse(l));
  const from = all[Math.floor(all.length / 3)].ticks, to = all[Math.floor(all.length / 2)].ticks;
  const part = all.filter((e) => e.ticks >= from && e.ticks <= to);
  const html = path.resolve(work, "window.html");
  trxRun(["report", trace, "--from", String(from), "--to", String(to), "-o", html]);
  const { page, context, errors } = await open(browser, html);
  check((await page.evaluate(() => trxReport.eventCount())) === part.length,
        "window: " + (await page.evaluate(() => trxReport.eventCount())) + " events, trx events has " + part.length);
  const facts = await page.textContent("#facts");
  check(facts.includes(" of " + all.length.toLocaleString("en-US")), "window: the header does not say it is a part: " + facts);
  const k = Math.floor(part.length / 2);
  await page.evaluate((i) => trxReport.select(i), k);
  const number = await page.evaluate(() => {
    const row = Array.from(document.querySelectorAll("#details tr")).find((tr) => tr.children[0].textContent === "event #");
    return row ? Number(row.children[1].textContent.replace(/[^0-9]/g, "")) : -1;
  });
  check(number === part[k].index, "window: event " + k + " shows #" + number + ", trx events #" + part[k].index);
  check((await page.textContent("#detail-name")) === part[k].name, "window: event " + k + " is not " + part[k].name);
  const capped = path.resolve(work, "window_max.html");
  trxRun(["report", trace, "--from", String(from), "--max-events", "7", "-o", capped]);
  const second = await open(browser, capped);
  check((await second.page.evaluate(() => trxReport.eventCount())) === 7, "--max-events 7: not 7 events");
  await second.context.close();
  check(errors.length === 0, "window: page errors: " + errors.join("; "));
  console.log("window: " + part.length + " of " + all.length + " events, event #" + number + " as trx events has it");
  await context.close();
}

async function checkGaps(browser, trace, lost) {
  const html = path.resolve(work, "gaps.html");
  trxRun(["report", trace, "-o", html]);
  const { page, context, errors } = await open(browser, html);
  const gaps = await page.evaluate(() => trxReport.gaps());
  check(gaps.length > 0 && gaps.reduce((s, g) => s + g.lost, 0) === Number(lost),
        "gaps: the page has " + JSON.stringify(gaps) + ", want " + lost + " lost");
  const facts = await page.textContent("#facts");
  check(facts.includes("lost events" + lost + " in " + gaps.length + " gaps"), "gaps: header says " + facts);
  if (gaps.length) {
    /* the band: dark pixels in the ruler at the gap */
    await page.evaluate((i) => trxReport.select(i), gaps[0].before);
    const details = await page.textContent("#details");
    check(details.includes("lost before" + gaps[0].lost + " events"), "gaps: details say " + details);
  }
  /* a UIA trace has no thread context: those tables say unavailable (with
     the reason), and no cell shows a figure for them */
  const unavailableTabs = ["Performance", "Execution profile", "Threads", "Priority inversions"];
  for (const tab of unavailableTabs) {
    await page.evaluate((t) => trxReport.showTab(t), tab);
    const body = await page.textContent("#stat-body");
    const cells = await page.$$eval("[data-stat]", (tds) => tds.length);
    check(/unavailable: UIA records carry no thread/.test(body) && cells === 0,
          "gaps: tab " + tab + " shows " + JSON.stringify(body.slice(0, 120)) + " (" + cells + " figures)");
  }
  check(facts.includes("threadsunavailable"), "gaps: header threads should be unavailable: " + facts);
  await page.screenshot({ path: path.resolve(work, "gaps.png") });
  check(errors.length === 0, "gaps: page errors: " + errors.join("; "));
  await context.close();
  console.log("gaps: " + gaps.length + " gaps, " + lost + " events lost, shown");
}

/* A full registry: the header's registry line, marked as a warning. */
async function checkRegistryFull(browser, trace) {
  const html = path.resolve(work, "registry_full.html");
  trxRun(["report", trace, "-o", html]);
  const { page, context, errors } = await open(browser, html);
  const line = (await page.$("#registry-full")) ? await page.textContent("#registry-full") : "";
  const warn = await page.$eval("#registry-full", (e) => e.className).catch(() => "");
  check(/^the object registry is full \(\d+ of \d+ entries in use\): objects created after it filled have no name/.test(line) &&
        warn === "warn", "registry full: header says " + JSON.stringify(line) + " (class " + warn + ")");
  check(errors.length === 0, "registry full: page errors: " + errors.join("; "));
  await context.close();
  console.log("registry full: header says so");
}

/* With --ticks-per-us the ruler and the details speak microseconds; the box switches to ticks. */
async function checkRate(browser, trace) {
  const html = path.resolve(work, "rate.html");
  trxRun(["report", trace, "--ticks-per-us", "100", "-o", html]);
  const { page, context, errors } = await open(browser, html);
  check((await page.textContent("#range")).includes("µs"), "rate: the range is not in µs");
  const events = trxRun(["events", "--format", "jsonl", trace]).trim().split("\n").map((l) => JSON.parse(l));
  const i = events.findIndex((e) => e.ticks > 0);
  await page.evaluate((k) => trxReport.select(k), i);
  const want = (events[i].ticks / 100).toFixed(3) + " µs";
  check((await page.textContent("#details")).includes(want), "rate: details lack " + want);
  await page.uncheck("#units-us");
  /* the range is redrawn on the next animation frame: wait for it (5 s) rather than race it */
  const ticksShown = await page
    .waitForFunction(() => document.getElementById("range").textContent.includes("ticks"), null, { timeout: 5000 })
    .then(() => true, () => false);
  check(ticksShown, "rate: unticking µs does not show ticks (range: " + (await page.textContent("#range")) + ")");
  check(errors.length === 0, "rate: page errors: " + errors.join("; "));
  await context.close();
  console.log("rate: µs ruler and details at 100 ticks/µs");
}

/* A four-core SYS/BIOS capture (TI metadata, the firmware's ELF): a CPU lane
 * per core showing what ran, a task lane per task, a lane per Hwi (by
 * number, named from the ELF) and per Swi on each core as the simulation's
 * truth has them, no empty lane, the target's own load; a legend without
 * what SYS/BIOS has not; the Hwi / Swi (and Durations) tabs equal to `trx
 * stats --json`, the longest Hwi's link moving the time line to it; a
 * clicked task switch shows its message formatted as `trx events` formats
 * it, symbols included. */
async function checkSysbios(browser, trace, meta, elf, wantDurations) {
  const html = path.resolve(work, wantDurations ? "sysbios-durations.html" : "sysbios.html");
  const common = ["--uia-meta", meta, "--elf", elf, trace];
  trxRun(["report", "-o", html, ...common]);
  const stats = JSON.parse(trxRun(["stats", "--json", ...common]));
  const events = trxRun(["events", "--format", "jsonl", ...common]).trim().split("\n").map((l) => JSON.parse(l));
  const { page, context, errors } = await open(browser, html);
  const lanes = await page.evaluate(() => trxReport.lanes());
  const cores = stats.smp.per_core.map((c) => c.core);
  const cpus = await page.evaluate(() => trxReport.cpuLanes());
  check(JSON.stringify(cpus.map((l) => l.name)) === JSON.stringify(cores.map((c) => "CPU " + c)),
        "sysbios: CPU lanes " + cpus.map((l) => l.name).join(", ") + " for cores " + cores.join(", "));
  for (const l of lanes)
    if (l.kind === "cpu" || l.kind === "isr" || l.kind === "swi")
      check((await colouredPixels(page, l)) > 0, "sysbios: lane " + l.name + " is blank");
  /* a lane per Hwi (by interrupt number, named from the ELF) and per Swi on
     each core, exactly those the simulation ran; no empty lane */
  const truth = JSON.parse(fs.readFileSync(trace.replace(/\.uia$/, ".truth.json")));
  const wantIrq = [];
  for (const c of truth.cores) {
    for (const h of c.hwi) wantIrq.push("core " + c.core + "/Hwi " + h.id + " (hwi" + (h.id - 15) + "_fxn)");
    for (const w of c.swi) wantIrq.push("core " + c.core + "/Swi swi" + (w.handle - 0x2000A000 - c.core * 0x100) / 0x20 + "_fxn");
  }
  const gotIrq = lanes.filter((l) => l.kind === "isr" || l.kind === "swi").map((l) => l.name);
  check(JSON.stringify(gotIrq.slice().sort()) === JSON.stringify(wantIrq.slice().sort()),
        "sysbios: interrupt lanes " + JSON.stringify(gotIrq) + ", the simulation ran " + JSON.stringify(wantIrq));
  check(lanes.filter((l) => l.kind === "isr").every((l) => / ?Hwi /.test(l.name)) &&
        lanes.filter((l) => l.kind === "swi").length > 0, "sysbios: no Swi lanes, or an interrupt lane that is no Hwi");
  for (const l of lanes)
    check(l.kind === "cpu" || l.kind === "load" || l.kind === "thread" || l.events > 0 || l.slices > 0,
          "sysbios: empty lane " + l.name);
  /* the legend: what a SYS/BIOS trace has, nothing of ThreadX's middleware or objects */
  const legendText = await page.textContent("#legend");
  for (const word of ["FileX", "NetX", "USBX", "queue", "mutex", "event flags", "memory pools", "priority inversion", "lost events"])
    check(!legendText.includes(word), "sysbios: the legend names " + word + ": " + legendText);
  for (const word of ["Hwi running", "Swi running", "semaphore"])
    check(legendText.includes(word), "sysbios: the legend lacks " + word + ": " + legendText);
  /* tabs: Hwi / Swi durations (and UIABenchmark durations where there are
     some) with every figure equal to trx stats --json */
  const tabs = await page.evaluate(() => trxReport.tabs());
  check(tabs.includes("Interrupts") && tabs.includes("Load") && !tabs.includes("Priority inversions") &&
        !tabs.includes("FileX") && !tabs.includes("NetX"), "sysbios: tabs " + tabs.join(", "));
  if (wantDurations) check((stats.durations || []).length > 0, "sysbios: no durations in trx stats --json of " + trace);
  check(tabs.includes("Durations") === ((stats.durations || []).length > 0),
        "sysbios: a Durations tab " + (tabs.includes("Durations") ? "without" : "with") + " durations in trx stats");
  for (const tab of ["Interrupts", "Durations"].filter((t) => tabs.includes(t))) {
    await page.evaluate((t) => trxReport.showTab(t), tab);
    const cells = await page.$$eval("[data-stat]", (tds) => tds.map((td) => [td.dataset.stat, td.textContent]));
    const want = tab === "Interrupts" ? 4 * (stats.isr.length + stats.swi.length) : 4 * stats.durations.length;
    check(cells.length === want && want > 0, "sysbios: tab " + tab + " shows " + cells.length + " figures, expected " + want);
    for (const [key, text] of cells) {
      const v = key.split(".").reduce((o, k) => (o == null ? undefined : o[k]), stats);
      check(Number(text.replace(/,/g, "")) === v, "sysbios: tab " + tab + ": " + key + " shows " + text + ", stats " + v);
    }
  }
  check((await page.textContent("#stat-tabs")).includes("Hwi / Swi"), "sysbios: the tab is not called Hwi / Swi");
  /* the longest Hwi's link: the time line on it, its last event selected */
  await page.evaluate(() => trxReport.showTab("Interrupts"));
  const worst = stats.isr.reduce((a, b) => (b.max > a.max ? b : a));
  const row = stats.isr.indexOf(worst);
  await page.click("#stat-body table tr:nth-child(" + (row + 2) + ") td.link");
  const view = await page.evaluate(() => trxReport.view());
  const start = worst.worst_end_ticks - worst.max;
  check(view.start <= start && view.end >= worst.worst_end_ticks && view.end - view.start <= 2 * worst.max + 2,
        "sysbios: the longest Hwi " + worst.id + " (" + start + "-" + worst.worst_end_ticks + ") linked to view " +
        view.start + "-" + view.end);
  const picked = await page.evaluate(() => trxReport.selected());
  check(picked === worst.worst_end_index && events[picked] && /Hwi_LD_end$/.test(events[picked].name) &&
        events[picked].ticks === worst.worst_end_ticks,
        "sysbios: the longest Hwi's link selected " + picked + " (" + JSON.stringify(events[picked]) +
        "), it ended at event " + worst.worst_end_index + ", " + worst.worst_end_ticks + " ticks");
  await page.screenshot({ path: path.resolve(work, wantDurations ? "sysbios-durations-worst.png" : "sysbios-worst.png") });
  await page.click("#fit"); /* the whole trace in view again, drawn at the next frame */
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  for (const t of stats.threads) {
    const l = lanes.find((x) => x.kind === "thread" && x.name === t.name);
    check(l, "sysbios: no lane for task " + t.name);
    if (l && t.execution_ticks > 0)
      check((await colouredPixels(page, l)) > 0, "sysbios " + path.basename(trace) + ": task lane " + t.name + " is blank");
  }
  const load = lanes.filter((l) => l.kind === "load");
  const loadCores = new Set(((stats.target_load || {}).cpu || []).map((r) => r.core));
  check(load.length === loadCores.size, "sysbios: " + load.length + " target-load lanes for " + loadCores.size + " cores");
  for (const l of load) check((await colouredPixels(page, l)) > 0, "sysbios: lane " + l.name + " is blank");
  await page.click("#fit");
  /* a task switch, clicked: its message with the functions' symbols */
  const target = events.findIndex((e) => e.name === "Task_LM_switch" && / <[^>]+>/.test(e.text || ""));
  check(target >= 0, "sysbios: no task switch with symbols in trx events");
  if (target >= 0) {
    const box = await page.locator("#timeline").boundingBox();
    await page.evaluate((i) => { trxReport.select(i); trxReport.select(-1); }, target);
    const pt = await page.evaluate((i) => trxReport.eventPoint(i), target);
    await page.mouse.click(box.x + pt.x, box.y + pt.y);
    const sel = await page.evaluate(() => trxReport.selected());
    check(sel >= 0 && events[sel].name === "Task_LM_switch", "sysbios: click selected " + sel);
    if (sel >= 0) {
      const rows = await page.$$eval("#details tr", (trs) => trs.map((tr) =>
        [tr.children[0].textContent, tr.children[1].textContent]));
      const msg = rows.find((r) => r[0] === "message");
      check(msg && msg[1] === events[sel].text,
            "sysbios: message " + JSON.stringify(msg) + ", trx events says " + JSON.stringify(events[sel].text));
    }
  }
  await page.click("#fit");
  await page.screenshot({ path: path.resolve(work, "sysbios.png") });
  check(errors.length === 0, "sysbios: page errors: " + errors.join("; "));
  await context.close();
  console.log("sysbios: " + cpus.length + " CPU lanes, " + stats.threads.length + " tasks, " + load.length +
              " load lanes; screenshot " + path.resolve(work, "sysbios.png"));
}

/* Late-instance marks (the hook the latency engine will fill): marks given
 * for a thread are drawn at their events' times (event numbers in sequential
 * mode), red, at most one per lateStep pixels - the first of them. */
async function checkLateMarks(browser, trace) {
  const html = path.resolve(work, "late.html");
  trxRun(["report", trace, "-o", html]);
  const events = trxRun(["events", "--format", "jsonl", trace]).trim().split("\n").map((l) => JSON.parse(l));
  const { page, context, errors } = await open(browser, html);
  const names = await page.evaluate(() => JSON.parse(document.getElementById("trx-meta").textContent).lanes.map((l) => l.name));
  const mine = events.filter((e) => e.context === "thread" && names.indexOf(e.thread_name) >= 0 &&
                                    names.indexOf(e.thread_name) === names.lastIndexOf(e.thread_name));
  const thread = mine[0].thread_name, lane = names.indexOf(thread);
  const of = mine.filter((e) => e.thread_name === thread);
  /* three marks: the first two events of the thread (a pixel apart at most: one mark), one late in the trace */
  const marks = [of[0], of[1], of[of.length - 1]].map((e) => [e.ticks, e.index]);
  await page.evaluate((m) => trxReport.setLateMarks(m), [[lane, marks]]);
  const frame = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  for (const sequential of [false, true]) {
    if (sequential) await page.check("#sequential");
    await page.click("#fit");
    await frame();
    const r = await page.evaluate((a) => ({
      drawn: trxReport.lateDrawn(), step: trxReport.lateStep,
      x: a.marks.map((p) => trxReport.xAt(trxReport.view().sequential ? p[1] : p[0])),
      row: trxReport.lanes().findIndex((l) => l.name === a.name) }), { marks, name: thread });
    const xs = r.x;
    const want = [0, 2].concat(xs[1] - xs[0] >= r.step ? [1] : []).sort();
    const got = r.drawn.map((d) => marks.findIndex((m) => m[1] === d[1])).sort();
    const tag = "late marks" + (sequential ? " (sequential): " : ": ");
    check(JSON.stringify(got) === JSON.stringify(want) && r.drawn.every((d) => d[0] === thread),
          tag + "drew " + JSON.stringify(r.drawn) + ", want marks " + JSON.stringify(want) + " of " + JSON.stringify(marks));
    check(r.drawn.every((d) => Math.abs(d[2] - xs[marks.findIndex((m) => m[1] === d[1])]) < 1e-6),
          tag + "marks not at their events: " + JSON.stringify(r.drawn) + " vs x " + JSON.stringify(xs));
    /* the pixel inside the last mark (drawn last, over everything) is its red */
    const lane0 = (await page.evaluate(() => trxReport.lanes()))[r.row];
    const px = await page.evaluate((p) => Array.from(document.getElementById("timeline").getContext("2d")
      .getImageData(Math.round(p.x), p.y, 1, 1).data), { x: xs[2], y: lane0.y + 3 });
    check(px[0] === 0xb3 && px[1] === 0x26 && px[2] === 0x1e, tag + "the pixel in the mark is " + px.join(","));
  }
  check((await page.textContent("#legend")).includes("late instances"), "late marks: the legend does not name them");
  check(errors.length === 0, "late marks: page errors: " + errors.join("; "));
  await context.close();
  console.log("late marks: " + thread + "'s marks drawn at their events, by time and by number");
}

async function measureBig(browser, trace) {
  const html = path.resolve(work, "big.html");
  const t = Date.now();
  trxRun(["report", trace, "-o", html]);
  const writeMs = Date.now() - t;
  const size = fs.statSync(html).size;
  const { page, context, errors } = await open(browser, html);
  const tm = await page.evaluate(() => trxReport.timings);
  const n = await page.evaluate(() => trxReport.eventCount());
  /* a zoom step on the full trace: time for the frame */
  const frame = await page.evaluate(() => new Promise((resolve) => {
    const t0 = performance.now();
    document.getElementById("zoom-in").click();
    requestAnimationFrame(() => resolve(performance.now() - t0));
  }));
  /* the whole trace in view (zoomed out): the median of 7 frames drawn one after another */
  await page.click("#fit");
  const frames = [];
  for (let k = 0; k < 7; k++) frames.push(await page.evaluate(() => trxReport.drawFrame()));
  frames.sort((a, b) => a - b);
  console.log("big: a zoomed-out frame draws in " + frames[3].toFixed(1) + " ms (median of 7)");
  console.log("big: " + n + " events, report written in " + writeMs + " ms, " + size + " bytes (" +
              (size / n).toFixed(1) + " bytes/event); first paint " + tm.firstPaint.toFixed(0) +
              " ms after navigation (script start " + tm.start.toFixed(0) + ", decoded " + tm.decoded.toFixed(0) +
              ", indexed " + tm.indexed.toFixed(0) + "); zoom frame " + frame.toFixed(0) + " ms");
  await page.screenshot({ path: path.resolve(work, "big.png") });
  check(errors.length === 0, "big: page errors: " + errors.join("; "));
  await context.close();
}

/* The Load tab of a SYS/BIOS capture with the target's Load reports
 * (sysbios_shaped's idle_load, TRUTH: its truth.json naming the Idle tasks):
 * without the Idle task named, per core trx's load is unavailable with the
 * reason `trx stats --json` gives; with --idle, per core trx's series is
 * stats' cpu_load.per_core windows (at each window's end, windows of unknown
 * time left out) and the target's is target_load's reports of that core, both
 * drawn as lines. */
async function checkLoad(browser, trace, meta, truthPath) {
  const truth = JSON.parse(fs.readFileSync(truthPath, "utf8"));
  const idle = truth.idle.map((c) => "0x" + c.idle_handle.toString(16)).join(",");
  for (const named of [false, true]) {
    const html = path.resolve(work, named ? "sysbios-load.html" : "sysbios-load-unavailable.html");
    const common = ["--uia-meta", meta, ...(named ? ["--idle", idle] : []), trace];
    trxRun(["report", "-o", html, ...common]);
    const stats = JSON.parse(trxRun(["stats", "--json", ...common]));
    const what = "load" + (named ? " (--idle " + idle + ")" : " (no Idle task)") + ": ";
    const { page, context, errors } = await open(browser, html);
    const tabs = await page.evaluate(() => trxReport.tabs());
    check(tabs.includes("Load"), what + "no Load tab: " + tabs.join(", "));
    await page.evaluate(() => trxReport.showTab("Load"));
    const shown = await page.evaluate(() => trxReport.loadCores());
    const cores = stats.target_load.per_core.map((c) => c.core);
    check(JSON.stringify(shown.map((c) => c.core)) === JSON.stringify(cores) && cores.length === 2,
          what + "cores " + JSON.stringify(shown.map((c) => c.core)) + ", target_load has " + JSON.stringify(cores));
    const reason = stats.load_unavailable;
    check(named === !reason && (named || /--elf/.test(reason)), what + "stats load_unavailable " + JSON.stringify(reason));
    for (const c of shown) {
      const target = stats.target_load.cpu.filter((r) => r.core === c.core).map((r) => [r.ticks, r.percent]);
      check(target.length > 0 && JSON.stringify(c.target) === JSON.stringify(target),
            what + "core " + c.core + " target series " + JSON.stringify(c.target) + ", target_load " + JSON.stringify(target));
      const text = await page.textContent('.load-computed[data-core="' + c.core + '"]');
      const lines = await page.$$eval(".load-chart", (svgs) => svgs.map((s) => s.querySelectorAll("polyline").length));
      if (!named) {
        check(c.computed === null && c.unavailable === reason, what + "core " + c.core + " computed " + JSON.stringify(c.computed));
        check(text.includes("unavailable: " + reason), what + "core " + c.core + " says " + JSON.stringify(text));
        check(lines[cores.indexOf(c.core)] === 1, what + "core " + c.core + " draws " + lines[cores.indexOf(c.core)] + " lines");
        continue;
      }
      const cl = stats.cpu_load, per = cl.per_core.find((x) => x.core === c.core);
      const want = [];
      (per ? per.windows : []).forEach((p, k) => { if (p !== null) want.push([(k + 1) * cl.window, p]); });
      check(want.length > 0 && JSON.stringify(c.computed) === JSON.stringify(want),
            what + "core " + c.core + " trx series " + JSON.stringify(c.computed) + ", stats windows " + JSON.stringify(want));
      const mean = want.reduce((a, p) => a + p[1], 0) / want.length;
      check(text.includes(want.length + " windows") && text.includes("mean " + mean.toFixed(1) + " %"),
            what + "core " + c.core + " says " + JSON.stringify(text) + " (" + want.length + " windows, mean " + mean.toFixed(1) + ")");
      check(lines[cores.indexOf(c.core)] === 2, what + "core " + c.core + " draws " + lines[cores.indexOf(c.core)] + " lines");
    }
    await page.screenshot({ path: path.resolve(work, named ? "sysbios-load.png" : "sysbios-load-unavailable.png") });
    check(errors.length === 0, what + "page errors: " + errors.join("; "));
    await context.close();
  }
  console.log("sysbios load: target and trx series per core as trx stats --json gives them");
}

(async () => {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  try {
    for (const trace of traces) await checkTrace(browser, trace);
    if (traces.length) await checkRate(browser, traces[0]);
    if (traces.length) await checkWindow(browser, traces[0]);
    if (traces.length) await checkLateMarks(browser, traces[0]);
    if (gapOpt) await checkGaps(browser, gapOpt[0], gapOpt[1]);
    if (fullOpt) await checkRegistryFull(browser, fullOpt[0]);
    if (sysbiosOpt) await checkSysbios(browser, ...sysbiosOpt);
    if (benchOpt) await checkSysbios(browser, ...benchOpt, true);
    if (loadOpt) await checkLoad(browser, ...loadOpt);
    if (big) await measureBig(browser, big);
  } finally {
    await browser.close();
  }
  if (failures.length) {
    failures.slice(0, 30).forEach((f) => console.log("FAIL: " + f));
    process.exit(1);
  }
  console.log("ok");
})().catch((e) => { console.error("FAIL: " + (e && e.stack || e)); process.exit(1); });
