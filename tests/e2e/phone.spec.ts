// The main view on a phone (390×844) in both colour schemes: the state badge
// is not clipped ("CompletingRebala") and the coordinator's lane name no
// longer runs over lane A in the message flow (issue 10). Screenshots go to
// target/e2e/phone-*.png.
import { expect, test } from "@playwright/test";
import { overlappingTexts, smallestDrawnText } from "./drawn_text";

const SHOTS = "../../target/e2e";

for (const scheme of ["light", "dark"] as const) {
  test(`phone ${scheme}: the state badge and the message flow's lane names fit`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.goto("/?scenario=mixed-group");
    const state = page.getByTestId("group-state").first();
    for (let i = 0; i < 200 && (await state.textContent()) !== "CompletingRebalance"; i++) {
      await page.getByRole("button", { name: "Step", exact: true }).click();
    }
    await expect(state).toHaveText("CompletingRebalance");
    await page.screenshot({ path: `${SHOTS}/phone-main-${scheme}.png` });

    // The state diagram draws its one-column layout on a phone: its text is
    // drawn at 9.5 px or more (the wide drawing scaled it to ~6.5 px), and no
    // two labels collide.
    const diagram = page.getByTestId("state-diagram");
    await expect(diagram).toHaveAttribute("data-layout", "compact");
    expect(await smallestDrawnText(diagram, "text")).toBeGreaterThanOrEqual(9.5);
    expect(await overlappingTexts(diagram, "text")).toEqual([]);
    await expect(diagram.locator('[data-state="CompletingRebalance"]')).toHaveAttribute("aria-current", "step");
    await diagram.screenshot({ path: `${SHOTS}/phone-diagram-${scheme}.png` });

    // The badge is drawn whole inside its read-out (nothing cut by overflow).
    const clipped = await state.evaluate((badge) => {
      const box = badge.getBoundingClientRect();
      const holder = badge.parentElement!.getBoundingClientRect();
      return box.right > holder.right + 0.5 || badge.scrollWidth > badge.clientWidth + 0.5;
    });
    expect(clipped).toBe(false);

    const flow = page.locator(".panel-flow");
    await flow.evaluate((el) => el.scrollIntoView({ block: "start" }));
    const coordinator = await page.locator(".seq-lane-name.lane-coordinator").boundingBox();
    const laneA = await page.locator(".seq-head .seq-lane-name").nth(1).boundingBox();
    expect(coordinator!.width).toBeGreaterThan(20);
    // A clear gap between the two names, not pills that touch.
    expect(coordinator!.x + coordinator!.width + 4).toBeLessThanOrEqual(laneA!.x);
    await page.screenshot({ path: `${SHOTS}/phone-flow-${scheme}.png` });
  });
}

test("a single-column screen draws the wide state diagram, a narrow column the one-column one", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/?scenario=kip345-restart");
  const diagram = page.getByTestId("state-diagram");
  await expect(diagram).toHaveAttribute("data-layout", "compact");
  // One column of panels (≤ 1100 px): the diagram is wide enough for its wide layout.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(diagram).toHaveAttribute("data-layout", "wide");
  expect(await smallestDrawnText(diagram, "text")).toBeGreaterThanOrEqual(9.5);
  expect(await overlappingTexts(diagram, "text")).toEqual([]);
  // Three columns at 1280: the Group column is narrow, the text stays legible.
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await smallestDrawnText(diagram, "text")).toBeGreaterThanOrEqual(9.5);
  expect(await overlappingTexts(diagram, "text")).toEqual([]);

  // The embed caps the diagram's height, where one column would draw
  // smaller: it keeps the wide layout even in a narrow column.
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto("/?scenario=kip345-restart&embed=1");
  await expect(page.getByTestId("state-diagram")).toHaveAttribute("data-layout", "wide");
});
