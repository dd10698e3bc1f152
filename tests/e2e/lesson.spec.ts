// The guided lesson "Why static membership?" (spec/ui-contract.md `Start
// lesson`, `Next`, `Back`, `Continue in free play`, `lesson`): each step loads
// its preset and position, outlines the region its text names without the
// panel covering it, and the lesson works with the keyboard alone.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";
import { overlappingTexts, smallestDrawnText } from "./drawn_text";

const SHOTS = "../../target/e2e";
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

async function virtualMs(page: Page): Promise<number> {
  return Number(await page.getByTestId("virtual-time").first().getAttribute("data-ms"));
}

/**
 * What sticks out of its box at a lesson step: any element of the lesson
 * panel or of a panel whose box runs past that container's right edge, or
 * whose text overflows its own box; and whether the time controls are in
 * view. Returns the offenders' text (empty when nothing is clipped).
 */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const boxes = ".lesson-panel, .panel-group, .panel-instances, .panel-consumers, .panel-assignment, .panel-metrics";
    // Inside a scroller (the event log, the compare chart) running past is by design.
    const scrolls = (el: Element, box: Element) => {
      for (let a = el.parentElement; a && a !== box; a = a.parentElement) {
        if (/auto|scroll/.test(getComputedStyle(a).overflowX)) return true;
      }
      return false;
    };
    for (const box of document.querySelectorAll(boxes)) {
      const edge = box.getBoundingClientRect();
      if (edge.width === 0) continue;
      for (const el of box.querySelectorAll("*")) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || getComputedStyle(el).visibility === "hidden") continue;
        if (el.closest("svg") || scrolls(el, box)) continue;
        const past = r.right > edge.right + 1;
        const spills = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "hidden";
        if (past || spills) out.push(`${box.className}: ${(el.textContent ?? "").trim().slice(0, 60)}`);
      }
    }
    const t = document.querySelector(".transport")!.getBoundingClientRect();
    if (t.top < -1 || t.bottom > window.innerHeight + 1) out.push("the time controls are off screen");
    return out;
  });
}

/**
 * The outlined region is in view and the lesson panel leaves it readable:
 * beside the panel (a wide screen), or with at least its first 120 px
 * between the time controls and the sheet along the bottom (below 1600 px,
 * where the page keeps its whole width); and nothing is clipped.
 */
async function expectOutlineClear(page: Page) {
  await page.waitForTimeout(700); // the outline scrolls into view
  expect(await clipped(page)).toEqual([]);
  const focus = page.locator(".lesson-focus");
  await expect(focus).toHaveCount(1);
  const [a, b] = [await focus.boundingBox(), await page.getByTestId("lesson").boundingBox()];
  const t = await page.locator(".transport").boundingBox();
  expect(a && b && t).toBeTruthy();
  const side = a!.x + a!.width <= b!.x || b!.x + b!.width <= a!.x;
  const above = a!.y + Math.min(120, a!.height) <= b!.y && a!.y >= t!.y + t!.height - 1;
  expect(side || above, "the lesson panel or the time controls cover the outlined region").toBe(true);
}

test("the lesson walks the presets and compare mode, and continues in free play where it stands", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await expect(page.getByTestId("lesson")).toHaveCount(0);
  await button(page, "Start lesson").click();
  const lesson = page.getByTestId("lesson");
  await expect(lesson).toBeVisible();
  await expect(lesson).toContainText("step 1 of 10");
  await expect(lesson).toContainText("LeaveGroup");
  await expect(page.getByLabel("Scenario", { exact: true })).toHaveValue("rolling-restart-dynamic");
  expect(await virtualMs(page)).toBeGreaterThan(70_000);
  expect(Number(await page.getByTestId("generation").first().textContent())).toBeGreaterThan(1);
  await expect(page.locator(".panel-group")).toHaveClass(/lesson-focus/);
  await expectOutlineClear(page);
  await page.screenshot({ path: `${SHOTS}/lesson-1.png` });

  // Back on the first step stays.
  await button(page, "Back").click();
  await expect(lesson).toContainText("step 1 of 10");

  await button(page, "Next").click();
  await expect(lesson).toContainText("step 2 of 10");
  await expect(page.getByLabel("Scenario", { exact: true })).toHaveValue("rolling-restart-static");
  await expect(page.getByTestId("generation").first()).toHaveText("1");
  await expect(page.locator(".panel-instances")).toHaveClass(/lesson-focus/);
  await expect(page.locator(".panel-group")).not.toHaveClass(/lesson-focus/);
  await expectOutlineClear(page);
  await page.screenshot({ path: `${SHOTS}/lesson-2.png` });

  await button(page, "Next").click();
  await expect(lesson).toContainText("step 3 of 10");
  await expect(page.getByTestId("pane")).toHaveCount(2);
  await expect(page.locator('[data-testid="pane"][data-label="static"]').getByTestId("rebalance-count")).toHaveText("1");
  await expectOutlineClear(page);
  await page.screenshot({ path: `${SHOTS}/lesson-3.png` });

  // Step 4: a stateful application, where a move costs a restore; the
  // verdict under the strip states both costs from this run.
  await button(page, "Next").click();
  await expect(lesson).toContainText("step 4 of 10");
  await expect(page.getByLabel("Scenario", { exact: true })).toHaveValue("stateful-restart");
  await expect(page.getByTestId("pane")).toHaveCount(2);
  await expect(page.getByTestId("compare-verdict")).toContainText("Static membership costs less here");
  await expect(page.getByTestId("lesson-figures")).toContainText("0 partitions moved");
  await expectOutlineClear(page);
  await page.screenshot({ path: `${SHOTS}/lesson-4-stateful.png` });

  await button(page, "Next").click();
  await expect(lesson).toContainText("step 5 of 10");
  await expect(page.getByTestId("pane")).toHaveCount(0);
  await expect(page.getByTestId("break-even")).toBeVisible();
  await expect(page.locator(".be-status")).not.toContainText("Running the simulator", { timeout: 60_000 });
  await expectOutlineClear(page);
  // In the narrow Metrics column beside the lesson the chart is drawn at
  // its column's width: its text stays readable (it was ~4 px), and the
  // cliff, this-scenario and break-even labels do not write over each other.
  const chart = page.getByTestId("break-even");
  expect(await smallestDrawnText(chart, "text")).toBeGreaterThanOrEqual(8.5);
  expect(await overlappingTexts(chart, "text")).toEqual([]);
  // Every label is drawn inside the chart (the last x tick was cut in half).
  const cut = await chart.evaluate((svg) => {
    const edge = svg.getBoundingClientRect();
    return [...svg.querySelectorAll("text")]
      .filter((t) => { const b = t.getBoundingClientRect(); return b.left < edge.left - 0.5 || b.right > edge.right + 0.5; })
      .map((t) => t.textContent);
  });
  expect(cut).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/lesson-5.png` });

  const steps = [
    { n: 6, preset: "static-session-timeout", generation: "3" },
    { n: 7, preset: "duplicate-instance-id", generation: "1" },
    { n: 8, preset: "admin-remove", generation: "2" },
  ];
  for (const s of steps) {
    await button(page, "Next").click();
    await expect(lesson).toContainText(`step ${s.n} of 10`);
    await expect(page.getByLabel("Scenario", { exact: true })).toHaveValue(s.preset);
    await expect(page.getByTestId("generation").first()).toHaveText(s.generation);
    await expectOutlineClear(page);
    await page.screenshot({ path: `${SHOTS}/lesson-${s.n}.png` });
  }
  await expect(page.locator('[data-testid="member"][data-name="A"]')).toBeVisible();

  // Back to step 3 (compare), then continue in free play from exactly there.
  for (let i = 0; i < 5; i++) await button(page, "Back").click();
  await expect(lesson).toContainText("step 3 of 10");
  await button(page, "Step").click();
  const at = await virtualMs(page);
  await button(page, "Continue in free play").click();
  await expect(page.getByTestId("lesson")).toHaveCount(0);
  await expect(page.locator(".lesson-focus")).toHaveCount(0);
  expect(await virtualMs(page)).toBe(at);
  await expect(page.getByLabel("Scenario", { exact: true })).toHaveValue("rolling-restart-static");
  await expect(page.getByTestId("pane")).toHaveCount(2);
  await expect(button(page, "Compare static vs dynamic")).toHaveAttribute("aria-pressed", "true");
  expect(problems).toEqual([]);
});

test("the lesson works with the keyboard alone", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await button(page, "Start lesson").focus();
  await page.keyboard.press("Enter");
  const lesson = page.getByTestId("lesson");
  await expect(lesson).toBeVisible();
  // Focus moved into the panel.
  await expect(page.locator("#lesson-title")).toBeFocused();
  // Tab reaches Back, Next and Continue in free play, in that order.
  await page.keyboard.press("Tab");
  await expect(button(page, "Back")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(button(page, "Next")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(lesson).toContainText("step 2 of 10");
  await expect(button(page, "Next")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(lesson).toContainText("step 3 of 10");
  await page.keyboard.press("Tab");
  await expect(button(page, "Continue in free play")).toBeFocused();
  // Escape closes it where it stands; focus returns to Start lesson.
  const at = await virtualMs(page);
  await page.keyboard.press("Escape");
  await expect(lesson).toHaveCount(0);
  await expect(button(page, "Start lesson")).toBeFocused();
  expect(await virtualMs(page)).toBe(at);
  await expect(page.getByTestId("pane")).toHaveCount(2);
});

test("on a phone the lesson is a sheet along the bottom that leaves the outlined region visible", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await button(page, "Start lesson").click();
  await expect(page.getByTestId("lesson")).toBeVisible();
  await button(page, "Next").click();
  await expect(page.getByTestId("lesson")).toContainText("step 2 of 10");
  for (let i = 3; i <= 9; i++) {
    await page.waitForTimeout(700);
    const sticking = (await clipped(page)).filter((t) => !t.startsWith("the time controls"));
    expect(sticking, `step ${i - 1}`).toEqual([]);
    await button(page, "Next").click();
    await expect(page.getByTestId("lesson")).toContainText(`step ${i} of 10`);
  }
  for (let i = 0; i < 7; i++) await button(page, "Back").click();
  await expect(page.getByTestId("lesson")).toContainText("step 2 of 10");
  const box = await page.getByTestId("lesson").boundingBox();
  expect(box!.y + box!.height).toBeGreaterThan(843);
  expect(box!.height).toBeLessThan(844 * 0.45);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/lesson-phone.png` });
});

test("the lesson ends with what changes under KIP-848, each step with its numbers", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=kip345-restart&autoplay=0");
  await button(page, "Start lesson").click();
  const lesson = page.getByTestId("lesson");
  for (let i = 1; i < 9; i++) await button(page, "Next").click();
  // Step 9 opens in the bundle with consumer groups: the crash under
  // classic beside the consumer protocol.
  await expect(page).toHaveURL(/\/kip848\/.*lesson=9/);
  await expect(lesson).toContainText("step 9 of 10");
  await expect(page.getByTestId("group-protocol")).toHaveText("consumer");
  const classic = page.locator('[data-testid="pane"][data-label="classic"]');
  const consumer = page.locator('[data-testid="pane"][data-label="consumer"]');
  await expect(classic).toHaveAttribute("data-protocol", "classic");
  await expect(consumer).toHaveAttribute("data-protocol", "consumer");
  await expect(consumer.getByTestId("group-epoch")).toHaveText("5");
  await expect(button(page, "Compare classic vs consumer protocol")).toHaveAttribute("aria-pressed", "true");
  const moves = (label: string) =>
    page.locator(`[data-testid="compare-figure"][data-label="${label}"][data-figure="partition_moves"]`);
  await expect(moves("classic")).toHaveAttribute("data-value", "0");
  await expect(lesson).toContainText("group epoch 5");
  await page.screenshot({ path: `${SHOTS}/lesson-9.png` });
  await button(page, "Next").click();
  await expect(lesson).toContainText("step 10 of 10");
  await expect(page.locator('[data-testid="pane"][data-protocol="consumer"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="compare-figure"][data-label="static"][data-figure="all_stopped"]')).toHaveAttribute("data-value", "0");
  await page.screenshot({ path: `${SHOTS}/lesson-10.png` });
  // Back to the classic steps, in the same bundle.
  await button(page, "Back").click();
  await button(page, "Back").click();
  await expect(lesson).toContainText("step 8 of 10");
  await expect(page.getByTestId("group-protocol")).toHaveText("classic");
  expect(problems).toEqual([]);
});
