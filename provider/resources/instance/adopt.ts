/**
 * Taking over an instance rented outside the program: input `importId` (Pulumi's `import`
 * option and `pulumi import` do not reach dynamic providers, so the input is our own).
 *
 * A create with `importId` rents nothing: it reads the instance through the shared reader,
 * refuses (changing nothing) when a declared input that only a replacement could change
 * differs from what the service shows, and otherwise applies the declared in-place inputs
 * through the same code update uses, with the service's values as the old side. Offer and
 * filter inputs are recorded only; triggers and `prepayAmount` are recorded at import (they
 * act on later changes), so an import never reboots or pays. Declared `sshKeyIds` are
 * attached (the service does not show which keys an instance has; none is detached).
 */
import type * as pulumi from "@pulumi/pulumi";
import { onstartScript, type Instance, type VastClient } from "../../client";
import { Props } from "../kit";
import { ACTION_KEYS } from "./actions";
import { TEMPLATE_KEYS, reflectTemplate } from "./inplace";
import { liveInstances } from "./live";
export { IMPORT_INPUTS } from "./import-input";
import { liveOutputs } from "./outputs";

/** Inputs only recorded for an imported instance (they describe how to rent, and it was rented). */
export const RECORDED_WHEN_IMPORTED: readonly string[] = ["offerId", "offer"];

const SECRET_KEYS = new Set(["env", "onstart", "argsStr"]);
const MARKER = "PULUMI_VASTAI_MARKER";

export const isImported = (props: Props): boolean => props.imported === true;

/** The inputs the service shows for an instance (what `read` rebuilds when state has none). */
export function rebuiltInputs(instance: Instance): Props {
  const out: Props = {};
  if (instance.templateHashId) out.templateHashId = instance.templateHashId;
  if (instance.imageUuid) out.image = instance.imageUuid;
  const env = (instance.extraEnv ?? []).filter(([k]) => k !== MARKER && !k.startsWith("-"));
  if (env.length > 0) out.env = Object.fromEntries(env);
  if (typeof instance.onstart === "string" && instance.onstart !== "") out.onstart = onstartScript(instance.onstart);
  if (typeof instance.diskSpace === "number") out.diskGb = instance.diskSpace;
  if (typeof instance.label === "string" && instance.label !== "") out.label = instance.label;
  if (instance.intendedStatus === "running" || instance.intendedStatus === "stopped") out.targetState = instance.intendedStatus;
  if (instance.isBid === true && typeof instance.dphTotal === "number") out.bidPricePerHour = instance.dphTotal;
  return out;
}

const shown = (key: string, v: unknown) => (SECRET_KEYS.has(key) ? "(value not shown)" : JSON.stringify(v ?? null));

/** Declared inputs that differ from the instance and could only change by replacing it. */
export function replaceOnlyMismatches(news: Props, instance: Instance): string[] {
  const out: string[] = [];
  const diskGb = news.diskGb;
  if (typeof diskGb === "number" && typeof instance.diskSpace === "number" && Math.abs(diskGb - instance.diskSpace) > 0.01) {
    out.push(`diskGb: declared ${diskGb}, the service shows ${instance.diskSpace}`);
  }
  const bid = news.bidPricePerHour !== undefined && news.bidPricePerHour !== null;
  if (typeof instance.isBid === "boolean" && bid !== instance.isBid) {
    out.push(`bidPricePerHour: declared ${bid ? JSON.stringify(news.bidPricePerHour) : "none (on-demand)"}, the service shows ${instance.isBid ? "an interruptible rental (a bid)" : "an on-demand rental"}`);
  }
  if (news.updatePolicy === "replace") {
    const drift = reflectTemplate(news, instance);
    for (const key of TEMPLATE_KEYS.filter((k) => k in drift)) {
      out.push(`${key} (updatePolicy "replace"): declared ${shown(key, news[key])}, the service shows ${shown(key, drift[key])}`);
    }
  }
  return out;
}

/**
 * The old side of the import's update: the service's values for what it shows, the declared
 * values for the rest (so nothing else is applied), and the live outputs.
 */
export function oldsFromService(news: Props, instance: Instance): Props {
  const olds: Props = { ...news, ...reflectTemplate(news, instance) };
  if (typeof news.label === "string") olds.label = instance.label ?? "";
  if (instance.intendedStatus === "running" || instance.intendedStatus === "stopped") olds.targetState = instance.intendedStatus;
  if (instance.isBid === true && typeof instance.dphTotal === "number" && typeof news.bidPricePerHour === "number") olds.bidPricePerHour = instance.dphTotal;
  for (const key of ACTION_KEYS) olds[key] = news[key];
  // The service does not show an instance's keys: the declared ones are attached (attaching twice is harmless).
  olds.sshKeyIds = [];
  const marker = (instance.extraEnv ?? []).find(([k]) => k === MARKER)?.[1];
  return { ...olds, ...liveOutputs(instance, news), instanceId: instance.id, offerId: typeof news.offerId === "number" ? news.offerId : 0, marker: marker ?? "" };
}

type Update = (id: string, olds: Props, news: Props) => Promise<pulumi.dynamic.UpdateResult>;

async function accountOf(client: VastClient): Promise<string> {
  try {
    const me = await client.users.current();
    return `user ${me.id}${me.username ? ` (${me.username})` : ""}`;
  } catch {
    return "of the API key";
  }
}

/** Create with `importId`: take the instance over (no rental), or fail changing nothing. */
export async function importInstance(client: VastClient, props: Props, update: Update): Promise<pulumi.dynamic.CreateResult> {
  const importId = String(props.importId);
  const instance = await liveInstances().get(importId);
  if (!instance) {
    throw new Error(
      `Instance: importId "${importId}" names no instance of the account ${await accountOf(client)}; ` +
        "check the id (`vastai show instances`) and the API key. Nothing was rented.",
    );
  }
  const mismatches = replaceOnlyMismatches(props, instance);
  if (mismatches.length > 0) {
    throw new Error(
      `Instance: cannot import instance ${importId}: declared inputs differ from the instance and could only change by replacing it: ` +
        `${mismatches.join("; ")}. Nothing on the service was changed. Declare what the service shows, or remove importId to rent a new instance.`,
    );
  }
  const olds = oldsFromService(props, instance);
  const { outs } = await update(importId, olds, props);
  return { id: importId, outs: { ...outs, imported: true } };
}
