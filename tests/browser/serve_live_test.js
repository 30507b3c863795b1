#!/usr/bin/env node
/*
 * serve_live_test.js - `trx capture --serve` in headless Chromium: a stream
 * of the stream recorder (stream_writer: EVENTS events, many dropped at the
 * target, so lost events come in gaps all along) is sent over TCP in pieces
 * for several seconds; trx capture records it and serves the page while it
 * grows. Checks:
 *   - the URL is stdout's first line, the page loads while the capture runs;
 *   - the page sees at least three generations, and across them the events,
 *     the lost events (header) and the span grow; a view of the whole span
 *     follows the span;
 *   - a second page opened and closed, and a reload of the first, change
 *     nothing for the capture: it ends with status 0 and its file is the
 *     stream byte for byte, and its last generation's figures are never more
 *     than `trx info --json` of the finished file.
 * With ROTATE (bytes), the capture runs with --rotate ROTATE: the files
 * together are the stream byte for byte, the page follows the file being
 * written (at least two files seen, in order; within a file the figures
 * grow) and its last figures are never more than the last file's.
 *
 * usage: node serve_live_test.js TRX CHROMIUM WORK_DIR STREAM_WRITER [ROTATE]
 */
"use strict";
const { spawn, execFileSync } = require("child_process");
const fs = require("fs");
const net = require("net");
const path = require("path");
const { chromium } = require("playwright-core");

const [trx, chromiumPath, work, writer, rotate] = process.argv.slice(2);
const failures = [];
function check(cond, what) {
  if (!cond) failures.push(what);
}
fs.mkdirSync(work, { recursive: true });
const streamPath = path.join(work, "live_source.bin"), capturePath = path.join(work, rotate ? "rotated.uia" : "live.uia");
/* the capture's files: OUT, or OUT.000, OUT.001 ... with --rotate */
function captureFiles() {
  if (!rotate) return [capturePath];
  return fs.readdirSync(work).filter((f) => f.startsWith(path.basename(capturePath) + ".")).sort()
    .map((f) => path.join(work, f));
}
captureFiles().filter((f) => fs.existsSync(f)).forEach((f) => fs.unlinkSync(f));
execFileSync(writer, [streamPath, "200000", "2048", "512", "64", "8", "0"]);
const stream = fs.readFileSync(streamPath);

/* a TCP source: the stream in 40 pieces, 200 ms apart, then closed */
function source() {
  return new Promise((resolve) => {
    const srv = net.createServer((sock) => {
      let k = 0;
      const piece = Math.ceil(stream.length / 40);
      const timer = setInterval(() => {
        sock.write(stream.subarray(k * piece, Math.min(stream.length, (k + 1) * piece)));
        if (++k * piece >= stream.length) { clearInterval(timer); sock.end(); srv.close(); }
      }, 200);
    });
    srv.listen(0, "127.0.0.1", () => resolve(srv.address().port));
  });
}

(async () => {
  const port = await source();
  const cap = spawn(trx, ["capture", "tcp://127.0.0.1:" + port, "-o", capturePath, "--serve", "--port", "0"]
                    .concat(rotate ? ["--rotate", rotate] : []), { stdio: ["ignore", "pipe", "pipe"] });
  let out = "", err = "";
  cap.stderr.on("data", (d) => { err += d; });
  const exited = new Promise((r) => cap.on("exit", (code) => r(code)));
  const url = await new Promise((resolve, reject) => {
    cap.stdout.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    setTimeout(() => reject(new Error("no URL from trx capture --serve: " + err)), 10000);
  });
  check(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}$/.test(url), "URL line: " + url);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  const seen = [];
  let reloaded = false, second = null;
  const t0 = Date.now();
  for (;;) {
    const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 250))]);
    if (done) break;
    try {
      const s = await page.evaluate(() => window.trxReport ? trxReport.live() : null);
      if (s && s.generation && (!seen.length || seen[seen.length - 1].generation !== s.generation)) {
        const facts = await page.textContent("#facts");
        seen.push(Object.assign({ facts: facts }, s));
      }
    } catch (e) { /* the page is reloading */ }
    const t = Date.now() - t0;
    if (!second && t > 2500) { second = await context.newPage(); await second.goto(url); }
    if (second && t > 4000 && !second.isClosed()) await second.close();
    if (!reloaded && t > 4500) { reloaded = true; await page.reload(); }
  }
  const code = await exited;
  check(code === 0, "trx capture exited " + code + ": " + err);
  const files = captureFiles();
  check(Buffer.compare(Buffer.concat(files.map((f) => fs.readFileSync(f))), stream) === 0,
        "the capture (" + files.length + " files) differs from the stream");
  console.log("serve_live: generations seen: " + seen.map((s) => s.generation + ":" + s.total + "/" + s.lost +
              (rotate ? "@" + path.basename(s.source) : "")).join(" "));
  check(seen.length >= 3, "only " + seen.length + " generations seen");
  if (rotate) {
    const sources = seen.map((s) => path.basename(s.source)).filter((v, i, a) => !i || a[i - 1] !== v);
    check(files.length >= 3, "--rotate " + rotate + " made only " + files.length + " files");
    check(new Set(sources).size >= 2, "the page never followed the next file: " + sources.join(" "));
    check(sources.every((v, i) => !i || v > sources[i - 1] || seen.some((s, k) => k && s.generation < seen[k - 1].generation)),
          "files out of order: " + sources.join(" "));
  }
  let grown = 0;
  for (let k = 1; k < seen.length; k++) {
    const a = seen[k - 1], b = seen[k];
    if (b.generation < a.generation) continue; /* after the reload */
    if (b.source !== a.source) continue; /* --rotate: the next file from its start */
    /* a generation may come from bytes that hold no new whole packet: never less */
    check(b.total >= a.total, "events went back: " + a.total + " -> " + b.total);
    check(b.lost >= a.lost && b.span >= a.span, "lost / span went back: " + JSON.stringify([a, b]));
    if (b.total > a.total) grown++;
    check(b.view[1] >= b.span, "the whole-span view did not follow the span: " + JSON.stringify(b.view) + " " + b.span);
  }
  check(grown >= (rotate ? 1 : 2), "the events grew " + grown + " times only");
  const grew = seen.length >= 2 && seen.some((s, k) => k && s.source === seen[k - 1].source && s.lost > seen[k - 1].lost);
  check(grew, "the lost events never grew");
  const last = seen[seen.length - 1] || { lost: 0, total: 0 };
  check(!last.lost || last.facts.includes(last.lost.toLocaleString("en-US")), "the header does not show " + last.lost + " lost: " + last.facts);
  const lastFile = rotate ? (last.source || capturePath) : capturePath;
  /* the capture may step to its last file and end before the refresher makes a
     generation of it (at most one a second): the last file or the one before */
  const lastTwo = files.slice(-2).map((f) => path.basename(f));
  check(!rotate || lastTwo.includes(path.basename(lastFile)) ||
        seen.length < 3, "the last generation shows " + lastFile + ", the last files are " + lastTwo.join(", "));
  const info = JSON.parse(execFileSync(trx, ["info", "--json", path.join(work, path.basename(lastFile))]).toString());
  const finalLost = info.lost_events !== undefined ? info.lost_events : info.uia ? info.uia.lost_events : null;
  check(last.total <= info.records, "the page showed " + last.total + " events, the file has " + info.records);
  check(finalLost === null || last.lost <= finalLost, "the page showed " + last.lost + " lost, the file has " + finalLost);
  check(errors.length === 0, "page errors: " + errors.join("; "));
  await browser.close();
  if (failures.length) {
    failures.forEach((f) => console.error("FAIL: " + f));
    process.exit(1);
  }
  console.log("serve_live_test: OK (" + seen.length + " generations; last " + last.total + " events, " + last.lost + " lost)");
})().catch((e) => { console.error("FAIL: " + (e.stack || e)); process.exit(1); });
