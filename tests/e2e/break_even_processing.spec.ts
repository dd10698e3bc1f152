// The break-even explorer's second parameter: `Processing per batch` re-runs
// the sweep with every consumer's batch time set, and the dynamic series
// changes with it (the static one, restarting within its session, does not).
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";

async function sweepDone(page: Page): Promise<string[]> {
  const chart = page.getByTestId("break-even");
  await expect(page.getByTestId("break-even-summary")).toBeVisible({ timeout: 60_000 });
  return chart.locator("[data-series] circle title").allTextContents();
}

test("processing per batch re-runs the break-even sweep", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=rolling-restart-static");
  await page.getByRole("button", { name: "Break-even explorer", exact: true }).click();
  const processing = page.getByLabel("Processing per batch");
  await expect(processing).toHaveValue("scenario");
  await processing.selectOption({ label: "instant" });
  const instant = await sweepDone(page);
  await processing.selectOption({ label: "20 s" });
  const slow = await sweepDone(page);
  const dyn = (t: string[]) => t.filter((s) => s.startsWith("dynamic"));
  const stat = (t: string[]) => t.filter((s) => s.startsWith("static"));
  expect(dyn(slow)).not.toEqual(dyn(instant));
  // Restarts well within the session timeout cost a static group the same.
  expect(stat(slow)[0]).toEqual(stat(instant)[0]);
  // The second axis: state to restore makes every move dearer, so the
  // dynamic series rises.
  const restore = page.getByLabel("State to restore per moved partition");
  await expect(restore).toHaveValue("scenario");
  await restore.selectOption({ label: "30 s" });
  const stateful = await sweepDone(page);
  const cost = (t: string) => Number(t.match(/→ (\d+) ms/)![1]);
  const sum = (t: string[]) => t.map(cost).reduce((a, b) => a + b, 0);
  expect(sum(dyn(stateful))).toBeGreaterThan(sum(dyn(slow)));
  await page.getByTestId("break-even").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/break-even-processing.png` });
  expect(problems).toEqual([]);
});
