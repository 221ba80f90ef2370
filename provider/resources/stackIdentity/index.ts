/**
 * The stack's identity: one resource per stack, registered by the package itself (the first
 * resource class constructed in a program registers it), holding a random nonce made once by
 * its create and kept in state from then on. Every resource's identity is derived from it
 * (kit/resource.ts), so the markers that let a run adopt what a killed run made
 * (kit/create-once.ts) are unique to one stack's state, not to its names: two stacks with equal
 * project, stack and resource names never take each other's objects, and a renamed stack keeps
 * its own. Every resource depends on it, so a killed first run leaves it in state before
 * anything else exists.
 */
import * as pulumi from "@pulumi/pulumi";
import { serializableProvider } from "../kit/loader";

/** The type token's last part, `vastai:StackIdentity`: reports of the user's resources leave it out. */
export const STACK_IDENTITY_TYPE = "StackIdentity";
/** Its logical name (unique by its type: no resource of the user's has this type). */
export const STACK_IDENTITY_NAME = "stack";

export class StackIdentity extends pulumi.dynamic.Resource {
  /** At least 128 random bits, made once by the create. */
  declare readonly nonce: pulumi.Output<string>;
  /** The stack tag every marker of this stack starts with (what the orphan report matches). */
  declare readonly tag: pulumi.Output<string>;

  constructor(name: string = STACK_IDENTITY_NAME, opts?: pulumi.CustomResourceOptions) {
    super(serializableProvider("stackIdentity"), name, { nonce: undefined, tag: undefined }, opts, "vastai", STACK_IDENTITY_TYPE);
  }
}

/**
 * Identities by stack run. One process may run several stacks, one after the other (the
 * offline engine in `pulumi-vastai/testing`, a test running two stacks): each run has its own
 * resource monitor (the engine's connection, or the mocks `setMocks` installs), so the
 * identity is kept per monitor and per project/stack.
 */
const byRun = new WeakMap<object, Map<string, StackIdentity>>();
/** The key when no monitor is set up (a class constructed outside any run). */
const NO_MONITOR = {};

/** This stack run's identity, registered on first use. */
export function stackIdentity(): StackIdentity {
  const monitor = (pulumi.runtime.getMonitor() as object | undefined) ?? NO_MONITOR;
  let identities = byRun.get(monitor);
  if (!identities) byRun.set(monitor, (identities = new Map()));
  const key = `${pulumi.getProject()}/${pulumi.getStack()}`;
  let identity = identities.get(key);
  if (!identity) identities.set(key, (identity = new StackIdentity()));
  return identity;
}
