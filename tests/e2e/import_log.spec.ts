// `Import log` (issue 44): a broker log that real Kafka wrote, picked,
// dropped or pasted, read by the worker in pieces; the page shows what was
// read (`log-summary`), each rebalance on the log's own time axis with the
// broker's reason, each event beside its original line, and replays the
// group in the views; one click replays it in compare mode with static
// members. A log without the group asked for is refused and the session
// stays as it was.
import { expect, test, type Page } from "@playwright/test";
import { readdirSync, readFileSync } from "node:fs";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";
const LOG39 = "../logs/fixtures/kafka-3.9.1-classic.log";
const LOG44 = "../logs/fixtures/kafka-4.4.0-classic-and-consumer.log";
const AXE = require.resolve("axe-core/axe.min.js");
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

async function virtualMs(page: Page): Promise<number> {
  return Number(await page.getByTestId("virtual-time").first().getAttribute("data-ms"));
}

async function axe(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations: { id: string; nodes: { target: string[] }[] }[] = await page.evaluate(async () => {
    // @ts-expect-error axe is the global axe.min.js defines.
    return (await window.axe.run(document, { resultTypes: ["violations"] })).violations;
  });
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("a Kafka 3.9 broker log, picked, plays as the group's story and replays with static members in one click", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart&autoplay=0");
  await button(page, "Import log").click();
  // The first bundle opens the one that reads logs, with the dialog open.
  await expect(page).toHaveURL(/kip848\/\?import=log/);
  const dialog = page.getByRole("dialog", { name: "Import a broker log" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Log files").setInputFiles(LOG39);

  const summary = page.getByTestId("log-summary");
  await expect(summary).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(summary).toHaveAttribute("data-group", "orders-app");
  await expect(summary).toHaveAttribute("data-groups", "orders-app");
  await expect(summary).toHaveAttribute("data-rebalances", "5");
  // Every line is counted: used or not understood.
  const total = readFileSync(LOG39, "utf8").split("\n").filter((l) => l.trim() !== "").length;
  const used = Number(await summary.getAttribute("data-lines-used"));
  const unknown = Number(await summary.getAttribute("data-lines-unknown"));
  expect(used).toBeGreaterThan(40);
  expect(used + unknown).toBe(total);
  // … and the lines not understood can be listed, each with its number.
  const notUnderstood = page.getByTestId("log-unknown");
  await notUnderstood.getByText(`Lines not understood (${unknown})`).click();
  const listed = notUnderstood.locator("li");
  expect(await listed.count()).toBe(Math.min(unknown, 500));
  const lines = readFileSync(LOG39, "utf8").split("\n");
  const firstUnknown = await listed.first().locator(".log-where").textContent();
  const n = Number(firstUnknown!.trim());
  await expect(listed.first()).toContainText(lines[n - 1].slice(0, 60));
  await expect(summary).toContainText("kafka-3.9.1-classic.log");
  await expect(summary).toContainText("from 2026-12-06T12:51:19.912");

  // Each rebalance on the log's axis, with the broker's reason.
  const markers = page.getByTestId("log-rebalance");
  await expect(markers).toHaveCount(5);
  await expect(markers.first()).toHaveAttribute("data-reason", /^Adding new member a-.* with group instance id Some\(a\)/);
  await expect(markers.nth(1)).toHaveAttribute("data-reason", /on LeaveGroup/);
  // Each event beside the line it was read from.
  await page.getByText(/^The log's events \(\d+\), each beside its line$/).click();
  const events = page.getByTestId("log-event");
  expect(await events.count()).toBeGreaterThan(20);
  const started = page.locator('[data-testid="log-event"][data-event="rebalance_started"]').first();
  await expect(started).toContainText("A rebalance starts after generation 0");
  await expect(started.locator(".log-original")).toContainText("Preparing to rebalance group orders-app in state PreparingRebalance with old generation 0");

  // The replay plays in the views: the same members, a from the log.
  await expect(page.getByTestId("member").first()).toBeVisible();
  await expect(page.getByText("Group orders-app as the broker's log tells it")).toBeVisible();
  // A marker moves the replay to its moment.
  await markers.nth(1).click();
  const base = Number(await page.getByTestId("log-event").first().getAttribute("data-at-ms"));
  const at = Number(await markers.nth(1).getAttribute("data-at-ms"));
  expect(await virtualMs(page)).toBeLessThanOrEqual(at - base);
  expect(await virtualMs(page)).toBeGreaterThan(0);
  expect(await axe(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/import-log.png`, fullPage: true });

  // One click: the replay with static members beside it with dynamic ones.
  await button(page, "Replay with static members").click();
  const panes = page.getByTestId("pane");
  await expect(panes).toHaveCount(2);
  await expect(page.locator('[data-testid="pane"][data-label="static"]')).toBeVisible();
  await expect(page.getByTestId("compare-strip")).toBeVisible();
  for (let i = 0; i < 400 && (await virtualMs(page)) <= 60_000; i++) {
    await button(page, "Next state").click();
  }
  const rebalances = async (label: string) =>
    Number(await page.locator(`[data-testid="compare-figure"][data-figure="rebalances"][data-label="${label}"]`).getAttribute("data-value"));
  expect(await rebalances("static")).toBeLessThan(await rebalances("dynamic"));
  await expect(summary).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/import-log-compare.png` });
  expect(problems).toEqual([]);
});

test("a Kafka 4.4 log pasted with a consumer group named; a group it does not have is refused", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/kip848/?scenario=kip345-restart&autoplay=0");
  await button(page, "Import log").click();
  const dialog = page.getByRole("dialog", { name: "Import a broker log" });
  await dialog.getByLabel("Log lines").fill(readFileSync(LOG44, "utf8"));
  await dialog.getByLabel("Group").fill("nope");
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("error-banner")).toContainText('no line speaks of group "nope" (groups found: orders-848, orders-app)');
  await expect(dialog.getByRole("alert")).toContainText("orders-848");
  await expect(page.getByTestId("log-summary")).toHaveCount(0);

  await dialog.getByLabel("Group").fill("orders-848");
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  const summary = page.getByTestId("log-summary");
  await expect(summary).toHaveAttribute("data-group", "orders-848");
  await expect(summary).toHaveAttribute("data-rebalances", "7");
  await expect(summary).toContainText("consumer protocol");
  await expect(summary).toContainText("Import again with another Group");
  await expect(page.getByTestId("log-rebalance")).toHaveCount(7);
  await expect(page.getByTestId("member").first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/import-log-848.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test("a broker log picked with its clients' logs gives each member's time without partitions", async ({ page }) => {
  const problems = watchProblems(page);
  const dir = "../logs/fixtures/clients";
  const files = readdirSync(dir).filter((f) => f.endsWith(".log")).sort().map((f) => `${dir}/${f}`);
  expect(files.length).toBe(7);
  await page.goto("/kip848/?import=log");
  const dialog = page.getByRole("dialog", { name: "Import a broker log" });
  await dialog.getByLabel("Group").fill("orders-app");
  await dialog.getByLabel("Log files").setInputFiles(files);
  const summary = page.getByTestId("log-summary");
  await expect(summary).toHaveAttribute("data-group", "orders-app");
  await expect(summary).toHaveAttribute("data-rebalances", "5");
  await expect(summary).toContainText("7 files (client-a-1.log");
  await expect(summary).toContainText("Stop the world (clients' logs)");
  await expect(summary).toContainText("Longest member without partitions");
  // When each member started fetching what it was given.
  await expect(summary).toContainText("Longest wait from assignment to first fetch");
  // The clients' own lines, merged by time with the broker's.
  await page.getByText(/^The log's events \(\d+\), each beside its line$/).click();
  const client = page.locator('[data-testid="log-event"][data-event="client"]');
  expect(await client.count()).toBeGreaterThan(10);
  await expect(client.first().locator(".log-original")).toContainText("|rdkafka#consumer-1|");
  await expect(client.first().locator(".log-where")).toContainText("client-");
  await expect(client.filter({ hasText: "starts fetching its new partitions" }).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/import-log-clients.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test("a consumer group's log with its clients' logs: their epochs, no stop-the-world, and a classic replay beside it", async ({ page }) => {
  const problems = watchProblems(page);
  const dir = "../logs/fixtures/clients-848";
  const files = readdirSync(dir).filter((f) => f.endsWith(".log")).sort().map((f) => `${dir}/${f}`);
  await page.goto("/kip848/?import=log");
  const dialog = page.getByRole("dialog", { name: "Import a broker log" });
  await dialog.getByLabel("Log files").setInputFiles(files);
  const summary = page.getByTestId("log-summary");
  await expect(summary).toHaveAttribute("data-group", "orders-848");
  await expect(summary.locator(".log-figure", { hasText: "Stop the world (clients' logs)" })).toContainText("none");
  await page.getByText(/^The log's events \(\d+\), each beside its line$/).click();
  const epochs = page.locator('[data-testid="log-event"][data-event="client"]', { hasText: "is at member epoch" });
  expect(await epochs.count()).toBeGreaterThan(3);
  await expect(epochs.first().locator(".log-original")).toContainText("ConsumerGroupHeartbeat response received");
  await button(page, "Replay with the classic protocol").click();
  await expect(page.getByTestId("pane")).toHaveCount(2);
  expect(problems).toEqual([]);
});

test("text that is no broker log is refused, naming what was read", async ({ page }) => {
  await page.goto("/kip848/?import=log");
  const dialog = page.getByRole("dialog", { name: "Import a broker log" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Log lines").fill("hello\nworld\n");
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog.getByRole("alert")).toContainText("no consumer group's coordinator lines were found (0 lines used, 2 not understood)");
  await expect(dialog.getByRole("alert")).toContainText("The first line not understood, 1: hello");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("member").first()).toBeVisible();
});
