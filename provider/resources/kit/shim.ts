import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../../runtime";

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/**
 * The provider object that Pulumi serializes into state as `__provider` for resources of
 * `kind` (one object per kind, so the engine serializes it once).
 *
 * Every method only loads the implementation at call time, by package name, so the
 * serialized text stays a few hundred bytes, captures no zod schema or client, and a
 * resource created by an older release is read, updated and deleted by the installed
 * one. The captured `localRuntime` path is the fallback for running from a checkout of
 * this repository, where `pulumi-vastai` is not under node_modules.
 */
export function serializableProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const existing = shims.get(kind);
  if (existing) return existing;
  const localRuntime = path.join(__dirname, "..", "..", "runtime");
  function load() {
    let runtime;
    try {
      runtime = require("pulumi-vastai/runtime");
    } catch (err) {
      const e = err as { code?: string; message?: string };
      const missing = e.code === "MODULE_NOT_FOUND" && String(e.message).includes("'pulumi-vastai/runtime'");
      if (!missing) throw err;
      runtime = require(localRuntime);
    }
    return runtime.implementation(kind);
  }
  // Plain functions with explicit parameters: the serializer emits each one as is.
  const shim: pulumi.dynamic.ResourceProvider = {
    configure: (req) => load().configure(req),
    check: (olds, news) => load().check(olds, news),
    diff: (id, olds, news) => load().diff(id, olds, news),
    create: (inputs) => load().create(inputs),
    read: (id, props) => load().read(id, props),
    update: (id, olds, news) => load().update(id, olds, news),
    delete: (id, props) => load().delete(id, props),
  };
  shims.set(kind, shim);
  return shim;
}
