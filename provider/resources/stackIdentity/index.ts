/**
 * The stack's identity: one resource per stack, registered by the package itself (the first
 * resource class constructed in a program registers it), holding a random nonce made once by
 * its create and kept in state from then on. Every resource's identity is derived from it
 * (kit/resource.ts), so the markers that let a run adopt what a killed run made
 * (kit/create-once.ts) are unique to one stack's state, not to its names: two stacks with equal
 * project, stack and resource names never take each other's objects, and a renamed stack keeps
 * its own once the rename is confirmed (rules.ts: the identity records the stack name it was made
 * for, so a copied state is told from the stack it was copied from). Every resource depends on
 * it, so a killed first run leaves it in state before anything else exists.
 */
import * as pulumi from "@pulumi/pulumi";
import { stackIdentityOf, stackTagOf } from "../kit/create-once";
import { serializableProvider } from "../kit/loader";
import { corruptedNonceMessage, nonceProblem, otherStackMessage, servesStack } from "./rules";

/** The type token's last part, `vastai:StackIdentity`: reports of the user's resources leave it out. */
export const STACK_IDENTITY_TYPE = "StackIdentity";
/** Its logical name (unique by its type: no resource of the user's has this type). */
export const STACK_IDENTITY_NAME = "stack";

export class StackIdentity extends pulumi.dynamic.Resource {
  /** At least 128 random bits, made once by the create. */
  declare readonly nonce: pulumi.Output<string>;
  /** The stack tag every marker of this stack starts with (what the orphan report matches). */
  declare readonly tag: pulumi.Output<string>;
  /**
   * The fully qualified stack name (`organization/project/stack`) the identity was made for,
   * recorded anew only by a confirmed rename: a stack of another name holding this identity (a
   * copied or imported state) is refused until the user says which case it is (rules.ts).
   * Identities of the previous release have none until their first `up` with this release.
   */
  declare readonly stackName: pulumi.Output<string | undefined>;

  constructor(name: string = STACK_IDENTITY_NAME, opts?: pulumi.CustomResourceOptions) {
    super(serializableProvider("stackIdentity"), name, { nonce: undefined, tag: undefined, stackName: currentStackName() }, opts, "vastai", STACK_IDENTITY_TYPE);
  }
}

/**
 * The fully qualified name of the stack the program runs as: `organization/project/stack`.
 * Without an organization (a CLI older than organizations, or mocks set up without one) it is
 * `organization`, the name the CLI gives a self-managed backend's stacks.
 */
export function currentStackName(): string {
  let organization = "";
  try {
    organization = pulumi.getOrganization();
  } catch {
    // No organization known: the self-managed backends' default.
  }
  return `${organization || "organization"}/${pulumi.getProject()}/${pulumi.getStack()}`;
}

/**
 * The identity of resource `name` of type `type` from the stack identity's outputs, in the
 * program: none without a nonce (mocks that return no outputs, a preview before the nonce is
 * known), and a refusal of an empty or non-string nonce or of an identity recorded for another
 * stack (the provider's diff refuses both first; this covers runs that do not check
 * the identity, such as `pulumi up --target` of another resource).
 */
export function identityFor(nonce: unknown, recorded: unknown, type: string, name: string): string | undefined {
  if (nonce === undefined) return undefined;
  // An empty or non-string nonce used to give no identity without a word. A string of another
  // form is left to the provider's diff, which sees the state (mocks give made-up nonces).
  if (typeof nonce !== "string" || nonce === "") throw new Error(corruptedNonceMessage(nonceProblem(nonce) ?? "unreadable", "<the StackIdentity's id>"));
  const current = currentStackName();
  // A confirmed rename records the new name before any resource sees the identity.
  if (!servesStack(recorded, current, undefined)) throw new Error(otherStackMessage(String(recorded), current, stackTagOf(nonce)));
  return stackIdentityOf(nonce, type, name);
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
