// `?` and the `Keyboard shortcuts` button list every key the page answers
// to, so nothing is reachable only through a hover tooltip (issue 10); the
// grid's cells say their owner to a screen reader, not only in `title`.
import { expect, test } from "@playwright/test";

test("? opens the shortcut list, Escape closes it, typing ? in a field does not", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=kip345-restart");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeHidden();
  await page.keyboard.press("?");
  await expect(help).toBeVisible();
  for (const key of ["Space", "→", "←", "N", "?", "Escape"]) {
    await expect(help.locator("kbd", { hasText: new RegExp(`^${key.replace("?", "\\?")}$`) })).toHaveCount(1);
  }
  await page.screenshot({ path: "../../target/e2e/shortcuts-dialog.png" });
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  // The visible button opens it too, and Close closes it.
  await page.getByRole("button", { name: "Keyboard shortcuts", exact: true }).click();
  await expect(help).toBeVisible();
  await help.getByRole("button", { name: "Close", exact: true }).click();
  await expect(help).toBeHidden();

  // A ? typed into a field stays text.
  const filter = page.getByPlaceholder(/Filter/);
  await filter.fill("");
  await filter.press("?");
  await expect(filter).toHaveValue("?");
  await expect(help).toBeHidden();
});

test("a partition cell tells a screen reader who owns it and whether it is read", async ({ page }) => {
  await page.goto("/?scenario=kip345-restart");
  const cell = page.locator('[data-testid="partition"][data-topic="t"][data-partition="0"]').first();
  await expect(page.getByRole("img", { name: "t-0: not assigned to any member" }).first()).toBeVisible();
  for (let i = 0; i < 10 && !(await cell.getAttribute("data-owner")); i++) {
    await page.getByRole("button", { name: "Next state", exact: true }).click();
  }
  await expect(cell).toHaveText("0");
  const owner = await cell.getAttribute("data-owner");
  expect(owner).toBeTruthy();
  await expect(page.getByRole("img", { name: new RegExp(`^t-0: assigned to ${owner}`) }).first()).toBeVisible();
});
