/**
 * The StackIdentity provider (the class is in index.ts): the create makes the nonce and records
 * the fully qualified stack name it was made for; nothing changes the nonce but a fresh one the
 * user asks for (`vastai:newStackIdentity`, a replacement). The diff refuses an identity made
 * for another stack name until the user confirms a rename or asks for a fresh nonce, and a nonce
 * not of the form the create makes (rules.ts); every resource depends on the identity, so a
 * refusal stops the run before anything is found by marker. The delete (after every resource of
 * the stack is gone) leaves nothing behind on the service, which holds no object for it.
 */
import { randomBytes } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { setting } from "../../context";
import { stackTagOf } from "../kit/create-once";
import { PROVIDER_KEY, type ProviderImpl, type Props } from "../kit/provider";
import { NEW_IDENTITY_SETTING, RENAMED_FROM_SETTING, STACK_NAME_KEY, corruptedNonceMessage, nonceProblem, otherStackMessage, servesStack } from "./rules";

const OUTPUT_KEYS = ["nonce", "tag"];

function withoutOutputs(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !OUTPUT_KEYS.includes(k)));
}

function renamedFrom(): string | undefined {
  return setting(RENAMED_FROM_SETTING, "VASTAI_RENAMED_FROM");
}

/** Whether the user asked to retire the identity `id` for a fresh nonce. */
function retires(id: string): boolean {
  const asked = setting(NEW_IDENTITY_SETTING, "VASTAI_NEW_STACK_IDENTITY")?.trim();
  return asked !== undefined && asked !== "" && asked === id;
}

/** Throws unless the stored identity `olds` may serve the stack named in `news`. */
function requireUsable(id: string, olds: Props, news: Props): void {
  const problem = nonceProblem(olds.nonce, olds.tag);
  if (problem !== undefined) throw new Error(corruptedNonceMessage(problem, id));
  const current = String(news[STACK_NAME_KEY]);
  const recorded = olds[STACK_NAME_KEY];
  if (!servesStack(recorded, current, renamedFrom())) throw new Error(otherStackMessage(String(recorded), current, id));
}

export const provider: ProviderImpl = {
  async check(_olds, news) {
    const inputs = withoutOutputs(news);
    const failures = Object.keys(inputs)
      .filter((k) => k !== PROVIDER_KEY && k !== STACK_NAME_KEY)
      .map((property) => ({ property, reason: `${property} is not a StackIdentity property (it takes only ${STACK_NAME_KEY}, which the package sets)` }));
    const name = inputs[STACK_NAME_KEY];
    if (typeof name !== "string" || !/^[^/\s]+\/[^/\s]+\/[^/\s]+$/.test(name)) {
      failures.push({ property: STACK_NAME_KEY, reason: `${STACK_NAME_KEY}: must be the fully qualified stack name, organization/project/stack (the package sets it), got ${JSON.stringify(name) ?? "nothing"}` });
    }
    return { inputs, failures };
  },

  async diff(id, olds, news): Promise<pulumi.dynamic.DiffResult> {
    // A fresh nonce asked for: also the repair of a damaged one when no good copy exists.
    if (retires(id)) return { changes: true, replaces: ["nonce"], deleteBeforeReplace: false };
    requireUsable(id, olds, news);
    // The stack's name recorded (an identity of the previous release) or recorded anew (a confirmed rename).
    const changes = olds[STACK_NAME_KEY] !== news[STACK_NAME_KEY];
    return { changes, replaces: [], deleteBeforeReplace: false };
  },

  async create(inputs) {
    // 128 random bits: no other stack's state ever holds the same.
    const nonce = randomBytes(16).toString("hex");
    const tag = stackTagOf(nonce);
    return { id: tag, outs: { ...inputs, nonce, tag } };
  },

  async read(id, props) {
    return { id, props, inputs: withoutOutputs(props) };
  },

  async update(id, olds, news) {
    requireUsable(id, olds, news);
    return { outs: { ...olds, [STACK_NAME_KEY]: news[STACK_NAME_KEY] } };
  },

  async delete() {
    // Nothing on the service: the nonce lives in state only.
  },
};
