import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./kinds";

/**
 * The provider object of resource kind `kind`, as Pulumi serializes it into state
 * (`__provider`). Every method loads the implementation at call time, by package name, so the
 * text captures no zod schema or client, and a resource created by an older release is read,
 * updated and deleted by the installed one.
 *
 * Each kind's object is the whole export of its module `resources/<kind>/shim.ts`. Pulumi's
 * serializer writes a module found under `node_modules` as a `require` of its package path, so
 * in a user's program (the package installed) a resource's `__provider` is one line,
 * `require("pulumi-vastai/shims/<kind>")`, of about 300 bytes (the package's `exports` map
 * `./shims/*`), with no path of the machine that made it. From a checkout, where the package is
 * not under `node_modules`, the object is written out by value: the seven methods below, loading
 * `pulumi-vastai/runtime` by name, else the build of the checkout that holds the program's
 * directory; still with no machine path, so two checkouts write the same text.
 */
export function loaderFor(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  function load() {
    let runtime;
    try {
      runtime = require("pulumi-vastai/runtime");
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (!(e.code === "MODULE_NOT_FOUND" && String(e.message).includes("'pulumi-vastai/runtime'"))) throw err;
      // A program inside a checkout (the package is not under node_modules): the checkout's build,
      // found from the program's directory (the plugin's working directory), not from a path
      // recorded in state.
      const path = require("path");
      const fs = require("fs");
      for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
        const pkg = path.join(dir, "package.json");
        if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-vastai") {
          runtime = require(path.join(dir, "dist", "provider", "runtime"));
          break;
        }
        if (path.dirname(dir) === dir) throw err;
      }
    }
    return runtime.implementation(kind);
  }
  // Plain functions with explicit parameters: the serializer emits each one as is.
  return {
    configure: (req) => load().configure(req),
    check: (olds, news) => load().check(olds, news),
    diff: (id, olds, news) => load().diff(id, olds, news),
    create: (inputs) => load().create(inputs),
    read: (id, props) => load().read(id, props),
    update: (id, olds, news) => load().update(id, olds, news),
    delete: (id, props) => load().delete(id, props),
  };
}

/** The provider object a resource of `kind` registers: the export of `resources/<kind>/shim.ts`. */
export function serializableProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  return require(`../${kind}/shim`) as pulumi.dynamic.ResourceProvider;
}
