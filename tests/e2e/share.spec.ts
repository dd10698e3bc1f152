// Issue 11 in a real browser, through spec/ui-contract.md: the exports
// download what the CLI writes, a share link reopens the same step, a bad
// link or a bad import leaves the page usable with error-banner, and the
// embed fits an 800×600 iframe with its `Open full view` link.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";
const REPO = "../..";

const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

/**
 * The read-outs a learner compares: state, generation, virtual time (the
 * group's from `scope`, the main view's Group panel while compare panes show
 * their own).
 */
async function readOuts(page: Page, scope: Page | Locator = page) {
  return {
    state: await scope.getByTestId("group-state").textContent(),
    generation: await scope.getByTestId("generation").textContent(),
    ms: await page.getByTestId("virtual-time").getAttribute("data-ms"),
  };
}

/** Each compare pane's read-outs (spec/ui-contract.md `pane`) and the diff strip. */
async function paneReadOuts(page: Page) {
  const panes = await page.getByTestId("pane").evaluateAll((panes) =>
    panes.map((p) => {
      const text = (id: string) => p.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? null;
      return {
        label: p.getAttribute("data-label"),
        state: text("group-state"),
        generation: text("generation"),
        rebalances: text("rebalance-count"),
        moves: text("partition-moves"),
        owners: [...p.querySelectorAll('[data-testid="partition"]')].map(
          (c) => `${c.getAttribute("data-topic")}-${c.getAttribute("data-partition")}:${c.getAttribute("data-owner")}`,
        ),
      };
    }),
  );
  const diff = await page
    .locator("table.compare-diff tbody tr")
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent?.trim())));
  return { panes, diff };
}

/** The `Share link` URL of the page now. */
async function shareLink(page: Page): Promise<string> {
  await button(page, "Share link").click();
  const url = await page.getByRole("textbox", { name: "Link to this scenario and step" }).inputValue();
  expect(url).toMatch(/#s=v1\./);
  return url;
}

/**
 * Drags a file onto `target` as a browser does: real `dragenter`, `dragover`
 * and `drop` events carrying a DataTransfer that holds the file. Returns,
 * per event, whether the page cancelled it (a drop target must cancel
 * `dragover` and `drop`, or the browser would open the file instead).
 */
async function dropFile(page: Page, target: Locator, name: string, text: string) {
  await page.evaluate(() => {
    const w = window as unknown as { dragSeen?: Record<string, boolean> };
    if (w.dragSeen) return;
    w.dragSeen = {};
    for (const type of ["dragenter", "dragover", "drop"]) {
      // On window, so after the app's own (delegated) listeners have run.
      window.addEventListener(type, (e) => (w.dragSeen![type] = e.defaultPrevented));
    }
  });
  const dataTransfer = await page.evaluateHandle(
    ([name, text]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: "application/json" }));
      return dt;
    },
    [name, text],
  );
  for (const type of ["dragenter", "dragover", "drop"]) await target.dispatchEvent(type, { dataTransfer });
  return page.evaluate(() => (window as unknown as { dragSeen: Record<string, boolean> }).dragSeen);
}

async function downloadText(page: Page, name: string): Promise<{ file: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), button(page, name).click()]);
  const path = await download.path();
  return { file: download.suggestedFilename(), text: readFileSync(path!, "utf8") };
}

test("Export trace of kip345-restart downloads the bytes of `groupscope run`", async ({ page }) => {
  test.setTimeout(600_000);
  const problems = watchProblems(page);
  // The CLI itself (cargo rebuilds it first if the sources changed).
  const cli = execFileSync(
    "cargo",
    ["run", "--quiet", "--release", "--bin", "groupscope", "--", "run", "static/scenarios/kip345-restart.json"],
    { cwd: REPO, encoding: "utf8", maxBuffer: 64 << 20 },
  );
  await page.goto("/?scenario=kip345-restart");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
  await button(page, "Step").click();
  const { file, text } = await downloadText(page, "Export trace");
  expect(file).toBe("kip345-restart.ndjson");
  expect(text.length).toBeGreaterThan(1000);
  expect(text === cli).toBe(true);
  expect(problems).toEqual([]);
});

test("Export scenario carries the user's restart; Markdown and Mermaid download", async ({ page }) => {
  await page.goto("/?scenario=kip345-restart");
  for (let i = 0; i < 12; i++) await button(page, "Next state").click();
  await button(page, "Restart B").click();
  const scenario = await downloadText(page, "Export scenario");
  expect(scenario.file).toBe("kip345-restart.json");
  const json = JSON.parse(scenario.text);
  expect(json.actions.some((a: { restart?: string }) => a.restart === "B")).toBe(true);
  const md = await downloadText(page, "Export Markdown");
  expect(md.file).toBe("kip345-restart.md");
  const mmd = await downloadText(page, "Export Mermaid");
  expect(mmd.text.startsWith("sequenceDiagram")).toBe(true);
});

test("the exporters load on the first export, in a worker; a worker that cannot load says so", async ({ page }) => {
  const fetched: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    fetched.push(url.pathname + url.search);
  });
  await page.goto("/?scenario=kip345-restart");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
  // The page's own load leaves the export worker alone (scripts/size-report
  // counts what the page loads).
  expect(fetched.filter((p) => p.includes("export-worker"))).toEqual([]);
  // The build wrote the worker's version into the page (tests/e2e/worker-version.mjs).
  const script = await page.locator('meta[name="groupscope-export-worker"]').getAttribute("content");
  expect(script).toMatch(/^export-worker\.js\?v=[0-9a-f]{16}$/);
  const version = script!.slice(script!.indexOf("?"));

  // The worker's script refused: the export fails with a message naming it,
  // the button is no longer busy, and the page goes on.
  const refused = /\/export-worker\.js\?v=/;
  await page.route(refused, (route) => route.fulfill({ status: 404, body: "" }));
  await button(page, "Export Markdown").click();
  const banner = page.getByTestId("error-banner");
  await expect(banner).toContainText("Export Markdown: the export worker stopped: its script export-worker.js could not be loaded");
  await expect(button(page, "Export Markdown")).not.toHaveAttribute("aria-busy", "true");
  await button(page, "Step").click();

  // Served again: the next export starts a new worker, which answers it and
  // the next, its files fetched once, each with the build's version.
  await page.unroute(refused);
  const md = await downloadText(page, "Export Markdown");
  expect(md.text.startsWith("# kip345-restart")).toBe(true);
  const mmd = await downloadText(page, "Export Mermaid");
  expect(mmd.text.startsWith("sequenceDiagram")).toBe(true);
  expect(fetched.filter((p) => p.includes("groupscope-export-worker"))).toEqual([
    `/groupscope-export-worker.js${version}`,
    `/groupscope-export-worker_bg.wasm${version}`,
  ]);
});

test("a share link reopens the same scenario at the same step with the same read-outs", async ({ page, context }) => {
  const problems = watchProblems(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/?scenario=kip345-restart");
  for (let i = 0; i < 6; i++) await button(page, "Next state").click();
  await button(page, "Restart C").click();
  for (let i = 0; i < 4; i++) await button(page, "Step").click();
  const before = await readOuts(page);
  const members = await page.getByTestId("member").evaluateAll((m) =>
    m.map((e) => `${e.getAttribute("data-name")}:${e.getAttribute("data-member-id")}:${e.getAttribute("data-client-state")}`),
  );

  await button(page, "Share link").click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
  const url = await page.getByRole("textbox", { name: "Link to this scenario and step" }).inputValue();
  expect(url).toMatch(/#s=v1\./);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  await page.goto("about:blank");
  await page.goto(url);
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", before.ms!);
  expect(await readOuts(page)).toEqual(before);
  const after = await page.getByTestId("member").evaluateAll((m) =>
    m.map((e) => `${e.getAttribute("data-name")}:${e.getAttribute("data-member-id")}:${e.getAttribute("data-client-state")}`),
  );
  expect(after).toEqual(members);
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("a share link made with compare open reopens compare mode with the same pane read-outs", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart");
  for (let i = 0; i < 12; i++) await button(page, "Next state").click();
  await expect(page.getByRole("region", { name: "Group" }).getByTestId("group-state")).toHaveText("Stable");
  const toggle = button(page, "Compare static vs dynamic");
  await toggle.click();
  await expect(page.getByTestId("pane")).toHaveCount(2);
  // An action in the main view, which the panes do not mirror: the link must
  // keep their scenario apart from the one it replays in the main view (a
  // dynamic twin restarting C would rebalance).
  await button(page, "Restart C").click();
  for (let i = 0; i < 8; i++) await button(page, "Next state").click();
  const group = page.getByRole("region", { name: "Group" });
  const main = await readOuts(page, group);
  const before = await paneReadOuts(page);
  expect(before.panes.map((p) => p.label)).toEqual(["static", "dynamic"]);
  expect(before.panes[0].owners.length).toBeGreaterThan(0);
  expect(before.diff.length).toBeGreaterThan(0);

  const url = await shareLink(page);
  await page.goto("about:blank");
  await page.goto(url);
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", main.ms!);
  expect(await readOuts(page, group)).toEqual(main);
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("pane")).toHaveCount(2);
  expect(await paneReadOuts(page)).toEqual(before);
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  await toggle.evaluate((el) => el.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: `${SHOTS}/share-compare-reopened.png` });

  // Both go on alike: the reopened panes keep the sender's twins.
  for (let i = 0; i < 3; i++) await button(page, "Next state").click();
  const later = await paneReadOuts(page);
  await page.goto("about:blank");
  await page.goto(url);
  await expect(page.getByTestId("pane")).toHaveCount(2);
  for (let i = 0; i < 3; i++) await button(page, "Next state").click();
  expect(await paneReadOuts(page)).toEqual(later);

  // Closed again, the link says so.
  await toggle.click();
  await expect(page.getByTestId("pane")).toHaveCount(0);
  const closed = await shareLink(page);
  await page.goto("about:blank");
  await page.goto(closed);
  await expect(page.getByTestId("group-state")).toHaveCount(1);
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("pane")).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("a corrupted #s= link opens the default scenario with error-banner", async ({ page }) => {
  await page.goto("/#s=v1.eJzLSM3JyQcABiwCFQ-broken");
  await expect(page.getByTestId("error-banner")).toContainText("cannot be opened");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
  await expect(page.getByRole("combobox", { name: "Scenario" })).toHaveValue("stateful-restart");
});

test("importing a bad file names the JSON path and keeps the session", async ({ page }) => {
  await page.goto("/?scenario=scale-out");
  for (let i = 0; i < 5; i++) await button(page, "Step").click();
  const before = await readOuts(page);

  await button(page, "Import scenario").click();
  const dialog = page.getByRole("dialog", { name: "Import a scenario" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Scenario file").setInputFiles({
    name: "bad.json",
    mimeType: "application/json",
    buffer: Buffer.from('{"topics":[{"name":"t","partitions":"nine"}],"actions":[]}'),
  });
  await expect(page.getByTestId("error-banner")).toContainText("topics[0].partitions");
  await page.keyboard.press("Escape");
  expect(await readOuts(page)).toEqual(before);

  // A protocol scenario with a request naming an unbound member id: the path is named.
  await button(page, "Import scenario").click();
  await dialog.getByLabel("Scenario JSON").fill('{"requests":[{"at_ms":0,"sync":{"member_id":"$X","generation_id":1}}]}');
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("error-banner")).toContainText("requests[0].sync.member_id");

  // A good one (pasted) replaces the session.
  const good = readFileSync(`${REPO}/static/scenarios/mixed-group.json`, "utf8");
  await dialog.getByLabel("Scenario JSON").fill(good);
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", "0");
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
});

test("dropping a scenario file on Import scenario loads it", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=scale-out");
  for (let i = 0; i < 5; i++) await button(page, "Step").click();
  await expect(page.getByTestId("virtual-time")).not.toHaveAttribute("data-ms", "0");

  await button(page, "Import scenario").click();
  const dialog = page.getByRole("dialog", { name: "Import a scenario" });
  await expect(dialog).toBeVisible();
  const file = readFileSync(`${REPO}/static/scenarios/mixed-group.json`, "utf8");
  const cancelled = await dropFile(page, dialog, "mixed-group.json", file);
  expect(cancelled).toEqual({ dragenter: true, dragover: true, drop: true });

  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", "0");
  // mixed-group's consumers: static A and B, dynamic C and D (scale-out's are all static).
  await expect(page.getByTestId("member")).toHaveCount(4);
  const members = await page
    .getByTestId("member")
    .evaluateAll((m) => m.map((e) => `${e.getAttribute("data-name")}:${e.getAttribute("data-static")}`));
  expect(members).toEqual(["A:true", "B:true", "C:false", "D:false"]);
  await expect(page.getByText(JSON.parse(file).description)).toBeVisible();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("dropping a malformed file names its JSON path and keeps the session", async ({ page }) => {
  await page.goto("/?scenario=kip345-restart");
  for (let i = 0; i < 5; i++) await button(page, "Next state").click();
  await button(page, "Restart B").click();
  for (let i = 0; i < 3; i++) await button(page, "Step").click();
  const before = await readOuts(page);
  const memberIds = () =>
    page
      .getByTestId("member")
      .evaluateAll((m) => m.map((e) => `${e.getAttribute("data-name")}:${e.getAttribute("data-member-id")}`));
  const members = await memberIds();

  await button(page, "Import scenario").click();
  const dialog = page.getByRole("dialog", { name: "Import a scenario" });
  const bad =
    '{"topics":[{"name":"t","partitions":4}],"consumers":[{"name":"A","session_timeout_ms":"ten"}],' +
    '"actions":[{"at_ms":0,"start":"A"}]}';
  const cancelled = await dropFile(page, dialog, "bad.json", bad);
  expect(cancelled.drop).toBe(true);
  await expect(page.getByTestId("error-banner")).toContainText("consumers[0].session_timeout_ms");
  await expect(dialog.getByRole("alert")).toContainText("consumers[0].session_timeout_ms");
  await page.screenshot({ path: `${SHOTS}/import-drop-error.png` });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // The session is as it was, the user's restart of B included.
  expect(await readOuts(page)).toEqual(before);
  expect(await memberIds()).toEqual(members);
  const { text } = await downloadText(page, "Export scenario");
  expect(JSON.parse(text).actions.some((a: { restart?: string }) => a.restart === "B")).toBe(true);
});

test("the embed fits 800×600 without scrolling and links to the full view", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto("/?scenario=rolling-restart-static&embed=1&theme=light");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
  await expect(page.getByTestId("narration")).toBeVisible();
  await expect(page.getByTestId("state-diagram")).toBeVisible();
  await expect(page.getByTestId("instance-map")).toBeVisible();
  await expect(page.getByTestId("assignment")).toBeVisible();
  // Twelve consumers, each with its three buttons (the last scrolls into view in its column).
  for (const name of ["app-0", "app-11"]) {
    for (const verb of ["Restart", "Crash", "Start"]) await expect(button(page, `${verb} ${name}`)).toHaveCount(1);
  }
  await expect(button(page, "Start app-0")).toBeVisible();
  for (const gone of ["Add static consumer", "Import scenario", "Export trace"]) {
    await expect(button(page, gone)).toHaveCount(0);
  }
  await expect(page.getByTestId("event-log")).toHaveCount(0);
  for (let i = 0; i < 8; i++) await button(page, "Next state").click();
  const fits = await page.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight);
  expect(fits).toBe(true);
  const link = page.getByRole("link", { name: "Open full view" });
  await expect(link).toBeVisible();
  const href = (await link.getAttribute("href"))!;
  expect(href).toMatch(/#s=v1\./);
  expect(href).not.toContain("embed=1");
  await page.screenshot({ path: `${SHOTS}/embed-800x600.png` });

  const before = await readOuts(page);
  await page.goto(href);
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", before.ms!);
  expect(await readOuts(page)).toEqual(before);
  await expect(page.getByRole("button", { name: "Add static consumer" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("embed options: theme overrides the system scheme, autoplay plays at the given speed", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto("/?scenario=kip345-restart&embed=1&theme=dark&autoplay=1&speed=20000");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(bg).toBe("rgb(14, 19, 26)");
  await expect(button(page, "Pause")).toBeVisible();
  await expect(page.getByRole("slider", { name: "Speed" })).toHaveValue("20000");
  await expect
    .poll(async () => Number(await page.getByTestId("virtual-time").getAttribute("data-ms")))
    .toBeGreaterThan(0);
});

test("embed-example.html shows two working demos that fit 800×600", async ({ page }) => {
  await page.setViewportSize({ width: 1700, height: 1000 });
  await page.goto("/embed-example.html");
  const frames = page.locator("iframe");
  await expect(frames).toHaveCount(2);
  for (let i = 0; i < 2; i++) {
    const frame = page.frameLocator("iframe").nth(i);
    await expect(frame.getByTestId("group-state")).toHaveText("Empty");
    await expect(frame.getByRole("link", { name: "Open full view" })).toBeVisible();
    await frame.getByRole("button", { name: "Next state", exact: true }).click();
    const box = await frames.nth(i).boundingBox();
    expect([box!.width, box!.height]).toEqual([802, 602]);
  }
  for (const f of page.frames().filter((f) => f !== page.mainFrame())) {
    expect(await f.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight)).toBe(true);
  }
  await page.screenshot({ path: `${SHOTS}/embed-example.png` });
});

test("in a 640×420 docs column the embed scrolls inside its frame, never the page", async ({ page }) => {
  await page.setViewportSize({ width: 640, height: 420 });
  await page.goto("/?scenario=kip345-restart&embed=1");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
  await expect(page.getByRole("link", { name: "Open full view" })).toBeVisible();
  await expect(button(page, "Step")).toBeVisible();
  expect(await page.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight)).toBe(true);
  await page.getByTestId("assignment").scrollIntoViewIfNeeded();
  await expect(page.getByTestId("assignment")).toBeInViewport();
  await expect(button(page, "Restart A")).toHaveCount(1);
});
