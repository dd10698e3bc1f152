// The break-even explorer with both group protocols in one chart
// (`Protocols in the chart`): the scenario's own protocol keeps its
// `static` / `dynamic` series and `break-even-point`s; the other protocol's
// are added (`consumer-static`, `consumer-dynamic` or the classic pair, and
// `break-even-point-other` with `data-protocol`), each with its own session
// cliff. The first bundle has no consumer groups, so the choice hands the
// page to `kip848/` with the explorer open on it. Every figure the sentence
// states is read off the plotted points. Axe, and screenshots at 1280×800
// and 390×844 in both colour schemes.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";
const AXE = require.resolve("axe-core/axe.min.js");

type Point = { restart: number; cost: number };

/** The plotted points of a series, in restart order. */
async function series(page: Page, name: string): Promise<Point[]> {
  return page
    .getByTestId("break-even")
    .locator(`[data-series="${name}"] circle`)
    .evaluateAll((cs) =>
      cs
        .map((c) => ({ restart: Number(c.getAttribute("data-restart-ms")), cost: Number(c.getAttribute("data-cost-ms")) }))
        .sort((a, b) => a.restart - b.restart),
    );
}

/** Where the lines through the plotted points cross (static minus dynamic changes sign). */
function crossings(s: Point[], d: Point[]): number[] {
  const lead = s.map((p, i) => ({ at: p.restart, lead: p.cost - d[i].cost })).filter((p) => p.lead !== 0);
  const out: number[] = [];
  for (let i = 1; i < lead.length; i++) {
    const [a, b] = [lead[i - 1], lead[i]];
    if (a.lead < 0 !== b.lead < 0) out.push(a.at + (a.lead / (a.lead - b.lead)) * (b.at - a.at));
  }
  return out;
}

/** A cost as the sentence says it: seconds to a tenth, rounded. */
const say = (ms: number) => `${Math.floor((ms + 50) / 100) / 10}`.replace(/^(\d+)$/, "$1.0") + " s";

async function stated(page: Page, testId: string): Promise<number[]> {
  return page.getByTestId(testId).evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-ms"))));
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

/** Checks both protocols' series, crossings and sentence against each other. */
async function checkBoth(page: Page, other: "classic" | "consumer") {
  const chart = page.getByTestId("break-even");
  const [s, d] = [await series(page, "static"), await series(page, "dynamic")];
  const [os, od] = [await series(page, `${other}-static`), await series(page, `${other}-dynamic`)];
  for (const points of [s, d, os, od]) expect(points.length).toBeGreaterThan(12);
  expect(d.map((p) => p.restart)).toEqual(s.map((p) => p.restart));
  expect(od.map((p) => p.restart)).toEqual(os.map((p) => p.restart));
  // Both protocols ran the same even grid (refinements aside).
  const restarts = new Set(os.map((p) => p.restart));
  expect(s.filter((p) => restarts.has(p.restart)).length).toBeGreaterThanOrEqual(17);

  const pairs: [number[], number[]][] = [
    [await stated(page, "break-even-point"), crossings(s, d)],
    [await stated(page, "break-even-point-other"), crossings(os, od)],
  ];
  for (const [said, crossed] of pairs) {
    expect(said.length).toBe(crossed.length);
    said.forEach((ms, i) => expect(Math.abs(ms - crossed[i])).toBeLessThanOrEqual(1));
  }
  for (const el of await page.getByTestId("break-even-point-other").all()) {
    await expect(el).toHaveAttribute("data-protocol", other);
  }
  await expect(chart.locator(".be-crossing")).toHaveCount(pairs[0][1].length);
  await expect(chart.locator(".be-crossing-other")).toHaveCount(pairs[1][1].length);
  await expect(chart.locator(".be-cliff")).toHaveCount(1);
  await expect(chart.locator(".be-cliff-other")).toHaveCount(1);

  // The headline's figures are the plotted points at its restart.
  const headline = page.getByTestId("break-even-headline");
  const at = Number(await headline.getAttribute("data-restart-ms"));
  const cost = (ps: Point[]) => ps.find((p) => p.restart === at)!.cost;
  const [classic, consumer] = other === "consumer" ? [[s, d], [os, od]] : [[os, od], [s, d]];
  await expect(headline).toContainText(
    `dynamic members cost ${say(cost(consumer[1]))} of partition-unavailable time against ${say(cost(classic[1]))} under classic, ` +
      `and static members ${say(cost(consumer[0]))} against ${say(cost(classic[0]))}`,
  );
  return { s, d, os, od, at };
}

test("the first bundle hands the two-protocol view to kip848/, which draws both protocols' curves", async ({ page }) => {
  test.setTimeout(240_000);
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=rolling-restart-static&autoplay=0");
  const open = page.getByRole("button", { name: "Break-even explorer", exact: true });
  await open.click();
  const protocols = page.getByRole("combobox", { name: "Protocols in the chart" });
  await expect(protocols).toHaveValue("this");
  await protocols.selectOption("both");
  // The page with consumer groups reopens the explorer on both protocols.
  await expect(page).toHaveURL(/\/kip848\/\?.*break-even=both/);
  await expect(page.getByRole("button", { name: "Break-even explorer", exact: true })).toHaveAttribute("aria-expanded", "true");
  await expect(protocols).toHaveValue("both");
  await expect(page.locator(".be-status")).toContainText("under the consumer protocol (2 of 2)", { timeout: 120_000 });
  await expect(page.getByTestId("break-even-summary")).toBeVisible({ timeout: 120_000 });
  const { d, od, at } = await checkBoth(page, "consumer");
  expect(at).toBe(20_000);
  // A rolling restart: the consumer protocol moves only the restarted
  // pod's partitions, so dynamic members cost far less than classic's.
  const dyn = (ps: Point[]) => ps.find((p) => p.restart === 20_000)!.cost;
  expect(dyn(od) * 3).toBeLessThan(dyn(d));
  const summary = page.getByTestId("break-even-summary");
  await expect(summary).toContainText("Classic protocol (this scenario's):");
  await expect(summary).toContainText("Consumer protocol:");
  await expect(page.getByTestId("break-even-headline")).toContainText(
    "once it outlasts the group's session, 45.0 s, against the consumers' own 60.0 s under classic",
  );
  await expect(page.getByRole("list", { name: "Key", exact: true })).toContainText("session timeout, consumer: 45.0 s (the group's)");
  await expect(page.getByRole("list", { name: "Key", exact: true })).toContainText("session timeout, classic: 60.0 s (the consumers')");

  // The select works from the keyboard: back to the one protocol.
  await protocols.focus();
  await page.keyboard.press("ArrowUp");
  await expect(protocols).toHaveValue("this");
  await expect(page.getByTestId("break-even").locator('[data-series="consumer-static"]')).toHaveCount(0);
  await expect(page.getByTestId("break-even-point-other")).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("a consumer-protocol scenario adds the classic curves, each protocol its own cliff", async ({ page }) => {
  test.setTimeout(240_000);
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/kip848/?scenario=restart-90s&autoplay=0&break-even=both");
  await expect(page.getByTestId("break-even-summary")).toBeVisible({ timeout: 120_000 });
  await checkBoth(page, "classic");
  await expect(page.getByTestId("break-even-headline")).toContainText("At a 90.0 s restart (this scenario's own)");
  await expect(page.getByRole("list", { name: "Key", exact: true })).toContainText("session timeout, consumer: 60.0 s (the group's)");
  await expect(page.getByRole("list", { name: "Key", exact: true })).toContainText("session timeout, classic: 120.0 s (the consumers')");
  expect(problems).toEqual([]);
});

for (const scheme of ["light", "dark"] as const) {
  test(`the two-protocol explorer has no axe violations and is shot (${scheme})`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/kip848/?scenario=rolling-restart-static&autoplay=0&break-even=both");
    await expect(page.getByTestId("break-even-summary")).toBeVisible({ timeout: 120_000 });
    const panel = page.locator(".panel-break-even");
    await panel.scrollIntoViewIfNeeded();
    expect(await axe(page)).toEqual([]);
    await panel.screenshot({ path: `${SHOTS}/break-even-protocols-${scheme}.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("break-even").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/break-even-protocols-phone-${scheme}.png` });
    await panel.screenshot({ path: `${SHOTS}/break-even-protocols-phone-panel-${scheme}.png` });
    const summary = page.getByTestId("break-even-summary");
    await summary.evaluate((e) => e.scrollIntoView({ block: "start" }));
    await summary.screenshot({ path: `${SHOTS}/break-even-protocols-phone-summary-${scheme}.png` });
  });
}
