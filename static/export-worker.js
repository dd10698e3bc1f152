// The export worker's loader (src/export_worker.rs, src/export/job.rs): the
// wasm-bindgen glue Trunk built for the worker, then its wasm. A failure to
// load or start the wasm is thrown again outside the promise, so that the
// page's Worker gets an error event and tells the user (an unhandled
// rejection inside a worker would not reach the page). The page starts it
// as export-worker.js?v=HASH, the hash of the worker's files in this build
// (tests/e2e/worker-version.mjs), and the same ?v= goes on to the files
// loaded here, so that no cached copy of an older build's is used.
var version = self.location.search;
importScripts("./groupscope-export-worker.js" + version);
wasm_bindgen({ module_or_path: "./groupscope-export-worker_bg.wasm" + version }).catch(function (e) {
  setTimeout(function () {
    throw e;
  });
});
