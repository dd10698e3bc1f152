// Issue 13 in a real browser. No panic reaches the user as a blank page:
// `?panic-test=1` makes the app fail on purpose once it has rendered
// (src/ui/crash.rs); the panic hook must show error-banner with what to do
// (reload, and a share link that reopens the session) over the stopped app,
// and log the panic with console.error. A strict page: the app works under
// its Content-Security-Policy (index.html, tests/e2e/csp.mjs) without a
// violation, and markup in a name is shown as text.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

// The page's own policy applies here (playwright.config.ts bypasses it for
// the specs that inject test tools).
test.use({ bypassCSP: false });

test("a panic shows error-banner with a reload hint and a share link, not a blank page", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto("/?scenario=scale-out&panic-test=1");
  const banner = page.getByTestId("error-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toHaveCount(1);
  await expect(banner).toContainText("internal error");
  await expect(banner).toContainText("Reload the page");
  const link = banner.getByRole("link");
  await expect(link).toHaveAttribute("href", /#s=v1\./);
  // The page behind the banner is the app as it was, not a blank page.
  await expect(page.getByTestId("group-state")).toBeVisible();
  expect(errors.some((e) => e.includes("GroupScope internal error") && e.includes("panic-test"))).toBe(true);
  expect(errors.some((e) => e.includes("GroupScope: to reproduce, open http"))).toBe(true);
  // The link reopens the session, without the failure.
  const href = (await link.getAttribute("href"))!;
  await page.goto(href.replace("panic-test=1", "panic-test=0"));
  await expect(page.getByTestId("group-state")).toBeVisible();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
});

/** Records every Content-Security-Policy violation the page reports. */
async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    (window as any).__csp = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as any).__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    );
  });
}

/** No violation since the page was loaded (a navigation starts a new list). */
async function expectNoViolations(page: Page) {
  expect(await page.evaluate(() => (window as any).__csp)).toEqual([]);
}

const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

test("the page runs under its strict Content-Security-Policy without a violation", async ({ page }) => {
  const problems = watchProblems(page);
  const cspMessages: string[] = [];
  page.on("console", (m) => {
    if (/Content[- ]Security[- ]Policy/i.test(m.text())) cspMessages.push(m.text());
  });
  await watchCsp(page);
  await page.goto("/");
  await expect(page.getByTestId("group-state")).toBeVisible();

  const policy = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute("content");
  expect(policy).toContain("default-src 'self'");
  expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval'( 'sha256-[A-Za-z0-9+/=]+')+;/);
  expect(policy).not.toMatch(/'unsafe-eval'/);
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(policy).not.toMatch(/https?:/);

  // A flow through what the page does: steps, play, compare, the exports, a link.
  for (let i = 0; i < 3; i++) await button(page, "Step").click();
  await button(page, "Next state").click();
  await button(page, "Play").click();
  await button(page, "Pause").click();
  for (const name of ["Export Mermaid", "Export trace", "Export Markdown", "Export scenario"]) {
    const [download] = await Promise.all([page.waitForEvent("download"), button(page, name).click()]);
    expect(download.suggestedFilename()).toMatch(/^stateful-restart\./);
  }
  await button(page, "Share link").click();
  const link = await page.getByRole("textbox", { name: "Link to this scenario and step" }).inputValue();
  await button(page, "Compare static vs dynamic").click();
  await expect(page.getByTestId("pane")).toHaveCount(2);
  await button(page, "Step").click();
  await expectNoViolations(page);
  await page.goto(link);
  await expect(page.getByTestId("group-state").first()).toBeVisible();
  await expectNoViolations(page);
  await page.goto("/?embed=1&scenario=scale-out");
  await expect(page.getByTestId("group-state")).toBeVisible();
  await button(page, "Step").click();

  await expectNoViolations(page);
  expect(cspMessages).toEqual([]);
  expect(problems).toEqual([]);

  // And the policy is in force here: an inline script of anyone else's is refused.
  await expect(page.addScriptTag({ content: "window.__inline = 1" })).rejects.toThrow(/Content Security Policy/);
  expect(await page.evaluate(() => (window as any).__inline)).toBeUndefined();
});

test("markup in a scenario name or a consumer name is shown as text, never run", async ({ page }) => {
  await watchCsp(page);
  await page.goto("/?scenario=scale-out");
  await expect(page.getByTestId("group-state")).toBeVisible();
  const img = `<img src=x onerror="window.__xss='img'">`;
  const script = `<script>window.__xss='script'</script>`;
  const scenario = {
    name: `${img} ${script}`,
    description: `about ${img}`,
    topics: [{ name: "t", partitions: 3 }],
    consumers: [{ name: script, group_instance_id: img }, { name: img }],
    actions: [
      { at_ms: 0, start: script },
      { at_ms: 0, start: img },
    ],
  };
  await button(page, "Import scenario").click();
  const dialog = page.getByRole("dialog", { name: "Import a scenario" });
  await dialog.getByLabel("Scenario JSON").fill(JSON.stringify(scenario));
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog).toBeHidden();
  for (let i = 0; i < 40; i++) await button(page, "Step").click();

  const cards = page.getByTestId("member");
  await expect(cards).toHaveCount(2);
  expect(await cards.evaluateAll((cs) => cs.map((c) => c.getAttribute("data-name")))).toEqual([script, img]);
  await expect(cards.locator(".member-name")).toHaveText([script, img]);
  await expect(page.locator(".scenario-description")).toContainText(img);
  // No element was made from the markup, and nothing of it ran.
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
  await expectNoViolations(page);
});
