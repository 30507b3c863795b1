#!/usr/bin/env node
/*
 * serve_test.js - `trx serve` in headless Chromium (Debian's, through
 * playwright-core): a large trace served, opened from the URL trx prints,
 * and checked as a user sees it:
 *   - the URL comes on stdout's first line; the first paint comes within 2 s
 *     of opening the page (asserted), while the overview may still be built;
 *   - zoomed out the view is a summary (lanes with run time and events drawn):
 *     each lane's run bar in each column as high as the summary's run time
 *     there (busy per mille), and those run times add up to trx stats'
 *     execution ticks per thread; the draw time of that frame is printed;
 *     zooming in step by step ends in exact events, each step answered
 *     (latencies printed: bench/ has the figures);
 *   - a clicked event's details (name, time, context, every field) equal
 *     `trx events --format jsonl` for that event number;
 *   - every statistic in the tables equals `trx stats --json`;
 *   - search finds a thread's next event on the server;
 *   - the page requests nothing but its own server, and no script error.
 *
 * usage: node serve_test.js TRX CHROMIUM WORK_DIR TRACE
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");
const { check, startServer, waitFor, finish } = require("./serve_util");

const [trx, chromiumPath, work, trace] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });

function getPath(o, key) {
  return key.split(".").reduce((x, k) => (x === undefined || x === null ? x : x[k]), o);
}


(async () => {
  const server = await startServer(trx, [trace, "--port", "0"]);
  const origin = new URL(server.url).origin;
  check(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}$/.test(server.url), "URL line: " + server.url);
  console.log("serve: URL after " + server.ms + " ms: " + server.url.replace(/token=.*/, "token=..."));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const foreign = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin + "/")) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(server.url);
  await waitFor(page, () => window.trxReport && window.trxReport.timings, null, 10000);
  const paint = Date.now() - t0;
  console.log("serve: first paint " + paint + " ms after opening the page");
  check(paint < 2000, "first paint after " + paint + " ms (limit 2000)");
  check(await page.evaluate(() => trxReport.served()), "the page does not know it is served");

  /* lane names and header facts are DOM text, as the report's */
  const labels = await page.$$eval("#lane-labels div", (ds) => ds.map((d) => d.textContent));
  const names = await page.evaluate(() => trxReport.lanes().map((l) => l.name));
  check(labels.length > 0 && JSON.stringify(labels) === JSON.stringify(names), "lane labels " + JSON.stringify(labels) + " vs " + JSON.stringify(names));
  const factsText = await page.textContent("#facts");
  const totalEvents = await page.evaluate(() => JSON.parse(document.getElementById("trx-meta").textContent).serve.total);
  check(factsText.includes(totalEvents.toLocaleString("en-US")), "the header does not show " + totalEvents + " events: " + factsText);

  /* the whole span: a summary, with lanes drawn */
  await waitFor(page, () => trxReport.window().mode === "summary", null, 10000);
  const sum = await page.evaluate(() => trxReport.summary());
  check(sum && sum.lanes.length > 0, "the summary has no lanes");
  const events = await page.evaluate(() => JSON.parse(document.getElementById("trx-meta").textContent).serve.total);
  /* wait for the overview: zooming needs its chunks */
  await waitFor(page, () => !/summarised/.test(document.getElementById("range").textContent), null, 60000);

  /* zoomed out, every lane's run bar in each summary column is as high as
   * the part of the column's time the lane ran (the summary's busy, per
   * mille): the column's rectangle where the column is, its height
   * max(least, busy / 1000 x full), nothing where busy is 0 */
  let whole = null;
  {
    const before = await page.evaluate(() => trxReport.window().answers);
    await page.click("#fit");
    await page.evaluate(() => trxReport.refresh());
    await waitFor(page, (n) => trxReport.window().answers > n && trxReport.window().mode === "summary", before, 10000);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    whole = await page.evaluate(() => ({ summary: trxReport.summary(), bars: trxReport.bars(), lanes: trxReport.lanes(),
      view: trxReport.view(), names: JSON.parse(document.getElementById("trx-meta").textContent).lanes.map((l) => l.name) }));
    const s = whole.summary, bars = whole.bars, v = whole.view, wrong = [];
    let columns = 0, partial = 0;
    for (const ln of s.lanes) {
      const row = whole.lanes.findIndex((l) => l.name === whole.names[ln[0]]);
      if (row < 0 || whole.lanes.filter((l) => l.name === whole.names[ln[0]]).length > 1) continue;
      const lane = whole.lanes[row], got = new Map(), rects = bars.rows[row];
      for (let k = 0; k < rects.length; k += 4) if (rects[k + 3] >= 0) got.set(rects[k + 3], [rects[k], rects[k + 2]]);
      const width = (s.to - s.from) / s.cols;
      for (let x = 0; x < s.cols; x++) {
        const xs = Math.floor(Math.max(lane.x, lane.x + (s.from + x * width - v.start) / (v.end - v.start) * lane.width));
        if (xs >= lane.x + lane.width) continue;
        const busy = ln[1][x], want = busy ? Math.max(bars.least, Math.min(1, busy / 1000) * bars.full) : 0;
        const g = got.get(x) || [xs, 0];
        if (Math.abs(g[1] - want) > 1e-9 || g[0] !== xs)
          wrong.push(whole.names[ln[0]] + " column " + x + ": height " + g[1] + " at x " + g[0] + ", busy " + busy + " per mille at x " + xs);
        if (busy > 50 && busy < 950) partial++;
        columns++;
      }
    }
    check(wrong.length === 0, wrong.length + " summary run bars differ from the summary's run time: " + wrong.slice(0, 4).join("; "));
    check(columns > 0 && partial > 0, "zoomed out: " + columns + " columns, " + partial + " partly run: the heights are not tested");
    const frames = [];
    for (let k = 0; k < 7; k++) frames.push(await page.evaluate(() => trxReport.drawFrame()));
    frames.sort((a, b) => a - b);
    console.log("serve: zoomed-out run bars of " + columns + " columns (" + partial + " partly run) as the summary's run time; " +
                "a zoomed-out frame draws in " + frames[3].toFixed(1) + " ms (median of 7)");
  }

  await page.screenshot({ path: path.join(work, "serve-summary.png") });
  /* zoom in step by step (each a tenth of the last) until the events are exact */
  let view = await page.evaluate(() => trxReport.view());
  const mid = (view.start + view.end) / 2;
  let span = view.end - view.start, steps = 0;
  const latencies = [];
  while (steps < 12) {
    span /= 10;
    const before = await page.evaluate(() => trxReport.window().answers);
    const s0 = Date.now();
    await page.evaluate(([a, b]) => trxReport.setView(a, b), [mid - span / 2, mid + span / 2]);
    await waitFor(page, (n) => trxReport.window().answers > n, before, 10000);
    latencies.push(Date.now() - s0);
    steps++;
    if ((await page.evaluate(() => trxReport.window().mode)) === "events") break;
  }
  console.log("serve: zoom answers (ms, each step 10x narrower): " + latencies.join(" "));
  const win = await page.evaluate(() => trxReport.window());
  const eventsView = await page.evaluate(() => trxReport.view());
  check(win.mode === "events" && win.count > 0, "zooming in never gave exact events: " + JSON.stringify(win));

  /* click an event: its details equal trx events' */
  const box = await page.locator("#timeline").boundingBox();
  const local = await page.evaluate(() => {
    const w = trxReport.window(), v = trxReport.view();
    for (let i = 0; i < w.count; i++) {
      const p = trxReport.eventPoint(i);
      if (p && p.x > 200 && p.x < 1200 && trxReport.eventLane(i) !== "Idle System") return i;
    }
    return -1;
  });
  check(local >= 0, "no event on screen to click");
  if (local >= 0) {
    const pt = await page.evaluate((i) => trxReport.eventPoint(i), local);
    await page.mouse.click(box.x + pt.x, box.y + pt.y);
    const sel = await page.evaluate(() => trxReport.selected());
    const number = sel + win.first;
    const rows = await page.$$eval("#details tr", (trs) => trs.map((tr) =>
      [tr.children[0].textContent, tr.children[1].textContent]));
    const field = (name) => (rows.find((r) => r[0] === name) || [null, null])[1];
    const shownNumber = Number((field("event #") || "").replace(/[^0-9]/g, ""));
    check(sel >= 0 && shownNumber === number, "details show event " + shownNumber + ", selected " + number);
    const ticks = Number((field("time") || "").replace(/[^0-9]/g, ""));
    const lines = execFileSync(trx, ["events", "--from", String(ticks), "--to", String(ticks), "--format", "jsonl", trace])
      .toString().trim().split("\n").map((l) => JSON.parse(l));
    const e = lines.find((x) => x.index === number);
    check(e, "trx events has no event " + number + " at " + ticks);
    if (e) {
      check((await page.textContent("#detail-name")) === e.name, "name " + (await page.textContent("#detail-name")) + " vs " + e.name);
      check(field("context").startsWith(e.thread_name), "context " + field("context") + " vs " + e.thread_name);
      if (e.priority !== null) check(field("priority") === String(e.priority), "priority " + field("priority") + " vs " + e.priority);
      for (const [label, value] of Object.entries(e.args))
        check((field(label) || "").startsWith(String(value) + " "), "field " + label + " " + field(label) + " vs " + value);
      check(Object.keys(e.args).length > 0, "event " + number + " has no fields to compare");
      console.log("serve: event #" + number + " (" + e.name + ", " + Object.keys(e.args).length + " fields) as trx events has it");
    }
  }

  /* statistics equal trx stats --json */
  await waitFor(page, () => !trxReport.stats().pending, null, 120000);
  const stats = JSON.parse(execFileSync(trx, ["stats", "--json", trace], { maxBuffer: 1 << 30 }).toString());
  let compared = 0;
  for (const tab of await page.evaluate(() => trxReport.tabs())) {
    await page.evaluate((t) => trxReport.showTab(t), tab);
    const cells = await page.$$eval("[data-stat]", (tds) => tds.map((td) => [td.dataset.stat, td.textContent]));
    for (const [key, text] of cells) {
      const want = getPath(stats, key);
      check(Number(text.replace(/,/g, "")) === want, "table " + tab + ": " + key + " shows " + text + ", stats " + want);
      compared++;
    }
  }
  check(compared >= 9 + 4 * stats.threads.length, "only " + compared + " statistics compared");
  /* the whole object; the inversion list is paged: its first 2,000 and the total */
  const served = await page.evaluate(() => trxReport.stats());
  const total = stats.inversions ? stats.inversions.length : 0;
  check(JSON.stringify(served.inversions) === JSON.stringify(stats.inversions ? stats.inversions.slice(0, 2000) : null),
        "the page's first inversions differ from trx stats --json's");
  check(!stats.inversions || served.inversion_total === total, "inversion total " + served.inversion_total + " vs " + total);
  const strip = (o) => Object.assign({}, o, { inversions: null, inversion_total: null });
  check(JSON.stringify(strip(served)) === JSON.stringify(strip(stats)),
        "the page's statistics object differs from trx stats --json");
  /* the summary's run time is the threads' execution time: per thread, the
   * columns' busy x column width add up to trx stats' execution_ticks (each
   * column rounded to a per mille, at least 1 when anything ran) */
  {
    const s = whole.summary, width = (s.to - s.from) / s.cols;
    let compared = 0;
    for (const t of stats.threads) {
      const lanes = s.lanes.filter((ln) => whole.names[ln[0]] === t.name);
      if (lanes.length !== 1 || stats.threads.filter((o) => o.name === t.name).length > 1) continue;
      const ran = lanes[0][1].reduce((sum, b) => sum + b * width / 1000, 0), slack = s.cols * width / 1000;
      check(Math.abs(ran - t.execution_ticks) <= slack, "summary run time of " + t.name + ": " + ran.toFixed(0) +
            " ticks, trx stats " + t.execution_ticks + " (+- " + slack.toFixed(0) + ")");
      compared++;
    }
    check(compared > 0, "no thread's run time compared with the summary");
    console.log("serve: the whole span's summary run time of " + compared + " threads = trx stats --json's execution_ticks");
  }
  console.log("serve: statistics equal, " + total + " inversions (the first " + Math.min(total, 2000) + " compared)");

  /* worst response times: the whole span's summary, lane by lane, has
   * trx stats --json's latency.response maximum of each thread */
  {
    const before = await page.evaluate(() => trxReport.window().answers);
    await page.click("#fit");
    await page.evaluate(() => trxReport.refresh());
    await waitFor(page, (n) => trxReport.window().answers > n && trxReport.window().mode === "summary", before, 10000);
    const worst = await page.evaluate(() => {
      const out = {}, names = trxReport.lanes().map((l) => l.name), s = trxReport.summary();
      const meta = JSON.parse(document.getElementById("trx-meta").textContent);
      s.lanes.forEach((ln) => { out[meta.lanes[ln[0]].name] = Math.max.apply(null, ln[3]); });
      return out;
    });
    let compared = 0;
    for (const r of stats.latency.response) {
      check(worst[r.thread] === r.max, "worst response time of " + r.thread + ": summary " + worst[r.thread] + ", stats " + r.max);
      compared++;
    }
    check(compared > 0, "no response times to compare");
    console.log("serve: worst response times of " + compared + " threads = trx stats --json's");
  }

  /* the inversion bands of the window: every inversion of trx stats --json that
   * overlaps it (the window asked again now that the statistics are there) */
  if (stats.inversions) {
    const w0 = await page.evaluate(() => trxReport.window());
    const before = w0.answers;
    await page.evaluate((v) => trxReport.setView(v.start, v.end + 1), eventsView);
    await waitFor(page, (n) => trxReport.window().answers > n && trxReport.window().mode === "events", before, 10000);
    const w = await page.evaluate(() => trxReport.window());
    const bands = await page.evaluate(() => trxReport.bands());
    const want = stats.inversions.filter((v) => v.end_index >= w.first && v.start_index <= w.first + w.count - 1);
    check(bands.length === want.length && want.every((v, k) => bands[k][0] === Math.max(v.start_index, w.first) &&
          bands[k][1] === v.end_index && bands[k][2] === (v.unbounded ? 1 : 0)),
          "inversion bands " + JSON.stringify(bands.slice(0, 3)) + " vs " + JSON.stringify(want.slice(0, 3).map((v) => [v.start_index, v.end_index])));
    console.log("serve: " + bands.length + " inversion bands in the window, as trx stats --json has them");
  }

  /* search: the next event of a thread, found by the server */
  const thread = stats.threads.length ? stats.threads[stats.threads.length - 1].name : null;
  if (thread) {
    await page.fill("#search", thread);
    await page.press("#search", "Enter");
    await waitFor(page, () => /^#|no /.test(document.getElementById("search-status").textContent), null, 30000);
    const found = Number((await page.textContent("#search-status")).replace(/[^0-9]/g, ""));
    check(found > 0, "search found nothing: " + (await page.textContent("#search-status")));
    await waitFor(page, (g) => trxReport.selected() >= 0 && trxReport.selected() + trxReport.window().first === g, found, 10000);
    const lane = await page.evaluate(() => trxReport.eventLane(trxReport.selected()));
    check(lane === thread, "search for " + thread + " selected an event of " + lane);
  }

  /* sequential mode (TraceX's): one step per event, by event number - the
   * whole trace summarised by number, then single events, numbered as trx
   * events numbers them; back to time, the same events stay in view */
  {
    let before = await page.evaluate(() => trxReport.window().answers);
    await page.click("#fit");
    await page.check("#sequential");
    await waitFor(page, (n) => { const s = trxReport.summary(); return trxReport.window().answers > n &&
      trxReport.view().sequential && s && s.axis === "index"; }, before, 10000);
    const s = await page.evaluate(() => trxReport.summary());
    check(s.from === 0 && s.to === events - 1, "sequential whole span: summary of events " + s.from + "-" + s.to + " of " + events);
    await page.screenshot({ path: path.join(work, "serve-sequential.png") });
    const marks = (await page.evaluate(() => trxReport.ruler())).map((l) => Number(l.replace(/[^0-9]/g, "")));
    check(marks.length >= 3 && marks.every((m, k) => m % (marks[1] - marks[0]) === 0 && (!k || m > marks[k - 1])),
          "sequential ruler: event numbers " + marks.join(" ") + " are not round steps");
    const g = Math.floor(events / 2) + 17;
    before = await page.evaluate(() => trxReport.window().answers);
    const first0 = await page.evaluate(() => trxReport.window().first);
    await page.evaluate(([a, b]) => trxReport.setView(a, b), [g - first0 - 30, g - first0 + 30]);
    await waitFor(page, (n) => trxReport.window().answers > n && trxReport.window().mode === "events", before, 10000);
    const w = await page.evaluate(() => trxReport.window());
    check(w.first <= g - 30 && w.first + w.count - 1 >= g + 30, "sequential window " + w.first + "+" + w.count + " misses events " + (g - 30) + "-" + (g + 30));
    const xs = await page.evaluate((k) => { const out = []; for (let i = k - 20; i <= k + 20; i++) { const p = trxReport.eventPoint(i); out.push(p ? p.x : null); } return out; }, g - w.first);
    const step = xs[21] - xs[20];
    check(step > 5 && xs.every((x, k) => x !== null && Math.abs(x - xs[0] - k * step) < 0.01), "events not one step apart in sequential mode: " + xs.join(" "));
    const pt = await page.evaluate((i) => trxReport.eventPoint(i), g - w.first);
    await page.mouse.click(box.x + pt.x, box.y + pt.y);
    const rows = await page.$$eval("#details tr", (trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
    const field = (name) => (rows.find((r) => r[0] === name) || [null, null])[1];
    check(Number((field("event #") || "").replace(/[^0-9]/g, "")) === g, "sequential: clicked event " + g + ", details show " + field("event #"));
    const ticks = Number((field("time") || "").replace(/[^0-9]/g, ""));
    const e = execFileSync(trx, ["events", "--from", String(ticks), "--to", String(ticks), "--format", "jsonl", trace])
      .toString().trim().split("\n").map((l) => JSON.parse(l)).find((x) => x.index === g);
    check(e && (await page.textContent("#detail-name")) === e.name, "sequential: event " + g + " is " + (e && e.name) + " in trx events");
    await page.uncheck("#sequential");
    const v = await page.evaluate(() => trxReport.view());
    check(!v.sequential && v.start <= ticks && v.end >= ticks, "back to time: view " + v.start + "-" + v.end + " lost event " + g + " at " + ticks);
    console.log("serve: sequential mode: events " + (g - 30) + "-" + (g + 30) + " one step apart, #" + g + " as trx events has it");
  }

  await page.screenshot({ path: path.join(work, "serve.png") });
  check(errors.length === 0, "page errors: " + errors.join("; "));
  check(foreign.length === 0, "requests outside the server: " + foreign.join(" "));
  await browser.close();
  server.proc.kill("SIGINT");
  await new Promise((r) => server.proc.on("exit", r));
  console.log("serve: " + events + " events, " + compared + " statistics compared; screenshot " + path.join(work, "serve.png"));
  finish("serve_test");
})().catch((e) => { console.error("FAIL: " + (e.stack || e)); process.exit(1); });
