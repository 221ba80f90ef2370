/**
 * Preloaded (`--require`, through NODE_OPTIONS set by test/support/run-setup.js) into the
 * processes tests start. In a dynamic-provider plugin process only, the SDK's `typescript` and
 * `@npmcli/arborist` are loaded on first use (./lazy.js): the plugin deserializes providers and
 * never serializes a function, so it runs as before and starts with about 1 s less CPU. Every
 * other process is left alone.
 */
if (/[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(process.argv[1] ?? "")) {
  const Module = require("module");
  const { DEFERRED, deferred } = require("./lazy");
  const stand = new Map();
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    if (!DEFERRED.includes(request)) return load.apply(this, arguments);
    // One stand-in per resolved file, as require's cache keeps one module per file.
    const file = Module._resolveFilename(request, parent, isMain);
    if (!stand.has(file)) stand.set(file, deferred(() => load.call(Module, file, parent, isMain)));
    return stand.get(file);
  };
}
