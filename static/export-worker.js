// The export worker's loader (src/export_worker.rs, src/export/job.rs): the
// wasm-bindgen glue Trunk built for the worker, then its wasm. A failure to
// load or start the wasm is thrown again outside the promise, so that the
// page's Worker gets an error event and tells the user (an unhandled
// rejection inside a worker would not reach the page).
importScripts("./groupscope-export-worker.js");
wasm_bindgen({ module_or_path: "./groupscope-export-worker_bg.wasm" }).catch(function (e) {
  setTimeout(function () {
    throw e;
  });
});
