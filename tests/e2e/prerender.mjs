// The first view as real HTML: scripts/build runs this after `trunk build`.
//
//   node prerender.mjs DIST [SCREENSHOT_DIR]
//
// It opens the built app (DIST/index.html) in headless Chromium, waits for
// the default view (`/`: the default preset at t=0; each page here asks for
// reduced motion, under which the landing story does not start playing by
// itself, so the first view is the same frame every time) and copies the
// DOM Yew rendered into DIST/index.html's `<div id="gs-shell">`, so the
// browser paints the page before the wasm has arrived. The shell is inert and
// aria-hidden and carries no data-testid: the tests and assistive technology
// only ever meet the live app, which removes the shell when it starts
// (index.html, TrunkApplicationStarted).
//
// Then it checks the swap: the page loaded with the wasm blocked (only the
// shell) and loaded normally (the app) must place the header, the transport
// and every panel at the same boxes; it prints the largest difference and
// fails past MAX_SHIFT_PX; it also says whether the two screenshots are
// identical. With SCREENSHOT_DIR it saves them (first-view-shell.png,
// first-view-app.png).
import { chromium } from "playwright-core";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { serveDir, CHROMIUM } from "./static-server.mjs";

const MAX_SHIFT_PX = 1;
const VIEWPORT = { width: 1280, height: 900 };

const dist = resolve(process.argv[2] ?? "../../dist");
const shots = process.argv[3] ? resolve(process.argv[3]) : null;
const indexPath = join(dist, "index.html");

// The shell as Trunk writes it (empty), or as an earlier run filled it.
const FILLED = /<div[^>]*\bid="?gs-shell"?[^>]*>[\s\S]*<\/div><!--\/gs-shell-->/;
const EMPTY = /<div[^>]*\bid="?gs-shell"?[^>]*><\/div>/;

/** In the page: the rendered app as HTML for the shell. */
function shellHtml() {
  const live = document.querySelector("body > .app");
  if (!live) throw new Error("no .app under <body>");
  const copy = live.cloneNode(true);
  // Yew sets values as properties; the HTML must carry them as attributes.
  const pairs = (sel) => [...live.querySelectorAll(sel)].map((el, i) => [el, copy.querySelectorAll(sel)[i]]);
  for (const [from, to] of pairs("input")) {
    if (from.type === "checkbox" || from.type === "radio") to.toggleAttribute("checked", from.checked);
    else to.setAttribute("value", from.value);
  }
  for (const [from, to] of pairs("option")) to.toggleAttribute("selected", from.selected);
  for (const [from, to] of pairs("textarea")) to.textContent = from.value;
  // Nothing for the tests to find and nothing to announce: the shell is a picture.
  for (const el of copy.querySelectorAll("[data-testid],[aria-live],[autofocus]")) {
    el.removeAttribute("data-testid");
    el.removeAttribute("aria-live");
    el.removeAttribute("autofocus");
  }
  return copy.outerHTML;
}

/** In the page: the boxes the swap must keep still, by a stable name. */
function boxes() {
  const root = document.querySelector("#gs-shell > .app") ?? document.querySelector("body > .app");
  const named = [
    ["header", root.querySelector(".app-header")],
    ["brand", root.querySelector(".brand")],
    ["transport", root.querySelector(".transport")],
    ["layout", root.querySelector(".layout")],
    ...[...root.querySelectorAll("section.panel")].map((s) => [`panel ${s.getAttribute("aria-label")}`, s]),
  ];
  return Object.fromEntries(
    named
      .filter(([, el]) => el)
      .map(([name, el]) => {
        const r = el.getBoundingClientRect();
        return [name, [r.x, r.y, r.width, r.height].map((v) => Math.round(v * 10) / 10)];
      }),
  );
}

const server = await serveDir(dist);
const browser = await chromium.launch(CHROMIUM);
try {
  // 1. Render the default view and copy it into index.html.
  const page = await browser.newPage({ viewport: VIEWPORT, reducedMotion: "reduce" });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${server.url}/`);
  await page.waitForSelector('body > .app [data-testid="group-state"]');
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  if (errors.length) throw new Error(`the app failed while prerendering: ${errors.join("; ")}`);
  const html = await page.evaluate(shellHtml);
  await page.close();

  const index = await readFile(indexPath, "utf8");
  const shell = `<div aria-hidden=true id=gs-shell inert>${html}</div><!--/gs-shell-->`;
  const pattern = FILLED.test(index) ? FILLED : EMPTY;
  if (!pattern.test(index)) throw new Error(`${indexPath} has no <div id="gs-shell"> to fill`);
  await writeFile(indexPath, index.replace(pattern, () => shell));
  console.log(`prerendered the first view into ${indexPath}: ${Buffer.byteLength(html)} bytes of HTML`);

  // 2. The shell alone (wasm blocked) against the app: same boxes?
  const shellPage = await browser.newPage({ viewport: VIEWPORT, reducedMotion: "reduce" });
  await shellPage.route("**/*.wasm", (route) => route.abort());
  await shellPage.goto(`${server.url}/`, { waitUntil: "load" });
  const before = await shellPage.evaluate(boxes);
  if (shots) await mkdir(shots, { recursive: true });
  const shellShot = await shellPage.screenshot(shots ? { path: join(shots, "first-view-shell.png") } : {});
  await shellPage.close();

  const appPage = await browser.newPage({ viewport: VIEWPORT, reducedMotion: "reduce" });
  await appPage.goto(`${server.url}/`);
  await appPage.waitForSelector('body > .app [data-testid="group-state"]');
  const shellLeft = await appPage.evaluate(() => document.getElementById("gs-shell") !== null);
  if (shellLeft) throw new Error("the shell is still in the page after the app started");
  await appPage.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  const after = await appPage.evaluate(boxes);
  const appShot = await appPage.screenshot(shots ? { path: join(shots, "first-view-app.png") } : {});
  await appPage.close();

  let worst = { name: "", shift: 0 };
  for (const [name, box] of Object.entries(after)) {
    const was = before[name];
    if (!was) throw new Error(`the shell has no ${name}`);
    const shift = Math.max(...box.map((v, i) => Math.abs(v - was[i])));
    if (shift > worst.shift) worst = { name, shift };
  }
  console.log(
    `shell -> app: ${Object.keys(after).length} boxes, largest move ${worst.shift} px` +
      (worst.name ? ` (${worst.name})` : "") +
      `; screenshots (${VIEWPORT.width}×${VIEWPORT.height}) ${shellShot.equals(appShot) ? "identical" : "differ"}`,
  );
  if (worst.shift > MAX_SHIFT_PX) {
    throw new Error(`the swap from the shell to the app moves ${worst.name} by ${worst.shift} px`);
  }
} finally {
  await browser.close();
  await server.close();
}
