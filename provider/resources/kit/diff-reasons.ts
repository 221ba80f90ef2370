/**
 * Why a diff changes something, in the line the engine prints (`[diff: ~actualStatus]`).
 *
 * The engine shows the input properties that differ; a change found by looking at the service
 * (a dead instance, a Fleet's missing members) differs in no input, so the engine printed a bare
 * `replace` or `update`. A diff names such properties in `diffs` (ShownDiff); the answer then
 * carries them as the provider protocol's changed keys and detailed diff, each as an update, or
 * an update that replaces when it is among `replaces`.
 *
 * Pulumi's dynamic-provider plugin passes only `changes`, `replaces` and `deleteBeforeReplace`
 * of a diff on. So, inside that plugin process only, its diff answer is completed as it is
 * written: `withShownDiff` gives each diff call a holder in the call's async context, the diff's
 * names go into it, and the answer's `setChanges` (which the plugin calls after the diff
 * returns, in the same context) adds them. Elsewhere (in-process tests) nothing changes.
 */
import { AsyncLocalStorage } from "async_hooks";
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";

/** A diff result that names properties to show beyond the inputs that differ. */
export type ShownDiff = pulumi.dynamic.DiffResult & { readonly diffs?: readonly string[] };

/**
 * `result` naming `diffs` for the engine's line. The names are not enumerable: the result stays
 * the plain DiffResult Pulumi defines to anyone who compares, prints or spreads it.
 */
export function naming(result: pulumi.dynamic.DiffResult, diffs: readonly string[]): ShownDiff {
  return Object.defineProperty({ ...result }, "diffs", { value: [...diffs], enumerable: false });
}

interface Holder { diffs?: readonly string[]; replaces?: readonly string[] }

const calls = new AsyncLocalStorage<Holder>();
let patched: boolean | undefined;

/** The DiffResponse class of the plugin's own @pulumi/pulumi, when this process is that plugin. */
function pluginDiffResponse(): { prototype: Record<string, unknown> } | undefined {
  const main = require.main?.filename ?? "";
  if (!/[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(main)) return undefined;
  try {
    return require(path.join(path.dirname(main), "..", "..", "proto", "provider_pb")).DiffResponse;
  } catch {
    return undefined;
  }
}

function patchOnce(): void {
  if (patched !== undefined) return;
  const DiffResponse = pluginDiffResponse();
  patched = DiffResponse !== undefined;
  if (!DiffResponse) return;
  const pb = require(path.join(path.dirname(require.main!.filename), "..", "..", "proto", "provider_pb"));
  const proto = DiffResponse.prototype as Record<string, (...args: unknown[]) => unknown>;
  const setChanges = proto.setChanges;
  proto.setChanges = function (this: Record<string, (...args: unknown[]) => unknown>, value: unknown) {
    const result = setChanges.call(this, value);
    const shown = calls.getStore();
    if (shown?.diffs && shown.diffs.length > 0) {
      const keys = [...new Set([...shown.diffs, ...(shown.replaces ?? [])])].sort();
      this.setDiffsList(keys);
      const detailed = this.getDetaileddiffMap() as { set(k: string, v: unknown): void };
      for (const key of keys) {
        const diff = new pb.PropertyDiff();
        diff.setKind(shown.replaces?.includes(key) ? pb.PropertyDiff.Kind.UPDATE_REPLACE : pb.PropertyDiff.Kind.UPDATE);
        detailed.set(key, diff);
      }
      this.setHasdetaileddiff(true);
    }
    return result;
  };
}

/**
 * A kind's diff whose `diffs` reach the engine. Not async on purpose: the holder must enter the
 * caller's context before the first await, so the plugin's code after `await diff()` sees it.
 */
export function withShownDiff(diff: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => Promise<ShownDiff>) {
  return (id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> => {
    patchOnce();
    const holder: Holder = {};
    if (patched) calls.enterWith(holder);
    return diff(id, olds, news).then((result) => {
      holder.diffs = result.diffs;
      holder.replaces = result.replaces;
      return result;
    });
  };
}
