// The four flows of issue 5, driven only through spec/ui-contract.md (and the
// settings labels): a static restart without a rebalance, a dynamic member
// leaving, a bad setting, and a keyboard-only run. Each saves a screenshot
// under target/e2e/ for a person to look at.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";


const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

async function virtualMs(page: Page): Promise<number> {
  return Number(await page.getByTestId("virtual-time").getAttribute("data-ms"));
}

/**
 * Presses `Next state` until the group is Stable and `extra` holds (bounded).
 * Once Stable, it takes single steps instead: the SyncGroup responses are
 * still on their way, and the next state change may be far ahead.
 */
async function nextStateUntilStable(page: Page, extra: () => Promise<boolean> = async () => true) {
  for (let i = 0; i < 200; i++) {
    const stable = (await page.getByTestId("group-state").textContent()) === "Stable";
    if (stable && (await extra())) return;
    await button(page, stable ? "Step" : "Next state").click();
  }
  throw new Error("the group never became Stable");
}

/** Presses `Pause` unless play already stopped by itself at the end of the run. */
async function pauseIfPlaying(page: Page) {
  const pause = button(page, "Pause");
  // Playback may end between the check and the click (the button then
  // reads Play): give the click a short timeout instead of waiting forever.
  if (await pause.isVisible()) await pause.click({ timeout: 1_000 }).catch(() => undefined);
  await expect(button(page, "Play")).toBeVisible();
}

/** `data-owner` of every partition cell, keyed by topic-partition. */
async function owners(page: Page): Promise<Record<string, string>> {
  return page.getByTestId("partition").evaluateAll((cells) =>
    Object.fromEntries(
      cells.map((c) => [`${c.getAttribute("data-topic")}-${c.getAttribute("data-partition")}`, c.getAttribute("data-owner") ?? ""]),
    ),
  );
}

test("a static member restarts within its session: same generation, new member id, same owners", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart");
  await expect(page.getByRole("combobox", { name: "Scenario" })).toHaveValue("kip345-restart");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");

  await nextStateUntilStable(page);
  await expect(page.getByTestId("generation")).toHaveText("1");
  const rowA = page.locator('[data-testid="instance-row"][data-instance-id="A"]');
  const firstId = await rowA.getAttribute("data-member-id");
  expect(firstId).toMatch(/^A-/);
  const before = await owners(page);
  expect(Object.keys(before)).toHaveLength(9);
  expect(Object.values(before).every((o) => o !== "")).toBe(true);
  expect(await virtualMs(page)).toBeLessThan(20_000);

  // Run in virtual time past A's restart (at 20 s, down 8 s) to 30 s.
  await page.getByRole("slider", { name: "Speed" }).fill("20000");
  await button(page, "Play").click();
  await expect(button(page, "Pause")).toBeVisible();
  await expect.poll(() => virtualMs(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(30_000);
  // Play stops by itself at the scenario's end (40 s); pause if it has not yet.
  await pauseIfPlaying(page);

  await expect(page.getByTestId("generation")).toHaveText("1");
  await expect(page.getByTestId("rebalance-count")).toHaveText("1");
  const secondId = await rowA.getAttribute("data-member-id");
  expect(secondId).toMatch(/^A-/);
  expect(secondId).not.toBe(firstId);
  // The old member id is kept in the row's history, struck through.
  await expect(rowA.locator(".old-id")).toHaveCount(1);
  await expect(page.locator('[data-testid="member"][data-name="A"]')).toHaveAttribute("data-member-id", secondId!);
  expect(await owners(page)).toEqual(before);

  await page.screenshot({ path: `${SHOTS}/flow1-static-restart.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test("three dynamic consumers join; closing one rebalances and moves partitions", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart");
  for (let i = 0; i < 3; i++) await button(page, "Add dynamic consumer").click();
  const members = page.getByTestId("member");
  await expect(members).toHaveCount(6);
  await expect(page.locator('[data-testid="member"][data-static="false"]')).toHaveCount(3);

  const allStable = async () =>
    (await page.locator('[data-testid="member"]:not([data-client-state="stable"])').count()) === 0;
  await nextStateUntilStable(page, allStable);
  const generation = Number(await page.getByTestId("generation").textContent());
  const rebalances = Number(await page.getByTestId("rebalance-count").textContent());
  const movesBefore = Number(await page.getByTestId("partition-moves").textContent());
  expect(Object.values(await owners(page)).sort()).toContain("D");

  // The close is an event at the current time: the next step runs it.
  await button(page, "Close D").click();
  const cardD = page.locator('[data-testid="member"][data-name="D"]');
  for (let i = 0; i < 10 && (await cardD.getAttribute("data-client-state")) !== "down"; i++) {
    await button(page, "Step").click();
  }
  await expect(cardD).toHaveAttribute("data-client-state", "down");
  await nextStateUntilStable(
    page,
    async () => Number(await page.getByTestId("generation").textContent()) > generation,
  );
  expect(Number(await page.getByTestId("rebalance-count").textContent())).toBeGreaterThan(rebalances);
  expect(Number(await page.getByTestId("partition-moves").textContent())).toBeGreaterThan(movesBefore);
  expect(Object.values(await owners(page))).not.toContain("D");

  // Let the SyncGroup responses arrive so every running consumer shows its partitions.
  const othersStable = async () =>
    (await page.locator('[data-testid="member"]:not([data-name="D"]):not([data-client-state="stable"])').count()) === 0;
  for (let i = 0; i < 20 && !(await othersStable()); i++) await button(page, "Step").click();
  await page.screenshot({ path: `${SHOTS}/flow2-dynamic-close.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test("a session timeout of 100 ms is refused beside its field and changes nothing", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/");
  for (let i = 0; i < 3; i++) await button(page, "Next state").click();
  const ms = await page.getByTestId("virtual-time").getAttribute("data-ms");
  const generation = await page.getByTestId("generation").textContent();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);

  await page.getByText("Settings", { exact: true }).click();
  const field = page.getByLabel("Session timeout");
  await field.fill("100");
  await button(page, "Apply").click();

  const banner = page.getByTestId("error-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("session.timeout.ms");
  await expect(banner).toContainText("6000");
  await expect(page.locator(".field-error", { hasText: "6000" })).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveValue("100");
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", ms!);
  await expect(page.getByTestId("generation")).toHaveText(generation!);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/flow3-bad-setting-banner.png` });
  await field.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/flow3-bad-setting.png` });

  // A good value clears the error and restarts the scenario from t = 0.
  await field.fill("12000");
  await button(page, "Apply").click();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  await expect(page.getByTestId("virtual-time")).toHaveAttribute("data-ms", "0");
  expect(problems).toEqual([]);
});

test("a preset runs from the keyboard alone", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/");
  const active = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.tagName);

  // Tab to the Scenario select and pick scale-out with the arrow keys.
  await page.keyboard.press("Tab");
  expect(await active()).toBe("Scenario");
  const select = page.getByRole("combobox", { name: "Scenario" });
  const ids = await select.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const downs = ids.indexOf("scale-out") - ids.indexOf(await select.inputValue());
  for (let i = 0; i < downs; i++) await page.keyboard.press("ArrowDown");
  await expect(select).toHaveValue("scale-out");
  await expect(page).toHaveURL(/scenario=scale-out/);
  await expect(page.getByTestId("member")).toHaveCount(3);

  // Leave the select: → steps, N runs to the next state.
  await page.keyboard.press("Tab");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(page.locator('input[aria-label="Timeline"]')).toHaveValue("2");
  await page.keyboard.press("n");
  await expect(page.getByTestId("group-state")).not.toHaveText("Empty");
  await page.keyboard.press("ArrowLeft");

  // Tab to Play, then to Speed: End is the fastest; back to Play, Space plays.
  for (let i = 0; i < 12 && (await active()) !== "Play"; i++) await page.keyboard.press("Tab");
  expect(await active()).toBe("Play");
  await page.keyboard.press("Tab");
  expect(await active()).toBe("Speed");
  await page.keyboard.press("End");
  await page.keyboard.press("Shift+Tab");
  expect(await active()).toBe("Play");
  await page.keyboard.press("Space");
  expect(await active()).toBe("Pause");
  await expect.poll(() => virtualMs(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(25_000);
  await page.keyboard.press("Space");
  expect(await active()).toBe("Play");

  // C joined at 20 s: one more rebalance, generation 2, and C owns partitions.
  for (let i = 0; i < 10 && (await page.getByTestId("group-state").textContent()) !== "Stable"; i++) {
    await page.keyboard.press("n");
  }
  await expect(page.getByTestId("group-state")).toHaveText("Stable");
  await expect(page.getByTestId("generation")).toHaveText("2");
  expect(Object.values(await owners(page))).toContain("C");
  await page.screenshot({ path: `${SHOTS}/flow4-keyboard.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test("Space plays and pauses from the page; on a focused button Enter and Space press it", async ({ page }) => {
  await page.goto("/?scenario=rolling-restart-static");
  await page.keyboard.press("Space");
  await expect(button(page, "Pause")).toBeVisible();
  await page.keyboard.press("Space");
  await expect(button(page, "Play")).toBeVisible();
  // As the shortcuts dialog says: Enter or Space presses the focused button,
  // the time buttons too (Step, Next state, Step back, Reset).
  await button(page, "Step").focus();
  const timeline = page.locator('input[aria-label="Timeline"]');
  const before = Number(await timeline.inputValue());
  await page.keyboard.press("Enter");
  await expect(timeline).toHaveValue(String(before + 1));
  await page.keyboard.press("Space");
  await expect(timeline).toHaveValue(String(before + 2));
  await expect(button(page, "Play")).toBeVisible();
  await button(page, "Step back").focus();
  await page.keyboard.press("Space");
  await expect(timeline).toHaveValue(String(before + 1));
  await button(page, "Next state").focus();
  await page.keyboard.press("Space");
  await expect.poll(async () => Number(await timeline.inputValue())).toBeGreaterThan(before + 1);
  await expect(button(page, "Play")).toBeVisible();
  await button(page, "Reset").focus();
  await page.keyboard.press("Space");
  await expect(timeline).toHaveValue("0");
  await expect(button(page, "Play")).toBeVisible();
  // On the Play button itself, Space presses it: it plays.
  await button(page, "Play").focus();
  await page.keyboard.press("Space");
  await expect(button(page, "Pause")).toBeVisible();
});

test("an unknown scenario opens the default one with an error banner", async ({ page }) => {
  await page.goto("/?scenario=no-such-thing");
  await expect(page.getByTestId("error-banner")).toContainText("no-such-thing");
  await expect(page.getByRole("combobox", { name: "Scenario" })).toHaveValue("stateful-restart");
  await expect(page.getByTestId("member")).toHaveCount(3);
  await button(page, "Dismiss").click();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
});

test("desktop, 800×600 embed and phone screenshots of a group mid-run", async ({ page }) => {
  await page.goto("/?scenario=mixed-group");
  await page.getByRole("slider", { name: "Speed" }).fill("20000");
  await button(page, "Play").click();
  await expect.poll(() => virtualMs(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(42_000);
  await pauseIfPlaying(page);
  await page.screenshot({ path: `${SHOTS}/desktop-mixed-group.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark", reducedMotion: "reduce" });
  await page.screenshot({ path: `${SHOTS}/desktop-mixed-group-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });

  await page.setViewportSize({ width: 800, height: 600 });
  await page.screenshot({ path: `${SHOTS}/embed-800x600.png` });

  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/phone-mixed-group.png` });
  await page.screenshot({ path: `${SHOTS}/phone-mixed-group-full.png`, fullPage: true });
  // The transport bar stays on screen, at the bottom, while the page scrolls.
  await page.mouse.wheel(0, 1500);
  const bar = await page.getByRole("region", { name: "Time" }).boundingBox();
  expect(bar).not.toBeNull();
  expect(bar!.y + bar!.height).toBeLessThanOrEqual(844 + 1);
  expect(bar!.y + bar!.height).toBeGreaterThan(844 - 4);
});

test("an operator removes two stopped static members in one batch; partitions are added to a topic", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=admin-remove");
  await nextStateUntilStable(page);
  // Close C and D (static: no LeaveGroup), then tick both and remove them at once.
  await button(page, "Close C").click();
  await button(page, "Close D").click();
  await expect(page.locator('[data-testid="member"][data-name="C"]')).toHaveAttribute("data-client-state", "down");
  const generation = Number(await page.getByTestId("generation").textContent());
  await expect(button(page, "Remove selected")).toBeDisabled();
  await page.getByRole("checkbox", { name: "Select C", exact: true }).check();
  await page.getByRole("checkbox", { name: "Select D", exact: true }).check();
  await button(page, "Remove selected").click();
  await nextStateUntilStable(page, async () => Number(await page.getByTestId("generation").textContent()) > generation);
  // The coordinator's static member map no longer has C and D.
  await expect(page.getByTestId("instance-row")).toHaveCount(2);
  await expect(page.locator('[data-testid="instance-row"][data-instance-id="C"]')).toHaveCount(0);
  expect(new Set(Object.values(await owners(page)))).toEqual(new Set(["A", "B"]));

  // Kafka only adds partitions: 8 -> 6 is refused beside the fields and in the banner.
  await page.getByLabel("Topic").fill("t");
  await page.getByLabel("Partitions", { exact: true }).fill("6");
  await button(page, "Add partitions").click();
  await expect(page.getByTestId("error-banner")).toContainText("between 9 and 1000");
  await expect(page.locator(".add-partitions .field-error")).toContainText("between 9 and 1000");
  await page.getByLabel("Partitions", { exact: true }).fill("12");
  await button(page, "Add partitions").click();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  await expect(page.getByTestId("partition")).toHaveCount(12);
  await page.screenshot({ path: `${SHOTS}/flow5-admin-remove.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test("?embed=1 keeps only the diagram, the map, the grid and time; an undecodable #s= link says so", async ({ page }) => {
  await page.goto("/?scenario=scale-out&embed=1");
  await expect(page.getByTestId("state-diagram")).toBeVisible();
  await expect(page.getByTestId("instance-map")).toBeVisible();
  await expect(page.getByTestId("assignment")).toBeVisible();
  await expect(button(page, "Step")).toBeVisible();
  await expect(page.getByTestId("member")).toHaveCount(0);
  await expect(page.getByTestId("event-log")).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: "Scenario" })).toHaveCount(0);
  // Next state stops at each consumer's start, then at the rebalance.
  for (let i = 0; i < 10 && (await page.getByTestId("group-state").textContent()) === "Empty"; i++) {
    await button(page, "Next state").click();
  }
  await expect(page.getByTestId("group-state")).toHaveText("PreparingRebalance");
  await page.setViewportSize({ width: 800, height: 600 });
  await page.screenshot({ path: `${SHOTS}/embed-iframe-800x600.png` });

  await page.goto("/#s=v1.not-a-scenario");
  await expect(page.getByTestId("error-banner")).toContainText("#s=");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
  await expect(page.getByTestId("member")).toHaveCount(3);
});

/** Presses `Next state` until virtual time reaches `ms` (bounded); returns each stop's time. */
async function nextStateTo(page: Page, ms: number): Promise<number[]> {
  const stops: number[] = [];
  for (let i = 0; i < 40 && (stops.at(-1) ?? 0) < ms; i++) {
    await button(page, "Next state").click();
    stops.push(await virtualMs(page));
  }
  return stops;
}

test("Next state stops at A's restart and at its return, and the narration says why it matters", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart");
  const narration = page.getByTestId("narration");
  await expect(narration).toHaveAttribute("aria-live", "polite");
  await expect(narration).toContainText("t = 0");

  const stops = await nextStateTo(page, 20_000);
  expect(stops.at(-1)).toBe(20_000);
  expect(stops.filter((t) => t > 6_100 && t < 20_000)).toEqual([]);
  await expect(page.locator('[data-testid="member"][data-name="A"]')).toHaveAttribute("data-client-state", "down");
  await expect(narration).toContainText("A restarts without LeaveGroup (static)");
  await expect(narration).toContainText("no rebalance is due");

  await button(page, "Next state").click();
  expect(await virtualMs(page)).toBe(28_000);
  await button(page, "Next state").click();
  const member = await page.locator('[data-testid="instance-row"][data-instance-id="A"]').getAttribute("data-member-id");
  const short = member!.slice(0, member!.length - 32);
  await expect(narration).toHaveText(
    new RegExp(`A is back as ${short}: same generation, same partitions — no rebalance \\(KIP-345\\)\\.`),
  );
  await expect(page.getByTestId("generation")).toHaveText("1");
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(narration).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/narration-a-back-1280x800.png` });
  expect(problems).toEqual([]);
});

test("the narration is on screen in ?embed=1", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto("/?scenario=kip345-restart&embed=1");
  await button(page, "Step").click();
  await expect(page.getByTestId("narration")).toContainText("A starts and sends JoinGroup");
  await expect(page.getByTestId("narration")).toBeInViewport();
});

test("the timeline shows the whole run with its markers; clicking one jumps there, even ahead", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=rolling-restart-static");
  const timeline = page.getByTestId("timeline");
  await expect(timeline).toBeVisible();
  const restarts = timeline.locator('[data-testid="timeline-marker"][data-kind="restart"]');
  await expect(restarts).toHaveCount(12);
  await expect(timeline.locator('[data-testid="timeline-marker"][data-kind="start"]')).toHaveCount(12);
  const last = restarts.last();
  const ms = Number(await last.getAttribute("data-ms"));
  await last.click();
  expect(await virtualMs(page)).toBe(ms);
  await expect(page.getByTestId("generation")).toHaveText("1");
  await expect(timeline.locator('[data-testid="timeline-marker"][data-kind="rebalance"]')).toHaveCount(1);
  // The Timeline slider still walks the events.
  await expect(page.getByRole("slider", { name: "Timeline" })).toBeEnabled();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/timeline-rolling-static-1280x800.png` });
  expect(problems).toEqual([]);
});

test("acting at a past point cuts the later events, says so, and Undo brings them back", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart");
  await page.getByTestId("timeline").locator('[data-testid="timeline-marker"][data-kind="restart"]').click();
  expect(await virtualMs(page)).toBe(20_000);
  const timeline = page.getByRole("slider", { name: "Timeline" });
  const reached = await timeline.getAttribute("max");
  for (let i = 0; i < 5; i++) await button(page, "Step back").click();
  const at = await virtualMs(page);
  await button(page, "Crash B").click();
  const notice = page.getByTestId("fork-notice");
  await expect(notice).toContainText("were cut");
  await expect(notice).toContainText("Undo brings them back");
  await expect(page.locator('[data-testid="member"][data-name="B"]')).toHaveAttribute("data-client-state", "down");
  await page.screenshot({ path: `${SHOTS}/fork-undo-1280.png` });
  await button(page, "Undo").click();
  expect(await virtualMs(page)).toBe(at);
  await expect(notice).toHaveCount(0);
  await expect(timeline).toHaveAttribute("max", reached!);
  await expect(page.locator('[data-testid="member"][data-name="B"]')).not.toHaveAttribute("data-client-state", "down");
  expect(problems).toEqual([]);
});

test("cards say static with their group.instance.id, or dynamic, in words", async ({ page }) => {
  await page.goto("/?scenario=mixed-group");
  const cards = page.getByTestId("member");
  const statics = page.locator('[data-testid="member"][data-static="true"]');
  const dynamics = page.locator('[data-testid="member"][data-static="false"]');
  expect(await cards.count()).toBe((await statics.count()) + (await dynamics.count()));
  expect(await statics.count()).toBeGreaterThan(0);
  expect(await dynamics.count()).toBeGreaterThan(0);
  await expect(statics.first()).toContainText(/static · group\.instance\.id=\S+/);
  await expect(dynamics.first()).toContainText("dynamic");
});
