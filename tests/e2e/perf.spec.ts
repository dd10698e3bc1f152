// A measurement, not a check: how long one `Step` takes in the release build
// with 50 consumers and 500 partitions, from the click to the rendered page
// (reducer, snapshot and every panel). Prints the figures and writes them to
// target/e2e/perf.txt; asserts only that the page really reached that size.
import { expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";

test("step time with 50 consumers and 500 partitions (measured, printed)", async ({ page }) => {
  test.setTimeout(120_000);
  if (process.env.PERF_REDUCED) await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/?scenario=kip345-restart");
  const addDynamic = page.getByRole("button", { name: "Add dynamic consumer", exact: true });
  for (let i = 0; i < 47; i++) await addDynamic.click();
  await expect(page.getByTestId("member")).toHaveCount(50);
  await page.getByLabel("Topic").fill("t");
  await page.getByLabel("Partitions", { exact: true }).fill("500");
  await page.getByRole("button", { name: "Add partitions", exact: true }).click();
  await expect(page.getByTestId("partition")).toHaveCount(500);

  // In the page: click Step `n` times, each time waiting until the event
  // counter shows that step rendered, then until the next frame is drawn.
  const measure = (n: number) =>
    page.evaluate(async (n) => {
      const step = document.querySelector<HTMLButtonElement>('button[aria-label="Step"]')!;
      const counter = () => document.querySelector(".timeline-value")!.textContent;
      // Resolves as soon as the event counter's text changes (a DOM mutation,
      // seen by a MutationObserver without polling), or after 2 s.
      const stepAndWait = () =>
        new Promise<void>((resolve) => {
          const before = counter();
          const done = () => {
            observer.disconnect();
            clearTimeout(timer);
            resolve();
          };
          const observer = new MutationObserver(() => {
            if (counter() !== before) done();
          });
          const timer = setTimeout(done, 2000);
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
          step.click();
        });
      const stats = (times: number[]) => {
        times.sort((a, b) => a - b);
        const sum = times.reduce((a, b) => a + b, 0);
        return { mean: sum / n, median: times[Math.floor(n / 2)], p95: times[Math.floor(n * 0.95)], max: times[n - 1] };
      };
      const dom: number[] = [];
      const frame: number[] = [];
      for (let i = 0; i < n; i++) {
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        const t0 = performance.now();
        await stepAndWait();
        dom.push(performance.now() - t0);
        // Until the next frame is drawn: style, layout and paint included.
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        frame.push(performance.now() - t0);
      }
      return { dom: stats(dom), frame: stats(frame) };
    }, n);

  // The first 100 events: 50 consumers start, join, and the rebalance runs.
  const joining = await measure(100);
  // Next state to a Stable group of 50, then 100 events of heartbeats and syncs.
  for (let i = 0; i < 400 && (await page.getByTestId("group-state").textContent()) !== "Stable"; i++) {
    await page.getByRole("button", { name: "Next state", exact: true }).click();
  }
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () =>
    Object.fromEntries(((await cdp.send("Performance.getMetrics")).metrics as { name: string; value: number }[]).map((m) => [m.name, m.value]));
  const m0 = await metrics();
  const t0 = Date.now();
  const stable = await measure(100);
  const wall = Date.now() - t0;
  const m1 = await metrics();
  const spent = ["ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskDuration"]
    .map((k) => `${k.replace("Duration", "")} ${((m1[k] - m0[k]) * 10).toFixed(1)} ms`)
    .join(", ");

  const f = (x: number) => x.toFixed(2);
  const line = (label: string, m: { mean: number; median: number; p95: number; max: number }) =>
    `${label}: mean ${f(m.mean)} ms, median ${f(m.median)} ms, p95 ${f(m.p95)} ms, max ${f(m.max)} ms per Step`;
  const report = [
    `GroupScope release build, 50 consumers, 500 partitions (Chromium headless, ${new Date().toISOString()})`,
    "click → DOM updated (reducer, snapshot, render):",
    line("  during the first rebalance", joining.dom),
    line("  stable group", stable.dom),
    "click → next frame drawn (plus style, layout, paint; frames are ~16.7 ms apart):",
    line("  during the first rebalance", joining.frame),
    line("  stable group", stable.frame),
    `100 stable steps, whole loop: ${wall} ms; per step: ${spent}`,
  ].join("\n");
  console.log(report);
  writeFileSync("../../target/e2e/perf.txt", report + "\n");
  await page.screenshot({ path: "../../target/e2e/perf-50x500.png", fullPage: false });
});
