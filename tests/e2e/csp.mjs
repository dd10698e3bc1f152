// The Content-Security-Policy of the built page. Trunk runs this (through
// post-build.mjs, its post_build hook, last) on its staging directory
// ($TRUNK_STAGING_DIR), for `trunk build` and `trunk serve` alike.
//
//   node tests/e2e/csp.mjs [DIR]      DIR/index.html (default: $TRUNK_STAGING_DIR)
//
// index.html carries the policy in a <meta http-equiv> (before any script).
// Its script-src allows no inline script by itself; Trunk writes two (the
// head script of index.html, minified, and its module loader, which names
// the hashed .js and .wasm files and so changes with every build). This
// adds the sha256 hash of each inline script of DIST/index.html to
// script-src, replacing any hashes an earlier run added, so exactly the
// scripts Trunk wrote may run. It refuses a policy with 'unsafe-eval' or
// 'unsafe-inline' in script-src, and a page whose policy comes after a script.
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error("usage: node csp.mjs DIR (or run by Trunk, which sets TRUNK_STAGING_DIR)");
const index = join(resolve(dir), "index.html");
const html = await readFile(index, "utf8");

const meta = /<meta\b[^>]*http-equiv="?Content-Security-Policy"?[^>]*>/i.exec(html);
if (!meta) throw new Error(`${index} has no Content-Security-Policy <meta>`);
const content = /\bcontent="([^"]*)"/.exec(meta[0]);
if (!content) throw new Error(`the Content-Security-Policy <meta> of ${index} has no content`);
const firstScript = html.search(/<script\b/i);
if (firstScript !== -1 && firstScript < meta.index) {
  throw new Error("the Content-Security-Policy <meta> must come before every <script>");
}

const hashes = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
  .filter(([, attrs]) => !/\bsrc=/i.test(attrs))
  .map(([, , body]) => `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);

const directives = content[1].split(";").map((d) => d.trim()).filter(Boolean);
const at = directives.findIndex((d) => d.split(/\s+/)[0] === "script-src");
if (at === -1) throw new Error("the Content-Security-Policy has no script-src");
const sources = directives[at].split(/\s+/).slice(1).filter((s) => !s.startsWith("'sha256-"));
for (const bad of ["'unsafe-eval'", "'unsafe-inline'"]) {
  if (sources.includes(bad)) throw new Error(`script-src must not allow ${bad}`);
}
directives[at] = ["script-src", ...sources, ...hashes].join(" ");
const policy = directives.join("; ");

const newMeta = meta[0].replace(content[0], `content="${policy}"`);
await writeFile(index, html.slice(0, meta.index) + newMeta + html.slice(meta.index + meta[0].length));
console.log(`Content-Security-Policy of ${index}: ${hashes.length} inline script(s) hashed\n  ${policy}`);
