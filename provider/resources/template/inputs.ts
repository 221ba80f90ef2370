/**
 * Inputs of the Template resource: the rules `check` applies, the defaults it fills in, and
 * the names under which each input travels to the client (camelCase, client side).
 */
import { z } from "zod";
import { DEFAULT_TEMPLATE_PRIVATE, ENV_NAME, ENV_NAME_RULE, FILTER_OPS, TAG_RULE, imageReferenceProblem, isImageTag, isPortMapping } from "../../client";
import { NAME_LIMIT, UNKNOWN, portCountProblem, userInputs, type Props } from "../kit";
import { withoutControlCharacters } from "../kit/text-schema";

export const RUNTYPES = ["ssh", "jupyter", "args"] as const;

/** Filter fields are stored and applied by the service as it spells them (offer search fields). */
const FILTER_FIELD = /^[a-z][a-z0-9_]*$/;

const str = () => z.string({ error: "must be a string" });
const nonEmpty = () => str().min(1, "must not be empty");
const bool = () => z.boolean({ error: "must be true or false" });

/** An image the registry grammar accepts; a bad one would only fail when an instance starts. */
const image = () =>
  nonEmpty().superRefine((ref, ctx) => {
    const problem = ref === "" ? undefined : imageReferenceProblem(ref);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const portRule = "must be a port mapping HOST:CONTAINER such as 8080:8080 (optionally /tcp or /udp) or a port number 1-65535";

function validPort(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 && value <= 65535;
  return typeof value === "string" && isPortMapping(value);
}

/** A port number N means the mapping `N:N`. */
export function normalizePort(port: string | number): string {
  return typeof port === "number" ? `${port}:${port}` : port;
}

const portsSchema = z.array(z.unknown(), { error: "must be a list of port mappings" }).superRefine((ports, ctx) => {
  const tooMany = portCountProblem(ports);
  if (tooMany) {
    ctx.addIssue({ code: "custom", message: tooMany });
    return;
  }
  const seen = new Set<string>();
  ports.forEach((port, i) => {
    if (!validPort(port)) {
      ctx.addIssue({ code: "custom", path: [i], message: portRule });
      return;
    }
    const mapping = normalizePort(port as string | number);
    // The flag string cannot hold a mapping twice: a repeat would read back as drift.
    if (seen.has(mapping)) ctx.addIssue({ code: "custom", path: [i], message: `must not repeat the mapping ${mapping}` });
    seen.add(mapping);
  });
});

const envSchema = z
  .record(z.string(), str(), { error: "must be an object of variable names to string values" })
  .superRefine((env, ctx) => {
    for (const name of Object.keys(env)) {
      if (!ENV_NAME.test(name)) {
        ctx.addIssue({ code: "custom", path: [name], message: `variable name "${name}" must use ${ENV_NAME_RULE}` });
      }
    }
  });

const extraFiltersSchema = z
  .record(z.string(), z.unknown(), { error: "must be an object {field: {operator: value}}" })
  .superRefine((filters, ctx) => {
    for (const [field, condition] of Object.entries(filters)) {
      if (!FILTER_FIELD.test(field)) {
        ctx.addIssue({ code: "custom", path: [field], message: "field names must be offer fields as the API spells them (snake_case), such as gpu_ram or dph_total" });
      }
      if (!condition || typeof condition !== "object" || Array.isArray(condition)) {
        ctx.addIssue({ code: "custom", path: [field], message: "must be an object of operators, such as {gte: 24000}" });
        continue;
      }
      const ops = Object.entries(condition);
      if (ops.length === 0) ctx.addIssue({ code: "custom", path: [field], message: `must name an operator (${FILTER_OPS.join(", ")})` });
      for (const [op, value] of ops) {
        if (!(FILTER_OPS as readonly string[]).includes(op)) {
          ctx.addIssue({ code: "custom", path: [field, op], message: `operator must be one of ${FILTER_OPS.join(", ")}` });
        } else if ((op === "in" || op === "notin") !== Array.isArray(value)) {
          const rule = op === "in" || op === "notin" ? "needs a list of values" : "takes a single value, not a list";
          ctx.addIssue({ code: "custom", path: [field, op], message: `operator ${op} ${rule}` });
        }
      }
    }
  });

/** The rules of every Template input. Unknown properties are reported by `checkWith`. */
export const templateSchema = z.object({
  name: withoutControlCharacters(nonEmpty().max(NAME_LIMIT, `must be at most ${NAME_LIMIT} characters`)),
  image: image(),
  tag: nonEmpty().refine(isImageTag, `must be ${TAG_RULE}`).optional(),
  desc: str().optional(),
  readme: str().optional(),
  env: envSchema.optional(),
  ports: portsSchema.optional(),
  onstart: str().optional(),
  runtype: z.enum(RUNTYPES, { error: `must be one of ${RUNTYPES.join(", ")}` }).optional(),
  argsStr: str().optional(),
  sshDirect: bool().optional(),
  useSsh: bool().optional(),
  jupDirect: bool().optional(),
  jupyterDir: str().optional(),
  useJupyterLab: bool().optional(),
  dockerLoginRepo: str().optional(),
  dockerLoginUser: str().optional(),
  dockerLoginPass: str().optional(),
  href: str().optional(),
  repo: str().optional(),
  extraFilters: extraFiltersSchema.optional(),
  recommendedDiskSpaceGb: z
    .number({ error: "must be a number of GB" })
    .positive("must be a positive number of GB")
    .max(100_000, "must be at most 100000 GB")
    .optional(),
  private: bool().optional(),
  volumeInfo: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
});

export type TemplateInputs = z.infer<typeof templateSchema>;
export type InputName = keyof TemplateInputs;
export const INPUT_NAMES = Object.keys(templateSchema.shape) as InputName[];

/** Outputs the provider adds; they are never compared as inputs. */
export const OUTPUT_NAMES = ["templateId", "hashId", "creatorId", "createdAt", "adopted", "envFlags"] as const;

/** Input names that differ on the client side; `env` and `ports` together become `env` there. */
export const CLIENT_NAME: Partial<Record<InputName, string>> = { recommendedDiskSpaceGb: "recommendedDiskSpace", ports: "env" };

/**
 * What the service stores when a field is not given (spec: Template defaults; the registry
 * fields are sent as ""). An edit that removes an input sends this value.
 */
export const SERVICE_DEFAULTS: Readonly<Record<string, unknown>> = {
  tag: "latest",
  desc: "",
  readme: "",
  env: "",
  onstart: "",
  runtype: "args",
  argsStr: "",
  sshDirect: false,
  useSsh: false,
  jupDirect: false,
  jupyterDir: null,
  useJupyterLab: false,
  dockerLoginRepo: "",
  dockerLoginUser: "",
  dockerLoginPass: "",
  href: "",
  repo: "",
  extraFilters: {},
  recommendedDiskSpace: 8,
  private: false,
  volumeInfo: null,
};

/** Defaults `check` writes into the inputs, so state shows what the service will hold. */
const INPUT_DEFAULTS: Partial<TemplateInputs> = { tag: "latest", runtype: "args", recommendedDiskSpaceGb: 8 };

/**
 * The inputs with defaults filled in and port numbers written as mappings (`22` -> `22:22`).
 * A new template is private unless the program says otherwise (its env may hold tokens, and
 * the vendor's client makes templates private too); later runs keep the value state holds,
 * and a template created before that default (`olds` without `private`) keeps what it has, so
 * neither a later run nor an upgrade edits it.
 */
export function withDefaults(news: Props, olds: Props = {}): Props {
  const out: Props = { ...news };
  for (const [k, v] of Object.entries(INPUT_DEFAULTS)) if (out[k] === undefined) out[k] = v;
  // SSH or Jupyter templates enable SSH, as the vendor's client sends them (use_ssh = ssh or jupyter).
  if (out.useSsh === undefined && (out.runtype === "ssh" || out.runtype === "jupyter")) out.useSsh = true;
  if (out.private === undefined) {
    // Later runs keep what the first one recorded (the default included), so nothing is edited.
    const isNew = Object.keys(userInputs(olds)).length === 0;
    if (isNew) out.private = DEFAULT_TEMPLATE_PRIVATE;
    else if (typeof olds.private === "boolean") out.private = olds.private;
  }
  if (Array.isArray(out.ports) && !out.ports.includes(UNKNOWN)) {
    out.ports = out.ports.map((p) => (typeof p === "number" ? normalizePort(p) : p));
  }
  return out;
}
