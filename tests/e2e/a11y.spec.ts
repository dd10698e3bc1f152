// axe-core (pinned in package.json, injected from node_modules: no network)
// finds no violations on the main view, compare mode, the lesson panel and
// the embed (issue 10, Accessibility).
import { expect, test, type Page } from "@playwright/test";

const AXE = require.resolve("axe-core/axe.min.js");
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

type Violation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

/** Runs axe on the page as it stands; returns its violations in short. */
async function axe(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations: Violation[] = await page.evaluate(async () => {
    // @ts-expect-error axe is the global axe.min.js defines.
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations;
  });
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(", ")}`,
  );
}

for (const scheme of ["light", "dark"] as const) {
  test(`axe: the main view after some steps has no violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.goto("/?scenario=kip345-restart");
    for (let i = 0; i < 8; i++) await button(page, "Next state").click();
    await expect(page.getByTestId("member").first()).toBeVisible();
    expect(await axe(page)).toEqual([]);
  });

  test(`axe: live mode on a broker's stream has no violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.routeWebSocket("ws://127.0.0.1:9093/", (ws) => {
      const scenario = {
        config: { initial_rebalance_delay_ms: 0 },
        topics: [{ name: "orders", partitions: 3 }],
        requests: [
          { at_ms: 10, join: { member_id: "", group_instance_id: "a", bind: "a" } },
          { at_ms: 20, sync: { member_id: "$a", generation_id: 1, group_instance_id: "a",
                               assignments: { $a: ["orders-0", "orders-1", "orders-2"] } } },
          { at_ms: 30, commit: { member_id: "$a", generation_id: 1, group_instance_id: "a", offsets: { "orders-0": 5 } } },
        ],
      };
      ws.send(JSON.stringify({ kind: "hello", now_ms: 1000, scenario }));
    });
    await page.goto("/?live=ws://127.0.0.1:9093/");
    await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
    await expect(page.getByTestId("group-state")).toHaveText("Stable");
    await expect(page.locator('[data-testid="partition"][data-partition="0"]')).toHaveAttribute(
      "aria-label",
      /committed offset 5/,
    );
    expect(await axe(page)).toEqual([]);
  });

  test(`axe: the keyboard shortcuts dialog has no violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.goto("/?scenario=kip345-restart");
    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    expect(await axe(page)).toEqual([]);
  });

  test(`axe: compare mode has no violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.goto("/?scenario=rolling-restart-static");
    await button(page, "Compare static vs dynamic").click();
    await expect(page.getByTestId("pane")).toHaveCount(2);
    for (let i = 0; i < 6; i++) await button(page, "Next state").click();
    expect(await axe(page)).toEqual([]);
  });

  test(`axe: the lesson panel, with the break-even chart open, has no violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.goto("/");
    await button(page, "Start lesson").click();
    await expect(page.getByTestId("lesson")).toBeVisible();
    expect(await axe(page)).toEqual([]);
    // Step 4: compare mode with its strip and verdict; step 5: the explorer.
    for (let i = 0; i < 3; i++) await button(page, "Next").click();
    await expect(page.getByTestId("lesson")).toContainText("step 4 of 10");
    await expect(page.getByTestId("compare-verdict")).toBeVisible();
    expect(await axe(page)).toEqual([]);
    await button(page, "Next").click();
    await expect(page.getByTestId("lesson")).toContainText("step 5 of 10");
    await expect(page.getByTestId("break-even-summary")).toBeVisible({ timeout: 60_000 });
    expect(await axe(page)).toEqual([]);
  });

  test(`axe: the embed has no violations (${scheme})`, async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.goto(`/?scenario=kip345-restart&embed=1&theme=${scheme}`);
    await expect(page.getByTestId("narration")).toBeVisible();
    await button(page, "Step").click();
    expect(await axe(page)).toEqual([]);
  });
}

test("axe is really running: a page with an unlabelled button fails", async ({ page }) => {
  await page.goto("/?scenario=kip345-restart");
  await expect(page.getByTestId("group-state")).toBeVisible();
  await page.evaluate(() => {
    const b = document.createElement("button");
    document.querySelector("main")!.appendChild(b);
  });
  const found = await axe(page);
  expect(found.some((v) => v.startsWith("button-name"))).toBe(true);
});
