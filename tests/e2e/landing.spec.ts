// The first visit and the summaries a newcomer trusts (issue 39): the
// landing story plays by itself (unless reduced motion is asked for) and
// reaches its key moment within about 10 s; the compare numbers are on the
// first screen at 1280×800; the timeline's markers at one time are each
// clickable; Share link says "copied" only when it was; the embed offers
// only what works there; a phone's time buttons carry words. Screenshots
// in light and dark go to target/e2e/.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });
const virtualMs = async (page: Page) => Number(await page.getByTestId("virtual-time").first().getAttribute("data-ms"));

test.describe("with motion", () => {
  test.use({ reducedMotion: "no-preference" });

  test("the landing page plays its stateful story and reaches A's return within about 10 s", async ({ page }) => {
    const problems = watchProblems(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    await expect(page.getByRole("combobox", { name: "Scenario" })).toHaveValue("stateful-restart");
    await expect(button(page, "Pause")).toBeVisible();
    const started = Date.now();
    await expect.poll(() => virtualMs(page), { timeout: 15_000 }).toBeGreaterThan(28_000);
    expect(Date.now() - started).toBeLessThan(12_000);
    // Once the story has played, the guidance says what its figures show.
    await expect(page.getByTestId("hint")).toContainText("A came back under its instance id", { timeout: 10_000 });
    await expect(page.getByTestId("hint")).toContainText("Static membership costs less here");
    await button(page, "Pause").click();
    await page.screenshot({ path: `${SHOTS}/landing-light.png` });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: `${SHOTS}/landing-dark.png` });
    expect(problems).toEqual([]);
  });

  test("&autoplay=0 and a chosen scenario open paused at t = 0", async ({ page }) => {
    for (const url of ["/?autoplay=0", "/?scenario=kip345-restart"]) {
      await page.goto(url);
      await expect(button(page, "Play")).toBeVisible();
      await page.waitForTimeout(1_000);
      expect(await virtualMs(page)).toBe(0);
    }
  });
});

test("with reduced motion the landing page waits at t = 0", async ({ page }) => {
  await page.goto("/");
  await expect(button(page, "Play")).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(await virtualMs(page)).toBe(0);
  await expect(page.getByTestId("hint")).toContainText("Next: A restarts at 20.0 s");
});

test("at 1280×800 the compare strip and its verdict are on the first screen", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=stateful-restart");
  await button(page, "Compare static vs dynamic").click();
  const strip = page.getByTestId("compare-strip");
  await expect(strip).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const box = (await strip.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  // Every figure names its pane and holds a number.
  const figures = page.getByTestId("compare-figure");
  expect(await figures.count()).toBeGreaterThanOrEqual(8);
  for (const f of await figures.all()) {
    expect(["static", "dynamic"]).toContain(await f.getAttribute("data-label"));
    expect(Number.isFinite(Number(await f.getAttribute("data-value")))).toBe(true);
  }
  await page.screenshot({ path: `${SHOTS}/compare-first-screen.png` });
});

test("compare's toggle names the chosen difference, and a difference that changes nothing says so", async ({ page }) => {
  await page.goto("/?scenario=kip345-restart");
  const difference = page.getByLabel("Difference");
  await difference.selectOption("eager_vs_cooperative");
  await expect(button(page, "Compare eager vs cooperative")).toBeVisible();
  await difference.selectOption("join_v8_vs_v9");
  await button(page, "Compare JoinGroup v8 vs v9").click();
  await expect(page.getByTestId("pane")).toHaveCount(2);
  await expect(page.getByTestId("compare-verdict")).toContainText("This difference changes nothing in this story");
  await difference.selectOption("static_vs_dynamic");
  await expect(button(page, "Compare static vs dynamic")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("compare-verdict")).toContainText("Dynamic membership costs less here");
  await expect(page.getByTestId("compare-verdict")).toContainText("short");
});

test("three consumers starting at t = 0 are three markers, each one clickable", async ({ page }) => {
  await page.goto("/?scenario=kip345-restart");
  const starts = page.locator('[data-testid="timeline-marker"][data-kind="start"][data-ms="0"]');
  await expect(starts).toHaveCount(3);
  for (const m of await starts.all()) {
    const b = (await m.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid="timeline-marker"]')?.getAttribute("aria-label"),
      [b.x + b.width / 2, b.y + b.height / 2],
    );
    expect(hit).toBe(await m.getAttribute("aria-label"));
  }
});

test("Share link says copied only when the clipboard took the link", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/?scenario=kip345-restart");
  await button(page, "Share link").click();
  await expect(page.locator(".share-confirm")).toHaveText("Link copied to the clipboard.");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await page.getByRole("textbox", { name: "Link to this scenario and step" }).inputValue());

  // A clipboard that refuses: the page says so and leaves the link selected.
  await page.addInitScript(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError"));
  });
  await page.goto("/?scenario=kip345-restart");
  await button(page, "Share link").click();
  await expect(page.locator(".share-confirm")).toContainText("refused");
  await expect(page.locator(".share-confirm")).not.toContainText("copied");
});

test("the embed offers no lesson and its counter keeps to one line", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto("/?embed=1&scenario=kip345-restart");
  await expect(page.getByRole("button", { name: "Start lesson" })).toHaveCount(0);
  for (let i = 0; i < 60; i++) await button(page, "Step").click();
  const value = page.locator(".timeline-value");
  const box = (await value.boundingBox())!;
  const line = await value.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
  expect(box.height).toBeLessThanOrEqual(line * 1.5);
  await page.screenshot({ path: `${SHOTS}/embed-counter.png` });
});

test("on a phone the time buttons carry words and the compare chart keeps its size", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/?scenario=stateful-restart");
  for (const word of ["Reset", "Back", "Step", "Next", "Key", "Play"]) {
    await expect(page.locator(".transport .tool-short", { hasText: new RegExp(`^${word}$`) })).toBeVisible();
  }
  await button(page, "Compare static vs dynamic").click();
  const chart = page.getByTestId("availability-chart");
  const box = (await chart.boundingBox())!;
  expect(box.height).toBeGreaterThan(80);
  const labels = await page.locator(".run-scale > span").evaluateAll((spans) =>
    spans.map((s) => (s as HTMLElement).getBoundingClientRect().height),
  );
  // "0 s" and the end time stay on one line each.
  expect(Math.max(labels[0], labels[labels.length - 1])).toBeLessThan(24);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/phone-compare.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/phone-compare-dark.png`, fullPage: true });
});
