/**
 * `RsyncCopy`: starts a remote copy between two instance containers (or returns the
 * connection fields for a copy to or from the local machine). As the vendor's client does, a
 * copy between two instances goes through `/commands/copy_direct/`, and `/commands/rsync/`
 * serves only a copy with one side local. Each create is one copy; a
 * change of any input, `triggers` included, replaces the resource and copies again. Deleting
 * it does nothing on the service: copied data stays where it is.
 */
import { randomUUID } from "crypto";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { VastApiError, VastOperationError, type RsyncInput } from "../../client";
import { getClient } from "../../context";
import { ImportableImpl, Props, UNKNOWN, checkDeclared, diffDeclared, jsonClean } from "../kit";
import { RSYNC_COPY } from "./declare";

const INPUTS = RSYNC_COPY.replaceOn;

const ID_RULE = 'must be an instance id (a positive integer, or "C.<id>" as the vendor\'s client writes it)';
const instanceId = z.union([z.number().int(ID_RULE).positive(ID_RULE), z.string().regex(/^(C\.)?[1-9]\d*$/, ID_RULE)], { error: ID_RULE });
const copyPath = z.string({ error: "must be a string" }).trim().min(1, "must not be empty");

const inputSchema = z.object({
  srcId: instanceId.optional(),
  dstId: instanceId.optional(),
  srcPath: copyPath,
  dstPath: copyPath,
  triggers: z.unknown().optional(),
});

/** The service's wire names, as its messages use them, mapped to the inputs they come from. */
const WIRE_FIELDS: ReadonlyArray<[RegExp, (typeof INPUTS)[number]]> = [
  [/src_path/, "srcPath"],
  [/dst_path/, "dstPath"],
  [/src_id/, "srcId"],
  [/dst_id/, "dstId"],
];

function idFailure(news: Props): pulumi.dynamic.CheckFailure | undefined {
  const given = (v: unknown) => v !== undefined && v !== null && v !== "";
  if (given(news.srcId) || given(news.dstId)) return undefined;
  return { property: "srcId", reason: "srcId, dstId: give at least one instance id (neither was given)" };
}

function requestOf(inputs: Props): RsyncInput {
  // The rsync route takes bare ids; "C.<id>" is the vendor client's spelling of the same id.
  const id = (v: unknown) => (v === undefined || v === null || v === "" ? undefined : typeof v === "string" ? v.replace(/^C\./, "") : (v as number));
  return { srcId: id(inputs.srcId), dstId: id(inputs.dstId), srcPath: String(inputs.srcPath), dstPath: String(inputs.dstPath) };
}

/** A refusal (at HTTP 200 from rsync, 400 from copy_direct) names the wire field; say which input it was, with its value. */
function copyFailure(inputs: Props, error: unknown): Error {
  const message = (error as Error).message;
  if (error instanceof VastOperationError || (error instanceof VastApiError && error.code === "invalid_args")) {
    const said = error.serverMessage ?? error.code ?? "no message";
    const field = WIRE_FIELDS.find(([pattern]) => pattern.test(said))?.[1];
    if (field) return new Error(`RsyncCopy: ${field} ${JSON.stringify(inputs[field])} was refused by the service: ${said}`, { cause: error });
  }
  return new Error(`RsyncCopy: starting the copy failed: ${message}`, { cause: error });
}

export const provider: ImportableImpl = {
  importing: { type: "RsyncCopy", refuse: "each RsyncCopy is one copy it starts, an action and not an object the service keeps, so there is nothing to take over" },

  async check(_olds, news) {
    const result = checkDeclared(RSYNC_COPY, inputSchema, news);
    const failure = news.srcId === UNKNOWN || news.dstId === UNKNOWN ? undefined : idFailure(news);
    return failure ? { ...result, failures: [...(result.failures ?? []), failure] } : result;
  },

  async diff(_id, olds, news) {
    return diffDeclared(RSYNC_COPY, olds, news);
  },

  async create(inputs) {
    const request = requestOf(inputs);
    let result;
    try {
      const { srcId, dstId } = request;
      const copy = getClient().copy;
      result = srcId !== undefined && dstId !== undefined ? await copy.copyDirect({ ...request, srcId, dstId }) : await copy.rsync(request);
    } catch (error) {
      throw copyFailure(inputs, error);
    }
    const outs = {
      ...inputs,
      srcAddr: result.srcAddr ?? null,
      srcPort: result.srcPort ?? null,
      dstAddr: result.dstAddr ?? null,
      dstPort: result.dstPort ?? null,
    };
    return { id: randomUUID(), outs: jsonClean(outs) as Props };
  },

  // A copy leaves nothing the service can list: what state holds is all there is to read.
  async read(id, props) {
    const inputs: Props = {};
    for (const name of INPUTS) if (props[name] !== undefined) inputs[name] = props[name];
    return { id, props, inputs };
  },

  // Reached only when nothing but the provider code changed (diff replaces otherwise).
  async update(_id, olds, news) {
    const outs: Props = { ...news };
    for (const name of RSYNC_COPY.computed) outs[name] = olds[name] ?? null;
    return { outs: jsonClean(outs) as Props };
  },

  // Copied data stays where it is.
  async delete() {},
};
