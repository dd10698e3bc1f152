// Compare mode in lockstep (issue 10): what the user does in the main view
// happens in both panes at the same virtual time, and the `Difference`
// select chooses the one setting the panes differ in (each pane's
// `data-label` names its side).
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";

const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });
const pane = (page: Page, label: string) => page.locator(`[data-testid="pane"][data-label="${label}"]`);

async function owned(page: Page, label: string, owner: string): Promise<number> {
  return pane(page, label).locator(`[data-testid="partition"][data-owner="${owner}"]`).count();
}

test("an added consumer joins both panes, and the difference can be the assignor", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=kip345-restart");
  await button(page, "Compare static vs dynamic").click();
  await expect(page.getByTestId("pane")).toHaveCount(2);
  const difference = page.getByLabel("Difference");
  await expect(difference).toHaveValue("static_vs_dynamic");

  for (let i = 0; i < 4; i++) await button(page, "Next state").click();
  await button(page, "Add dynamic consumer").click();
  for (let i = 0; i < 30 && (await owned(page, "static", "D")) === 0; i++) {
    await button(page, "Next state").click();
  }
  // D exists in the main view and in both twins, and gets partitions there.
  await expect(page.locator('[data-testid="member"][data-name="D"]')).toHaveCount(1);
  expect(await owned(page, "static", "D")).toBeGreaterThan(0);
  for (let i = 0; i < 30 && (await owned(page, "dynamic", "D")) === 0; i++) {
    await button(page, "Next state").click();
  }
  expect(await owned(page, "dynamic", "D")).toBeGreaterThan(0);
  await expect(page.getByTestId("pane-note")).toHaveCount(0);

  const at = await page.getByTestId("virtual-time").first().getAttribute("data-ms");
  await difference.selectOption({ label: "eager (range) vs cooperative (cooperative-sticky)" });
  await expect(page.getByTestId("pane")).toHaveCount(2);
  await expect(pane(page, "eager")).toHaveCount(1);
  await expect(pane(page, "cooperative")).toHaveCount(1);
  await expect(pane(page, "static")).toHaveCount(0);
  // Remade on the same clock, with the user's consumer still in both.
  await expect(page.getByTestId("virtual-time").first()).toHaveAttribute("data-ms", at!);
  expect(await owned(page, "eager", "D")).toBeGreaterThan(0);
  expect(await owned(page, "cooperative", "D")).toBeGreaterThan(0);
  const chart = page.getByTestId("availability-chart");
  await expect(chart.locator('[data-series="eager"] polyline')).toHaveCount(1);
  await expect(chart.locator('[data-series="cooperative"] polyline')).toHaveCount(1);

  await page.locator(".compare").evaluate((el) => el.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: `${SHOTS}/compare-eager-cooperative.png` });

  // Every difference names its sides.
  const sides: Record<string, [string, string]> = {
    join_v8_vs_v9: ["join-v8", "join-v9"],
    range_ordering23_vs24: ["range-2.3", "range-2.4"],
    session_timeout10s_vs45s: ["session-10s", "session-45s"],
    instant_vs_processing: ["instant", "processing"],
    static_vs_dynamic: ["static", "dynamic"],
  };
  for (const [value, [left, right]] of Object.entries(sides)) {
    await difference.selectOption(value);
    await expect(page.getByTestId("pane").first()).toHaveAttribute("data-label", left);
    await expect(page.getByTestId("pane").nth(1)).toHaveAttribute("data-label", right);
  }
  expect(problems).toEqual([]);
});
