/** Checks the template fields of a create or edit body (spec: Template). */
import { invalidArgs, show } from "../http/errors";
import { optBool, optNumber, optObject, optString, type Body } from "../http/validate";
import { EnvFlagError, parseEnvFlags } from "./env-flags";
import { TEMPLATE_DEFAULTS } from "./template-view";

const STRINGS = ["name", "image", "tag", "desc", "readme", "env", "onstart", "args_str", "href", "repo"];
const REGISTRY = ["docker_login_repo", "docker_login_user", "docker_login_pass"];
const BOOLS = ["ssh_direct", "use_ssh", "jup_direct", "use_jupyter_lab", "private"];
const RUNTYPES = ["ssh", "jupyter", "args"];

/** The known template fields present in the body, each checked. Unknown fields are dropped. */
export function pickTemplateFields(body: Body): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of [...STRINGS, ...REGISTRY]) if (optString(body, f) !== undefined) out[f] = body[f];
  for (const f of BOOLS) if (optBool(body, f) !== undefined) out[f] = body[f];
  if (body.jupyter_dir !== undefined) out.jupyter_dir = body.jupyter_dir === null ? null : optString(body, "jupyter_dir");
  if (body.runtype !== undefined && !RUNTYPES.includes(body.runtype as string)) {
    throw invalidArgs(`runtype must be one of ssh, jupyter, args (got ${show(body.runtype)})`);
  }
  if (body.runtype !== undefined) out.runtype = body.runtype;
  const disk = diskSpace(body);
  if (disk !== undefined && disk <= 0) throw invalidArgs(`recommended_disk_space must be a positive number of GB (got ${disk})`);
  if (disk !== undefined) out.recommended_disk_space = disk;
  if (optObject(body, "extra_filters") !== undefined) out.extra_filters = body.extra_filters;
  if (body.volume_info !== undefined) out.volume_info = body.volume_info === null ? null : optObject(body, "volume_info");
  if (typeof out.env === "string") checkEnv(out.env);
  return out;
}

/**
 * recommended_disk_space as a number, or as the decimal text the vendor's client sends
 * (`vastai create template --disk_space 8.0` sends "8.0").
 */
function diskSpace(body: Body): number | undefined {
  const v = body.recommended_disk_space;
  if (typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return optNumber(body, "recommended_disk_space");
}

function checkEnv(env: string): void {
  try {
    parseEnvFlags(env);
  } catch (err) {
    if (err instanceof EnvFlagError) throw invalidArgs(`env must be Docker flags like "-e VAR=value -p 8080:8080": ${err.message}`);
    throw err;
  }
}

/** A complete template: the required fields are present and the defaults filled in. */
export function completeTemplate(fields: Record<string, unknown>): Record<string, unknown> {
  for (const f of ["name", "image"]) {
    if (typeof fields[f] !== "string" || fields[f] === "") throw invalidArgs(`${f} is required and must be a non-empty string`);
  }
  // Only name and image are required (vendor document); the vendor's client leaves the
  // registry login fields out when the image needs none.
  const registry = Object.fromEntries(REGISTRY.map((f) => [f, typeof fields[f] === "string" ? fields[f] : ""]));
  return { ...TEMPLATE_DEFAULTS, ...registry, ...fields };
}
