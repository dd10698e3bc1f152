// Issue 14 in a real browser: a recorded session (a protocol scenario)
// opens in the app and plays with every view, and `?live=ws://…` shows a
// broker's group as its stream arrives (the stream is played here by
// Playwright's WebSocket route, in the broker's format: src/broker/ws.rs).
import { expect, test, type Page, type WebSocketRoute } from "@playwright/test";
import { readFileSync } from "node:fs";
import { watchProblems } from "./problems";

const REPO = "../..";
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

test("a recorded session (protocol scenario) opens and plays with its consumers observed", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart");
  await button(page, "Import scenario").click();
  const dialog = page.getByRole("dialog", { name: "Import a scenario" });
  const file = readFileSync(`${REPO}/tests/conformance/T08-static-follower-restart-keeps-assignment.json`, "utf8");
  await dialog.getByLabel("Scenario JSON").fill(file);
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);

  // Nothing to act on or compare: the requests decide everything.
  await expect(button(page, "Compare static vs dynamic")).toHaveCount(0);
  // The metrics say what they can see: consumers only through their requests.
  await expect(page.getByTestId("metrics-observed-note")).toContainText("Seen through the requests only");
  await expect(page.getByRole("button", { name: /^Crash / })).toHaveCount(0);

  for (let i = 0; i < 40; i++) {
    if (await page.locator(".notice", { hasText: "has ended" }).count()) break;
    await button(page, "Step").click();
  }
  await expect(page.getByTestId("group-state")).toHaveText("Stable");
  const members = await page
    .getByTestId("member")
    .evaluateAll((m) => m.map((e) => `${e.getAttribute("data-name")}:${e.getAttribute("data-static")}`));
  expect(members).toEqual(["leader:true", "follower:true"]);
  // The follower restarted with a fresh member id and kept its partitions.
  await expect(page.getByTestId("instance-map")).toContainText("follower");
  await expect(page.getByTestId("event-log")).toContainText("follower");
  expect(problems).toEqual([]);
});

const hello = {
  kind: "hello",
  now_ms: 0,
  scenario: {
    name: "recorded by groupscope broker",
    seed: 0,
    config: { initial_rebalance_delay_ms: 3000 },
    topics: [{ name: "orders", partitions: 6 }],
    requests: [],
  },
};

function join(at_ms: number, instance: string, member_id: string, bind: string) {
  return {
    kind: "step",
    step: {
      at_ms,
      join: {
        member_id,
        group_instance_id: instance,
        client_id: "rdkafka",
        session_timeout_ms: 10000,
        rebalance_timeout_ms: 30000,
        protocols: [{ name: "range", metadata: "0001" }],
        bind,
      },
    },
  };
}

const clock = (now_ms: number) => ({ kind: "clock", now_ms });

test("?live= shows a broker's group as its stream arrives, and a static restart moves nothing", async ({ page }) => {
  const problems = watchProblems(page);
  let broker: WebSocketRoute | undefined;
  await page.routeWebSocket("ws://127.0.0.1:9093/", (ws) => {
    broker = ws;
    ws.send(JSON.stringify(hello));
  });
  await page.goto("/?live=ws://127.0.0.1:9093/");
  const badge = page.getByTestId("live-status");
  await expect(badge).toHaveAttribute("data-state", "open");
  await expect(badge).toContainText("following");
  const send = (m: object) => broker!.send(JSON.stringify(m));

  // Two static consumers join within the initial delay (extended once, as b
  // joined during it: Kafka's InitialDelayedJoin); the leader (a) assigns.
  send(join(100, "a", "", "a"));
  send(join(120, "b", "", "b"));
  send(clock(2000));
  await expect(page.getByTestId("group-state")).toHaveText("PreparingRebalance");
  send({
    kind: "step",
    step: {
      at_ms: 6200,
      sync: {
        member_id: "$a",
        generation_id: 1,
        group_instance_id: "a",
        assignments: { $a: ["orders-0", "orders-1", "orders-2"], $b: ["orders-3", "orders-4", "orders-5"] },
      },
    },
  });
  send({ kind: "step", step: { at_ms: 6210, sync: { member_id: "$b", generation_id: 1, group_instance_id: "b" } } });
  send(clock(7000));
  await expect(page.getByTestId("group-state")).toHaveText("Stable");
  await expect(page.getByTestId("generation")).toHaveText("1");
  await expect(page.getByTestId("member")).toHaveCount(2);
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", "7000");
  const bBefore = await page.locator('[data-testid="member"][data-name="b"]').getAttribute("data-member-id");

  // b restarts within its session: a fresh member id, the same generation.
  send(join(9000, "b", "", "b#2"));
  send({ kind: "step", step: { at_ms: 9010, sync: { member_id: "$b#2", generation_id: 1, group_instance_id: "b" } } });
  send(clock(10000));
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", "10000");
  await expect(page.getByTestId("group-state")).toHaveText("Stable");
  await expect(page.getByTestId("generation")).toHaveText("1");
  await expect(page.getByTestId("member")).toHaveCount(2);
  const bAfter = await page.locator('[data-testid="member"][data-name="b"]').getAttribute("data-member-id");
  expect(bAfter).not.toEqual(bBefore);
  await expect(page.locator('[data-testid="instance-row"][data-instance-id="b"]')).toHaveAttribute("data-member-id", bAfter!);

  // Step back: the view stays; Play follows the broker again.
  await button(page, "Step back").click();
  await expect(badge).toContainText("paused here");
  send(clock(11000));
  await button(page, "Play").click();
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", "11000");
  await expect(badge).toContainText("following");

  // The broker goes away: the badge says so, and the view keeps what it showed.
  await broker!.close();
  await expect(badge).toHaveAttribute("data-state", "closed");
  await expect(page.getByTestId("group-state")).toHaveText("Stable");
  expect(problems).toEqual([]);
});

test("?live= with an address that is not a WebSocket opens the default scenario and says why", async ({ page }) => {
  await page.goto("/?live=http://127.0.0.1:9093");
  await expect(page.getByTestId("error-banner")).toContainText("WebSocket address");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
});
