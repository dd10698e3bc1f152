// Page weight and first paint, GroupScope against RaftScope, in one run.
// scripts/bench-page runs it; it measures and prints, it asserts nothing.
//
//   node bench-page.mjs GROUPSCOPE_DIST RAFTSCOPE_DIR [LOADS]
//
// Each page is served from its own directory on 127.0.0.1 by the same
// server (static-server.mjs: uncompressed, no-store) and loaded LOADS times
// (default 10), the two alternating and each pair in swapped order, every
// load in a fresh browser context (an empty cache) of one headless Chromium.
// Per load: first-contentful-paint (PerformanceObserver 'paint'),
// largest-contentful-paint, the load event, and for GroupScope: when the
// whole first view was drawn (the end of the frame that draws the
// prerendered panels, a frame after the header, or of the app's first frame
// if it replaced the shell before), when the app started (Trunk's
// TrunkApplicationStarted, after the wasm's first render) and when the frame
// drawing it ended; and the files served. Weight: each file a load fetched, raw and `gzip -9`.
// A one-line HTML page is loaded in turn with the two: the floor of this
// browser and machine for any page's first paint.
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { serveDir, CHROMIUM } from "./static-server.mjs";

const [gsDir, rsDir] = [process.argv[2], process.argv[3]].map((d) => resolve(d));
const loads = Number(process.argv[4] ?? 10);
const VIEWPORT = { width: 1280, height: 900 };

// In the page, before anything else runs.
function instrument() {
  window.__bench = { fcp: null, lcp: null, panels: null, started: null, drawn: null };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === "first-contentful-paint") window.__bench.fcp = e.startTime;
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.lcp = e.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  // GroupScope's prerendered panels are drawn in the frame in which
  // index.html takes `gs-later` off the root (while the shell is there):
  // the task after that frame's animation callbacks ends it.
  new MutationObserver(() => {
    const root = document.documentElement;
    if (window.__bench.panels === null && !root.classList.contains("gs-later") && document.getElementById("gs-shell")) {
      window.__bench.panels = -1;
      setTimeout(() => (window.__bench.panels = performance.now()));
    }
  }).observe(document, { subtree: true, attributeFilter: ["class"] });
  // The app's start (Trunk's event, after the wasm's first render) and the
  // end of the frame that draws it (the task after its animation frame).
  addEventListener("TrunkApplicationStarted", () => {
    window.__bench.started = performance.now();
    requestAnimationFrame(() => setTimeout(() => (window.__bench.drawn = performance.now())));
  });
}

async function measure(browser, site) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  site.server.served.length = 0;
  await page.goto(`${site.server.url}/`, { waitUntil: "load" });
  if (site.started) await page.waitForFunction(() => window.__bench.drawn !== null);
  await page.waitForFunction(() => window.__bench.fcp !== null && window.__bench.lcp !== null);
  const m = await page.evaluate(() => ({
    fcp: window.__bench.fcp,
    lcp: window.__bench.lcp,
    panels: window.__bench.panels,
    started: window.__bench.started,
    drawn: window.__bench.drawn,
    // The whole first view: the prerendered panels, or the app if it came
    // first (then the shell's panels were never drawn).
    whole: Math.min(window.__bench.panels > 0 ? window.__bench.panels : Infinity, window.__bench.drawn ?? Infinity),
    load: performance.getEntriesByType("navigation")[0].loadEventStart,
  }));
  m.files = [...new Set(site.server.served)];
  await context.close();
  return m;
}

const sizes = (files) =>
  files.reduce(
    (t, f) => ({
      raw: t.raw + readFileSync(f).length,
      gzip: t.gzip + execFileSync("gzip", ["-9c", f], { maxBuffer: 1 << 28 }).length,
    }),
    { raw: 0, gzip: 0 },
  );

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// The harness's own floor: a page of one line of text and nothing else,
// loaded the same way, so "first paint ≤ 100 ms" can be read against what
// this browser on this machine does for the least a page can be.
const floorDir = mkdtempSync(join(tmpdir(), "bench-floor-"));
writeFileSync(
  join(floorDir, "index.html"),
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head><body><p>GroupScope</p></body></html>\n',
);
const sites = [
  { name: "GroupScope", dir: gsDir, started: true, runs: [] },
  { name: "RaftScope", dir: rsDir, started: false, runs: [] },
  { name: "one-line page", dir: floorDir, started: false, runs: [] },
];
for (const s of sites) s.server = await serveDir(s.dir);
const browser = await chromium.launch(CHROMIUM);
try {
  // One unmeasured load each: the browser's own first-start costs land on neither.
  for (const s of sites) await measure(browser, s);
  for (let i = 0; i < loads; i++) {
    const order = i % 2 ? [...sites].reverse() : sites;
    for (const s of order) s.runs.push(await measure(browser, s));
  }
} finally {
  await browser.close();
  for (const s of sites) await s.server.close();
}

// --- The table --------------------------------------------------------------
const [gs, rs, floor] = sites;
for (const s of sites) {
  s.files = s.runs[0].files;
  const drift = s.runs.find((r) => r.files.length !== s.files.length);
  if (drift) throw new Error(`${s.name}: loads fetched different files (${s.files.length} vs ${drift.files.length})`);
  s.size = sizes(s.files);
  for (const k of ["fcp", "lcp", "whole", "load", "started", "drawn"]) {
    const xs = s.runs.map((r) => r[k]).filter((x) => x !== null && x !== undefined && Number.isFinite(x));
    s[k] = xs.length ? { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) } : null;
  }
}
const kb = (b) => `${(b / 1000).toFixed(1)} KB`;
const ms = (x) => (x ? `${Math.round(x.median)} ms` : "—");
const spread = (x) => (x ? `${Math.round(x.min)}–${Math.round(x.max)}` : "—");
const ratio = (a, b) => (a && b ? (a / b).toFixed(2) : "—");
const rows = [
  ["files loaded", gs.files.length, rs.files.length, ratio(gs.files.length, rs.files.length)],
  ["bytes loaded, raw", kb(gs.size.raw), kb(rs.size.raw), ratio(gs.size.raw, rs.size.raw)],
  ["bytes loaded, gzip -9", kb(gs.size.gzip), kb(rs.size.gzip), ratio(gs.size.gzip, rs.size.gzip)],
  ["first contentful paint, median", ms(gs.fcp), ms(rs.fcp), ratio(gs.fcp?.median, rs.fcp?.median)],
  ["  min–max (ms)", spread(gs.fcp), spread(rs.fcp), ""],
  ["largest contentful paint, median", ms(gs.lcp), ms(rs.lcp), ratio(gs.lcp?.median, rs.lcp?.median)],
  ["  min–max (ms)", spread(gs.lcp), spread(rs.lcp), ""],
  ["whole first view drawn, median", ms(gs.whole), ms(rs.lcp), ratio(gs.whole?.median, rs.lcp?.median)],
  ["  min–max (ms)", spread(gs.whole), spread(rs.lcp), ""],
  ["load event, median", ms(gs.load), ms(rs.load), ratio(gs.load?.median, rs.load?.median)],
  ["  min–max (ms)", spread(gs.load), spread(rs.load), ""],
  ["app started (wasm rendered), median", ms(gs.started), "—", ""],
  ["  min–max (ms)", spread(gs.started), "", ""],
  ["app drawn (its first frame), median", ms(gs.drawn), "—", ""],
  ["  min–max (ms)", spread(gs.drawn), "", ""],
];
const widths = [0, 1, 2, 3].map((c) => Math.max(...[["", "GroupScope", "RaftScope", "ratio"], ...rows].map((r) => String(r[c]).length)));
const line = (r) => r.map((v, c) => (c ? String(v).padStart(widths[c]) : String(v).padEnd(widths[c]))).join("   ");
console.log(`Page weight and first paint: ${loads} loads of each page, alternating, headless Chromium, 127.0.0.1 (uncompressed, no cache)`);
console.log(
  "(whole first view: GroupScope's prerendered panels or its app, whichever is drawn first; RaftScope's is its\n" +
    " largest contentful paint: its script draws the servers, and its icon font arrives, after its first paint)",
);
console.log(line(["", "GroupScope", "RaftScope", "ratio"]));
for (const r of rows) console.log(line(r));
console.log(
  `Floor: a one-line HTML page, loaded alternately with the two: first contentful paint ${ms(floor.fcp)} (${spread(floor.fcp)}); ` +
    `GroupScope / floor ${ratio(gs.fcp?.median, floor.fcp?.median)}, RaftScope / floor ${ratio(rs.fcp?.median, floor.fcp?.median)}`,
);
console.log("");
for (const s of [gs, rs]) {
  console.log(`${s.name} files (raw / gzip -9):`);
  for (const f of s.files) {
    const z = sizes([f]);
    console.log(`  ${relative(s.dir, f).padEnd(48)} ${String(z.raw).padStart(9)} ${String(z.gzip).padStart(9)}`);
  }
}
console.log("");
console.log(`FCP per load (ms), GroupScope: ${gs.runs.map((r) => Math.round(r.fcp)).join(" ")}`);
console.log(`FCP per load (ms), RaftScope:  ${rs.runs.map((r) => Math.round(r.fcp)).join(" ")}`);
console.log(`FCP per load (ms), floor:      ${floor.runs.map((r) => Math.round(r.fcp)).join(" ")}`);
