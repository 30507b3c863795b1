/*
 * serve_util.js - what the trx serve browser tests share: failures
 * collected by check(), trx serve started on a free port (its URL from
 * stdout's first line), waiting for a condition in the page, and the end
 * (failures printed, exit status).
 */
"use strict";
const { spawn } = require("child_process");

const failures = [];
function check(cond, what) {
  if (!cond) failures.push(what);
}

/* Starts `trx serve ARGS...`; resolves with the process, its URL, the ms it took and its stderr. */
function startServer(trx, args) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const p = spawn(trx, ["serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    p.stderr.on("data", (d) => { err += d; });
    p.stdout.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve({ proc: p, url: out.slice(0, nl), ms: Date.now() - t0, stderr: () => err });
    });
    p.on("exit", (code) => reject(new Error("trx serve exited " + code + ": " + err)));
  });
}

async function waitFor(page, fn, arg, ms) {
  await page.waitForFunction(fn, arg, { timeout: ms, polling: 10 });
}

/* Opens the served page `url` in a new context of `browser` (viewport
 * 1400 x `height`) and waits until its statistics are in and its window holds
 * exact events on two CPU lanes or more; page errors go to `errors`. */
async function openServedMulticore(browser, url, height, errors) {
  const context = await browser.newContext({ viewport: { width: 1400, height } });
  const served = await context.newPage();
  served.on("pageerror", (e) => errors.push(String(e)));
  await served.goto(url);
  await served.waitForFunction(() => window.trxReport && !trxReport.stats().pending &&
    trxReport.window().mode === "events" && trxReport.cpuLanes().length >= 2, null, { timeout: 60000 });
  return { context, served };
}

/* Prints the failures (exit 1) or "NAME: OK". */
function finish(name) {
  if (failures.length) {
    failures.forEach((f) => console.error("FAIL: " + f));
    process.exit(1);
  }
  console.log(name + ": OK");
}

module.exports = { check, startServer, waitFor, openServedMulticore, finish };
