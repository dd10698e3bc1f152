// Issue 11: "the Mermaid export of kip345-restart parses with the `mermaid`
// npm package in Chromium and matches a golden file". The app's `Export
// Mermaid` download is compared with tests/golden/kip345-restart.mmd (the
// CLI's output, checked natively in tests/export.rs), then parsed and drawn
// by mermaid's browser bundle, loaded from node_modules (no network).
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";
const REPO = "../..";
/** The exact version pinned in package.json; its browser (IIFE) bundle defines `window.mermaid`. */
const MERMAID = require.resolve("mermaid/dist/mermaid.min.js");

const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

type Parsed = { ok: true; type: string } | { ok: false; error: string };

/** `mermaid.parse(text)` in the page: what it made of the text, or its error. */
function parse(page: Page, text: string): Promise<Parsed> {
  return page.evaluate(async (text) => {
    try {
      const result = await (window as any).mermaid.parse(text);
      return { ok: true as const, type: result.diagramType as string };
    } catch (e) {
      return { ok: false as const, error: String((e as Error)?.message ?? e) };
    }
  }, text);
}

test("the Mermaid export of kip345-restart matches its golden file and parses with mermaid in Chromium", async ({
  page,
}) => {
  const problems = watchProblems(page);
  await page.goto("/?scenario=kip345-restart");
  await expect(page.getByTestId("group-state")).toHaveText("Empty");
  const [download] = await Promise.all([page.waitForEvent("download"), button(page, "Export Mermaid").click()]);
  expect(download.suggestedFilename()).toBe("kip345-restart.mmd");
  const text = readFileSync((await download.path())!, "utf8");
  const golden = readFileSync(`${REPO}/tests/golden/kip345-restart.mmd`, "utf8");
  expect(text).toBe(golden);
  expect(problems).toEqual([]);

  // A blank page with mermaid from node_modules; any request would be refused and counted.
  const requests: string[] = [];
  await page.route("**/*", (route) => {
    requests.push(route.request().url());
    return route.abort();
  });
  await page.setContent('<!doctype html><html lang="en"><title>Mermaid</title><body><div id="out"></div></body></html>');
  await page.addScriptTag({ path: MERMAID });
  expect(await page.evaluate(() => typeof (window as any).mermaid?.parse)).toBe("function");

  expect(await parse(page, text)).toEqual({ ok: true, type: "sequence" });
  // The parser does refuse what is not a sequence diagram, so the check above can fail.
  const noReceiver = text.replace("C2->>G: JoinGroup", "C2->>: JoinGroup");
  expect(noReceiver).not.toBe(text);
  const refused = await parse(page, noReceiver);
  expect(refused.ok).toBe(false);
  expect(refused.ok ? "" : refused.error).toContain("Parse error");
  expect((await parse(page, `${text}    end\n`)).ok).toBe(false);

  // And it draws: what a reviewer sees once the export is pasted into Markdown.
  const drawn = await page.evaluate(async (text) => {
    const mermaid = (window as any).mermaid;
    mermaid.initialize({ startOnLoad: false, theme: "default" });
    const { svg } = await mermaid.render("kip345", text);
    document.getElementById("out")!.innerHTML = svg;
    return {
      participants: [...document.querySelectorAll("#out text.actor")].map((t) => t.textContent),
      messages: document.querySelectorAll("#out text.messageText").length,
    };
  }, text);
  expect(new Set(drawn.participants)).toEqual(new Set(["Coordinator", "A", "B", "C"]));
  expect(drawn.messages).toBe((text.match(/->>|-->>/g) ?? []).length);
  await page.locator("#out svg").screenshot({ path: `${SHOTS}/mermaid-kip345-restart.png` });
  expect(requests).toEqual([]);
});
