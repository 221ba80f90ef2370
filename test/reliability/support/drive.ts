/**
 * Driving a provider the way the engine does: check before create and update, diff before
 * update, with `__provider` among the properties. The provider objects are the serializable
 * ones (`providers.<kind>`), which load the runtime at call time as the plugin does.
 */
import type { ProviderImpl } from "../../../provider/resources/kit";
import { randomBytes } from "node:crypto";
import { providers } from "../../../provider/providers";
import type { ResourceKind } from "../../../provider/runtime";

export type Props = Record<string, unknown>;
export type Op = "create" | "read" | "update" | "delete";
export const OPS: readonly Op[] = ["create", "read", "update", "delete"];

/** A provider object with every method present. */
export type Driven = ProviderImpl;

export function driven(kind: ResourceKind): Driven {
  return providers[kind] as unknown as Driven;
}

/** Stands in for the serialized provider text the engine passes with every call. */
export const PROVIDER_TEXT = "reliability-suite-provider";
/** The provider text of a later release: an update may be a code-only change. */
export const NEXT_PROVIDER_TEXT = "reliability-suite-provider-next";

/** One resource in the engine's state. */
export interface Entry {
  id: string;
  outs: Props;
}

/** check, failing loudly on a check failure (the inputs of a scenario are valid). */
export async function checked(p: Driven, olds: Props, news: Props): Promise<Props> {
  const { inputs, failures } = await p.check(olds, { __provider: PROVIDER_TEXT, ...news });
  if (failures && failures.length > 0) throw new Error(`test inputs fail check: ${JSON.stringify(failures)}`);
  return inputs as Props;
}

export async function createVia(p: Driven, news: Props): Promise<Entry> {
  const inputs = await checked(p, {}, news);
  const { id, outs } = await p.create(inputs);
  return { id, outs: (outs ?? {}) as Props };
}

/**
 * An update as the engine runs it: check, diff (which must not replace), update. The new
 * inputs carry the provider text of a later release, so resources whose every input change
 * replaces them still get an update call (the engine skips it when the diff finds nothing;
 * calling it anyway shows that it is safe).
 */
export async function updateVia(p: Driven, entry: Entry, news: Props): Promise<Entry> {
  const inputs = await checked(p, entry.outs, { __provider: NEXT_PROVIDER_TEXT, ...news });
  const diff = await p.diff(entry.id, entry.outs, inputs);
  if (diff.replaces && diff.replaces.length > 0) throw new Error(`test update would replace: ${diff.replaces.join(", ")}`);
  const { outs } = await p.update(entry.id, entry.outs, inputs);
  return { id: entry.id, outs: (outs ?? {}) as Props };
}

/** A read as a refresh runs it; null when the provider reports the object gone. */
export async function readVia(p: Driven, entry: Entry): Promise<Entry | null> {
  const result = await p.read(entry.id, entry.outs);
  if (!result.id) return null;
  return { id: result.id, outs: (result.props ?? {}) as Props };
}

/** A new valid OpenSSH ed25519 public key line (the blob holds the type and 32 random bytes). */
export function ed25519PublicKey(comment: string): string {
  const lengthPrefixed = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length, 0);
    return Buffer.concat([length, b]);
  };
  const blob = Buffer.concat([lengthPrefixed(Buffer.from("ssh-ed25519")), lengthPrefixed(randomBytes(32))]);
  return `ssh-ed25519 ${blob.toString("base64")} ${comment}`;
}
