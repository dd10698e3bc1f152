// Issue 13 in a real browser: no panic reaches the user as a blank page.
// `?panic-test=1` makes the app fail on purpose once it has rendered
// (src/ui/crash.rs); the panic hook must show error-banner with what to do
// (reload, and a share link that reopens the session) over the stopped app,
// and log the panic with console.error.
import { expect, test } from "@playwright/test";

test("a panic shows error-banner with a reload hint and a share link, not a blank page", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto("/?scenario=scale-out&panic-test=1");
  const banner = page.getByTestId("error-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toHaveCount(1);
  await expect(banner).toContainText("internal error");
  await expect(banner).toContainText("Reload the page");
  const link = banner.getByRole("link");
  await expect(link).toHaveAttribute("href", /#s=v1\./);
  // The page behind the banner is the app as it was, not a blank page.
  await expect(page.getByTestId("group-state")).toBeVisible();
  expect(errors.some((e) => e.includes("GroupScope internal error") && e.includes("panic-test"))).toBe(true);
  expect(errors.some((e) => e.includes("GroupScope: to reproduce, open http"))).toBe(true);
  // The link reopens the session, without the failure.
  const href = (await link.getAttribute("href"))!;
  await page.goto(href.replace("panic-test=1", "panic-test=0"));
  await expect(page.getByTestId("group-state")).toBeVisible();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
});
