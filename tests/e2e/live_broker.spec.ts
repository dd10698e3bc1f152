// Issue 14's promise end to end, with nothing simulated: real librdkafka
// consumers (confluent-kafka, tests/broker/consumer.py) with
// group.instance.id join `groupscope broker`; the page, opened with
// ?live=ws://…, shows their group as it happens; one restarts within its
// session timeout and the page shows a new member id with the same
// generation; the recorded session then opens in the app.
//
// Needs target/release/groupscope and .cache/venv (scripts/setup installs
// the pinned confluent-kafka): skipped with a message without them, except
// in CI (CI=true), where they are required.
import { expect, test, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { watchProblems } from "./problems";

const REPO = resolve("../..");
// Where cargo put the CLI: CARGO_TARGET_DIR when set (as scripts/test reads it), else target/.
const TARGET = resolve(REPO, process.env.CARGO_TARGET_DIR ?? "target");
const GROUPSCOPE = process.env.GROUPSCOPE ?? join(TARGET, "release/groupscope");
const PYTHON = join(REPO, ".cache/venv/bin/python");
const READY = existsSync(GROUPSCOPE) && existsSync(PYTHON);

const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

/** A librdkafka consumer in its own process; `events` are its JSON lines. */
class Consumer {
  proc: ChildProcess;
  events: Array<Record<string, unknown>> = [];
  constructor(bootstrap: string, instance: string, protocol = "classic") {
    const args = [join(REPO, "tests/broker/consumer.py"), bootstrap, "live-demo", instance, "orders", "10000", protocol];
    this.proc = spawn(PYTHON, args, {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let buffered = "";
    this.proc.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      let nl;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        try {
          this.events.push(JSON.parse(line));
        } catch {
          // not one of its lines
        }
      }
    });
  }
  async assigned(timeoutMs = 30_000): Promise<string[]> {
    await expect
      .poll(() => this.events.find((e) => e.event === "assigned" && (e.partitions as string[]).length > 0), {
        timeout: timeoutMs,
      })
      .toBeTruthy();
    return this.events.find((e) => e.event === "assigned" && (e.partitions as string[]).length > 0)!
      .partitions as string[];
  }
  /** What the consumer holds now: its last assignment or revocation. */
  holds(): string[] {
    for (let i = this.events.length - 1; i >= 0; i--) {
      const e = this.events[i];
      if (e.event === "assigned") return e.partitions as string[];
      if (e.event === "revoked") return (e.holds as string[] | undefined) ?? [];
    }
    return [];
  }
  async close() {
    this.proc.stdin!.write("close\n");
    await expect.poll(() => this.events.some((e) => e.event === "closed"), { timeout: 20_000 }).toBe(true);
  }
}

/**
 * What `mine` holds once it and `other` share the four partitions. The
 * first to join may hold all four for a while (under KIP-848 until the
 * second's heartbeat moves some over), so its first assignment is no guide.
 */
async function shareOf(mine: Consumer, other: Consumer): Promise<string[]> {
  const settled = () => {
    const [m, o] = [mine.holds(), other.holds()];
    return m.length > 0 && o.length > 0 && new Set([...m, ...o]).size === 4 && m.length + o.length === 4;
  };
  await expect.poll(settled, { timeout: 20_000 }).toBe(true);
  return mine.holds();
}

test("a real static consumer restarts without a rebalance, watched live, and the session replays in the app", async ({
  page,
}) => {
  test.skip(!READY && process.env.CI !== "true", "needs target/release/groupscope and .cache/venv (scripts/setup)");
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  const dir = mkdtempSync(join(tmpdir(), "groupscope-live-"));
  const record = join(dir, "session.json");
  const [port, wsPort] = [await freePort(), await freePort()];
  const broker = spawn(
    GROUPSCOPE,
    ["broker", "--port", String(port), "--ws-port", String(wsPort), "--topic", "orders:4",
     "--initial-rebalance-delay-ms", "300", "--record", record],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  const consumers: Consumer[] = [];
  try {
    await page.goto(`/?live=ws://127.0.0.1:${wsPort}`);
    const badge = page.getByTestId("live-status");
    await expect(badge).toHaveAttribute("data-state", "open", { timeout: 15_000 });

    const bootstrap = `127.0.0.1:${port}`;
    const a = new Consumer(bootstrap, "pod-a");
    const b = new Consumer(bootstrap, "pod-b");
    consumers.push(a, b);
    await b.assigned();
    await a.assigned();
    const bPartitions = await shareOf(b, a);
    await expect(page.getByTestId("group-state")).toHaveText("Stable", { timeout: 15_000 });
    await expect(page.getByTestId("member")).toHaveCount(2);
    const generation = await page.getByTestId("generation").textContent();
    const row = page.locator('[data-testid="instance-row"][data-instance-id="pod-b"]');
    const before = await row.getAttribute("data-member-id");

    // pod-b closes (a static member sends no LeaveGroup) and comes back at once.
    await b.close();
    const b2 = new Consumer(bootstrap, "pod-b");
    consumers.push(b2);
    await b2.assigned();
    await expect.poll(() => b2.holds(), { timeout: 20_000 }).toEqual(bPartitions);
    await expect(row).not.toHaveAttribute("data-member-id", before!, { timeout: 15_000 });
    await expect(page.getByTestId("generation")).toHaveText(generation!);
    await expect(page.getByTestId("group-state")).toHaveText("Stable");

    for (const c of [a, b2]) await c.close();
  } finally {
    for (const c of consumers) c.proc.kill("SIGKILL");
    broker.kill("SIGTERM");
    await new Promise((done) => broker.once("exit", done));
  }

  // The recording opens in the app and plays to the same generation.
  await page.goto("/?scenario=kip345-restart");
  await button(page, "Import scenario").click();
  const dialog = page.getByRole("dialog", { name: "Import a scenario" });
  await dialog.getByLabel("Scenario JSON").fill(readFileSync(record, "utf8"));
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  const podB = page.locator('[data-testid="instance-row"][data-instance-id="pod-b"]');
  for (let i = 0; i < 40 && !(await podB.count()); i++) await button(page, "Next state").click();
  await expect(podB).toHaveCount(1);
  await expect(page.getByTestId("member")).toHaveCount(2);
  expect(problems).toEqual([]);
});

test("real consumer-protocol clients (KIP-848) show up live: epochs, away with -2, back with no new epoch, and the recording replays in the app", async ({
  page,
}) => {
  test.skip(!READY && process.env.CI !== "true", "needs target/release/groupscope and .cache/venv (scripts/setup)");
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  const dir = mkdtempSync(join(tmpdir(), "groupscope-live-848-"));
  const record = join(dir, "session.json");
  const [port, wsPort] = [await freePort(), await freePort()];
  const broker = spawn(
    GROUPSCOPE,
    ["broker", "--port", String(port), "--ws-port", String(wsPort), "--topic", "orders:4",
     "--consumer-session-timeout-ms", "10000", "--consumer-heartbeat-interval-ms", "500", "--record", record],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  const consumers: Consumer[] = [];
  try {
    // The page opens in its first bundle; the first consumer-group step
    // hands the live session to the bundle that plays consumer groups.
    await page.goto(`/?live=ws://127.0.0.1:${wsPort}`);
    await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open", { timeout: 15_000 });
    const bootstrap = `127.0.0.1:${port}`;
    const a = new Consumer(bootstrap, "pod-a", "consumer");
    const b = new Consumer(bootstrap, "pod-b", "consumer");
    consumers.push(a, b);
    await b.assigned();
    await a.assigned();
    await expect(page).toHaveURL(/\/kip848\/\?live=/, { timeout: 15_000 });
    await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open", { timeout: 15_000 });
    await expect(page.getByTestId("group-protocol")).toHaveText("consumer");
    await expect(page.getByTestId("member")).toHaveCount(2, { timeout: 15_000 });
    const cards = page.getByTestId("member");
    await expect(cards.and(page.locator('[data-reconciliation="STABLE"]'))).toHaveCount(2, { timeout: 15_000 });
    await expect(page.getByTestId("group-state")).toHaveText("Stable", { timeout: 15_000 });
    const epoch = await page.getByTestId("group-epoch").textContent();
    const podB = page.locator('[data-testid="member"][data-name="pod-b"]');
    const before = await podB.getAttribute("data-member-id");
    const bPartitions = await shareOf(b, a);
    // Each partition has one owner on the grid, and pod-b's are its own.
    for (const p of bPartitions) {
      const n = p.split("-").pop();
      // pod-a gives a partition up on its next heartbeat (every 5 s), and
      // the page shows it once the broker's step arrives: wait as long as
      // for the cards.
      await expect(page.locator(`[data-testid="partition"][data-topic="orders"][data-partition="${n}"]`))
        .toHaveAttribute("data-owner", "pod-b", { timeout: 15_000 });
    }

    // pod-b closes: librdkafka leaves with epoch -2, its place kept.
    await b.close();
    await expect(podB).toHaveAttribute("data-client-state", "away", { timeout: 15_000 });
    await expect(page.locator('[data-testid="instance-row"][data-instance-id="pod-b"]'))
      .toHaveAttribute("data-away", "true");
    // Back within the session: a new member id, the same partitions, and
    // the group epoch has not moved.
    const b2 = new Consumer(bootstrap, "pod-b", "consumer");
    consumers.push(b2);
    await b2.assigned();
    await expect.poll(() => b2.holds(), { timeout: 20_000 }).toEqual(bPartitions);
    await expect(podB).toHaveAttribute("data-client-state", "stable", { timeout: 15_000 });
    await expect(podB).not.toHaveAttribute("data-member-id", before!);
    await expect(page.getByTestId("group-epoch")).toHaveText(epoch!);
    await expect(page.getByTestId("member")).toHaveCount(2);
    for (const c of [a, b2]) await c.close();
  } finally {
    for (const c of consumers) c.proc.kill("SIGKILL");
    broker.kill("SIGTERM");
    await new Promise((done) => broker.once("exit", done));
  }

  // The recording opens in the app and plays to the same members.
  await page.goto("/kip848/?scenario=kip345-restart");
  await button(page, "Import scenario").click();
  const dialog = page.getByRole("dialog", { name: "Import a scenario" });
  await dialog.getByLabel("Scenario JSON").fill(readFileSync(record, "utf8"));
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  await expect(page.getByTestId("group-protocol")).toHaveText("consumer");
  const away = page.locator('[data-testid="member"][data-client-state="away"]');
  for (let i = 0; i < 400 && !(await away.count()); i++) await button(page, "Next state").click();
  await expect(away).toHaveAttribute("data-name", "pod-b");
  await expect(page.getByTestId("member")).toHaveCount(2);
  expect(problems).toEqual([]);
});
