// Shared by the e2e specs: collects page errors and console errors/warnings
// so a test can assert that the page ran cleanly.
import type { Page } from "@playwright/test";

/** Fails the test on any page error or console error/warning. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    const text = message.text();
    // Chromium says it does not apply `integrity` to Trunk's `<link rel=preload>`
    // of the wasm file; that is a note about the preload, not a fault.
    if (text.includes("`integrity` attribute is currently ignored for preload")) return;
    if (message.type() === "error" || message.type() === "warning") {
      problems.push(`console ${message.type()}: ${text}`);
    }
  });
  return problems;
}
