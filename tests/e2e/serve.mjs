// A tiny static file server for the built app (dist/), used by Playwright's
// webServer. Serves .wasm as application/wasm so streaming compilation works.
//
//   node serve.mjs DIR [PORT] [HOST]
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";

const root = resolve(process.argv[2] ?? "../../dist");
const port = Number(process.argv[3] ?? 4173);
const host = process.argv[4] ?? "127.0.0.1";

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

async function resolveFile(urlPath) {
  const path = normalize(join(root, decodeURIComponent(urlPath)));
  if (path !== root && !path.startsWith(root + sep)) return null;
  try {
    const info = await stat(path);
    return info.isDirectory() ? join(path, "index.html") : path;
  } catch {
    return null;
  }
}

createServer(async (req, res) => {
  const url = new URL(req.url, `http://${host}`);
  const path = await resolveFile(url.pathname);
  try {
    if (!path) throw new Error("not found");
    const body = await readFile(path);
    res.writeHead(200, {
      "content-type": types[extname(path)] ?? "application/octet-stream",
      "cache-control": "no-store",
    });
    res.end(body);
  } catch {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end("not found\n");
  }
}).listen(port, host, () => {
  console.log(`serving ${root} at http://${host}:${port}/`);
});
