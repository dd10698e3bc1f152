// The built page in a real browser: it loads without errors and reads out the
// state of a new group through the ids of spec/ui-contract.md.
import { expect, test } from "@playwright/test";
import { watchProblems } from "./problems";

test("a new group reads Empty, generation 0, at virtual time 0", async ({ page }) => {
  const problems = watchProblems(page);

  await page.goto("/");

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("GroupScope");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
  await expect(page.getByTestId("generation")).toHaveText("0");
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", "0");
  await expect(page.getByTestId("state-diagram").locator('[aria-current="step"]')).toHaveAttribute(
    "data-state",
    "Empty",
  );

  await page.screenshot({ path: "../../target/e2e/app.png", fullPage: true });
  // Reduced motion too, so the screenshot does not catch a colour transition.
  await page.emulateMedia({ colorScheme: "dark", reducedMotion: "reduce" });
  await page.screenshot({ path: "../../target/e2e/app-dark.png", fullPage: true });
  expect(problems).toEqual([]);
});

test("the page keeps every panel on a phone-sized screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
  for (const name of ["Group", "Static members", "Consumers", "Assignment", "Message flow", "Event log", "Metrics"]) {
    await expect(page.getByRole("region", { name, exact: true })).toBeVisible();
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "../../target/e2e/app-phone.png", fullPage: true });
});
