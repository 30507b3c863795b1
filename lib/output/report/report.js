/*
 * report.js - the interactive time line of `trx report` (inlined into the
 * written file; no network, no libraries).
 *
 * Data (written by lib/output/report_html.c): #trx-meta (JSON: header facts,
 * lanes, registry objects, `trx stats --json`, inversion windows),
 * #trx-events (base64 of one varint record per event: tick delta, id,
 * lane*4+flows*2+synthetic, next lane, priority (thread contexts), info1..4
 * as zigzag differences from the previous event with that id, then the flows
 * ending there) and #trx-types (JSON:
 * event count, name / component / field captions per id used).
 *
 * Drawing is bounded per frame whatever the trace size: lanes hold sorted
 * event and run-slice indexes, only the visible range is walked (binary
 * search), and at most one mark / bar is drawn per pixel column (skipping
 * ahead by binary search), so 2 M events zoomed out cost what 2 k do. A run
 * bar's height is the part of its column's time the context ran (the run
 * time before each slice is kept per lane: two bisections a column), as in
 * a served page's summary columns (their busy per mille). Late instances
 * (meta.late, a served view's "late") are marks per lane: setLateMarks.
 */
(function () {
  "use strict";
  var t0 = performance.now();
  var $ = function (id) { return document.getElementById(id); };

  /* ------------------------------------------------------------ data */
  var meta = JSON.parse($("trx-meta").textContent);
  var types = JSON.parse($("trx-types").textContent);
  var stats = meta.stats || { pending: true }; /* trx serve: fetched once computed */
  var n = types.count;
  var firstIndex = meta.first_index || 0;
  var rate = meta.ticks_per_second || 0; /* 0: unknown */

  /* trx serve: the page of a served trace holds one window of its events at a
   * time (fetched from api/view and api/events) and draws the rest from
   * summaries; firstIndex is then the window's first event number */
  var serve = meta.serve || null;
  var token = serve ? new URLSearchParams(location.search).get("token") || "" : "";
  var ticks, ids, lane, next, prio, info, synth, core;
  var cores = Math.max(1, meta.context_cores || 1); /* cores with contexts of their own */

  /* base64 -> bytes: the browser's own decoder when it has one */
  function decodeBase64(text) {
    text = text.trim(); /* one line: no white space inside */
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
    var bin = atob(text), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  var flowS = [], flowE = [], flowRun = []; /* cause, effect, effect is a lane starting to run */
  function decodeEvents(text, count) {
    n = count;
    ticks = new Float64Array(n); ids = new Uint16Array(n); lane = new Uint32Array(n);
    next = new Uint32Array(n); prio = new Uint32Array(n); info = new Uint32Array(4 * n);
    synth = new Uint8Array(n); core = new Uint8Array(cores > 1 ? n : 0);
    flowS = []; flowE = []; flowRun = [];
    var b = decodeBase64(text), p = 0, t = 0, len = b.length;
    var lanesN = meta.lanes.length, prev = new Uint32Array(65536 * 4), isThread = new Uint8Array(lanesN);
    meta.lanes.forEach(function (l, k) { isThread[k] = l.kind === "thread" ? 1 : 0; });
    function varint() {
      var x = b[p++];
      if (x < 128) return x;
      var v = x & 127, mul = 128;
      do { x = b[p++]; v += (x & 127) * mul; mul *= 128; } while (x & 128 && p < len);
      return v;
    }
    for (var i = 0; i < n && p < len; i++) {
      t += varint();
      ticks[i] = t;
      var id = ids[i] = varint();
      var l = varint(), hasFlows = l & 2;
      synth[i] = l & 1;
      l = Math.min(Math.floor(l / 4), lanesN - 1);
      lane[i] = l;
      next[i] = Math.min(varint(), lanesN - 1);
      if (cores > 1) core[i] = Math.min(varint(), cores - 1);
      if (isThread[l]) prio[i] = varint();
      for (var k = 0, at = 4 * id; k < 4; k++, at++) {
        var z = varint(), d = z & 1 ? ~(z >>> 1) : z >>> 1;
        info[4 * i + k] = prev[at] = (prev[at] + d) >>> 0;
      }
      if (hasFlows) /* flows ending here: count, then (distance back)*2 + ends-at-a-run */
        for (var c = varint(); c > 0; c--) {
          var f = varint();
          flowS.push(i - Math.floor(f / 2)); flowE.push(i); flowRun.push(f & 1);
        }
    }
    if (i < n) n = i; /* truncated data: show what is there */
    flowS = Uint32Array.from(flowS); flowE = Uint32Array.from(flowE); flowRun = Uint8Array.from(flowRun);
  }
  decodeEvents($("trx-events").textContent, n);
  var tDecoded = performance.now();

  /* --------------------------------------------------- lanes and slices */
  var lanes = meta.lanes.map(function (l, k) {
    return { k: k, name: l.name, kind: l.kind, address: l.address, used: l.used,
             nev: 0, nseg: 0, ev: null, segS: null, segE: null };
  });
  function index() {
    var L = lanes.length, i, l;
    lanes.forEach(function (x) { x.nev = 0; x.nseg = 0; x.cum = null; });
    for (i = 0; i < n; i++) lanes[lane[i]].nev++;
    /* run slices: per core (one core unless meta.context_cores), a slice of
     * the next context from an event to the core's event that changes it */
    function runs(push) {
      var cur = new Int32Array(cores).fill(-1), start = new Uint32Array(cores), last = new Uint32Array(cores);
      for (i = 0; i < n; i++) {
        var c = cores > 1 ? core[i] : 0;
        if (cur[c] >= 0 && next[i] !== cur[c]) { push(cur[c], start[c], i); cur[c] = -1; }
        if (cur[c] < 0) { cur[c] = next[i]; start[c] = i; }
        last[c] = i;
      }
      for (var c2 = 0; c2 < cores; c2++) if (cur[c2] >= 0) push(cur[c2], start[c2], last[c2]);
    }
    runs(function (ln) { lanes[ln].nseg++; });
    for (l = 0; l < L; l++) {
      lanes[l].ev = new Uint32Array(lanes[l].nev); lanes[l].nev = 0;
      lanes[l].segS = new Uint32Array(lanes[l].nseg); lanes[l].segE = new Uint32Array(lanes[l].nseg);
      lanes[l].nseg = 0;
    }
    for (i = 0; i < n; i++) { l = lanes[lane[i]]; l.ev[l.nev++] = i; }
    runs(function (ln, s, e) { var x = lanes[ln]; x.segS[x.nseg] = s; x.segE[x.nseg] = e; x.nseg++; });
  }
  index();
  /* shown: threads (first of their address) with events or run time, then ISR, init, idle
   * (served: every lane the trace has, whatever the window holds) */
  /* (a lane the trace leaves empty is marked unused: meta.lanes' "used") */
  var shown = lanes.filter(function (l) {
    return l.used && (serve || l.nev > 0 || l.nseg > 0 || l.kind === "thread");
  });
  /* CPU lanes (multi-core traces): per core the runs [core, first, last, lane]
   * of meta.cores, drawn in the colour of the thread; a run whose thread last
   * ran on another core is a migration (marked). */
  /* (served: the runs and the cores come with each window of exact events) */
  function cpuLanesOf(all, coreList) {
    var runs = (all || []).filter(function (r) { return r[1] - firstIndex < n && r[2] >= firstIndex; });
    var cores = coreList ? coreList.slice() : [];
    if (!coreList) runs.forEach(function (r) { if (cores.indexOf(r[0]) < 0) cores.push(r[0]); });
    if (cores.length < 2) return [];
    cores.sort(function (a, b) { return a - b; });
    runs.sort(function (a, b) { return a[1] - b[1] || a[0] - b[0]; });
    var byCore = {}, lastCore = {};
    cores.forEach(function (c) {
      byCore[c] = { k: -1, name: "CPU " + c, kind: "cpu", used: true, nev: 0, ev: new Uint32Array(0),
                    nseg: 0, segS: [], segE: [], segLane: [], mig: [], migrations: 0 };
    });
    runs.forEach(function (r) {
      var l = byCore[r[0]], ln = Math.min(r[3], lanes.length - 1);
      l.segS.push(Math.max(0, r[1] - firstIndex)); l.segE.push(Math.min(n - 1, r[2] - firstIndex));
      l.segLane.push(ln);
      var moved = lanes[ln].kind === "thread" && lastCore[ln] !== undefined && lastCore[ln] !== r[0];
      l.mig.push(moved ? 1 : 0);
      if (moved) l.migrations++;
      if (lanes[ln].kind === "thread") lastCore[ln] = r[0];
      l.nseg++;
    });
    return cores.map(function (c) { return byCore[c]; });
  }
  var cpuLanes = cpuLanesOf(meta.cores, null);
  /* the target's own CPU load (SYS/BIOS Load module), a lane per core: each
   * report covers the time since the core's previous one */
  var loadLanes = (meta.loads || types.loads || []).map(function (c) { /* served: in the meta */
    return { k: -1, name: "Target load core " + c[0], kind: "load", used: true, nev: 0, ev: new Uint32Array(0),
             nseg: c[1].length, segS: [], segE: [], points: c[1] };
  });
  shown = cpuLanes.concat(loadLanes, shown);
  var inv = (meta.inversions || []).map(function (v) {
    return [v[0] - firstIndex, v[1] - firstIndex, v[2]];
  }).filter(function (v) { return v[0] >= 0 && v[0] < n; });
  inv.sort(function (a, b) { return a[0] - b[0]; });
  var invMaxEnd = new Float64Array(inv.length);
  for (var q = 0, m = -1; q < inv.length; q++) { m = Math.max(m, Math.min(inv[q][1], n - 1)); invMaxEnd[q] = m; }

  /* lost-event gaps: [first event after the gap, lost, from ticks, to ticks] */
  function localGaps(list) {
    return (list || []).map(function (g) { return [g[0] - firstIndex, g[1], g[2], g[3]]; })
      .filter(function (g) { return g[0] >= 0 && g[0] <= n; });
  }
  var gaps = localGaps(meta.gaps);
  function gapStart(g) { return seq ? g[0] - 0.5 : g[2]; }
  function gapEnd(g) { return seq ? g[0] - 0.5 : Math.max(g[2], g[3]); }
  function gapBefore(i) {
    var lo = 0, hi = gaps.length;
    while (lo < hi) { var mid = (lo + hi) >>> 1; if (gaps[mid][0] < i) lo = mid + 1; else hi = mid; }
    return lo < gaps.length && gaps[lo][0] === i ? gaps[lo] : null;
  }

  var objects = new Map();
  (meta.objects || []).forEach(function (o) { if (!objects.has(o.a)) objects.set(o.a, o); });
  var typeOf = function (id) {
    var t = types.types[id];
    return t || [id >= 4096 ? "User Event" : "Unknown Event", id >= 4096 ? "user" : "threadx", ["", "", "", ""], ""];
  };
  var SYMS = types.symbols || {}; /* --elf: address -> "symbol+0x10" */
  /* A UIA message format (xdc.runtime.Text style) with the event's words:
   * an address ("0x%x" as SYS/BIOS prints handles and functions, %p) is
   * followed by its symbol; words past the fourth are not in the page. */
  function formatMessage(fmt, i) {
    var k = 0;
    return fmt.replace(/%([-+ #0]*)(\d*)(\.\d+)?[hlLzjt]*([diuxXocps%]|\$S|\$F)/g, function (m, fl, w, pr, c, at, s) {
      if (c === "%") return "%";
      var v = k < 4 ? info[4 * i + k] >>> 0 : null;
      k++;
      if (v === null) return "?";
      var txt;
      if (c === "d" || c === "i") txt = String(v | 0);
      else if (c === "u") txt = String(v);
      else if (c === "x") txt = v.toString(16);
      else if (c === "X") txt = v.toString(16).toUpperCase();
      else if (c === "o") txt = v.toString(8);
      else if (c === "c") txt = String.fromCharCode(v & 255);
      else txt = "0x" + v.toString(16);
      var address = c === "p" || c === "s" || c === "$S" || ((c === "x" || c === "X") && s.slice(at - 2, at) === "0x");
      return address && SYMS[v] ? txt + " <" + SYMS[v] + ">" : txt;
    });
  }

  /* ------------------------------------------------------- event kinds */
  var KINDS = [
    ["running (synthetic)", "#9aa3b2"], ["thread resume / suspend", "#2463eb"], ["interrupt", "#d93025"],
    ["queue", "#f29900"], ["semaphore", "#9334e6"], ["mutex", "#8d6e63"], ["event flags", "#00897b"],
    ["thread API", "#0b8043"], ["memory pools / timers", "#5f6368"], ["user event", "#e52592"],
    ["FileX / NetX / USBX", "#1a73e8"], ["other", "#455a64"]];
  var UIA_KINDS = { task: 1, interrupt: 2, sync: 4, uia: 9 }; /* SYS/BIOS's events by what they are */
  function kindOf(i) { return synth[i] ? 0 : kindOfId(ids[i]); }
  function kindOfId(id) {
    id = Number(id);
    var uia = UIA_KINDS[typeOf(id)[1]];
    if (uia !== undefined) return uia;
    if (id === 1 || id === 2) return 1;
    if (id === 3 || id === 4 || id === 5) return 2;
    if (id >= 4096) return 9;
    var cat = typeOf(id)[1];
    if (cat !== "threadx" && cat !== "freertos") return 10; /* the kernel's events, by RTOS */
    if (id >= 60 && id <= 72) return 3;
    if (id >= 80 && id <= 89) return 4;
    if (id >= 50 && id <= 59) return 5;
    if (id >= 40 && id <= 49) return 6;
    if (id >= 100 && id <= 130) return 7;
    if ((id >= 10 && id <= 39) || (id >= 131 && id <= 140)) return 8;
    return 11;
  }
  var LANE_COLOR = { thread: "#3aa757", isr: "#d93025", swi: "#f29900", init: "#7b8cde", idle: "#c4cad4",
                     unknown: "#9aa3b2", cpu: "#1a73e8", load: "#12b5cb" };
  /* a CPU lane's runs: one colour per thread lane (interrupts red) */
  var PALETTE = ["#3aa757", "#1a73e8", "#f29900", "#9334e6", "#12b5cb", "#e52592", "#7cb342", "#795548"];
  function runColor(ln) {
    var k = lanes[ln].kind;
    return k === "isr" || k === "swi" ? LANE_COLOR[k] : PALETTE[ln % PALETTE.length];
  }

  /* ------------------------------------------------------------- view */
  var canvas = $("timeline"), ctx = canvas.getContext("2d");
  var LABEL = 150, RULER = 28, ROW = 24, PAD = 8;
  var seq = false, useUs = false;
  var v0 = 0, v1 = 1, selected = -1;
  function pos(i) { return seq ? i : ticks[i]; }
  function fullRange() {
    /* served, sequential: positions are event numbers less the window's first */
    if (serve) return seq ? [-firstIndex, Math.max(1, serve.total - 1) - firstIndex] : [0, Math.max(1, meta.span_ticks)];
    if (!n) return [0, 1];
    var a = pos(0), b = pos(n - 1);
    return b > a ? [a, b] : [a, a + 1];
  }
  function fit() { var r = fullRange(); var m = (r[1] - r[0]) * 0.01; v0 = r[0] - m; v1 = r[1] + m; }
  /* the plot's width; while a frame is drawn, the frame's (read once: each
   * read of the layout costs more than a column of the frame) */
  var frameW = 0;
  function plotW() { return frameW || Math.max(10, canvas.clientWidth - LABEL - PAD); }
  function xOf(p) { return LABEL + (p - v0) / (v1 - v0) * plotW(); }
  function pAt(x) { return v0 + (x - LABEL) / plotW() * (v1 - v0); }
  /* first k in [lo, arr.length) with pos(arr[k]) >= p (arr sorted by position) */
  function lower(arr, p, lo, hi) {
    lo = lo || 0; hi = hi === undefined ? arr.length : hi;
    while (lo < hi) { var mid = (lo + hi) >>> 1; if (pos(arr[mid]) < p) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function lowerAll(p) { /* over all events */
    var lo = 0, hi = n;
    while (lo < hi) { var mid = (lo + hi) >>> 1; if (pos(mid) < p) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function timeText(tk) {
    if (useUs && rate) {
      var us = tk * 1e6 / rate;
      return (Math.abs(us) >= 1e6 ? (us / 1e6).toFixed(6) + " s" : us.toFixed(us < 10 ? 3 : 1) + " µs");
    }
    return Math.round(tk).toLocaleString("en-US") + " ticks";
  }
  function posText(p) { return seq ? "#" + Math.round(p + firstIndex) : timeText(p); }

  /* ------------------------------------------------------------ drawing */
  var pending = false, progress = "";
  function redraw() { if (!pending) { pending = true; requestAnimationFrame(draw); } }
  var firstPaint = 0;
  /* the lane names as DOM text, one per row, over the canvas's label column */
  function placeLabels() {
    $("lane-labels").innerHTML = shown.map(function (l, r) {
      var c = l.kind === "cpu" ? LANE_COLOR.cpu : LANE_COLOR[l.kind] || LANE_COLOR.thread;
      return '<div class="lane-label" style="top:' + (RULER + r * ROW) + "px;--c:" + c + '" title="' + esc(l.name) + '">' +
        esc(l.name) + "</div>";
    }).join("");
  }
  function resize() {
    placeLabels();
    var dpr = window.devicePixelRatio || 1, w = $("timeline-box").clientWidth;
    var h = RULER + shown.length * ROW + PAD;
    canvas.style.height = h + "px";
    canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }
  function niceStep(raw) {
    var e = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / e;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
  }
  var rulerLabels = [];
  function drawRuler(W, H) {
    ctx.fillStyle = "#f3f5f8"; ctx.fillRect(0, 0, W, RULER);
    ctx.strokeStyle = "#d9dde5"; ctx.beginPath(); ctx.moveTo(0, RULER + 0.5); ctx.lineTo(W, RULER + 0.5); ctx.stroke();
    var span = v1 - v0, unit = 1;
    if (!seq && useUs && rate) unit = rate / 1e6; /* ticks per µs: steps in µs */
    var step = niceStep(span / unit / Math.max(1, plotW() / 110)) * unit;
    if (seq) step = Math.max(1, step);
    ctx.fillStyle = "#1d2330"; ctx.font = "11px system-ui, sans-serif"; ctx.textBaseline = "middle";
    ctx.strokeStyle = "#e3e6ec";
    var off = seq ? firstIndex : 0; /* sequential: round event numbers, whatever the window's first */
    rulerLabels = [];
    for (var p = Math.max(0, Math.ceil((v0 + off) / step)) * step - off, k = 0; p <= v1 && k < 200; p += step, k++) {
      var x = Math.round(xOf(p)) + 0.5;
      if (x < LABEL) continue;
      ctx.beginPath(); ctx.moveTo(x, RULER - 8); ctx.lineTo(x, H); ctx.stroke();
      var label = posText(p);
      rulerLabels.push(label);
      if (x + 3 + ctx.measureText(label).width <= W) ctx.fillText(label, x + 3, RULER / 2 - 2);
    }
    ctx.fillStyle = "#6a7385";
    ctx.fillText(seq ? "event #" : useUs && rate ? "time" : "ticks", 8, RULER / 2);
  }
  function drawCpuBars(l, y) {
    /* a core's runs follow each other: both ends are sorted, so the first run
     * in view is found by bisection and runs inside a drawn pixel are skipped */
    var S = l.segS, E = l.segE, m = l.nseg, lo = 0, hi = m, mid, right = LABEL + plotW();
    while (lo < hi) { mid = (lo + hi) >>> 1; if (pos(E[mid]) < v0) lo = mid + 1; else hi = mid; }
    var k = lo;
    while (k < m) {
      var ps = pos(S[k]);
      if (ps > v1) break;
      var xs = Math.floor(Math.max(LABEL, xOf(ps))), xe = Math.ceil(Math.min(right, xOf(pos(E[k]))));
      var w = Math.max(1, xe - xs);
      ctx.fillStyle = runColor(l.segLane[k]);
      ctx.fillRect(xs, y + 5, w, 14);
      if (l.mig[k]) { /* a migration: the thread ran on another core before */
        ctx.fillStyle = "#1d2330";
        ctx.beginPath(); ctx.moveTo(xs, y + 2); ctx.lineTo(xs + 5, y + 2); ctx.lineTo(xs, y + 8); ctx.fill();
      }
      var pNext = pAt(xs + w);
      lo = k + 1; hi = m;
      while (lo < hi) { mid = (lo + hi) >>> 1; if (pos(E[mid]) < pNext) lo = mid + 1; else hi = mid; }
      k = lo;
    }
  }
  /* the event position of time `tk` (sequential mode: the first event at or after it) */
  function posOfTicks(tk) {
    if (!seq) return tk;
    var lo = 0, hi = n;
    while (lo < hi) { var mid = (lo + hi) >>> 1; if (ticks[mid] < tk) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function drawLoad(l, y) {
    var P = l.points, right = LABEL + plotW(), from = n ? pos(0) : 0;
    ctx.fillStyle = LANE_COLOR.load;
    for (var k = 0; k < P.length; k++) {
      var to = posOfTicks(P[k][0]), h = Math.max(1, Math.round(Math.min(100, P[k][1]) * (ROW - 6) / 100));
      if (to >= v0 && from <= v1) {
        var xs = Math.floor(Math.max(LABEL, xOf(from))), xe = Math.ceil(Math.min(right, xOf(to)));
        ctx.fillRect(xs, y + ROW - 3 - h, Math.max(1, xe - xs), h);
      }
      from = to;
    }
  }
  /* A lane's run bar per pixel column (zoomed out as zoomed in): its height is
   * the part of the column's span the context ran (BAR_H when it ran all of
   * it, at least BAR_MIN when it ran at all), bottom-aligned, as Perfetto's
   * quantized CPU view; the heights drawn are kept for the tests (barsDrawn:
   * per row [x, width, height, summary column or -1] ...). */
  var BAR_TOP = 11, BAR_H = 10, BAR_MIN = 2, barsDrawn = [];
  function barHeight(part) { return part > 0 ? Math.max(BAR_MIN, Math.min(1, part) * BAR_H) : 0; }
  function barRect(row, y, x, w, h, col, path) { /* path: added to it, filled later */
    if (path) path.rect(x, y + BAR_TOP + BAR_H - h, w, h);
    else ctx.fillRect(x, y + BAR_TOP + BAR_H - h, w, h);
    (barsDrawn[row] || (barsDrawn[row] = [])).push(x, w, h, col);
  }
  /* per lane, the run positions before each slice (on the current axis), made when first needed */
  function runBefore(l) {
    if (l.cum && l.cum.seq === seq && l.cum.n === l.nseg) return l.cum.at;
    var at = new Float64Array(l.nseg + 1);
    for (var k = 0; k < l.nseg; k++) at[k + 1] = at[k] + Math.max(0, pos(l.segE[k]) - pos(l.segS[k]));
    l.cum = { seq: seq, n: l.nseg, at: at };
    return at;
  }
  /* how long lane l ran before position p (sets runSlice: the first slice ending at or after p) */
  var runSlice = 0;
  function ranBefore(l, before, p) {
    var E = l.segE, lo = 0, hi = l.nseg;
    while (lo < hi) { var mid = (lo + hi) >>> 1; if (pos(E[mid]) < p) lo = mid + 1; else hi = mid; }
    runSlice = lo;
    var s = lo < l.nseg ? pos(l.segS[lo]) : p;
    return before[lo] + (p > s ? p - s : 0);
  }
  function drawBars(l, y, row) {
    if (l.kind === "cpu") return drawCpuBars(l, y);
    if (l.kind === "load") return drawLoad(l, y);
    var m = l.nseg, S = l.segS, right = LABEL + plotW();
    if (!m) return;
    var before = runBefore(l);
    ranBefore(l, before, v0);
    if (runSlice >= m || pos(S[runSlice]) > v1) return;
    ctx.fillStyle = LANE_COLOR[l.kind] || LANE_COLOR.thread;
    /* columns without a slice are skipped by bisection: the cost is the
     * columns or slices in view, whichever fewer, times log(slices) */
    var x = Math.max(LABEL, Math.floor(xOf(pos(S[runSlice])))), runX = x, runH = 0;
    var prevX = -2, prevRan = 0, prevNext = 0;
    while (x < right) {
      var a = pAt(x), b = pAt(x + 1), ranA;
      if (prevX === x - 1) ranA = prevRan; /* the column before ended where this one begins */
      else ranA = ranBefore(l, before, a);
      var ranB = ranBefore(l, before, b);
      prevX = x; prevRan = ranB; prevNext = runSlice; /* the first slice ending at or after b */
      var h = barHeight((ranB - ranA) / (b - a));
      if (h !== runH) { /* a run of columns of one height: one rectangle */
        if (runH) barRect(row, y, runX, x - runX, runH, -1);
        runX = x; runH = h;
      }
      if (!h) { /* nothing ran here: on to the column of the next slice */
        if (prevNext >= m || pos(S[prevNext]) > v1) break;
        x = Math.max(x + 1, Math.floor(xOf(pos(S[prevNext]))));
        runX = x;
        continue;
      }
      x++;
    }
    if (runH) barRect(row, y, runX, x - runX, runH, -1);
  }
  function drawMarks(l, y) {
    var ev = l.ev, k = lower(ev, v0), right = LABEL + plotW();
    while (k < ev.length) {
      var i = ev[k], p = pos(i);
      if (p > v1) break;
      var x = Math.floor(xOf(p));
      if (x >= LABEL && x <= right) {
        ctx.fillStyle = KINDS[kindOf(i)][1];
        ctx.fillRect(x - 1, y + 2, 3, 8);
      }
      k = Math.max(k + 1, lower(ev, pAt(x + 3), k + 1));
    }
  }
  function drawInversions(H) {
    if (!inv.length) return;
    var lo = 0, hi = inv.length, lastX = -1;
    while (lo < hi) { var mid = (lo + hi) >>> 1; if (pos(invMaxEnd[mid]) < v0) lo = mid + 1; else hi = mid; }
    for (var k = lo; k < inv.length; k++) {
      var a = pos(inv[k][0]), b = pos(Math.min(inv[k][1], n - 1));
      if (a > v1) break;
      if (b < v0) continue;
      var xa = Math.max(LABEL, xOf(a)), xb = Math.min(LABEL + plotW(), xOf(b));
      if (xb < lastX) continue; /* hidden under the band just drawn */
      ctx.fillStyle = inv[k][2] ? "rgba(217,48,37,0.22)" : "rgba(242,153,0,0.20)";
      ctx.fillRect(xa, RULER, Math.max(2, xb - xa), H - RULER);
      ctx.fillStyle = inv[k][2] ? "#d93025" : "#f29900"; /* a marker in the ruler */
      ctx.fillRect(xa, RULER - 4, Math.max(2, xb - xa), 4);
      lastX = Math.max(xb, xa + 2);
    }
  }
  function drawGaps(H) {
    var lo = 0, hi = gaps.length, lastX = -1;
    while (lo < hi) { var mid = (lo + hi) >>> 1; if (gapEnd(gaps[mid]) < v0) lo = mid + 1; else hi = mid; }
    for (var k = lo; k < gaps.length; k++) {
      var a = gapStart(gaps[k]), b = gapEnd(gaps[k]);
      if (a > v1) break;
      var xa = Math.floor(Math.max(LABEL, xOf(a))), xb = Math.max(xa + 3, Math.ceil(Math.min(LABEL + plotW(), xOf(b))));
      if (xb <= lastX) continue; /* under the band just drawn */
      ctx.fillStyle = "rgba(60,64,67,0.18)";
      ctx.fillRect(xa, RULER, xb - xa, H - RULER);
      ctx.fillStyle = "#3c4043";
      ctx.fillRect(xa, RULER - 4, xb - xa, 4);
      lastX = xb;
    }
  }
  /* Late instances: per lane the marks of its late ones (the latency engine's,
   * include/trx/latency.h, once it gives them: meta.late in a report, "late"
   * in a served /api/view answer), each [ticks, event number]; drawn as red
   * wedges at the top of the lane, at most one per LATE_STEP pixels (the
   * first of them; zooming in shows the others). */
  var LATE_STEP = 6, lateMarks = {}, lateDrawn = [];
  function setLateMarks(list) {
    lateMarks = {};
    (list || []).forEach(function (entry) {
      var marks = entry[1].slice().sort(function (p, q) { return p[0] - q[0] || p[1] - q[1]; });
      lateMarks[entry[0]] = { ticks: Float64Array.from(marks, function (m) { return m[0]; }),
                              number: Float64Array.from(marks, function (m) { return m[1]; }) };
    });
  }
  setLateMarks(meta.late);
  function latePos(marks, k) { return seq ? marks.number[k] - firstIndex : marks.ticks[k]; }
  function lateFrom(marks, p) {
    var lo = 0, hi = marks.ticks.length;
    while (lo < hi) { var mid = (lo + hi) >>> 1; if (latePos(marks, mid) < p) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function drawLate(l, y) {
    var marks = l.k >= 0 ? lateMarks[l.k] : null;
    if (!marks) return;
    ctx.fillStyle = "#b3261e";
    for (var k = lateFrom(marks, v0); k < marks.ticks.length; ) {
      var p = latePos(marks, k);
      if (p > v1) break;
      var x = xOf(p);
      ctx.beginPath(); ctx.moveTo(x - 4, y + 1); ctx.lineTo(x + 4, y + 1); ctx.lineTo(x, y + 9); ctx.fill();
      lateDrawn.push([l.name, marks.number[k], x]);
      k = Math.max(k + 1, lateFrom(marks, pAt(x + LATE_STEP)));
    }
  }
  /* The Responses view: the critical path of one instance drawn over the
   * lanes it involves (meta.latency / api/latency: "draw" [start, end, state,
   * lane, depth(, holder lane)], "wake" [lane, event number]): a band per
   * segment coloured by state, an arrow for the wake-up and for each lock
   * handoff; what was drawn is kept for the tests (pathDrawn). */
  var latency = meta.latency || null, shownPath = null, pathDrawn = [];
  var SEG_COLOR = { running: "#188038", preempted: "#f29900", interrupted: "#d93025", blocked: "#9334e6",
                    ready: "#9aa3b2", waiting: "#5f6368" };
  function pathArrow(p, fromRow, toRow) {
    var x = xOf(posOfTicks(p)), y1 = RULER + fromRow * ROW + 12, y2 = RULER + toRow * ROW + (toRow > fromRow ? 3 : 21);
    ctx.strokeStyle = ctx.fillStyle = "#1d2330"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(x, y1); ctx.lineTo(x, y2); ctx.stroke();
    var d = y2 > y1 ? -1 : 1;
    ctx.beginPath(); ctx.moveTo(x, y2); ctx.lineTo(x - 4, y2 + 7 * d); ctx.lineTo(x + 4, y2 + 7 * d); ctx.fill();
    ctx.lineWidth = 1;
  }
  function drawPath() {
    pathDrawn = [];
    if (!shownPath) return;
    var w = shownPath.worst, right = LABEL + plotW();
    (w.draw || []).forEach(function (d) {
      var row = laneRow[d[3]];
      pathDrawn.push({ start: d[0], end: d[1], state: d[2], lane: lanes[d[3]] ? lanes[d[3]].name : null, depth: d[4] });
      if (row === undefined) return;
      var xa = Math.max(LABEL, xOf(posOfTicks(d[0]))), xb = Math.min(right, xOf(posOfTicks(d[1])));
      if (xb < LABEL || xa > right) return;
      var y = RULER + row * ROW;
      ctx.fillStyle = SEG_COLOR[d[2]] || "#455a64";
      ctx.globalAlpha = 0.3; ctx.fillRect(xa, y + 1, Math.max(2, xb - xa), ROW - 2);
      ctx.globalAlpha = 1; ctx.fillRect(xa, y + ROW - 5, Math.max(2, xb - xa), 4);
    });
    var own = laneRow[shownPath.thread.lane];
    if (w.wake && laneRow[w.wake[0]] !== undefined && own !== undefined && laneRow[w.wake[0]] !== own)
      pathArrow(w.release_ticks, laneRow[w.wake[0]], own);
    (w.draw || []).forEach(function (d) { /* a lock handed off: from its holder at the wait's end */
      var from = d.length > 5 ? laneRow[d[5]] : undefined, to = laneRow[d[3]];
      if (d[2] === "blocked" && from !== undefined && to !== undefined && from !== to) pathArrow(d[1], from, to);
    });
  }
  /* shows instance k of latency thread r: its path drawn, the view on it, the story beside */
  function showPath(r, k) {
    var th = latency && latency.threads[r], w = th && th.worst[k];
    if (!w) return;
    shownPath = { thread: th, worst: w };
    if (seq) { seq = false; $("sequential").checked = false; if (serve) { summary = null; asked = ""; } }
    var span = Math.max(1, w.end_ticks - w.release_ticks);
    v0 = w.release_ticks - span * 0.1; v1 = w.end_ticks + span * 0.1;
    var html = '<h2 id="path-title">' + esc(th.name) + " #" + w.number + "</h2>";
    if (w.path) {
      html += '<p id="path-story">' + esc(w.path.story) + "</p><table>";
      w.path.segments.forEach(function (sg) {
        html += "<tr><td>" + esc(sg.state) + "</td><td>" + esc(timeText(sg.ticks)) + " " + esc(sg.context) +
          (sg.object ? " on " + esc(sg.object) + " held by " + esc(sg.holder) : "") + "</td></tr>";
        (sg.segments || []).forEach(function (c) {
          html += "<tr><td>&nbsp;&nbsp;" + esc(c.state) + "</td><td>" + esc(timeText(c.ticks)) + " " + esc(c.context) + "</td></tr>";
        });
      });
      html += "</table>";
    } else html += '<p class="muted">Its path is not in the page (only the first paths are).</p>';
    $("details").innerHTML = html;
    redraw();
  }
  /* moves the time line to ticks [a, b] (a margin each side) and selects event
   * number `end` (-1: none; served: the view's window brings it) */
  function showSpan(a, b, end) {
    if (seq) { seq = false; $("sequential").checked = false; if (serve) { summary = null; asked = ""; } }
    var span = Math.max(1, b - a);
    v0 = a - span * 0.25; v1 = b + span * 0.25;
    if (!serve && end >= firstIndex && end - firstIndex < n) select(end - firstIndex, false);
    asked = "";
    redraw();
  }
  /* the late mark under (x, y), as [latency thread, worst k], or null */
  function lateAt(x, y) {
    var r = Math.floor((y - RULER) / ROW);
    if (!latency || r < 0 || r >= shown.length || (y - RULER) % ROW > 11) return null;
    for (var j = 0; j < lateDrawn.length; j++) {
      var m = lateDrawn[j];
      if (m[0] !== shown[r].name || Math.abs(m[2] - x) > 5) continue;
      for (var t = 0; t < latency.threads.length; t++) {
        if (latency.threads[t].lane !== shown[r].k) continue;
        for (var k = 0; k < latency.threads[t].worst.length; k++)
          if (latency.threads[t].worst[k].release_index === m[1]) return [t, k];
      }
    }
    return null;
  }
  /* Flows: an arrow from cause to effect (the effect's lane, or the lane that starts running). */
  var selFlows = [];
  function flowArrow(k, strong) {
    var s = flowS[k], e = flowE[k];
    var rs = shown.indexOf(lanes[lane[s]]), re = shown.indexOf(lanes[flowRun[k] ? next[e] : lane[e]]);
    if (rs < 0 || re < 0) return;
    var x1 = xOf(pos(s)), y1 = RULER + rs * ROW + 6, x2 = xOf(pos(e)), y2 = RULER + re * ROW + 16;
    ctx.strokeStyle = strong ? "#1d2330" : "rgba(36,99,235,0.55)";
    ctx.fillStyle = ctx.strokeStyle;
    ctx.lineWidth = strong ? 1.5 : 1;
    ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); ctx.stroke();
    var a = Math.atan2(y2 - y1, x2 - x1);
    ctx.beginPath(); ctx.moveTo(x2, y2);
    ctx.lineTo(x2 - 7 * Math.cos(a - 0.4), y2 - 7 * Math.sin(a - 0.4));
    ctx.lineTo(x2 - 7 * Math.cos(a + 0.4), y2 - 7 * Math.sin(a + 0.4));
    ctx.fill();
    ctx.lineWidth = 1;
  }
  /* The first flow ending at or after position p (flows are in the order of their ends). */
  function flowFrom(p) {
    var lo = 0, hi = flowE.length;
    while (lo < hi) { var mid = (lo + hi) >>> 1; if (pos(flowE[mid]) < p) lo = mid + 1; else hi = mid; }
    return lo;
  }
  var FLOWS_ALL = 300, FLOW_STEP = 12, drawnFlows = [];
  function drawFlows() {
    /* every flow ending in view when they are at most FLOWS_ALL; more: the first
     * flow ending in each FLOW_STEP-pixel column (arrows stay apart at any zoom,
     * zooming in shows the others); the selected event's always */
    var lo = flowFrom(v0), end = lo;
    drawnFlows = [];
    while (end < flowE.length && end - lo <= FLOWS_ALL && pos(flowE[end]) <= v1) end++;
    if (end - lo <= FLOWS_ALL) {
      for (var k = lo; k < end; k++) {
        var p = pos(flowE[k]);
        if (p >= v0 && p <= v1) drawnFlows.push(k); /* (a multi-core trace's times may step back) */
      }
    } else {
      var right = LABEL + plotW();
      for (var x = LABEL; x <= right; x += FLOW_STEP) {
        k = flowFrom(Math.max(v0, pAt(x)));
        if (k >= flowE.length || pos(flowE[k]) > v1) break;
        if (xOf(pos(flowE[k])) < x + FLOW_STEP) drawnFlows.push(k); /* one ends in this column */
      }
    }
    drawnFlows.forEach(function (k) { flowArrow(k, false); });
    selFlows.forEach(function (k) { flowArrow(k, true); });
  }
  function draw() {
    frameW = 0;
    frameW = plotW();
    try { paintFrame(); } finally { frameW = 0; }
  }
  function paintFrame() {
    pending = false;
    var W = canvas.clientWidth, H = RULER + shown.length * ROW;
    ctx.clearRect(0, 0, W, H + PAD);
    ctx.fillStyle = "#ffffff"; ctx.fillRect(0, 0, W, H + PAD);
    barsDrawn = [];
    for (var r = 0; r < shown.length; r++) {
      if (r & 1) { ctx.fillStyle = "#f7f8fa"; ctx.fillRect(0, RULER + r * ROW, W, ROW); }
    }
    drawRuler(W, H);
    drawInversions(H);
    drawGaps(H);
    ctx.save();
    ctx.beginPath(); ctx.rect(LABEL, RULER, plotW() + 1, H - RULER); ctx.clip();
    if (serve) drawSummary(H);
    for (r = 0; r < shown.length; r++) {
      var y = RULER + r * ROW;
      drawBars(shown[r], y, r);
      drawMarks(shown[r], y);
    }
    drawFlows();
    lateDrawn = [];
    for (r = 0; r < shown.length; r++) drawLate(shown[r], RULER + r * ROW);
    drawPath();
    ctx.restore();
    if (selected >= 0) {
      var row = shown.indexOf(lanes[lane[selected]]), xs = xOf(pos(selected));
      ctx.strokeStyle = "#1d2330"; ctx.setLineDash([3, 3]);
      ctx.beginPath(); ctx.moveTo(Math.round(xs) + 0.5, RULER); ctx.lineTo(Math.round(xs) + 0.5, H); ctx.stroke();
      ctx.setLineDash([]);
      if (row >= 0) { ctx.lineWidth = 2; ctx.strokeRect(Math.floor(xs) - 3, RULER + row * ROW + 1, 7, 11); ctx.lineWidth = 1; }
    }
    /* the label column (the names are DOM text over it: placeLabels) */
    ctx.fillStyle = "#ffffff"; ctx.fillRect(0, RULER, LABEL - 2, H - RULER);
    ctx.strokeStyle = "#d9dde5"; ctx.beginPath(); ctx.moveTo(LABEL - 1.5, 0); ctx.lineTo(LABEL - 1.5, H); ctx.stroke();
    if (dragSel) {
      ctx.fillStyle = "rgba(36,99,235,0.15)";
      ctx.fillRect(Math.min(dragSel.x0, dragSel.x1), 0, Math.abs(dragSel.x1 - dragSel.x0), H);
    }
    $("range").textContent = posText(Math.max(v0, fullRange()[0])) + " – " + posText(Math.min(v1, fullRange()[1])) +
      (serve ? (viewMode === "events" ? " · exact events" : " · summary") + (progress ? " · " + progress : "") : "");
    fetchView();
    if (!firstPaint) {
      firstPaint = performance.now();
      api.timings = { start: t0, decoded: tDecoded, indexed: tIndexed, firstPaint: firstPaint };
    }
  }
  /* ---------------------------------------------- trx serve: remote data */
  var summary = null, winFrom = 0, winTo = -1, winFirst = 0, winLast = -1, inFlight = false, asked = "", viewMode = "";
  var laneRow = {};
  shown.forEach(function (l, r) { if (l.k >= 0) laneRow[l.k] = r; });
  function fetchJson(path, done) {
    var x = new XMLHttpRequest();
    x.open("GET", path + (path.indexOf("?") < 0 ? "?" : "&") + "token=" + encodeURIComponent(token));
    x.responseType = "json";
    x.onload = function () { done(x.status === 200 ? x.response : null); };
    x.onerror = function () { done(null); };
    x.send();
  }
  /* the events of an answer become the page's window */
  function takeEvents(a) {
    var chosen = selected >= 0 ? selected + firstIndex : -1; /* the selection stays, by number */
    types = a.types;
    SYMS = types.symbols || {};
    if (seq) { v0 -= a.first - firstIndex; v1 -= a.first - firstIndex; } /* the view stays where it is */
    firstIndex = a.first;
    decodeEvents(a.events, a.count);
    index();
    /* CPU lanes (multi-core, once the server knows the cores): new rows the
     * first time, the window's runs each time (none: the rows stay, empty) */
    var fresh = a.cpu_cores ? cpuLanesOf(a.cores, a.cpu_cores) :
      cpuLanes.map(function (l) { return Object.assign({}, l, { nseg: 0, segS: [], segE: [], segLane: [], mig: [], migrations: 0 }); });
    var rows = fresh.length !== cpuLanes.length;
    shown = fresh.concat(shown.filter(function (l) { return l.kind !== "cpu"; }));
    cpuLanes = fresh;
    laneRow = {};
    shown.forEach(function (l, r) { if (l.k >= 0) laneRow[l.k] = r; });
    if (rows) resize();
    gaps = localGaps(a.gaps);
    inv = (a.inversions || []).map(function (v) { return [Math.max(0, v[0] - firstIndex), v[1] - firstIndex, v[2]]; });
    invMaxEnd = new Float64Array(inv.length);
    for (var q2 = 0, m2 = -1; q2 < inv.length; q2++) { m2 = Math.max(m2, Math.min(inv[q2][1], n - 1)); invMaxEnd[q2] = m2; }
    winFrom = a.count ? a.first_ticks : 0; winTo = a.count ? a.last_ticks : -1;
    winFirst = a.first; winLast = a.first + a.count - 1;
    selected = chosen >= firstIndex && chosen < firstIndex + n ? chosen - firstIndex : -1;
    selFlows = flowsOf(selected);
    if (noteKinds()) legend(); /* this window brought kinds of events not seen before */
  }
  /* asks for what the view needs (one request at a time; the latest view wins) */
  function fetchView() {
    if (!serve || inFlight) return;
    var a = Math.max(0, Math.floor(v0)), b = Math.max(a + 1, Math.ceil(v1)), cols = Math.round(plotW());
    if (seq) { /* by event number */
      a = Math.max(0, Math.min(serve.total - 1, Math.floor(v0) + firstIndex));
      b = Math.max(a, Math.min(serve.total - 1, Math.ceil(v1) + firstIndex));
    }
    var q = "api/view?" + (seq ? "axis=index&" : "") + "from=" + a + "&to=" + b + "&cols=" + cols;
    if (q === asked) return;
    inFlight = true; asked = q;
    fetchJson(q, function (r) {
      inFlight = false;
      if (r && r.mode === "events") { takeEvents(r); viewMode = "events"; }
      else if (r && r.mode === "summary") { summary = r.summary; viewMode = "summary"; }
      if (r && r.late) { setLateMarks(r.late); facts(); } /* the late instances of the view (latency engine) */
      viewAnswers++;
      redraw();
    });
  }
  var viewAnswers = 0;
  /* a lane's summary columns: run time as bars whose height is the part of
   * the column's time the context ran (busy, per mille), events as marks
   * (darker = more), and in red at the foot of a thread's lane where its
   * worst response times (RESUME -> CPU) are, the longest in view darkest */
  function drawSummary(H) {
    if (!summary || (summary.axis === "index") !== seq) return;
    /* columns from the summary's axis to positions; the exact window's reach */
    var w = (summary.to - summary.from) / summary.cols, right = LABEL + plotW(), maxWorst = 0;
    var from = summary.from - (seq ? firstIndex : 0);
    var wa = seq ? winFirst - firstIndex - 0.5 : winFrom, wb = seq ? winLast - firstIndex + 0.5 : winTo;
    var windowed = wb >= wa, xwa = windowed ? Math.floor(xOf(wa)) : 0, xwb = windowed ? Math.ceil(xOf(wb)) : 0;
    summary.lanes.forEach(function (ln) { for (var x = 0; x < summary.cols; x++) maxWorst = Math.max(maxWorst, ln[3][x]); });
    /* rectangles gathered into one path per colour and shade (16 shades),
     * each filled once: a frame costs a few fills, not one per column */
    var barPaths = {}, eventPaths = [], worstPaths = [];
    function shade(paths, alpha) {
      var k = Math.max(0, Math.min(15, Math.round(alpha * 15)));
      return paths[k] || (paths[k] = new Path2D());
    }
    summary.lanes.forEach(function (ln) {
      var r = laneRow[ln[0]];
      if (r === undefined) return;
      var y = RULER + r * ROW, busy = ln[1], evs = ln[2], worst = ln[3];
      var colour = LANE_COLOR[lanes[ln[0]].kind] || LANE_COLOR.thread;
      var bars = barPaths[colour] || (barPaths[colour] = new Path2D());
      for (var x = 0; x < summary.cols; x++) {
        if (!busy[x] && !evs[x] && !worst[x]) continue;
        var a = from + x * w, b = a + w;
        var xs = Math.floor(Math.max(LABEL, xOf(a))), xe = Math.ceil(Math.min(right, xOf(b)));
        if (xe < LABEL || xs > right) continue;
        /* where the window of exact events reaches, they are drawn instead:
         * the column's part before the window, then after it */
        for (var part = 0; part < (windowed ? 2 : 1); part++) {
          var p0 = windowed && part ? Math.max(xs, xwb) : xs, p1 = windowed && !part ? Math.min(xe, xwa) : xe;
          if (p1 <= p0 && !(p1 === p0 && xe === xs)) continue;
          var wd = Math.max(1, p1 - p0);
          if (busy[x]) barRect(r, y, p0, wd, barHeight(busy[x] / 1000), x, bars);
          if (evs[x]) shade(eventPaths, Math.min(1, 0.3 + Math.log(1 + evs[x]) / 8)).rect(p0, y + 2, wd, 8);
          if (worst[x] && maxWorst) shade(worstPaths, Math.max(0.15, worst[x] / maxWorst)).rect(p0, y + 21, wd, 2);
        }
      }
    });
    Object.keys(barPaths).forEach(function (c) { ctx.fillStyle = c; ctx.fill(barPaths[c]); });
    [[eventPaths, "#2463eb"], [worstPaths, "#d93025"]].forEach(function (set) {
      ctx.fillStyle = set[1];
      set[0].forEach(function (path, k) { ctx.globalAlpha = k / 15; ctx.fill(path); });
    });
    ctx.globalAlpha = 1;
    for (var x = 0; x < summary.cols; x++) { /* lost events */
      if (!summary.lost[x]) continue;
      var a = from + x * w, xs = Math.floor(Math.max(LABEL, xOf(a)));
      ctx.fillStyle = "rgba(60,64,67,0.18)"; ctx.fillRect(xs, RULER, 3, H - RULER);
      ctx.fillStyle = "#3c4043"; ctx.fillRect(xs, RULER - 4, 3, 4);
    }
  }
  /* goes to event number `g` of the served trace: its window, then selected */
  function gotoEvent(g) {
    fetchJson("api/events?first=" + Math.max(0, g - 200) + "&count=400", function (r) {
      if (!r || r.mode !== "events") return;
      takeEvents(r); viewMode = "events";
      var i = g - firstIndex;
      if (i < 0 || i >= n) return;
      var w = Math.max(ticks[n - 1] - ticks[0], 10);
      if (seq) { v0 = i - 50; v1 = i + 50; }
      else { v0 = ticks[i] - w / 8; v1 = ticks[i] + w / 8; }
      asked = "";
      select(i, false);
    });
  }

  /* ---------------------------------------------------------- details */
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }
  function hex(v) { return "0x" + (v >>> 0).toString(16).toUpperCase().padStart(8, "0"); }
  function showDetails(i) {
    var box = $("details");
    if (i < 0) { box.innerHTML = '<p class="muted">Click an event on the time line to see its fields.</p>'; return; }
    var t = typeOf(ids[i]), l = lanes[lane[i]], rows = [];
    rows.push(["event #", (i + firstIndex).toLocaleString("en-US") + (synth[i] ? " (inserted RUNNING event)" : "")]);
    rows.push(["time", timeText(ticks[i]) + (rate && !useUs ? " = " + (ticks[i] * 1e6 / rate).toFixed(3) + " µs" : "")]);
    rows.push(["id", ids[i] + " (" + t[1] + ")"]);
    rows.push(["context", l.name + (l.kind === "thread" ? " (" + hex(l.address) + ")" : "")]);
    if (l.kind === "thread") rows.push(["priority", prio[i]]);
    rows.push(["next context", lanes[next[i]].name]);
    if (t[3]) rows.push(["message", formatMessage(t[3], i)]);
    var gap = gapBefore(i);
    if (gap) rows.push(["lost before", gap[1].toLocaleString("en-US") + " events (between " + timeText(gap[2]) + " and " + timeText(gap[3]) + ")"]);
    var html = '<h2 id="detail-name">' + esc(t[0]) + "</h2><table>";
    rows.forEach(function (r) { html += "<tr><td>" + esc(r[0]) + "</td><td>" + esc(r[1]) + "</td></tr>"; });
    selFlows.forEach(function (k) {
      var other = flowE[k] === i ? flowS[k] : flowE[k];
      html += '<tr class="flow"><td>' + (flowE[k] === i ? "caused by" : "leads to") + '</td><td class="link" data-jump="' +
        other + '">#' + (other + firstIndex).toLocaleString("en-US") + " " + esc(typeOf(ids[other])[0]) + " (" +
        esc(lanes[lane[other]].name) + ")</td></tr>";
    });
    for (var k = 0; k < 4; k++) {
      var label = t[2][k] || "", v = info[4 * i + k];
      if (!label && types.types[ids[i]]) continue;
      var o = v ? objects.get(v) : null;
      var sym = SYMS[v >>> 0];
      html += '<tr class="field"><td>' + esc(label || "info" + (k + 1)) + "</td><td>" + v + " (" + hex(v) + ")" +
        (o ? ' <span class="obj">' + esc(o.n) + "</span>" : "") +
        (sym ? ' <span class="sym">&lt;' + esc(sym) + "&gt;</span>" : "") + "</td></tr>";
    }
    box.innerHTML = html + "</table>";
  }
  function flowsOf(i) {
    var out = [];
    if (i < 0) return out;
    for (var k = 0; k < flowE.length; k++) if (flowS[k] === i || flowE[k] === i) out.push(k);
    return out;
  }
  function select(i, center) {
    selected = i;
    selFlows = flowsOf(i);
    showDetails(i);
    if (i >= 0 && center) {
      var p = pos(i), w = v1 - v0;
      if (p < v0 || p > v1) { v0 = p - w / 2; v1 = p + w / 2; }
    }
    redraw();
  }
  function pick(x, y) {
    var r = Math.floor((y - RULER) / ROW);
    if (r < 0 || r >= shown.length || x < LABEL) return -1;
    var ev = shown[r].ev, k = lower(ev, pAt(x - 5)), best = -1, bd = 6;
    for (; k < ev.length; k++) {
      var d = Math.abs(xOf(pos(ev[k])) - x);
      if (xOf(pos(ev[k])) > x + 5) break;
      if (d < bd) { bd = d; best = ev[k]; }
    }
    return best;
  }

  /* ------------------------------------------------------ interaction */
  function zoomAround(x, f) {
    var p = pAt(x), r = fullRange(), minSpan = seq ? 5 : Math.max(1e-3, (r[1] - r[0]) / 1e9);
    var span = Math.max(minSpan, (v1 - v0) * f);
    var maxSpan = (r[1] - r[0]) * 1.5 + 10;
    span = Math.min(span, maxSpan);
    var a = (p - v0) / (v1 - v0);
    v0 = p - a * span; v1 = v0 + span;
    redraw();
  }
  var drag = null, dragSel = null;
  canvas.addEventListener("wheel", function (e) {
    e.preventDefault();
    var rect = canvas.getBoundingClientRect();
    zoomAround(e.clientX - rect.left, Math.pow(1.0015, e.deltaY));
  }, { passive: false });
  canvas.addEventListener("mousedown", function (e) {
    var rect = canvas.getBoundingClientRect(), x = e.clientX - rect.left, y = e.clientY - rect.top;
    drag = { x: x, y: y, v0: v0, v1: v1, moved: false, select: e.shiftKey || y < RULER };
    if (drag.select) dragSel = { x0: x, x1: x };
    canvas.classList.add("dragging");
    e.preventDefault();
  });
  window.addEventListener("mousemove", function (e) {
    if (!drag) return;
    var rect = canvas.getBoundingClientRect(), x = e.clientX - rect.left;
    if (Math.abs(x - drag.x) > 3) drag.moved = true;
    if (drag.select) { dragSel.x1 = x; redraw(); return; }
    var dp = (x - drag.x) / plotW() * (drag.v1 - drag.v0);
    v0 = drag.v0 - dp; v1 = drag.v1 - dp;
    redraw();
  });
  window.addEventListener("mouseup", function (e) {
    if (!drag) return;
    var rect = canvas.getBoundingClientRect(), x = e.clientX - rect.left, y = e.clientY - rect.top;
    canvas.classList.remove("dragging");
    var late = !drag.moved ? lateAt(x, y) : null;
    if (late) {
      showPath(late[0], late[1]);
    } else if (!drag.moved) {
      select(pick(x, y), false);
    } else if (drag.select) {
      var a = pAt(Math.min(drag.x, x)), b = pAt(Math.max(drag.x, x));
      if (b > a) { v0 = a; v1 = b; }
    }
    drag = null; dragSel = null;
    redraw();
  });
  window.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT") return;
    var cx = LABEL + plotW() / 2;
    if (e.key === "+" || e.key === "=") zoomAround(cx, 0.5);
    else if (e.key === "-") zoomAround(cx, 2);
    else if (e.key === "Home") { fit(); redraw(); }
    else if (e.key === "ArrowRight" && selected >= 0 && selected + 1 < n) select(selected + 1, true);
    else if (e.key === "ArrowLeft" && selected > 0) select(selected - 1, true);
    else return;
    e.preventDefault();
  });
  $("fit").onclick = function () { fit(); redraw(); };
  $("zoom-in").onclick = function () { zoomAround(LABEL + plotW() / 2, 0.5); };
  $("zoom-out").onclick = function () { zoomAround(LABEL + plotW() / 2, 2); };
  $("sequential").onchange = function () {
    /* served, with the view beyond the window of exact events: the server
     * finds the range on the other axis (to a chunk of events) */
    if (serve && this.checked !== seq && !(n && v0 >= pos(0) && v1 <= pos(n - 1))) {
      var goSeq = this.checked, lo = Math.max(0, Math.floor(v0) + (seq ? firstIndex : 0)),
        hi = Math.max(lo, Math.ceil(v1) + (seq ? firstIndex : 0));
      fetchJson("api/locate?axis=" + (seq ? "index" : "ticks") + "&from=" + lo + "&to=" + hi, function (r) {
        if (!r) return;
        seq = goSeq;
        if (seq) { v0 = r.from - firstIndex - 0.5; v1 = Math.max(r.to, r.from + 100) - firstIndex + 0.5; }
        else { v0 = r.from; v1 = Math.max(r.to, r.from + 1); }
        summary = null; asked = ""; redraw();
      });
      return;
    }
    /* keep the same events in view */
    var a = lowerAll(v0), b = Math.max(a, lowerAll(v1) - 1);
    var wasSeq = seq;
    seq = this.checked;
    if (serve) { summary = null; asked = ""; }
    if (wasSeq !== seq) {
      if (seq) { v0 = a - 0.5; v1 = b + 0.5; }
      else { a = Math.max(0, Math.min(n - 1, Math.round(v0))); b = Math.max(0, Math.min(n - 1, Math.round(v1)));
             v0 = ticks[a]; v1 = Math.max(ticks[b], v0 + 1); }
    }
    redraw();
  };
  if (!rate) $("units-label").style.display = "none";
  useUs = !!rate; /* a known timer rate: microseconds by default, ticks one click away */
  $("units-us").checked = useUs;
  $("units-us").onchange = function () { useUs = this.checked; redraw(); if (selected >= 0) showDetails(selected); };
  window.addEventListener("resize", function () { resize(); redraw(); });

  /* ------------------------------------------------------------ search */
  var matches = null, matchQuery = null, matchPos = -1;
  function runSearch(q) {
    q = q.trim().toLowerCase();
    var out = [], i, k;
    if (!q) return new Uint32Array(0);
    var num = /^(0x[0-9a-f]+|\d+)$/.test(q) ? Number(q) : NaN;
    var idHit = new Uint8Array(65536), laneHit = new Uint8Array(lanes.length);
    Object.keys(types.types).forEach(function (id) { if (types.types[id][0].toLowerCase().indexOf(q) >= 0) idHit[id] = 1; });
    if ("user event".indexOf(q) >= 0) for (k = 4096; k < 65536; k++) if (!types.types[k]) idHit[k] = 1;
    lanes.forEach(function (l, j) { if (l.name.toLowerCase().indexOf(q) >= 0) laneHit[j] = 1; });
    for (i = 0; i < n; i++) {
      var hit = idHit[ids[i]] || laneHit[lane[i]];
      if (!hit && num === num) {
        for (k = 0; k < 4; k++) if (info[4 * i + k] === num) hit = 1;
        if (ids[i] === num) hit = 1;
      }
      if (hit) out.push(i);
    }
    return Uint32Array.from(out);
  }
  var searching = 0;
  /* served: the server finds the next (previous) match from the selection on */
  function remoteStep(dir) {
    var q = $("search").value.trim(), my = ++searching;
    if (!q) { $("search-status").textContent = ""; return; }
    var from = selected >= 0 ? selected + firstIndex : dir > 0 ? -1 : serve.total;
    $("search-status").textContent = "searching…";
    (function ask(at) {
      fetchJson("api/search?q=" + encodeURIComponent(q) + "&from=" + Math.max(0, at) + "&dir=" + dir +
        (at < 0 ? "&inclusive=1" : ""), function (r) {
        if (my !== searching) return;
        if (!r) { $("search-status").textContent = "search failed"; return; }
        if (r.next !== undefined) return ask(r.next);
        if (r.none) { $("search-status").textContent = "no " + (dir > 0 ? "further" : "earlier") + " match"; return; }
        $("search-status").textContent = "#" + r.found.toLocaleString("en-US");
        gotoEvent(r.found);
      });
    })(from);
  }
  function step(dir) {
    if (serve) return remoteStep(dir);
    var q = $("search").value;
    if (q !== matchQuery) { matches = runSearch(q); matchQuery = q; matchPos = -1; }
    if (!matches.length) { $("search-status").textContent = q.trim() ? "no match" : ""; return; }
    if (matchPos < 0) {
      /* start from the selection (or the view's start) */
      var from = selected >= 0 ? selected : lowerAll(v0), lo = 0, hi = matches.length;
      while (lo < hi) { var mid = (lo + hi) >>> 1; if (matches[mid] < from + (dir > 0 && selected >= 0 ? 1 : 0)) lo = mid + 1; else hi = mid; }
      matchPos = dir > 0 ? lo % matches.length : (lo - 1 + matches.length) % matches.length;
    } else {
      matchPos = (matchPos + dir + matches.length) % matches.length;
    }
    $("search-status").textContent = (matchPos + 1).toLocaleString("en-US") + " / " + matches.length.toLocaleString("en-US");
    select(matches[matchPos], true);
  }
  $("search").addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); step(e.shiftKey ? -1 : 1); } });
  $("search").addEventListener("input", function () { matchPos = -1; });
  $("search-next").onclick = function () { step(1); };
  $("search-prev").onclick = function () { step(-1); };

  /* ------------------------------------------------------ header, stats */
  function facts() {
    var h = meta, f = [
      ["source", h.source], ["format", h.format], ["byte order", h.byte_order],
      ["timer", "mask " + hex(h.timer_mask) + ", counts " + (h.counts_up ? "up" : "down") +
        (rate ? ", " + rate.toLocaleString("en-US") + " ticks/s" : "")],
      ["capacity", h.capacity.toLocaleString("en-US") + " entries (" + h.used.toLocaleString("en-US") + " used)"],
      ["wrapped", h.wrapped ? "yes" : "no"], ["events", (serve ? serve.total : n).toLocaleString("en-US") +
        (h.window ? " of " + h.window.total.toLocaleString("en-US") + " (a part: from event #" +
          firstIndex.toLocaleString("en-US") + ")" : "")],
      ["span", timeText(h.span_ticks)], ["threads", stats.pending ? "…" : stats.unavailable ? "unavailable" : String(stats.total_threads)],
      ["lost events", h.lost_events ? h.lost_events.toLocaleString("en-US") + " in " + (serve ? serve.gap_count : gaps.length).toLocaleString("en-US") + " gaps" : "none recorded"]];
    if (h.rtos === "freertos") /* FreeRTOS's names and priorities (higher = more urgent) */
      f.splice(3, 0, ["RTOS", "FreeRTOS (priorities as the application wrote them)"]);
    if (h.registry_full) /* objects created after it filled have no name */
      f.push(["registry", h.registry_warning]);
    if (h.format !== "TXTB") /* the TXTB buffer's timer and capacity mean nothing here */
      f = f.filter(function (x) { return ["timer", "capacity", "wrapped"].indexOf(x[0]) < 0; });
    $("facts").innerHTML = f.map(function (x) {
      var warn = (x[0] === "lost events" && h.lost_events) || x[0] === "registry";
      return "<div><dt>" + esc(x[0]) + "</dt><dd" + (warn ? ' class="warn"' : "") + (x[0] === "registry" ? ' id="registry-full"' : "") + ">" + esc(x[1]) + "</dd></div>";
    }).join("");
    $("title").textContent = h.source.split(/[\\/]/).pop();
    document.title = "trx report: " + $("title").textContent;
    $("version").textContent = h.version;
    legend();
  }
  /* The legend: only the kinds of events the trace has (for every RTOS: no
   * queues, mutexes, FileX / NetX / USBX ... where it has none; a served
   * page adds the kinds of each window it is sent), the lanes it has, and
   * inversions, lost events, late marks and flows only where there are some. */
  var kindSeen = [];
  function noteKinds() {
    var before = kindSeen.join();
    Object.keys(types.types || {}).forEach(function (id) { kindSeen[kindOfId(id)] = true; });
    for (var i = 0; i < n && !kindSeen[0]; i++) if (synth[i]) kindSeen[0] = true;
    return kindSeen.join() !== before;
  }
  function legend() {
    noteKinds();
    var has = function (kind) { return lanes.some(function (l) { return l.kind === kind && l.used; }); };
    var inversions = inv.length > 0 || (serve && stats.inversion_total > 0);
    var span = function (c, text) { return '<span style="--c:' + c + '">' + text + "</span>"; };
    $("legend").innerHTML = KINDS.filter(function (k, j) { return kindSeen[j]; })
      .map(function (k) { return span(k[1], esc(k[0])); }).join("") +
      (has("thread") ? span("#3aa757", "thread running") : "") +
      (has("isr") ? span("#d93025", meta.rtos === "sysbios" ? "Hwi running" : "interrupt running") : "") +
      (has("swi") ? span(LANE_COLOR.swi, "Swi running") : "") +
      span("#9aa3b2", "bar height: the part of the column's time it ran") +
      (Object.keys(lateMarks).length ? span("#b3261e", "late instances") : "") +
      (inversions ? span("rgba(217,48,37,0.5)", "priority inversion (unbounded)") +
                    span("rgba(242,153,0,0.5)", "priority inversion") : "") +
      (meta.lost_events ? span("rgba(60,64,67,0.45)", "lost events") : "") +
      (serve ? span("#d93025", "worst response times (summary: RESUME &rarr; CPU)") : "") +
      (flowE.length || serve ? span("rgba(36,99,235,0.55)",
        "cause &rarr; effect (ISR &rarr; resumed thread, send &rarr; receive, put &rarr; get)") : "");
  }
  function table(head, rows) {
    return "<table><tr>" + head.map(function (h) { return "<th>" + esc(h) + "</th>"; }).join("") + "</tr>" +
      rows.map(function (r) { return "<tr>" + r.join("") + "</tr>"; }).join("") + "</table>";
  }
  function td(v, key) { return "<td" + (key ? ' data-stat="' + key + '"' : "") + ">" + esc(typeof v === "number" ? v.toLocaleString("en-US") : v) + "</td>"; }
  /* a figure the trace cannot give: said so, with the reason, never a zero */
  function unavailable(what) {
    return '<p class="muted" data-unavailable="' + esc(what) + '">' + esc(what) + " unavailable: " + esc(stats.unavailable.reason) + "</p>";
  }
  var tabs = {
    "Performance": function () {
      if (stats.performance === null) return unavailable("Performance statistics");
      var p = stats.performance, names = {
        context_switches: "Context switches", thread_preemptions: "Thread preemptions", time_slices: "Time slices",
        thread_suspensions: "Thread suspensions", thread_resumptions: "Thread resumptions", interrupts: "Interrupts",
        nested_interrupts: "Nested interrupts" };
      var rows = Object.keys(names).map(function (k) {
        return [td(names[k]), td(p[k], "performance." + k)];
      });
      if (p.priority_inversions === null) /* the events name no lock owners (UIA) */
        rows.push([td("Priority inversions"), td("unavailable")]);
      else
        ["total", "unbounded", "bounded"].forEach(function (k) {
          rows.push([td("Priority inversions (" + k + ")"), td(p.priority_inversions[k], "performance.priority_inversions." + k)]);
        });
      return '<p class="muted">Mode: ' + esc(stats.mode) + "</p>" + table(["statistic", "count"], rows);
    },
    "Execution profile": function () {
      if (stats.execution_profile === null) return unavailable("Execution profile");
      var total = 0;
      stats.execution_profile.forEach(function (e) { total += e.ticks; });
      var rows = stats.execution_profile.map(function (e, i) {
        var pct = total ? 100 * e.ticks / total : 0;
        var cls = e.name === "Interrupt" && i >= stats.execution_profile.length - 3 ? "isr" : e.address === 0 && i === stats.execution_profile.length - 2 ? "idle" : "";
        return [td(e.name), td(e.ticks, "execution_profile." + i + ".ticks"), td(pct.toFixed(2) + " %"),
          '<td style="text-align:left;min-width:260px"><span class="bar ' + cls + '" style="width:' + (2.5 * pct).toFixed(1) + 'px"></span></td>'];
      });
      return table(["context", "ticks", "share", ""], rows);
    },
    "Threads": function () {
      if (stats.threads === null) return unavailable("Thread statistics");
      return table(["thread", "address", "priority", "events", "suspensions", "resumptions", "stack size", "min. free stack"],
        stats.threads.map(function (t, i) {
          if (t.idle) return null; /* the RTOS's idle task: its time is the profile's Idle row */
          var pr = t.priority_highest === null ? "?" : t.priority_highest === t.priority_lowest ? t.priority_highest : t.priority_highest + "–" + t.priority_lowest;
          return [td(t.name), td(hex(t.address)), td(String(pr)), td(t.total_events, "threads." + i + ".total_events"),
            td(t.suspensions, "threads." + i + ".suspensions"), td(t.resumptions, "threads." + i + ".resumptions"),
            td(t.stack_size, "threads." + i + ".stack_size"), td(t.stack_min_available, "threads." + i + ".stack_min_available")];
        }).filter(function (r) { return r !== null; }));
    },
    "Popular services": function () {
      return table(["service", "id", "count"], stats.popular_services.map(function (s, i) {
        return [td(s.name), td(s.id, "popular_services." + i + ".id"), td(s.count, "popular_services." + i + ".count")];
      }));
    },
    "Priority inversions": function () {
      if (stats.inversions === null) return unavailable("Priority inversions");
      if (serve) { /* served: the statistics' own list, by event number */
        var list = stats.inversions || [];
        if (!list.length) return '<p class="muted">No priority inversions.</p>';
        return table(["#", "kind", "starts at event", "ends at event", "thread"], list.slice(0, 2000).map(function (v, k) {
          return [td(k + 1), td(v.unbounded ? "unbounded" : "bounded"),
            '<td class="link" data-goto="' + v.start_index + '">#' + v.start_index + "</td>",
            '<td class="link" data-goto="' + v.end_index + '">#' + v.end_index + "</td>", td(v.waiter)];
        })) + (stats.inversion_total > list.length ? '<p class="muted">first ' + list.length.toLocaleString("en-US") +
          " of " + stats.inversion_total.toLocaleString("en-US") + "</p>" : "");
      }
      if (!inv.length) return '<p class="muted">No priority inversions.</p>';
      return table(["#", "kind", "starts at event", "ends at event", "thread"], inv.slice(0, 2000).map(function (v, k) {
        return [td(k + 1), td(v[2] ? "unbounded" : "bounded"),
          '<td class="link" data-jump="' + v[0] + '">#' + (v[0] + firstIndex) + "</td>",
          '<td class="link" data-jump="' + Math.min(v[1], n - 1) + '">#' + (v[1] + firstIndex) + "</td>", td(lanes[lane[v[0]]].name)];
      })) + (inv.length > 2000 ? '<p class="muted">first 2,000 of ' + inv.length + "</p>" : "");
    }
  };
  /* per thread: its response histogram (the bins trx computed) and its worst instances */
  function histogram(d) {
    var most = Math.max.apply(null, d.bins.concat([1])), bw = 8, H = 40;
    return '<svg class="hist" width="' + d.bins.length * bw + '" height="' + (H + 2) + '">' + d.bins.map(function (c, b) {
      var h = c ? Math.max(2, Math.round(H * c / most)) : 0;
      return '<rect x="' + b * bw + '" y="' + (H - h) + '" width="' + (bw - 1) + '" height="' + h + '"><title>' +
        esc(timeText(d.min + b * d.bin_width)) + " – " + esc(timeText(d.min + (b + 1) * d.bin_width)) + ": " + c + "</title></rect>";
    }).join("") + "</svg>";
  }
  tabs.Responses = function () {
    if (!latency) return '<p class="muted" id="latency-pending">Responses: computing…</p>';
    if (!latency.threads.length) return '<p class="muted">No complete instance of any thread.</p>';
    return latency.threads.map(function (th, r) {
      var d = th.response;
      return '<h3 class="resp-thread">' + esc(th.name) + "</h3><p>" + th.instances.toLocaleString("en-US") + " instances" +
        (th.incomplete ? " (" + th.incomplete + " incomplete)" : "") + "; response p50 " + esc(timeText(d.p50)) +
        ", p99 " + esc(timeText(d.p99)) + ", max " + esc(timeText(d.max)) + "</p>" + histogram(d) +
        table(["#", "release", "response", "story"], th.worst.map(function (w, k) {
          return ['<td class="link" data-why="' + r + "," + k + '">#' + w.number + "</td>", td(timeText(w.release_ticks)),
            td(timeText(w.response_ticks)), '<td style="text-align:left">' + esc(w.path ? w.path.story : "") + "</td>"];
        }));
    }).join("");
  };
  function nonzero(o) { return Object.keys(o).some(function (k) { return o[k]; }); }
  function kvTable(o, prefix) {
    return table(["statistic", "value"], Object.keys(o).map(function (k) { return [td(k.replace(/_/g, " ")), td(o[k], prefix + "." + k)]; }));
  }
  tabs.FileX = function () { return kvTable(stats.filex, "filex"); };
  tabs.NetX = function () { return kvTable(stats.netx, "netx"); };
  /* a link that moves the time line to [a, b] ticks, the event `end` selected */
  function spanLink(text, a, b, end) {
    return '<td class="link" data-span="' + a + "," + b + "," + (end === undefined ? -1 : end) + '">' + esc(text) + "</td>";
  }
  /* The Hwi / Swi tab (Interrupts for other RTOSes): `trx stats --json`'s
   * isr (by number) and swi (by handle) durations, the longest linked. */
  function irqName(kind, key, named) {
    var l = lanes.find(function (x) { return x.kind === kind && meta.lanes[x.k].irq === key; });
    return named || (l ? l.name.replace(/^core \d+\//, "") : (kind === "swi" ? "Swi " + hex(key) : "Hwi " + key));
  }
  function irqRows(list, member, kind) {
    return (list || []).map(function (d, k) {
      var key = kind === "swi" ? d.handle : d.id, at = member + "." + k + ".";
      var name = kind === "swi" ? irqName("swi", key, d.name ? "Swi " + d.name : "") :
        irqName("isr", key, d.name ? (meta.rtos === "sysbios" ? "Hwi " : "ISR ") + key + " (" + d.name + ")" : "");
      if (d.core !== undefined) name = "core " + d.core + "/" + name; /* AMP: each core's own */
      return [td(name), td(d.count, at + "count"), td(d.min, at + "min"), td(d.mean, at + "mean"), td(d.max, at + "max"),
        d.worst_end_ticks === undefined ? td("") :
          spanLink(timeText(d.worst_end_ticks - d.max) + " – " + timeText(d.worst_end_ticks),
                   d.worst_end_ticks - d.max, d.worst_end_ticks, d.worst_end_index)];
    });
  }
  tabs.Interrupts = function () {
    var head = ["", "count", "min (ticks)", "mean", "max", "the longest"];
    return (stats.isr && stats.isr.length ? "<h3>" + (meta.rtos === "sysbios" ? "Hwi" : "ISR") + " durations</h3>" +
            table(["interrupt"].concat(head.slice(1)), irqRows(stats.isr, "isr", "isr")) : "") +
      (stats.swi && stats.swi.length ? "<h3>Swi durations</h3>" + table(["Swi"].concat(head.slice(1)), irqRows(stats.swi, "swi", "swi")) : "");
  };
  /* The Load tab: per core the target's own Load reports (SYS/BIOS Load
   * module) and trx's computed load per window (stats cpu_load.per_core, or
   * the whole trace's windows on one core) as [[ticks, percent] ...] at each
   * window's end, windows of unknown time left out; null: none. */
  function computedLoad(core) {
    var cl = stats.cpu_load;
    if (!cl || !cl.windows) return null;
    var per = cl.per_core, win = cl.windows;
    if (per) { var c = per.find(function (x) { return x.core === core; }); win = c ? c.windows : null; }
    else if (cpuLanes.length > 1) return null;
    var pts = [];
    (win || []).forEach(function (p, k) { if (p !== null) pts.push([(k + 1) * cl.window, p]); });
    return pts.length ? pts : null;
  }
  /* why trx's load is unavailable (no Idle task identified), or null */
  function loadUnavailable() {
    return stats.load_unavailable || (stats.cpu_load && stats.cpu_load.unavailable) || null;
  }
  function loadChart(series) { /* [[ticks, percent] ...] as lines over the trace's span */
    var W = 600, H = 80, span = Math.max(1, meta.span_ticks);
    return '<svg class="load-chart" width="' + W + '" height="' + (H + 2) + '">' + series.map(function (sr) {
      return '<polyline fill="none" stroke="' + sr[1] + '" stroke-width="1.5" points="' + sr[0].map(function (p) {
        return (W * Math.min(1, p[0] / span)).toFixed(1) + "," + (H - H * Math.min(100, p[1]) / 100 + 1).toFixed(1);
      }).join(" ") + '"/>';
    }).join("") + "</svg>";
  }
  /* what the Load tab shows per core: the target's reports and trx's
   * windows ([[ticks, percent] ...] or null) and why trx's are unavailable */
  function loadCores() {
    var coresShown = {};
    loadLanes.forEach(function (l) { coresShown[l.name.replace(/^.* /, "")] = l.points; });
    if (!loadLanes.length) coresShown[0] = null;
    return Object.keys(coresShown).map(function (c) {
      return { core: Number(c), target: coresShown[c], computed: computedLoad(Number(c)), unavailable: loadUnavailable() };
    });
  }
  tabs.Load = function () {
    return loadCores().map(function (lc) {
      var c = lc.core, target = lc.target, mine = lc.computed, series = [];
      if (target) series.push([target, LANE_COLOR.load]);
      if (mine) series.push([mine, "#1d2330"]);
      var figures = function (pts, what) {
        var sum = 0, lo = Infinity, hi = -Infinity;
        pts.forEach(function (p) { sum += p[1]; lo = Math.min(lo, p[1]); hi = Math.max(hi, p[1]); });
        return pts.length ? pts.length + " " + what + ", " + lo + "–" + hi + " %, mean " + (sum / pts.length).toFixed(1) + " %" : "none";
      };
      return '<h3 class="load-core">Core ' + esc(c) + "</h3>" +
        (target ? '<p><span class="swatch" style="--c:' + LANE_COLOR.load + '"></span>target (Load module): ' + esc(figures(target, "reports")) + "</p>" : "") +
        '<p class="load-computed" data-core="' + esc(c) + '"><span class="swatch" style="--c:#1d2330"></span>trx (computed): ' +
        (mine ? esc(figures(mine, "windows")) : loadUnavailable() ? "unavailable: " + esc(loadUnavailable()) : "none") +
        "</p>" + (series.length ? loadChart(series) : "");
    }).join("");
  };
  /* UIABenchmark start / stop pairs: the page's own (meta "durations", as
     `trx stats --json` gives them), else the statistics' */
  function durationRows() { return meta.durations || stats.durations || []; }
  /* The Durations tab: UIABenchmark start / stop pairs. */
  tabs.Durations = function () {
    return table(["name", "core", "count", "min (ticks)", "mean", "max", "the longest"], durationRows().map(function (d, k) {
      var at = "durations." + k + ".", w = (d.worst || [])[0];
      return [td(d.name), td(d.core === undefined || d.core === null ? "" : d.core), td(d.count, at + "count"),
        td(d.min_ticks, at + "min_ticks"), td(d.mean_ticks, at + "mean_ticks"), td(d.max_ticks, at + "max_ticks"),
        w ? spanLink(timeText(w.start_ticks) + " – " + timeText(w.end_ticks), w.start_ticks, w.end_ticks, w.end_index) : td("")];
    }));
  };
  /* the tabs this trace has: what its RTOS and events give */
  function tabNames() {
    var sysbios = meta.rtos === "sysbios";
    return Object.keys(tabs).filter(function (k) {
      if (stats.pending) return k === "Performance";
      switch (k) {
        case "Priority inversions": /* none where the events name no lock owners (SYS/BIOS) */
          return !(stats.performance && stats.performance.priority_inversions === null);
        case "Popular services": return (stats.popular_services || []).length > 0;
        case "FileX": return !!stats.filex && nonzero(stats.filex);
        case "NetX": return !!stats.netx && nonzero(stats.netx);
        case "Interrupts": return (stats.isr || []).length > 0 || (stats.swi || []).length > 0;
        case "Load": return loadLanes.length > 0 || (sysbios && (!!stats.cpu_load || !!loadUnavailable()));
        case "Durations": return durationRows().length > 0;
        default: return true;
      }
    });
  }
  function tabLabel(k) { return k === "Interrupts" && meta.rtos === "sysbios" ? "Hwi / Swi" : k; }
  var currentTab = "Performance";
  function showTab(name) {
    if (name === "Hwi / Swi") name = "Interrupts";
    currentTab = name;
    var names = tabNames();
    $("stat-tabs").innerHTML = names.map(function (k) {
      return '<button data-tab="' + esc(k) + '"' + (k === name ? ' class="on"' : "") + ">" + esc(tabLabel(k)) + "</button>";
    }).join("");
    if (stats.pending) { $("stat-body").innerHTML = '<p class="muted" id="stats-pending">Statistics: computing…</p>'; return; }
    $("stat-body").innerHTML = tabs[name] ? tabs[name]() : "";
  }
  $("stat-tabs").addEventListener("click", function (e) { if (e.target.tagName === "BUTTON") showTab(e.target.dataset.tab); });
  $("details").addEventListener("click", function (e) {
    var j = e.target.getAttribute("data-jump");
    if (j !== null) select(Number(j), true);
  });
  $("stat-body").addEventListener("click", function (e) {
    var why = e.target.getAttribute("data-why");
    if (why !== null) { showPath(Number(why.split(",")[0]), Number(why.split(",")[1])); window.scrollTo({ top: 0 }); return; }
    var sp = e.target.getAttribute("data-span");
    if (sp !== null) { showSpan.apply(null, sp.split(",").map(Number)); window.scrollTo({ top: 0 }); return; }
    var g = e.target.getAttribute("data-goto");
    if (g !== null) { gotoEvent(Number(g)); window.scrollTo({ top: 0 }); return; }
    var j = e.target.getAttribute("data-jump");
    if (j !== null) { select(Number(j), true); window.scrollTo({ top: 0 }); }
  });

  /* ----------------------------------------------- hooks for the tests */
  var api = window.trxReport = {
    eventCount: function () { return n; },
    view: function () { return { start: v0, end: v1, sequential: seq }; },
    lanes: function () {
      var rect = canvas.getBoundingClientRect();
      return shown.map(function (l, r) {
        return { name: l.name, kind: l.kind, events: l.nev, slices: l.nseg, x: LABEL, y: RULER + r * ROW,
                 width: plotW(), height: ROW, pageX: rect.left + window.scrollX, pageY: rect.top + window.scrollY };
      });
    },
    eventPoint: function (i) {
      var r = shown.indexOf(lanes[lane[i]]);
      return r < 0 ? null : { x: xOf(pos(i)), y: RULER + r * ROW + 6 };
    },
    eventLane: function (i) { return lanes[lane[i]].name; },
    cpuLanes: function () {
      return cpuLanes.map(function (l) { return { name: l.name, runs: l.nseg, migrations: l.migrations }; });
    },
    flowCount: function () { return flowE.length; },
    flowEnds: function (all) { return Array.from(all ? flowE : flowE.slice(0, 50)); },
    /* the flows the last drawing showed (not the selected event's): [cause, effect] */
    flowsDrawn: function () { return drawnFlows.map(function (k) { return [flowS[k], flowE[k]]; }); },
    positionOf: function (i) { return pos(i); },
    xAt: function (p) { return xOf(p); },
    flowRule: function () { return { all: FLOWS_ALL, step: FLOW_STEP }; },
    gaps: function () { return gaps.map(function (g) { return { before: g[0], lost: g[1] }; }); },
    select: function (i) { select(i, true); },
    selected: function () { return selected; },
    showTab: showTab,
    showSpan: showSpan,
    tabs: function () { return tabNames(); },
    tabLabel: tabLabel,
    timings: null,
    /* trx serve */
    served: function () { return !!serve; },
    window: function () { return { first: firstIndex, count: n, from: winFrom, to: winTo, mode: viewMode, answers: viewAnswers }; },
    setView: function (a, b) { v0 = a; v1 = b; redraw(); },
    refresh: function () { asked = ""; redraw(); },
    gotoEvent: gotoEvent,
    stats: function () { return stats; },
    /* the Load tab's figures per core: {core, target, computed, unavailable} */
    loadCores: function () { return loadCores(); },
    summary: function () { return summary; },
    ruler: function () { return rulerLabels; },
    /* the run bars of the last frame, per lane row: [x, width, height, summary column or -1] ... */
    bars: function () { return { top: BAR_TOP, full: BAR_H, least: BAR_MIN, rows: shown.map(function (l, r) { return barsDrawn[r] || []; }) }; },
    /* late-instance marks: set them (as the latency engine will), and those the last frame drew */
    setLateMarks: function (list) { setLateMarks(list); facts(); redraw(); },
    lateDrawn: function () { return lateDrawn; },
    lateStep: LATE_STEP,
    /* the Responses view: its data, open instance k of a thread, the path segments the last frame drew */
    latency: function () { return latency; },
    openWorst: function (name, k) {
      for (var r = 0; latency && r < latency.threads.length; r++) if (latency.threads[r].name === name) return showPath(r, k || 0);
    },
    pathDrawn: function () { return pathDrawn; },
    /* one frame drawn now: its ms (bench/serve/frame_bench.js) */
    drawFrame: function () { var s = performance.now(); draw(); return performance.now() - s; },
    bands: function () { return inv.map(function (v) { return [v[0] + firstIndex, v[1] + firstIndex, v[2]]; }); },
    live: function () {
      return { live: live, generation: generation, total: serve ? serve.total : n, lost: meta.lost_events,
               span: meta.span_ticks, view: [v0, v1], source: meta.source };
    }
  };

  facts();
  showTab("Performance");
  /* a live capture (trx capture --serve): a newer generation of the file
   * brings its header, lanes and span; a view of the whole span follows it */
  var generation = 0, live = false;
  var taking = false;
  function takeGeneration(g) {
    var r = fullRange(), atFit = v0 <= r[0] && v1 >= r[1];
    if (taking) return;
    taking = true;
    fetchJson("api/meta?generation=" + g, function (m) { /* null: already a newer one */
      taking = false;
      if (!m || !m.serve) return;
      meta = m; serve = m.serve; generation = g; /* the generation is its meta's */
      if (m.late) setLateMarks(m.late);
      if (m.lanes.length !== lanes.length) {
        lanes = meta.lanes.map(function (l, k) {
          return { k: k, name: l.name, kind: l.kind, address: l.address, used: l.used,
                   nev: 0, nseg: 0, ev: null, segS: null, segE: null };
        });
        n = 0; winTo = -1; index();
        shown = lanes.filter(function (l) { return l.used; });
        laneRow = {};
        shown.forEach(function (l, k) { laneRow[l.k] = k; });
        resize();
      }
      stats = { pending: true };
      facts(); showTab(currentTab);
      if (atFit) fit();
      asked = "";
      redraw();
    });
  }
  if (serve) (function poll() {
    fetchJson("api/status", function (r) {
      if (!r || r.waiting) return setTimeout(poll, 1000);
      live = r.live;
      if (!generation) generation = r.generation;
      else if (r.generation !== generation) takeGeneration(r.generation);
      progress = (live ? "live, generation " + r.generation + (r.done ? "" : ", ") : "") +
        (r.done ? "" : "summarised " + Math.round(100 * (r.walked || r.ready) / Math.max(1, r.total)) + " %");
      if (!r.done) { asked = ""; redraw(); }
      if (r.stats && stats.pending) {
        fetchJson("api/stats", function (st) {
          if (!st || st.pending) return;
          /* the inversion list comes in pages: the first 2,000 for the tab */
          fetchJson("api/inversions?first=0&count=2000", function (iv) {
            if (iv && st.inversions) { st.inversions = iv.inversions; st.inversion_total = iv.total; }
            stats = st; facts(); showTab(currentTab);
            (function askLatency() { /* computed after the statistics: ask until it is there */
              fetchJson("api/latency", function (lt) {
                if (lt && lt.pending) { setTimeout(askLatency, 500); return; }
                if (!lt || lt.failed) return;
                latency = lt.latency; setLateMarks(lt.late); facts(); showTab(currentTab); redraw();
              });
            })();
            asked = ""; redraw(); /* the window again: its inversion bands and CPU lanes come with the statistics */
          });
        });
      }
      if (live) setTimeout(poll, 1000);
      else if (!r.done || !r.stats) setTimeout(poll, r.done ? 300 : 500);
      else if (progress === "") redraw();
    });
  })();
  fit();
  var tIndexed = performance.now();
  resize();
  draw();
})();
