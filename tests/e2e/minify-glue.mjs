// The page's wasm-bindgen glue (groupscope-web-HASH.js), minified. Trunk
// runs this (through post-build.mjs, its post_build hook) on its staging
// directory for release builds, as `minify = "on_release"` asks: Trunk's
// own minifier cannot read the glue, an ES module ("Failed to minify JS:
// RequiredTokenNotFound(Identifier) [token=Some(KeywordDefault)]"), and
// copies it as it is, 50 KB raw. terser (pinned in package.json) keeps the
// module's exports and every property name (the wasm's imports are looked
// up by name); the page's modulepreload link carries the file's sha384 for
// Subresource Integrity, so that is written anew.
//
//   node tests/e2e/minify-glue.mjs [DIR]    default: $TRUNK_STAGING_DIR
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { minify } from "terser";

if (!process.argv[2] && !process.env.TRUNK_STAGING_DIR) {
  throw new Error("usage: node minify-glue.mjs DIR (or run by Trunk, which sets TRUNK_STAGING_DIR)");
}
const dir = resolve(process.argv[2] ?? process.env.TRUNK_STAGING_DIR);
if (process.env.TRUNK_PROFILE === "debug") {
  console.log("minify-glue: a debug build keeps its glue as wasm-bindgen wrote it");
} else {
  const index = join(dir, "index.html");
  let html = await readFile(index, "utf8");
  const glue = (await readdir(dir)).filter((f) => /^groupscope-web-[0-9a-f]+\.js$/.test(f));
  if (glue.length !== 1) throw new Error(`expected one groupscope-web-HASH.js in ${dir}, found ${glue.length}`);
  const file = join(dir, glue[0]);
  const code = await readFile(file, "utf8");
  const out = await minify(code, { module: true, compress: true, mangle: true, format: { comments: false } });
  if (!out.code) throw new Error(`terser returned nothing for ${file}`);
  await writeFile(file, out.code);
  const integrity = `sha384-${createHash("sha384").update(out.code, "utf8").digest("base64")}`;
  const link = new RegExp(`<link\\b[^>]*\\bhref="?(?:\\./|/)?${glue[0].replace(/[.]/g, "\\.")}"?[^>]*>`);
  const tag = link.exec(html);
  if (!tag) throw new Error(`${index} has no link to ${glue[0]}`);
  if (!/\bintegrity="?sha384-[^"\s>]+"?/.test(tag[0])) throw new Error(`the link to ${glue[0]} has no sha384 integrity`);
  const newTag = tag[0].replace(/\bintegrity="?sha384-[^"\s>]+"?/, `integrity="${integrity}"`);
  html = html.slice(0, tag.index) + newTag + html.slice(tag.index + tag[0].length);
  await writeFile(index, html);
  console.log(`minify-glue: ${glue[0]} ${code.length} -> ${out.code.length} bytes; its link's integrity is ${integrity}`);
}
