// The break-even explorer's family of curves by state to restore (issue
// 40; ui-contract `break-even-by-state`, `break-even-by-state-summary`,
// `break-even-by-state-point`): one curve per amount of state a moved
// partition restores, each what static saves over dynamic as the restart
// gets longer; each level's stated break-even is where its own plotted
// curve changes side (runs within 2 % count as the same), and more state
// makes a short restart save more.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";

type Point = { restart: number; saving: number; same: number };

/** The plotted points of the curve of `restoreMs`, in restart order. */
async function curve(page: Page, restoreMs: number): Promise<Point[]> {
  return page
    .getByTestId("break-even-by-state")
    .locator(`g[data-restore-ms="${restoreMs}"] circle[data-saving-ms]`)
    .evaluateAll((cs) =>
      cs
        .map((c) => ({
          restart: Number(c.getAttribute("data-restart-ms")),
          saving: Number(c.getAttribute("data-saving-ms")),
          same: Number(c.getAttribute("data-same-within-ms")),
        }))
        .sort((a, b) => a.restart - b.restart),
    );
}

/** Who costs less at a point: static, dynamic, or about the same. */
const band = (p: Point) => (p.saving > p.same ? "static" : p.saving < -p.same ? "dynamic" : "same");

/** Where the band changes: the middle between two neighbouring points of different bands. */
function changes(points: Point[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < points.length; i++) {
    if (band(points[i - 1]) !== band(points[i])) out.push(Math.floor((points[i - 1].restart + points[i].restart) / 2));
  }
  return out;
}

for (const scheme of ["light", "dark"]) {
  test(`each level's stated break-even is where its plotted curve changes side (${scheme})`, async ({ page }) => {
    const problems = watchProblems(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/?scenario=stateful-restart&autoplay=0&theme=${scheme}`);
    await page.getByRole("button", { name: "Break-even explorer", exact: true }).click();
    const summary = page.getByTestId("break-even-by-state-summary");
    await expect(summary).toBeVisible({ timeout: 90_000 });
    const levels = await summary.locator("li").evaluateAll((ls) => ls.map((l) => Number(l.getAttribute("data-restore-ms"))));
    expect(levels).toEqual([0, 5000, 30000, 120000]);
    // The scenario's own restart (8 s) is on every curve; more state saves more there.
    const at8 = [];
    for (const level of levels) {
      const points = await curve(page, level);
      expect(points.length).toBeGreaterThanOrEqual(9);
      const stated = await page
        .locator(`[data-testid="break-even-by-state-point"][data-restore-ms="${level}"]`)
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-ms"))));
      const crossed = changes(points);
      expect(stated.length, `level ${level}`).toBe(crossed.length);
      stated.forEach((ms, i) => expect(Math.abs(ms - crossed[i])).toBeLessThanOrEqual(1));
      if (crossed.length === 0) {
        await expect(summary.locator(`li[data-restore-ms="${level}"]`)).toContainText("every restart plotted");
      }
      at8.push(points.find((p) => p.restart === 8000)!.saving);
    }
    for (let i = 1; i < at8.length; i++) expect(at8[i]).toBeGreaterThan(at8[i - 1]);
    // With no state static stops paying within seconds; with 2 min to restore it pays at every restart plotted.
    await expect(summary.locator('li[data-restore-ms="0"]')).toContainText("shorter than");
    await expect(summary.locator('li[data-restore-ms="120000"]')).toContainText("every restart plotted");
    await page.locator(".be-by-state").scrollIntoViewIfNeeded();
    await page.locator(".be-by-state").screenshot({ path: `${SHOTS}/break-even-by-state-${scheme}.png` });
    expect(problems).toEqual([]);
  });
}

test("the family follows the processing choice and runs again", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=kip345-restart&autoplay=0");
  await page.getByRole("button", { name: "Break-even explorer", exact: true }).click();
  const summary = page.getByTestId("break-even-by-state-summary");
  await expect(summary).toBeVisible({ timeout: 90_000 });
  const before = await curve(page, 30000);
  await page.getByLabel("Processing per batch").selectOption({ label: "20 s" });
  await expect(summary).toBeHidden();
  await expect(summary).toBeVisible({ timeout: 90_000 });
  expect(await curve(page, 30000)).not.toEqual(before);
});

test("a Kafka Streams roll past its session costs static and dynamic about the same, and the sentences say so", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=streams-rolling-restart&autoplay=0");
  await page.getByRole("button", { name: "Break-even explorer", exact: true }).click();
  const summary = page.getByTestId("break-even-by-state-summary");
  await expect(summary).toBeVisible({ timeout: 90_000 });
  for (const item of await summary.locator("li").all()) {
    await expect(item).toContainText("static membership pays for restarts shorter than");
    await expect(item).toContainText("about the same");
  }
});
