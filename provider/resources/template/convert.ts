/**
 * Template inputs to the client's template fields and back. `env` and `ports` share one
 * field on the service (the docker-flag string `-e VAR=value -p A:B`); the client encodes and
 * reads that string, so here they stay a record and a list. Every other input maps to one
 * client field.
 */
import { isoOfEpochSeconds, type Template as LiveTemplate, type TemplateInput } from "../../client";
import { deepEqual, type Props } from "../kit";
import { CLIENT_NAME, INPUT_NAMES, SERVICE_DEFAULTS, normalizePort, type InputName } from "./inputs";

const clientName = (k: InputName): string => CLIENT_NAME[k] ?? k;

/** The inputs' `env` and `ports` for the client, or undefined when neither is given. */
function envAndPorts(inputs: Props): Pick<TemplateInput, "env" | "ports"> | undefined {
  const env = inputs.env as Record<string, string> | undefined;
  const ports = inputs.ports as Array<string | number> | undefined;
  if (env === undefined && ports === undefined) return undefined;
  return { env: env ?? {}, ports: (ports ?? []).map(normalizePort) };
}

/** Checked inputs to the client's create body. */
export function toClientTemplate(inputs: Props): TemplateInput {
  const out: Record<string, unknown> = {};
  for (const k of INPUT_NAMES) {
    if (k === "env" || k === "ports") continue;
    if (inputs[k] !== undefined) out[clientName(k)] = inputs[k];
  }
  Object.assign(out, envAndPorts(inputs));
  return out as unknown as TemplateInput;
}

/**
 * The edit body: the whole template, as the vendor's client sends it (a service that replaces
 * rather than merges would otherwise wipe every field not sent). Each input's value, or the
 * service's default for one the program does not give. `changed` only decides whether an edit
 * is needed at all (none: empty body).
 */
export function editFor(changed: readonly string[], news: Props): Partial<TemplateInput> {
  if (!changed.some((k) => (INPUT_NAMES as readonly string[]).includes(k))) return {};
  // The registry password is a secret the service never shows: sent only when it changed.
  return editOf(INPUT_NAMES.filter((k) => k !== "dockerLoginPass" || changed.includes(k)), news);
}

function editOf(changed: readonly string[], news: Props): Partial<TemplateInput> {
  const out: Record<string, unknown> = {};
  for (const k of changed as InputName[]) {
    if (!INPUT_NAMES.includes(k)) continue;
    if (k === "env" || k === "ports") {
      // Both travel in one string: send both, or none (the service's default) when both are gone.
      Object.assign(out, envAndPorts(news) ?? { env: {}, ports: [] });
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
  Object.assign(out, envFromLive(live, old));
  out.dockerLoginPass = old.dockerLoginPass;
  return out;
}

function envFromLive(live: LiveTemplate, old: Props): Props {
  // No flag string, or one that cannot be read: nothing to compare (`envFlags` shows the text).
  if (live.env === undefined || live.ports === undefined) return { env: old.env, ports: old.ports };
  return {
    env: old.env === undefined && Object.keys(live.env).length === 0 ? undefined : live.env,
    ports: old.ports === undefined && live.ports.length === 0 ? undefined : live.ports,
  };
}

/** The outputs the provider adds to the inputs. */
export function templateOutputs(id: number, live: LiveTemplate, previous: Props, adopted: boolean): Props {
  return {
    templateId: id,
    hashId: live.hashId,
    creatorId: live.creatorId ?? previous.creatorId,
    createdAt: isoOfEpochSeconds(live.createdAt) ?? previous.createdAt,
    adopted,
    envFlags: live.envFlags ?? previous.envFlags,
  };
}
