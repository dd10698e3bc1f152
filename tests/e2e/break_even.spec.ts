// The break-even explorer (spec/ui-contract.md `Break-even explorer`,
// `break-even`): the real simulator sweeps the scenario in the browser over
// restart durations, static and dynamic, and draws both series.
import { expect, test } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";

test("the break-even explorer draws static and dynamic cost over restart duration and names the crossover", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=slow-restart-static");
  const open = page.getByRole("button", { name: "Break-even explorer", exact: true });
  await open.click();
  await expect(open).toHaveAttribute("aria-expanded", "true");
  const chart = page.getByTestId("break-even");
  await expect(chart).toBeVisible();
  await expect(chart.locator('[data-series="static"]')).toHaveCount(1);
  await expect(chart.locator('[data-series="dynamic"]')).toHaveCount(1);
  // Every duration is run, one per frame, then the summary names the crossover.
  await expect(page.locator(".be-status")).toContainText("costs less for restarts shorter than", { timeout: 30_000 });
  await expect(chart.locator('[data-series="static"] circle')).toHaveCount(12);
  await expect(chart.locator('[data-series="dynamic"] circle')).toHaveCount(12);
  await expect(chart.locator(".be-crossing")).toHaveCount(1);
  await expect(chart.locator(".be-cliff")).toHaveCount(1);
  await chart.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/break-even.png`, fullPage: true });
  expect(problems).toEqual([]);
});
