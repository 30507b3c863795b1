#!/usr/bin/env node
/*
 * serve_cores_test.js - the CPU lanes of a multi-core trace, served: the
 * page of `trx serve` on an SMP trace shows, once the statistics are
 * computed, a "CPU n" lane per core (DOM labels) whose runs and migrations
 * over the window of exact events equal those of `trx report`'s page of the
 * same trace over the same events; no page error.
 *
 * usage: node serve_cores_test.js TRX CHROMIUM WORK_DIR TRACE
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");
const { check, startServer, openServedMulticore, finish } = require("./serve_util");

const [trx, chromiumPath, work, trace] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });

(async () => {
  const server = await startServer(trx, [trace, "--port", "0"]), url = server.url;
  const report = path.join(work, "report.html");
  execFileSync(trx, ["report", trace, "-o", report]);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  const errors = [];
  const { context, served } = await openServedMulticore(browser, url, 900, errors);
  const win = await served.evaluate(() => trxReport.window());
  const got = await served.evaluate(() => trxReport.cpuLanes());
  const labels = await served.$$eval("#lane-labels div", (ds) => ds.map((d) => d.textContent));

  /* the report's page, shown the same events: its CPU lanes over them */
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("file://" + report);
  await page.waitForFunction(() => window.trxReport && trxReport.timings, null, { timeout: 30000 });
  const want = await page.evaluate(() => trxReport.cpuLanes());
  check(win.first === 0, "the served window starts at event " + win.first + " (the whole trace expected)");
  check(JSON.stringify(got) === JSON.stringify(want),
        "CPU lanes served " + JSON.stringify(got) + ", the report's " + JSON.stringify(want));
  for (const l of want) check(labels.includes(l.name), "no label " + l.name + " among " + labels.join(", "));
  await served.screenshot({ path: path.join(work, "serve-cores.png") });
  check(errors.length === 0, "page errors: " + errors.join("; "));
  await browser.close();
  server.proc.kill("SIGINT");
  console.log("serve_cores: " + got.map((l) => l.name + " " + l.runs + " runs, " + l.migrations + " migrations").join("; "));
  finish("serve_cores_test");
})().catch((e) => { console.error("FAIL: " + (e.stack || e)); process.exit(1); });
