// State to restore (issue 40): on the stateful story the narration says a
// partition's state is being restored, the compare strip and its chart show
// the restore, and the break-even explorer's second choice, state to
// restore, re-runs the sweep with dearer moves.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

test("the narration, the compare strip and its chart show the restore", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=stateful-restart");
  // Forming the group: every partition is new to its consumer and restored first.
  let said = "";
  for (let i = 0; i < 40 && !said.includes("restores"); i++) {
    await button(page, "Next state").click();
    said = (await page.getByTestId("narration").textContent()) ?? "";
  }
  expect(said).toMatch(/new to [ABC]: it restores their state first \(up to 10\.0 s\)/);
  for (let i = 0; i < 40 && !said.includes("restored"); i++) {
    await button(page, "Next state").click();
    said = (await page.getByTestId("narration").textContent()) ?? "";
  }
  expect(said).toMatch(/restored their state on [ABC] for 10\.0 s/);

  await button(page, "Compare static vs dynamic").click();
  const whole = (label: string) =>
    page.locator(`[data-testid="compare-figure-whole"][data-figure="restore"][data-label="${label}"]`).getAttribute("data-value");
  expect(Number(await whole("static"))).toBe(0);
  expect(Number(await whole("dynamic"))).toBeGreaterThan(20_000);
  // Played past A's return, the dynamic pane's chart counts partitions waiting for their state.
  for (let i = 0; i < 3; i++) await button(page, "Next key moment").click();
  const chart = page.getByTestId("availability-chart");
  await expect(chart.locator('[data-restoring="dynamic"] polyline')).toHaveCount(1);
  await expect(page.getByTestId("compare-verdict")).toContainText("restoring state on new owners");
  await page.locator(".compare").screenshot({ path: `${SHOTS}/compare-restore.png` });
  expect(problems).toEqual([]);
});

test("the explorer's state to restore makes the dynamic curve dearer", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=kip345-restart");
  await button(page, "Break-even explorer").click();
  const summary = page.getByTestId("break-even-summary");
  await expect(summary).toBeVisible({ timeout: 60_000 });
  const dynamicCosts = () =>
    page
      .getByTestId("break-even")
      .locator('[data-series="dynamic"] circle')
      .evaluateAll((cs) => cs.map((c) => Number(c.getAttribute("data-cost-ms"))));
  const stateless = await dynamicCosts();
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  await page.getByLabel("State to restore per moved partition").selectOption({ label: "30 s" });
  // Every dynamic point moves up once the sweep has run again: each of the
  // dynamic restarts' moves now costs a 30 s restore.
  await expect.poll(async () => mean(await dynamicCosts()), { timeout: 60_000 }).toBeGreaterThan(mean(stateless) + 15_000);
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(page.locator(".be-status")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  // With state, static membership pays at the scenario's own restart (the
  // story moves after the longer start-up: the restart is after it).
  const at8 = async (series: string) =>
    Number(
      await page
        .getByTestId("break-even")
        .locator(`[data-series="${series}"] circle[data-restart-ms="8000"]`)
        .getAttribute("data-cost-ms"),
    );
  expect(await at8("static")).toBeLessThan(await at8("dynamic"));
  await page.locator(".panel-break-even").screenshot({ path: `${SHOTS}/break-even-restore-30s.png` });
});
