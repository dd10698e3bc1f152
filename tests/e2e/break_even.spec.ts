// The break-even explorer (spec/ui-contract.md `Break-even explorer`,
// `break-even`, `break-even-point`): the real simulator sweeps the scenario
// in the browser over restart durations, static and dynamic, draws both
// series with each point's restart and cost, and states the break-even where
// its own plotted curves cross — never anything they contradict.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";

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

async function openExplorer(page: Page) {
  const open = page.getByRole("button", { name: "Break-even explorer", exact: true });
  await open.click();
  await expect(open).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByTestId("break-even-summary")).toBeVisible({ timeout: 60_000 });
}

for (const scenario of ["slow-restart-static", "kip345-restart", "stateful-restart"]) {
  test(`${scenario}: the stated break-even is where the plotted curves cross`, async ({ page }) => {
    const problems = watchProblems(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/?scenario=${scenario}`);
    await openExplorer(page);
    const chart = page.getByTestId("break-even");
    const [s, d] = [await series(page, "static"), await series(page, "dynamic")];
    expect(s.length).toBeGreaterThan(12);
    expect(s.map((p) => p.restart)).toEqual(d.map((p) => p.restart));
    const crossed = crossings(s, d);
    const stated = await page
      .getByTestId("break-even-point")
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-ms"))));
    expect(stated.length).toBe(crossed.length);
    stated.forEach((ms, i) => expect(Math.abs(ms - crossed[i])).toBeLessThanOrEqual(1));
    await expect(chart.locator(".be-crossing")).toHaveCount(crossed.length);
    await expect(chart.locator(".be-cliff")).toHaveCount(1);
    if (crossed.length === 0) await expect(page.getByTestId("break-even-summary")).toContainText("do not cross");
    await page.locator(".panel-break-even").scrollIntoViewIfNeeded();
    await page.locator(".panel-break-even").screenshot({ path: `${SHOTS}/break-even-${scenario}.png` });
    expect(problems).toEqual([]);
  });
}

test("the explorer's point at the scenario's own restart is the compare strip's whole story", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=kip345-restart");
  await page.getByRole("button", { name: "Compare static vs dynamic" }).click();
  const whole = (label: string) =>
    page
      .locator(`[data-testid="compare-figure-whole"][data-figure="unavailable_after_startup"][data-label="${label}"]`)
      .getAttribute("data-value");
  const [ws, wd] = [await whole("static"), await whole("dynamic")];
  await openExplorer(page);
  const at = async (name: string) =>
    (await series(page, name)).find((p) => p.restart === 8000)?.cost;
  expect(String(await at("static"))).toBe(ws);
  expect(String(await at("dynamic"))).toBe(wd);
  // Played to its end, the strip's figures so far are the same numbers.
  for (let i = 0; i < 10 && !(await page.getByRole("button", { name: "Next key moment" }).getAttribute("class"))?.includes("idle"); i++) {
    await page.getByRole("button", { name: "Next key moment" }).click();
  }
  const now = (label: string) =>
    page
      .locator(`[data-testid="compare-figure"][data-figure="unavailable_after_startup"][data-label="${label}"]`)
      .getAttribute("data-value");
  expect(await now("static")).toBe(ws);
  expect(await now("dynamic")).toBe(wd);
  await expect(page.getByTestId("compare-verdict")).toContainText("Dynamic membership costs less here");
  expect(problems).toEqual([]);
});
