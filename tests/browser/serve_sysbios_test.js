#!/usr/bin/env node
/*
 * serve_sysbios_test.js - a SYS/BIOS capture served: the page of `trx serve`
 * shows, once the statistics are computed and the window holds the whole
 * capture, the same lanes as `trx report`'s page of it with the same
 * events on each (CPU lanes, the target-load lanes, a lane per task, per Hwi
 * number and per Swi, no empty lane), the same legend, the same tabs, and a Hwi / Swi tab whose figures
 * equal `trx stats --json`; no page error.
 *
 * usage: node serve_sysbios_test.js TRX CHROMIUM WORK_DIR CAPTURE.uia META.uia.xml FW.elf
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");
const { check, startServer, openServedMulticore, finish } = require("./serve_util");

const [trx, chromiumPath, work, trace, meta, elf] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });
const common = ["--uia-meta", meta, "--elf", elf, trace];

/* What a page shows: its lanes (name, kind), legend, tabs and the Hwi / Swi tab's figures. */
async function shown(page) {
  const lanes = await page.evaluate(() => trxReport.lanes().map((l) => l.kind + " " + l.name + ": " + l.events + " events"));
  const legend = await page.textContent("#legend");
  const tabs = await page.evaluate(() => trxReport.tabs());
  await page.evaluate(() => trxReport.showTab("Interrupts"));
  const cells = await page.$$eval("[data-stat]", (tds) => tds.map((td) => [td.dataset.stat, td.textContent]));
  return { lanes, legend, tabs, cells };
}

(async () => {
  const server = await startServer(trx, ["--port", "0", ...common]), url = server.url;
  const report = path.join(work, "report.html");
  execFileSync(trx, ["report", "-o", report, ...common]);
  const stats = JSON.parse(execFileSync(trx, ["stats", "--json", ...common]).toString());
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  const errors = [];
  const { context, served } = await openServedMulticore(browser, url, 1400, errors);
  const win = await served.evaluate(() => trxReport.window());
  const got = await shown(served);

  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("file://" + report);
  await page.waitForFunction(() => window.trxReport && trxReport.timings, null, { timeout: 30000 });
  const want = await shown(page);

  check(win.first === 0 && win.count === (await page.evaluate(() => trxReport.eventCount())),
        "the served window holds events " + win.first + "+" + win.count + " (the whole capture expected)");
  check(JSON.stringify(got.lanes) === JSON.stringify(want.lanes),
        "lanes served " + JSON.stringify(got.lanes) + ", the report's " + JSON.stringify(want.lanes));
  for (const kind of ["cpu", "load", "isr", "swi"])
    check(got.lanes.some((l) => l.startsWith(kind + " ")), "no " + kind + " lane served: " + got.lanes.join(", "));
  check(!got.lanes.some((l) => /^isr Interrupt/.test(l) || /^(idle|unknown) /.test(l)),
        "an empty lane served: " + got.lanes.join(", "));
  /* (the served page names its summaries' marks; late marks come when computed) */
  const strip = (x) => x.replace("late instances", "").replace("worst response times (summary: RESUME → CPU)", "");
  check(strip(got.legend) === strip(want.legend),
        "legend served " + JSON.stringify(got.legend) + ", the report's " + JSON.stringify(want.legend));
  check(JSON.stringify(got.tabs) === JSON.stringify(want.tabs), "tabs served " + got.tabs + ", the report's " + want.tabs);
  const figures = 4 * (stats.isr.length + stats.swi.length);
  check(got.cells.length === figures && figures > 0, "served Hwi / Swi tab: " + got.cells.length + " figures, expected " + figures);
  for (const [key, text] of got.cells) {
    const v = key.split(".").reduce((o, k) => (o == null ? undefined : o[k]), stats);
    check(Number(text.replace(/,/g, "")) === v, "served Hwi / Swi tab: " + key + " shows " + text + ", stats " + v);
  }
  await served.click("#fit");
  await served.screenshot({ path: path.join(work, "serve-sysbios.png") });
  check(errors.length === 0, "page errors: " + errors.join("; "));
  await browser.close();
  server.proc.kill("SIGINT");
  console.log("serve_sysbios: " + got.lanes.length + " lanes as the report's; " + got.cells.length + " Hwi / Swi figures");
  finish("serve_sysbios_test");
})().catch((e) => { console.error("FAIL: " + (e.stack || e)); process.exit(1); });
