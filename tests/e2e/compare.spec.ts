// Compare mode (spec/ui-contract.md `Compare static vs dynamic`, `pane`,
// `availability-chart`): the current scenario run static and dynamic side by
// side on the main view's clock, with a diff strip and an availability chart.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";

const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

async function virtualMs(page: Page): Promise<number> {
  return Number(await page.getByTestId("virtual-time").first().getAttribute("data-ms"));
}

test("compare mode runs the rolling restart static and dynamic on one clock", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=rolling-restart-static");
  const toggle = button(page, "Compare static vs dynamic");
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("pane")).toHaveCount(0);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");

  const panes = page.getByTestId("pane");
  await expect(panes).toHaveCount(2);
  const staticPane = page.locator('[data-testid="pane"][data-label="static"]');
  const dynamicPane = page.locator('[data-testid="pane"][data-label="dynamic"]');
  for (const pane of [staticPane, dynamicPane]) {
    for (const id of ["group-state", "generation", "rebalance-count", "partition-moves", "assignment"]) {
      await expect(pane.getByTestId(id)).toHaveCount(1);
    }
    await expect(pane.getByTestId("partition").first()).toBeVisible();
  }

  for (let i = 0; i < 300 && (await virtualMs(page)) <= 90_000; i++) {
    await button(page, "Next state").click();
  }
  expect(await virtualMs(page)).toBeGreaterThan(90_000);

  await expect(staticPane.getByTestId("rebalance-count")).toHaveText("1");
  const dynamicRebalances = Number(await dynamicPane.getByTestId("rebalance-count").textContent());
  expect(dynamicRebalances).toBeGreaterThan(1);
  expect(Number(await dynamicPane.getByTestId("partition-moves").textContent())).toBeGreaterThan(0);

  const chart = page.getByTestId("availability-chart");
  await expect(chart).toBeVisible();
  await expect(chart.locator('[data-series="static"] polyline')).toHaveCount(1);
  await expect(chart.locator('[data-series="dynamic"] polyline')).toHaveCount(1);
  expect(await chart.locator('[data-series="dynamic"] polyline').getAttribute("points")).toContain(",");

  await expect(page.getByText("happens in both at the same virtual time")).toBeVisible();

  // Step back: the panes follow the main clock back.
  const before = await virtualMs(page);
  await button(page, "Step back").click();
  expect(await virtualMs(page)).toBeLessThan(before);

  await toggle.evaluate((el) => el.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: `${SHOTS}/compare.png` });
  await page.screenshot({ path: `${SHOTS}/compare-full.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/compare-dark.png` });

  await toggle.click();
  await expect(page.getByTestId("pane")).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("embed mode has no compare toggle", async ({ page }) => {
  await page.goto("/?scenario=rolling-restart-static&embed=1");
  await expect(page.getByTestId("narration")).toBeVisible();
  await expect(button(page, "Compare static vs dynamic")).toHaveCount(0);
});
