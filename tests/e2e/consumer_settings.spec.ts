// The settings form's consumer-group fields (KIP-848): under the consumer
// protocol the broker's group config sets the session, so the form shows
// `group.consumer.session.timeout.ms`, its cap and the heartbeat interval.
// A bad value is refused beside its field and changes nothing; a session
// longer than restart-90s's restart keeps the away member's place, so the
// restart costs no new epoch and no rebalance.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

async function virtualMs(page: Page): Promise<number> {
  return Number(await page.getByTestId("virtual-time").first().getAttribute("data-ms"));
}

/** Presses Next state until virtual time passes `ms`. */
async function runPast(page: Page, ms: number) {
  for (let i = 0; i < 400 && (await virtualMs(page)) <= ms; i++) {
    await button(page, "Next state").click();
  }
  expect(await virtualMs(page)).toBeGreaterThan(ms);
}

/** The group's figures a restart may move. */
async function figures(page: Page) {
  return {
    epoch: Number(await page.getByTestId("group-epoch").textContent()),
    rebalances: Number(await page.getByTestId("rebalance-count").first().textContent()),
  };
}

test("a classic scenario's settings show no consumer-group fields", async ({ page }) => {
  await page.goto("/?scenario=kip345-restart&autoplay=0");
  await page.getByText("Settings", { exact: true }).click();
  await expect(page.getByLabel("Session timeout")).toBeVisible();
  await expect(page.getByLabel("Consumer group session timeout")).toHaveCount(0);
});

test("the consumer group's session is edited in the settings: bad values refused, a longer one keeps the away member", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/kip848/?scenario=restart-90s&autoplay=0");
  await page.getByText("Settings", { exact: true }).click();
  const cap = page.getByLabel("Consumer group max session timeout");
  const session = page.getByLabel("Consumer group session timeout");
  const interval = page.getByLabel("Consumer group heartbeat interval");
  await expect(cap).toHaveValue("60000");
  await expect(session).toHaveValue("60000");
  await expect(interval).toHaveValue("5000");
  await expect(page.getByRole("group", { name: "Consumer group (KIP-848)" })).toBeVisible();

  // Above the cap: refused beside its field, the run untouched.
  await runPast(page, 1_000);
  const at = await virtualMs(page);
  await session.fill("100000");
  await button(page, "Apply").click();
  const banner = page.getByTestId("error-banner");
  await expect(banner).toContainText("group.consumer.session.timeout.ms");
  await expect(banner).toContainText("from 45000 to 60000");
  await expect(session).toHaveAttribute("aria-invalid", "true");
  await expect(session).toHaveValue("100000");
  expect(await virtualMs(page)).toBe(at);
  await session.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/consumer-settings-refused.png` });

  // The interval must stay below the session.
  await cap.fill("100000");
  await interval.fill("100000");
  await button(page, "Apply").click();
  await expect(banner).toContainText("group.consumer.heartbeat.interval.ms");
  await expect(banner).toContainText("from 1 to 99999");
  await expect(interval).toHaveAttribute("aria-invalid", "true");
  expect(await virtualMs(page)).toBe(at);

  // A session of 100 s outlasts app-1's 90 s restart plus one heartbeat
  // interval (its session runs from its last heartbeat before it left
  // with epoch -2): its place is kept, and the restart moves nothing.
  await interval.fill("5000");
  await button(page, "Apply").click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId("virtual-time").first()).toHaveAttribute("data-ms", "0");
  await expect(session).toHaveValue("100000");
  // Next state stops at the restart (30 s), the first change after the
  // group formed; a restart alone moves no figure.
  await runPast(page, 6_000);
  expect(await virtualMs(page)).toBeLessThan(35_000);
  const app1 = page.locator('[data-testid="member"][data-name="app-1"]');
  const before = await figures(page);
  const owned = await page.locator('[data-testid="partition"][data-owner="app-1"]').count();
  expect(owned).toBeGreaterThan(0);
  await runPast(page, 121_000);
  await expect(app1).toHaveAttribute("data-client-state", "stable");
  expect(await figures(page)).toEqual(before);
  await expect(app1).toHaveAttribute("data-member-epoch", String(before.epoch));
  await expect(page.locator('[data-testid="partition"][data-owner="app-1"]')).toHaveCount(owned);
  await expect(page.getByTestId("event-log")).not.toContainText("session timeout (100000 ms)");
  expect(problems).toEqual([]);
});

test("at the shipped 60 s session the same restart removes the member and moves the epoch", async ({ page }) => {
  await page.goto("/kip848/?scenario=restart-90s&autoplay=0");
  await runPast(page, 6_000);
  expect(await virtualMs(page)).toBeLessThan(35_000);
  const before = await figures(page);
  // 60 s after app-1's last heartbeat, well before its return at 120 s.
  await runPast(page, 91_000);
  const after = await figures(page);
  expect(after.epoch).toBe(before.epoch + 1);
  expect(after.rebalances).toBe(before.rebalances + 1);
  await expect(page.getByTestId("event-log")).toContainText("session timeout (60000 ms)");
});
