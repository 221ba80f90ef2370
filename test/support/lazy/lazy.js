/**
 * Modules loaded on first use. @pulumi/pulumi requires `typescript` (9 MB, to parse functions
 * it serializes) and `@npmcli/arborist` (code paths of serialized functions, which nothing here
 * uses) as soon as it is loaded: about 1 s of CPU each time, in every jest test file (jest
 * evaluates every module anew per file) and in every dynamic-provider plugin process, which
 * never serializes a function (issue 28 item 6). A stand-in loads the real module the first
 * time one of its properties is read, and forwards everything to it.
 */
const fs = require("fs");
const path = require("path");

/** The names deferred (jest.config.js maps them here; ./plugin-preload.js defers them in plugins). */
const DEFERRED = ["typescript", "@npmcli/arborist"];

/** A stand-in for the module `load()` returns, loaded on first use. */
function deferred(load) {
  let real;
  const get = () => (real ??= load());
  return new Proxy(
    {},
    {
      get(_, key) {
        // `import * as m` / `import m from` (TypeScript's interop helpers) read __esModule first:
        // answering true keeps them from copying every export (which would load the module).
        if (key === "__esModule") return true;
        const m = get();
        if (key === "default" && !(key in m)) return m;
        return m[key];
      },
      set(_, key, value) {
        get()[key] = value;
        return true;
      },
      has: (_, key) => key in get(),
      ownKeys: () => Reflect.ownKeys(get()),
      getOwnPropertyDescriptor(_, key) {
        const d = Object.getOwnPropertyDescriptor(get(), key);
        return d && { ...d, configurable: true };
      },
    },
  );
}

/**
 * The entry file of package `name` as Node resolves it from directory `from` (under jest, its
 * resolver and the `module` it hands a test apply the name mapping that leads here).
 */
function nodeResolve(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "node_modules", name, "package.json");
    if (fs.existsSync(pkg)) return path.join(path.dirname(pkg), JSON.parse(fs.readFileSync(pkg, "utf8")).main ?? "index.js");
    if (dir === path.dirname(dir)) throw new Error(`cannot find ${name} above ${from}`);
  }
}

module.exports = { DEFERRED, deferred, nodeResolve };
