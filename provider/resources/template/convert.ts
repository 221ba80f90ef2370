/**
 * Template inputs to the client's template fields and back. `env` and `ports` share one
 * field on the service (the docker-flag string `-e VAR=value -p A:B`), converted with
 * util/env; every other input maps to one client field.
 */
import type { Template as LiveTemplate, TemplateInput } from "../../client";
import { formatEnvFlags, parseEnvFlags } from "../../client/wire/env";
import { deepEqual, type Props } from "../kit";
import { CLIENT_NAME, INPUT_NAMES, SERVICE_DEFAULTS, normalizePort, type InputName } from "./inputs";

const clientName = (k: InputName): string => CLIENT_NAME[k] ?? k;

/** The flag string for the inputs' `env` and `ports`, or undefined when neither is given. */
export function envFlags(inputs: Props): string | undefined {
  const env = inputs.env as Record<string, string> | undefined;
  const ports = inputs.ports as Array<string | number> | undefined;
  if (env === undefined && ports === undefined) return undefined;
  // Sorted names: the same variables always give the same string (and the same hash_id),
  // whatever order the program wrote them in.
  const sorted = Object.fromEntries(Object.entries(env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return formatEnvFlags({ env: sorted, ports: (ports ?? []).map(normalizePort) });
}

/** Checked inputs to the client's create body. */
export function toClientTemplate(inputs: Props): TemplateInput {
  const out: Record<string, unknown> = {};
  for (const k of INPUT_NAMES) {
    if (k === "env" || k === "ports") continue;
    if (inputs[k] !== undefined) out[clientName(k)] = inputs[k];
  }
  const env = envFlags(inputs);
  if (env !== undefined) out.env = env;
  return out as unknown as TemplateInput;
}

/**
 * The edit body for the inputs that changed: their new values, or the service's default for
 * an input that was removed (the edit keeps every field it is not sent).
 */
export function editFor(changed: readonly string[], news: Props): Partial<TemplateInput> {
  const out: Record<string, unknown> = {};
  for (const k of changed as InputName[]) {
    if (!INPUT_NAMES.includes(k)) continue;
    if (k === "env" || k === "ports") {
      out.env = envFlags(news) ?? SERVICE_DEFAULTS.env;
      continue;
    }
    const name = clientName(k);
    out[name] = news[k] ?? SERVICE_DEFAULTS[name];
  }
  return out as Partial<TemplateInput>;
}

/**
 * Inputs as the live template shows them, so a refresh records drift. An input the user did
 * not give stays absent while the service holds its default, so a refresh leaves no diff.
 * The registry password is never returned by the service: the old value is kept.
 */
export function inputsFromLive(live: LiveTemplate, old: Props): Props {
  const out: Props = {};
  const fields = live as unknown as Record<string, unknown>;
  for (const k of INPUT_NAMES) {
    if (k === "env" || k === "ports" || k === "dockerLoginPass") continue;
    const name = clientName(k);
    const value = fields[name];
    if (value === undefined) out[k] = old[k]; // not reported: nothing to compare
    else if (value === null || (old[k] === undefined && deepEqual(value, SERVICE_DEFAULTS[name]))) continue;
    else out[k] = value;
  }
  Object.assign(out, envFromLive(live.env, old));
  out.dockerLoginPass = old.dockerLoginPass;
  return out;
}

function envFromLive(flags: string | undefined, old: Props): Props {
  const keep = { env: old.env, ports: old.ports };
  if (flags === undefined) return keep;
  let parsed;
  try {
    // Flags other than -e and -p (set outside this program) are skipped; `envFlags` shows them.
    parsed = parseEnvFlags(flags, { strict: false });
  } catch {
    return keep; // unreadable flag string: the `envFlags` output still shows it
  }
  return {
    env: old.env === undefined && Object.keys(parsed.env).length === 0 ? undefined : parsed.env,
    ports: old.ports === undefined && parsed.ports.length === 0 ? undefined : parsed.ports,
  };
}

/** Epoch seconds (the service's times) to ISO 8601. */
export function isoTime(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return new Date(value * 1000).toISOString();
  if (typeof value === "string" && value !== "") return value;
  return undefined;
}

/** The outputs the provider adds to the inputs. */
export function templateOutputs(id: number, live: LiveTemplate, previous: Props, adopted: boolean): Props {
  return {
    templateId: id,
    hashId: live.hashId,
    creatorId: live.creatorId ?? previous.creatorId,
    createdAt: isoTime(live.createdAt) ?? previous.createdAt,
    adopted,
    envFlags: live.env ?? previous.envFlags,
  };
}
