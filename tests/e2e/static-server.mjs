// A static file server for scripts that drive the built page outside the
// Playwright test runner (prerender.mjs, bench-page.mjs). Like serve.mjs:
// .wasm as application/wasm (streaming compilation), no caching, nothing
// compressed. Records every path it serves, so a caller can tell which
// files a page load fetched.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".eot": "application/vnd.ms-fontobject",
};

/**
 * Serves `dir` on 127.0.0.1 (a free port). Resolves to
 * `{ url, served, close }`: `served` is the list of files (absolute paths)
 * sent since it was last emptied.
 */
export async function serveDir(dir) {
  const root = resolve(dir);
  const served = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    let path = normalize(join(root, decodeURIComponent(url.pathname)));
    try {
      if (path !== root && !path.startsWith(root + sep)) throw new Error("outside the root");
      if ((await stat(path)).isDirectory()) path = join(path, "index.html");
      const body = await readFile(path);
      served.push(path);
      res.writeHead(200, {
        "content-type": TYPES[extname(path)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      res.end("not found\n");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    served,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** Debian's Chromium, headless, as the e2e tests and the benchmarks run it. */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
  ],
};
