/**
 * What the serialized providers load at call time (`pulumi-vastai/runtime`), and the one
 * registry of resource kinds. Keeping the implementations here, rather than inside the
 * serialized text, keeps `__provider` small and lets every resource in a plugin process share
 * one client and one request pacer. A state entry names its kind, so a kind, once released,
 * stays in this table.
 */
import type * as pulumi from "@pulumi/pulumi";
import { configureRuntime, requireApiKey } from "./context";
import { BOOKKEEPING_KEYS, IDENTITY_KEY, withGeneration } from "./resources/kit/create-once";
import { importable } from "./resources/kit/import";
import { withShownDiff } from "./resources/kit/diff-reasons";
import { RESOURCE_KINDS, type ResourceKind } from "./resources/kit/kinds";
import type { Props, ProviderImpl } from "./resources/kit/provider-impl";

/**
 * Each kind's provider, loaded on first use from its folder (`resources/<kind>/provider`): a
 * plugin that serves one kind loads only that folder.
 */
export const KINDS = Object.fromEntries(
  RESOURCE_KINDS.map((kind) => [kind, (): ProviderImpl => (require(`./resources/${kind}/provider`) as { provider: ProviderImpl }).provider]),
) as Record<ResourceKind, () => ProviderImpl>;

/** The name of a resource kind of the runtime's registry. */
export type { ResourceKind };

/** A kind's provider as the serialized dynamic providers call it. */
export type RuntimeProvider = ProviderImpl & {
  configure(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
};

const cache = new Map<string, RuntimeProvider>();

/** The provider of a resource kind, loaded on first use. */
export function implementation(kind: ResourceKind): RuntimeProvider {
  let provider = cache.get(kind);
  if (!provider) {
    const load = (KINDS as Record<string, (() => ProviderImpl) | undefined>)[kind];
    if (!load) throw new Error(`pulumi-vastai: unknown resource kind "${kind}"; upgrade pulumi-vastai.`);
    // `importId` (kit/import.ts) for every kind that declares how it imports.
    const impl = importable(load());
    provider = {
      configure: configureRuntime,
      check: async (o, n) => {
        // A missing key fails preview with the message `up` would give, not only at create.
        requireApiKey();
        const result = await impl.check(o, n);
        return result.inputs ? { ...result, inputs: withGeneration(generationBase(o, n), result.inputs) } : result;
      },
      // Properties a diff names beyond the inputs (a dead instance's actualStatus) reach the engine.
      diff: withShownDiff((id, o, n) => impl.diff(id, o, n)),
      create: (i) => impl.create(i),
      read: async (id, p) => keepBookkeeping(p, await impl.read(id, p)),
      update: (id, o, n) => impl.update(id, o, n),
      delete: (id, p) => impl.delete(id, p),
    };
    cache.set(kind, provider);
  }
  return provider;
}

/** The old inputs each identity was last checked against in this process. */
const checkedOlds = new Map<string, Props>();

/**
 * The old inputs a check counts the generation from. Before a replacement the engine checks
 * the inputs again without the old ones, in the same plugin process, right after checking
 * them with: the replacement then counts from those, so its marker differs from the object it
 * replaces (which would otherwise be taken over, then deleted). A resource not in state is
 * only ever checked without olds, so a run after a killed one still counts from nothing.
 */
function generationBase(olds: Props, news: Props): Props {
  const identity = news[IDENTITY_KEY];
  if (typeof identity !== "string" || identity === "") return olds;
  if (Object.keys(olds).length > 0) {
    checkedOlds.set(identity, olds);
    return olds;
  }
  return checkedOlds.get(identity) ?? olds;
}

/** A refresh keeps the identity and generation in state, or the next replacement could adopt the old object. */
function keepBookkeeping(props: Props, result: pulumi.dynamic.ReadResult): pulumi.dynamic.ReadResult {
  const kept = Object.fromEntries(BOOKKEEPING_KEYS.filter((k) => props[k] !== undefined).map((k) => [k, props[k]]));
  if (Object.keys(kept).length === 0 || !result.id) return result;
  return {
    ...result,
    props: result.props && { ...result.props, ...kept },
    inputs: result.inputs && { ...result.inputs, ...kept },
  };
}
