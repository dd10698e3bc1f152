// The export worker's version in the built page. Trunk runs this (through
// post-build.mjs, its post_build hook) on its staging directory, for `trunk build`
// and `trunk serve` alike.
//
//   node tests/e2e/worker-version.mjs [DIR]    default: $TRUNK_STAGING_DIR
//
// Trunk names a worker's files after its binary, without the content hash
// it gives the page's own .js and .wasm, so a browser could keep a cached
// copy of an older build's worker. This writes the first 16 hex digits of
// the sha256 of the worker's loader and wasm into DIR/index.html as
//   <meta name="groupscope-export-worker" content="export-worker.js?v=HASH">
// (replacing one an earlier run wrote). The app starts the worker from that
// address, and static/export-worker.js passes the same ?v= on to the files
// it loads: a new build's worker is fetched anew, an unchanged one is not.
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

const dir = resolve(process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? "");
if (!process.argv[2] && !process.env.TRUNK_STAGING_DIR) {
  throw new Error("usage: node worker-version.mjs DIR (or run by Trunk, which sets TRUNK_STAGING_DIR)");
}
// The loader and the wasm: wasm-bindgen writes the glue from the wasm, so
// the same wasm has the same glue (whose minified text varies from one build
// to the next: Trunk's minifier names its variables in no fixed order).
const files = ["export-worker.js", "groupscope-export-worker_bg.wasm"];
const hash = createHash("sha256");
for (const f of files) hash.update(await readFile(join(dir, f)));
const version = hash.digest("hex").slice(0, 16);

const index = join(dir, "index.html");
const html = (await readFile(index, "utf8")).replace(/<meta name="groupscope-export-worker"[^>]*>/g, "");
const meta = `<meta name="groupscope-export-worker" content="export-worker.js?v=${version}">`;
const head = html.indexOf("</head>");
if (head === -1) throw new Error(`${index} has no </head>`);
await writeFile(index, html.slice(0, head) + meta + html.slice(head));
console.log(`export worker of ${index}: ${meta}`);
