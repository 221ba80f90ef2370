/**
 * Wire schemas (snake_case) of templates, mapped to the public types, and shared pieces.
 * Only this module and schemas-*.ts speak snake_case.
 */
import { z } from "zod";
import { Rows, anyBoolean, anyNumber, anyRecord, anyString, idNumber, mapped, optBoolean, rowsOf } from "./schema-helpers";
import type { Template, TemplateCreateResult, TemplateInput } from "./types-templates";
import { parseEnvFlags, templateEnvFlags } from "./wire/env";

/** Variables and ports of a flag string; flags other than -e and -p (set elsewhere) are skipped. */
function envOfFlags(flags: string | undefined): Pick<Template, "env" | "ports"> {
  if (flags === undefined) return {};
  try {
    return parseEnvFlags(flags, { strict: false });
  } catch {
    return {}; // unreadable: `envFlags` still shows the text
  }
}

// ---- templates -------------------------------------------------------------------------

export const templateSchema: z.ZodType<Template> = mapped(
  {
    id: idNumber.optional(),
    hash_id: z.string(),
    name: anyString,
    image: anyString,
    tag: anyString,
    desc: anyString,
    readme: anyString,
    env: anyString,
    onstart: anyString,
    runtype: anyString,
    args_str: anyString,
    ssh_direct: anyBoolean,
    use_ssh: anyBoolean,
    jup_direct: anyBoolean,
    jupyter_dir: z.unknown().optional().transform((v) => (typeof v === "string" ? v : v === null ? null : undefined)),
    use_jupyter_lab: anyBoolean,
    docker_login_repo: anyString,
    docker_login_user: anyString,
    href: anyString,
    repo: anyString,
    extra_filters: anyRecord,
    recommended_disk_space: anyNumber,
    private: anyBoolean,
    volume_info: z.unknown().optional().transform((v) => (v === null ? null : v && typeof v === "object" ? (v as Record<string, unknown>) : undefined)),
    creator_id: anyNumber,
    created_at: anyNumber,
    count_created: anyNumber,
  },
  (t): Template => ({
    id: t.id,
    hashId: t.hash_id,
    name: t.name,
    image: t.image,
    tag: t.tag,
    desc: t.desc,
    readme: t.readme,
    ...envOfFlags(t.env),
    envFlags: t.env,
    onstart: t.onstart,
    runtype: t.runtype,
    argsStr: t.args_str,
    sshDirect: t.ssh_direct,
    useSsh: t.use_ssh,
    jupDirect: t.jup_direct,
    jupyterDir: t.jupyter_dir,
    useJupyterLab: t.use_jupyter_lab,
    dockerLoginRepo: t.docker_login_repo,
    dockerLoginUser: t.docker_login_user,
    href: t.href,
    repo: t.repo,
    extraFilters: t.extra_filters,
    recommendedDiskSpace: t.recommended_disk_space,
    private: t.private,
    volumeInfo: t.volume_info,
    creatorId: t.creator_id,
    createdAt: t.created_at,
    countCreated: t.count_created,
  }),
);

export { DEFAULT_TEMPLATE_PRIVATE } from "./types-templates";

/**
 * Template fields to the wire. The registry login fields are sent only when set: the service
 * requires only `name` and `image`.
 */
export function templateToWire(t: Partial<TemplateInput>): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    name: t.name,
    image: t.image,
    tag: t.tag,
    desc: t.desc,
    readme: t.readme,
    env: t.env === undefined && t.ports === undefined ? undefined : templateEnvFlags({ env: t.env, ports: t.ports }),
    onstart: t.onstart,
    runtype: t.runtype,
    args_str: t.argsStr,
    ssh_direct: t.sshDirect,
    use_ssh: t.useSsh,
    jup_direct: t.jupDirect,
    jupyter_dir: t.jupyterDir,
    use_jupyter_lab: t.useJupyterLab,
    docker_login_repo: t.dockerLoginRepo,
    docker_login_user: t.dockerLoginUser,
    docker_login_pass: t.dockerLoginPass,
    href: t.href,
    repo: t.repo,
    extra_filters: t.extraFilters,
    recommended_disk_space: t.recommendedDiskSpace,
    private: t.private,
    volume_info: t.volumeInfo,
  };
  return dropUndefined(wire);
}

export function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** Create: `{template}`, or `{success: false, msg: "Existing Template Found: ...", template}`. */
export const templateCreateResponse: z.ZodType<TemplateCreateResult> = z
  .looseObject({ success: optBoolean, template: templateSchema })
  .transform((r) => ({ template: r.template, existing: r.success === false }));

export const templateEditResponse: z.ZodType<Template> = z
  .looseObject({ template: templateSchema })
  .transform((r) => r.template);

/**
 * Search: `{templates: [...]}`; no match may come as `{success: false, msg}` without a list.
 * Public rows are other people's: one that does not validate (a null `hash_id`) is skipped.
 */
export const templateSearchResponse: z.ZodType<Rows<Template>> = z
  .looseObject({ templates: rowsOf(templateSchema).nullish() })
  .transform((r) => r.templates ?? { items: [], skipped: 0 });

export const successResponse = z.looseObject({ success: optBoolean }).transform((r) => r.success !== false);

/**
 * A 2xx that only acknowledges: `{success}`, an empty body, or a JSON string such as
 * `"Successfully Deleted API Key"` (the service's answer to an API key delete).
 */
export const acknowledgedResponse: z.ZodType<boolean> = z.union([z.string().transform(() => true), z.null().transform(() => true), successResponse]);
