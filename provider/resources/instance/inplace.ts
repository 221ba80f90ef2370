/**
 * In-place updates that keep the machine: a change of `templateHashId`, `image`, `env`,
 * `onstart` or `argsStr` recreates the container on the same machine through the service's
 * update endpoint (`update_template`), so the GPU stays rented. `updatePolicy: "replace"` makes
 * those changes replace the instance instead (a new rental, as before).
 *
 * A dynamic provider cannot turn an update into a replacement, so when the service refuses the
 * in-place update, the update fails (nothing was changed), saying that the service refused and
 * why, and records the refusal in state (`inPlaceRefused`, the refused input names): the next
 * `pulumi up` then falls back to replacing the instance for those inputs, as the diff shows.
 * Reverting the change keeps the instance. `updatePolicy: "replace"` replaces without trying.
 *
 * Drift: `reflectTemplate` reads back what the service shows (`template_hash_id`, `image_uuid`,
 * `extra_env`, `onstart`) for the properties the program declares.
 */
import { z } from "zod";
import { VastApiError, VastOperationError, onstartScript, type Instance, type UpdateTemplateInput, type VastClient } from "../../client";
import { Props, deepEqual } from "../kit";

/** Inputs that the update endpoint changes in place (unless `updatePolicy` is "replace"). */
export const TEMPLATE_KEYS: readonly string[] = ["templateHashId", "image", "env", "onstart", "argsStr"];

export const INPLACE_INPUTS = {
  updatePolicy: z.enum(["in-place", "replace"], { error: 'must be one of "in-place", "replace"' }).optional(),
};

/** The state entry that records a refused in-place update: `{keys, reason}`. */
export const REFUSED_KEY = "inPlaceRefused";

/** The input names whose in-place update the service refused (recorded in state), if any. */
function refusedKeys(olds: Props): string[] {
  const refused = olds[REFUSED_KEY] as { keys?: unknown } | undefined;
  return Array.isArray(refused?.keys) ? refused.keys.filter((k): k is string => typeof k === "string") : [];
}

/**
 * The changed inputs that replace the instance: every template input under `updatePolicy:
 * "replace"`; under "in-place", those whose in-place update the service refused last time.
 */
export function templateReplaces(changed: readonly string[], news: Props, olds: Props = {}): string[] {
  const template = changed.filter((k) => TEMPLATE_KEYS.includes(k));
  if (news.updatePolicy === "replace") return template;
  const refused = refusedKeys(olds);
  return template.some((k) => refused.includes(k)) ? template : [];
}

/** The service refused an in-place update: nothing was changed. */
export class InPlaceRefusedError extends Error {
  constructor(
    message: string,
    readonly keys: string[],
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "InPlaceRefusedError";
  }
}

/** The template inputs that differ between state and program. */
export function changedTemplateKeys(olds: Props, news: Props): string[] {
  return TEMPLATE_KEYS.filter((k) => !deepEqual(olds[k], news[k]));
}

/** A refusal by the service (as opposed to a failure to reach it, or a gone instance). */
function refusalReason(error: unknown): string | undefined {
  if (error instanceof VastOperationError) return error.serverMessage ?? error.code ?? "no reason given";
  if (error instanceof VastApiError && error.status >= 400 && error.status < 500 && ![401, 403, 404, 429].includes(error.status)) {
    return error.serverMessage ?? error.code ?? `HTTP ${error.status}`;
  }
  return undefined;
}

/** The update body for the changed keys; `env` keeps the provider's marker and the ports. */
export function updateBody(olds: Props, news: Props, changed: readonly string[], markerEnv: string): UpdateTemplateInput {
  const input: UpdateTemplateInput = {};
  if (changed.includes("templateHashId") && typeof news.templateHashId === "string") input.templateHashId = news.templateHashId;
  if (changed.includes("image") && typeof news.image === "string") input.image = news.image;
  if (changed.includes("env")) {
    const env = (news.env ?? {}) as Record<string, string>;
    const marker = typeof olds.marker === "string" && olds.marker !== "" ? { [markerEnv]: olds.marker } : {};
    input.env = { ...env, ...marker };
    if (Array.isArray(news.ports)) input.ports = news.ports as string[];
  }
  // A removed script or argument string is cleared.
  if (changed.includes("onstart")) input.onstart = typeof news.onstart === "string" ? news.onstart : "";
  if (changed.includes("argsStr")) input.argsStr = typeof news.argsStr === "string" ? news.argsStr : "";
  return input;
}

/**
 * Applies changed template inputs in place; true when the container is being recreated (the
 * caller waits for running). Throws a clear error when the service refuses.
 */
export async function applyTemplateUpdate(client: VastClient, id: number, olds: Props, news: Props, markerEnv: string): Promise<boolean> {
  const changed = changedTemplateKeys(olds, news);
  if (changed.length === 0) return false;
  const body = updateBody(olds, news, changed, markerEnv);
  if (Object.keys(body).length === 0) return false;
  try {
    await client.instanceActions.updateTemplate(id, body);
  } catch (error) {
    const reason = refusalReason(error);
    if (reason !== undefined) {
      throw new InPlaceRefusedError(
        `Instance ${id}: the service refused the in-place update of ${changed.join(", ")}: ${reason}. Nothing was changed. ` +
          `The next pulumi up replaces the instance with a new rental for this change (the GPU it has now may not be rented again); ` +
          `revert the change to keep it, or set updatePolicy: "replace" to replace without trying in place. ` +
          `(${(error as Error).message})`,
        changed,
        reason,
        { cause: error },
      );
    }
    throw new Error(`Instance ${id}: the in-place update of ${changed.join(", ")} failed: ${(error as Error).message}`, { cause: error });
  }
  return true;
}

/** `image` as the program wrote it and the service's `image_uuid` name the same image. */
function sameImage(declared: string, live: string): boolean {
  if (declared === live) return true;
  const hasTag = /:[^/]+$/.test(declared) || declared.includes("@");
  return !hasTag && live === `${declared}:latest`;
}

/**
 * What the service shows of the declared template inputs, for drift: a property is replaced by
 * the service's value only when they differ (so a refresh of an unchanged instance shows no diff).
 */
export function reflectTemplate(props: Props, instance: Instance): Props {
  const out: Props = {};
  if (typeof props.templateHashId === "string" && instance.templateHashId && instance.templateHashId !== props.templateHashId) {
    out.templateHashId = instance.templateHashId;
  }
  if (typeof props.image === "string" && instance.imageUuid && !sameImage(props.image, instance.imageUuid)) out.image = instance.imageUuid;
  if (typeof props.onstart === "string" && typeof instance.onstart === "string") {
    const script = onstartScript(instance.onstart);
    if (script !== props.onstart) out.onstart = script;
  }
  if (props.env && typeof props.env === "object" && Array.isArray(instance.extraEnv)) {
    const live = new Map(instance.extraEnv);
    const declared = props.env as Record<string, string>;
    const shown: Record<string, string> = {};
    let differs = false;
    for (const [k, v] of Object.entries(declared)) {
      const value = live.get(k);
      if (value === undefined) differs = true;
      else {
        shown[k] = value;
        if (value !== v) differs = true;
      }
    }
    if (differs) out.env = shown;
  }
  return out;
}
