// Playwright drives Debian's Chromium (/usr/bin/chromium); it never downloads
// a browser. The built app (dist/, from scripts/build) is served on 127.0.0.1.
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 4173);
// The built app to serve: dist/ unless E2E_DIST names another build of it.
const dist = process.env.E2E_DIST ?? "../../dist";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: "../../target/e2e/test-results",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // One browser at a time: the 2-core machine also serves the page, and the
  // 50×500 measurement would otherwise starve the screenshot flows.
  workers: 1,
  reporter: [["list"]],
  timeout: 90_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 900 },
    trace: "retain-on-failure",
    // The page's Content-Security-Policy (index.html) refuses inline scripts,
    // and so the test tools some specs inject into it (axe-core, mermaid).
    // reliability.spec.ts turns it back on to test the app under it.
    bypassCSP: true,
    // The bare landing page plays its story by itself unless the reader
    // asks for reduced motion: the specs ask for it, so every page opens
    // at t = 0 as they expect; landing.spec.ts asks for motion to test the
    // autoplay itself.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: `node serve.mjs ${dist} ${port} 127.0.0.1`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 90_000,
  },
});
