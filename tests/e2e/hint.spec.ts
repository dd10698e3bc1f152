// The guidance line under the transport bar says what to watch until the
// preset's story has played, then what it showed: it never keeps promising
// "watch A restart" after A has restarted (issue 10).
import { expect, test } from "@playwright/test";

test("the guidance line turns from what to watch to what it showed once A is back", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=kip345-restart");
  const hint = page.locator(".status-line .hint");
  await expect(hint).toContainText("watch A restart");
  const time = page.getByTestId("virtual-time").first();
  let switchedAt = -1;
  for (let i = 0; i < 40 && switchedAt < 0; i++) {
    await page.getByRole("button", { name: "Next state", exact: true }).click();
    if (!(await hint.innerText({ timeout: 1000 }).catch(() => "")).includes("watch A restart")) {
      switchedAt = Number(await time.getAttribute("data-ms"));
    }
  }
  // A returns at 28 s; the line changes after that, not before.
  expect(switchedAt).toBeGreaterThan(28_000);
  await expect(hint).toContainText("A came back under its instance id");
  // At the end of the run the line stays beside the end-of-run notice.
  for (let i = 0; i < 10 && !(await page.locator(".status-line .notice").count()); i++) {
    await page.getByRole("button", { name: "Next state", exact: true }).click();
  }
  await expect(page.locator(".status-line .notice")).toBeVisible();
  await expect(hint).toContainText("A came back under its instance id");
  await page.screenshot({ path: "../../target/e2e/hint-after-story.png" });
  // Back to the start, the line is the first one again.
  await page.getByRole("button", { name: "Reset", exact: true }).click();
  await expect(hint).toContainText("watch A restart");
});
