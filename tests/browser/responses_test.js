#!/usr/bin/env node
/*
 * responses_test.js - the Responses view in Chromium: in the report of TRACE
 * and in the page `trx serve` gives for it, the worst instance of THREAD
 * clicked in the Responses tab draws its critical path; the segments drawn
 * (start, end, state, lane; the holders' nested ones too) equal
 * `trx why TRACE --thread THREAD --worst --json` field by field, the story
 * beside it is its story, the view is zoomed to the instance, a click on the
 * thread's late mark opens the same path, and no page error.
 *
 * usage: node responses_test.js TRX CHROMIUM WORK_DIR TRACE THREAD
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");
const { check, startServer, finish } = require("./serve_util");

const [trx, chromiumPath, work, trace, thread] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });

/* The segments `trx why --json` gives, in the order the page lists them
 * (top level, then each blocked one's nested split), with the lane each
 * belongs on: what ran (the context). */
function expected(why) {
  const top = [], nested = [];
  why.segments.forEach((s) => {
    top.push({ start: s.start_ticks, end: s.end_ticks, state: s.state, lane: s.context, depth: 0 });
    s.segments.forEach((c) =>
      nested.push({ start: c.start_ticks, end: c.end_ticks, state: c.state, lane: c.context, depth: 1 }));
  });
  return top.concat(nested);
}

function compare(where, got, want) {
  check(got.length === want.length, where + ": " + got.length + " segments drawn, trx why has " + want.length);
  want.forEach((w, k) => {
    const g = got[k] || {};
    ["start", "end", "state", "lane", "depth"].forEach((f) =>
      check(g[f] === w[f], where + ": segment " + k + " " + f + " drawn " + g[f] + ", trx why: " + w[f]));
  });
}

async function checkPage(where, page, why) {
  await page.evaluate(() => trxReport.showTab("Responses"));
  const names = await page.$$eval("h3.resp-thread", (hs) => hs.map((h) => h.textContent));
  const r = names.indexOf(thread);
  check(r >= 0, where + ": no Responses entry for " + thread + " (" + names.join(", ") + ")");
  await page.click('td[data-why="' + r + ',0"]'); /* its worst instance: first in its list */
  await page.waitForFunction(() => trxReport.pathDrawn().length > 0, null, { timeout: 10000 });
  compare(where, await page.evaluate(() => trxReport.pathDrawn()), expected(why));
  const story = await page.textContent("#path-story");
  check(story === why.story, where + ": story beside the path '" + story + "', trx why: '" + why.story + "'");
  const view = await page.evaluate(() => trxReport.view());
  check(view.start <= why.instance.release_ticks && view.end >= why.instance.end_ticks &&
        view.end - view.start <= 2 * why.instance.response_ticks,
        where + ": view " + view.start + ".." + view.end + " not zoomed to the instance");
  /* its late mark (the worst is at or above p99): a click opens the same path */
  await page.evaluate(() => trxReport.setView(0, 1)); /* away, then back by the mark */
  await page.evaluate((v) => trxReport.setView(v.start, v.end), view);
  await page.waitForTimeout(100);
  const mark = await page.evaluate((n) => trxReport.lateDrawn().filter((m) => m[1] === n)[0],
                                   why.instance.release_index);
  check(mark, where + ": no late mark at event " + why.instance.release_index);
  if (mark) {
    const lane = (await page.evaluate(() => trxReport.lanes())).filter((l) => l.name === thread)[0];
    await page.evaluate(() => trxReport.showTab("Performance")); /* a click on the mark, nothing else */
    await page.mouse.click(lane.pageX + mark[2], lane.pageY + lane.y + 4);
    const title = await page.textContent("#path-title");
    check(title === thread + " #" + why.instance.number, where + ": the late mark opened '" + title + "'");
  }
}

(async () => {
  const why = JSON.parse(execFileSync(trx, ["why", trace, "--thread", thread, "--worst", "--json"]));
  const report = path.join(work, "responses.html");
  execFileSync(trx, ["report", trace, "-o", report]);
  const server = await startServer(trx, [trace, "--port", "0"]);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto("file://" + report);
    await checkPage("report", page, why);
    /* a ThreadX trace without FileX / NetX / USBX events: no legend for them */
    check(!(await page.textContent("#legend")).includes("FileX"), "report: FileX / NetX / USBX in the legend");

    const served = await context.newPage();
    served.on("pageerror", (e) => errors.push(String(e)));
    await served.goto(server.url);
    await served.waitForFunction(() => window.trxReport && trxReport.latency() !== null, null, { timeout: 60000 });
    await checkPage("served", served, why);
    /* /api/why answers what trx why does */
    const token = new URL(server.url).searchParams.get("token");
    const address = (await served.evaluate(() => trxReport.latency().threads))
      .filter((t) => t.name === thread)[0].address;
    const api = await served.evaluate((q) => fetch(q).then((r) => r.json()),
      "api/why?token=" + token + "&thread=" + address + "&instance=" + why.instance.number);
    check(JSON.stringify(api) === JSON.stringify(why), "served: /api/why differs from trx why --json");
  } finally {
    await browser.close();
    server.proc.kill();
  }
  check(errors.length === 0, "page errors: " + errors.join("; "));
  finish("responses_test");
})().catch((e) => { console.error(e); process.exit(1); });
