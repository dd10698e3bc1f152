// The guidance line under the transport bar follows the run: before the
// story has played it names the next key moment (and `Next key moment`
// jumps there); once it has played it says what happened in the run's own
// figures; after the user's own actions it speaks of those (issue 39:
// "hints go stale"). It never keeps promising what already happened.
import { expect, test } from "@playwright/test";

test("the guidance line names the next key moment, then what the figures show once A is back", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=kip345-restart");
  const hint = page.getByTestId("hint");
  await expect(hint).toContainText("Next: A restarts at 20.0 s");
  const time = page.getByTestId("virtual-time").first();
  const keyMoment = page.getByRole("button", { name: "Next key moment", exact: true });
  await keyMoment.click();
  expect(Number(await time.getAttribute("data-ms"))).toBeGreaterThan(20_000);
  await expect(hint).toContainText("Next: A is back at 28.0 s");
  let switchedAt = -1;
  for (let i = 0; i < 40 && switchedAt < 0; i++) {
    await page.getByRole("button", { name: "Next state", exact: true }).click();
    if (!(await hint.innerText({ timeout: 1000 }).catch(() => "")).includes("Next:")) {
      switchedAt = Number(await time.getAttribute("data-ms"));
    }
  }
  // A returns at 28 s; the line changes after that, not before.
  expect(switchedAt).toBeGreaterThan(28_000);
  await expect(hint).toContainText("A came back under its instance id");
  await expect(hint).toContainText("generation 1, 0 rebalances after start-up, 0 partitions moved");
  // Its verdict on the twins is the compare strip's: on this stateless,
  // short-batch story dynamic members lose less partition time, and it says why.
  await expect(hint).toContainText("Dynamic membership costs less here");
  await page.screenshot({ path: "../../target/e2e/hint-after-story.png" });
  // Back to the start, the line is the first one again.
  await page.getByRole("button", { name: "Reset", exact: true }).click();
  await expect(hint).toContainText("Next: A restarts at 20.0 s");
});

test("after the user's own actions the guidance speaks of them, not of the preset's script", async ({ page }) => {
  await page.goto("/?scenario=kip345-restart");
  const hint = page.getByTestId("hint");
  for (let i = 0; i < 12; i++) await page.getByRole("button", { name: "Next state", exact: true }).click();
  await page.getByRole("button", { name: "Add static consumer" }).click();
  await page.getByRole("button", { name: "Add static consumer" }).click();
  await page.getByRole("button", { name: "Crash B" }).click();
  for (let i = 0; i < 30; i++) await page.getByRole("button", { name: "Next state", exact: true }).click();
  await expect(hint).toContainText("Your actions changed the story: generation");
  await expect(hint).not.toContainText("no rebalance");
  const moved = await page.getByTestId("partition-moves").first().textContent();
  await expect(hint).toContainText(`${moved} partition`);
});
