// KIP-848's consumer protocol in the page (spec/ui-contract.md, "Consumer
// groups"): the `Group protocol` choice, the hand-over to the bundle with
// consumer groups (kip848/), the consumer group's state diagram, its epochs,
// the members' epochs and reconciliation, an away static member, a refused
// restart, the timeline's epoch markers, a share link's round trip, axe, and
// screenshots in both colour schemes at 1280×800 and 390×844.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";
const AXE = require.resolve("axe-core/axe.min.js");
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

async function virtualMs(page: Page): Promise<number> {
  return Number(await page.getByTestId("virtual-time").first().getAttribute("data-ms"));
}

/** Presses Next state until virtual time passes `ms`. */
async function runPast(page: Page, ms: number) {
  for (let i = 0; i < 400 && (await virtualMs(page)) <= ms; i++) {
    await button(page, "Next state").click();
  }
  expect(await virtualMs(page)).toBeGreaterThan(ms);
}

async function axe(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations: { id: string; help: string; nodes: { target: string[] }[] }[] = await page.evaluate(
    async () => {
      // @ts-expect-error axe is the global axe.min.js defines.
      return (await window.axe.run(document, { resultTypes: ["violations"] })).violations;
    },
  );
  return violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("the Group protocol choice re-runs the scenario under the consumer protocol and back", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart&autoplay=0");
  await expect(page.getByTestId("group-protocol")).toHaveText("classic");
  await expect(page.locator('[data-testid="state-diagram"] [data-state="PreparingRebalance"]')).toHaveCount(1);

  await page.getByRole("combobox", { name: "Group protocol" }).selectOption("consumer");
  // The bundle with consumer groups opens at the same scenario.
  await expect(page).toHaveURL(/\/kip848\//);
  await expect(page.getByTestId("group-protocol")).toHaveText("consumer");
  await expect(page.getByRole("combobox", { name: "Group protocol" })).toHaveValue("consumer");
  const diagram = page.getByTestId("state-diagram");
  for (const s of ["Empty", "Assigning", "Reconciling", "Stable"]) {
    await expect(diagram.locator(`[data-state="${s}"]`)).toHaveCount(1);
  }
  await expect(diagram.locator('[data-state="PreparingRebalance"]')).toHaveCount(0);

  // The group formed, before A's restart at 20 s.
  await runPast(page, 15_000);
  expect(await virtualMs(page)).toBeLessThanOrEqual(20_000);
  await expect(page.getByTestId("group-state")).toHaveText("Stable");
  await expect(diagram.locator('[aria-current="step"]')).toHaveAttribute("data-state", "Stable");
  const epoch = Number(await page.getByTestId("group-epoch").textContent());
  expect(epoch).toBeGreaterThan(1);
  await expect(page.getByTestId("assignment-epoch")).toHaveText(String(epoch));
  for (const card of await page.getByTestId("member").all()) {
    await expect(card).toHaveAttribute("data-member-epoch", String(epoch));
    await expect(card).toHaveAttribute("data-reconciliation", "STABLE");
  }

  // Back to classic, in the same bundle.
  await page.getByRole("combobox", { name: "Group protocol" }).selectOption("classic");
  await expect(page.getByTestId("group-protocol")).toHaveText("classic");
  await expect(page.locator('[data-testid="state-diagram"] [data-state="CompletingRebalance"]')).toHaveCount(1);
  expect(problems).toEqual([]);
});

test("a clean restart under KIP-848: away with its place kept, back with no new epoch", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart&autoplay=0");
  await page.getByRole("combobox", { name: "Scenario" }).selectOption("consumer-clean-restart");
  await expect(page).toHaveURL(/\/kip848\/\?scenario=consumer-clean-restart/);
  await runPast(page, 25_000);
  const epoch = await page.getByTestId("group-epoch").textContent();
  // The -2 heartbeat reaches the coordinator a few ms after the restart.
  await runPast(page, 30_000);
  const app1 = page.locator('[data-testid="member"][data-name="app-1"]');
  await expect(app1).toHaveAttribute("data-client-state", "away");
  await expect(page.locator('[data-testid="instance-row"][data-instance-id="app-1"]')).toHaveAttribute("data-away", "true");
  await expect(page.getByTestId("instance-map")).toContainText("away, place kept");
  await runPast(page, 38_000);
  await runPast(page, 38_100);
  await expect(app1).toHaveAttribute("data-client-state", "stable");
  await expect(page.getByTestId("group-epoch")).toHaveText(epoch!);
  await expect(app1).toHaveAttribute("data-member-epoch", epoch!);
  // Its two partitions are its own again.
  await expect(page.locator('[data-testid="partition"][data-owner="app-1"]')).toHaveCount(2);
  expect(problems).toEqual([]);
});

test("a crash under KIP-848: the restarted process is refused with UNRELEASED_INSTANCE_ID", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=consumer-crash-restart&autoplay=0");
  await expect(page).toHaveURL(/\/kip848\//);
  // The refusal arrives a few ms after the start at 38 s.
  await runPast(page, 38_000);
  const app1 = page.locator('[data-testid="member"][data-name="app-1"]');
  await expect(app1).toHaveAttribute("data-client-state", "failed");
  await expect(app1).toContainText("UNRELEASED_INSTANCE_ID");
  await expect(page.locator('[data-testid="timeline-marker"][data-kind="failed"]').first()).toBeAttached();
  const log = page.getByTestId("event-log");
  await expect(log).toContainText("UNRELEASED_INSTANCE_ID");
  // The session runs out: the old member is removed and the epoch moves.
  const before = Number(await page.getByTestId("group-epoch").textContent());
  await runPast(page, 72_000);
  expect(Number(await page.getByTestId("group-epoch").textContent())).toBe(before + 1);
  await expect(page.locator('[data-testid="timeline-marker"][data-kind="epoch"]').first()).toBeAttached();
  expect(problems).toEqual([]);
});

test("a share link of a consumer-protocol run reopens it under the consumer protocol", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/?scenario=kip345-restart&autoplay=0");
  await page.getByRole("combobox", { name: "Group protocol" }).selectOption("consumer");
  await expect(page).toHaveURL(/\/kip848\//);
  await runPast(page, 12_000);
  const at = await virtualMs(page);
  await button(page, "Share link").click();
  const link = await page.getByRole("textbox", { name: "Link to this scenario and step" }).inputValue();
  expect(link).toContain("#s=");
  // Opened from the first bundle's address, it is handed over and reopens.
  const hash = link.slice(link.indexOf("#"));
  await page.goto(`/${hash}`);
  await expect(page).toHaveURL(/\/kip848\//);
  await expect(page.getByTestId("group-protocol")).toHaveText("consumer");
  expect(await virtualMs(page)).toBe(at);
});

test("compare mode sets the protocol as the difference: classic and consumer panes on one clock", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=consumer-clean-restart&autoplay=0");
  await expect(page).toHaveURL(/\/kip848\//);
  await page.getByLabel("Difference").selectOption("classic_vs_consumer");
  await button(page, "Compare classic vs consumer protocol").click();
  const classic = page.locator('[data-testid="pane"][data-label="classic"]');
  const consumer = page.locator('[data-testid="pane"][data-label="consumer"]');
  await expect(classic).toHaveAttribute("data-protocol", "classic");
  await expect(consumer).toHaveAttribute("data-protocol", "consumer");
  await runPast(page, 45_000);
  // The clean restart moves nothing under either protocol after forming;
  // the consumer pane's epochs stand where the group formed.
  await expect(classic.getByTestId("generation")).toHaveText("1");
  await expect(consumer.getByTestId("group-epoch")).toHaveText("4");
  const figure = (label: string, name: string) =>
    page.locator(`[data-testid="compare-figure"][data-label="${label}"][data-figure="${name}"]`);
  for (const label of ["classic", "consumer"]) {
    await expect(figure(label, "all_stopped")).toHaveAttribute("data-value", "0");
    const after = Number(await figure(label, "unavailable_after_startup").getAttribute("data-value"));
    expect(after).toBeGreaterThan(15_000);
    expect(after).toBeLessThan(17_000);
  }
  await expect(page.getByTestId("availability-chart").locator('[data-series="consumer"] polyline')).toHaveCount(1);
  await page.getByTestId("compare-strip").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/compare-classic-consumer.png` });

  // From the first bundle, the same difference opens the bundle with consumer groups.
  await page.goto("/?scenario=kip345-restart&autoplay=0");
  await page.getByLabel("Difference").selectOption("classic_vs_consumer");
  await button(page, "Compare classic vs consumer protocol").click();
  await expect(page).toHaveURL(/\/kip848\//);
  await expect(page.locator('[data-testid="pane"][data-protocol="consumer"]')).toHaveCount(1);
  expect(problems).toEqual([]);
});

test("the break-even explorer draws the consumer protocol's curves, its cliff at the group's 60 s session cap", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/kip848/?scenario=restart-90s&autoplay=0");
  const open = page.getByRole("button", { name: "Break-even explorer", exact: true });
  await open.click();
  await expect(page.getByTestId("break-even-summary")).toBeVisible({ timeout: 60_000 });
  const chart = page.getByTestId("break-even");
  for (const name of ["static", "dynamic"]) {
    expect(await chart.locator(`[data-series="${name}"] circle`).count()).toBeGreaterThan(3);
  }
  // Past the group's session cap a static restart costs rebalances and
  // moves: its cost per restart second drops below the down time it stalls.
  const points = await chart.locator('[data-series="static"] circle').evaluateAll((cs) =>
    cs.map((c) => [Number(c.getAttribute("data-restart-ms")), Number(c.getAttribute("data-cost-ms"))]),
  );
  const within = points.filter(([r]) => r > 10_000 && r < 55_000);
  const past = points.filter(([r]) => r > 70_000);
  expect(within.length).toBeGreaterThan(0);
  expect(past.length).toBeGreaterThan(0);
  for (const [r, c] of within) expect(c).toBeGreaterThanOrEqual(2 * r * 0.98);
  for (const [r, c] of past) expect(c).toBeLessThan(2 * r);
  await chart.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/break-even-consumer.png` });
  expect(problems).toEqual([]);
});

for (const scheme of ["light", "dark"] as const) {
  test(`the consumer group's views have no axe violations and are shot (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/kip848/?scenario=consumer-clean-restart&autoplay=0");
    await runPast(page, 30_000);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/consumer-protocol-${scheme}.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("state-diagram").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/consumer-protocol-phone-${scheme}.png` });
  });
}

test("an imported consumer group's protocol scenario opens in the consumer-group bundle and plays its members", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart");
  await button(page, "Import scenario").click();
  const dialog = page.getByRole("dialog", { name: "Import a scenario" });
  const file = require("node:fs").readFileSync(
    "../conformance/C13-static-member-away-past-its-session-is-fenced.json",
    "utf8",
  );
  await dialog.getByLabel("Scenario JSON").fill(file);
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page).toHaveURL(/\/kip848\//, { timeout: 15_000 });
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  await expect(page.getByTestId("group-protocol")).toHaveText("consumer");
  const card = page.locator('[data-testid="member"][data-name="i1"]');
  // Away after its -2 leave, then its session runs out, then a new process.
  const away = page.locator('[data-testid="member"][data-client-state="away"]');
  for (let i = 0; i < 40 && !(await away.count()); i++) await button(page, "Next state").click();
  await expect(away).toHaveAttribute("data-name", "i1");
  for (let i = 0; i < 40 && (await card.getAttribute("data-member-id")) !== "m1b"; i++) {
    await button(page, "Next state").click();
  }
  await expect(card).toHaveAttribute("data-client-state", "stable");
  await expect(card).toHaveAttribute("data-member-epoch", /^[1-9]/);
  await expect(page.getByTestId("member")).toHaveCount(1);
  expect(problems).toEqual([]);
});
