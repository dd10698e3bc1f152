// Step always shows what happened (issue 10): `step-info` names the event
// every Step ran, heartbeats included, so no press leaves the page unchanged.
import { expect, test } from "@playwright/test";
import { watchProblems } from "./problems";

test("every Step press changes step-info, which names hidden heartbeats and counts them", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart");
  const info = page.getByTestId("step-info");
  await expect(info).toContainText("Step runs one event");
  const step = page.getByRole("button", { name: "Step", exact: true });
  const seen: string[] = [];
  for (let i = 1; i <= 40; i++) {
    await step.click();
    await expect(info).toContainText(`event ${i} at`);
    const text = (await info.textContent()) ?? "";
    expect(seen.at(-1)).not.toBe(text);
    seen.push(text);
  }
  expect(seen.some((t) => /Heartbeat request from [ABC] reached the coordinator/.test(t))).toBe(true);
  expect(seen.some((t) => /Machinery Next state skips: [0-9]+ such event/.test(t))).toBe(true);
  expect(seen.some((t) => t.includes("A change Next state stops at"))).toBe(true);
  // Any other control clears the line back to its idle text.
  await page.getByRole("button", { name: "Step back", exact: true }).click();
  await expect(info).toContainText("Step runs one event");
  expect(problems).toEqual([]);
});
