#!/usr/bin/env node
/*
 * frame_bench.js - the draw time of the served page's zoomed-out frame: `trx
 * serve TRACE` opened in headless Chromium (playwright-core from
 * tests/browser/node_modules), the whole span in view once the overview is
 * built (a summary: a bar per lane and column), then 21 frames drawn one
 * after another through the page's trxReport.drawFrame() hook; prints their
 * median and spread in ms, for the page width given (CSS pixels, default
 * 1400).
 *
 * usage: node bench/serve/frame_bench.js TRX CHROMIUM TRACE [WIDTH]
 * (bench/serve/bench_serve.sh writes a 10 M-entry trace: $TMPDIR/trx-bench-serve/gen10000000.trx)
 */
"use strict";
const path = require("path");
const { chromium } = require(path.join(__dirname, "../../tests/browser/node_modules/playwright-core"));
const { startServer, waitFor } = require(path.join(__dirname, "../../tests/browser/serve_util"));

const [trx, chromiumPath, trace, widthArg] = process.argv.slice(2);
const width = Number(widthArg || 1400);

(async () => {
  const server = await startServer(trx, [trace, "--port", "0"]);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  try {
    const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
    await page.goto(server.url);
    await waitFor(page, () => window.trxReport && window.trxReport.timings, null, 10000);
    await waitFor(page, () => !/summarised/.test(document.getElementById("range").textContent), null, 120000);
    const before = await page.evaluate(() => trxReport.window().answers);
    await page.click("#fit");
    await page.evaluate(() => trxReport.refresh());
    await waitFor(page, (n) => trxReport.window().answers > n && trxReport.window().mode === "summary", before, 10000);
    const ms = [];
    for (let k = 0; k < 21; k++) ms.push(await page.evaluate(() => trxReport.drawFrame()));
    ms.sort((a, b) => a - b);
    const s = await page.evaluate(() => { const s = trxReport.summary(); return { cols: s.cols, lanes: s.lanes.length }; });
    const total = await page.evaluate(() => JSON.parse(document.getElementById("trx-meta").textContent).serve.total);
    console.log("frame_bench: " + total + " events, zoomed out: a summary of " + s.cols + " columns x " + s.lanes +
                " lanes; frame " + ms[10].toFixed(1) + " ms median (min " + ms[0].toFixed(1) + ", max " +
                ms[20].toFixed(1) + ", 21 frames)");
  } finally {
    await browser.close();
    server.proc.kill("SIGINT");
  }
})().catch((e) => { console.error("frame_bench: " + (e.stack || e)); process.exit(1); });
