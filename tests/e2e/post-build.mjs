// Trunk's one post_build hook (Trunk.toml), for `trunk build` and `trunk
// serve` alike. Trunk starts all the hooks of a stage at once, so two that
// rewrite index.html would race (the last write wins): this runs them one
// after the other, each on $TRUNK_STAGING_DIR.
//   1. minify-glue.mjs: the page's wasm-bindgen glue minified (release
//      builds), its link's integrity written anew;
//   2. worker-version.mjs: the export worker's version into the page;
//   3. csp.mjs: the inline scripts' hashes into the page's policy (last,
//      so that it sees the page as it is served).
await import("./minify-glue.mjs");
await import("./worker-version.mjs");
await import("./csp.mjs");
