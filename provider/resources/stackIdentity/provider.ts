/**
 * The StackIdentity provider (the class is in index.ts): the create makes the nonce, and
 * nothing ever changes it; the delete (after every resource of the stack is gone) leaves
 * nothing behind on the service, which holds no object for it.
 */
import { randomBytes } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { stackTagOf } from "../kit/create-once";
import { PROVIDER_KEY, type ProviderImpl, type Props } from "../kit/provider";

const OUTPUT_KEYS = ["nonce", "tag"];

function withoutOutputs(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !OUTPUT_KEYS.includes(k)));
}

export const provider: ProviderImpl = {
  async check(_olds, news) {
    const inputs = withoutOutputs(news);
    const failures = Object.keys(inputs)
      .filter((k) => k !== PROVIDER_KEY)
      .map((property) => ({ property, reason: `${property} is not a StackIdentity property (it takes no inputs)` }));
    return { inputs, failures };
  },

  async diff(): Promise<pulumi.dynamic.DiffResult> {
    return { changes: false, replaces: [], deleteBeforeReplace: false };
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

  async update(_id, olds) {
    return { outs: olds };
  },

  async delete() {
    // Nothing on the service: the nonce lives in state only.
  },
};
