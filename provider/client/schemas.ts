/**
 * Wire schemas (snake_case) of templates, mapped to the public types, and shared pieces.
 * Only this module and schemas-*.ts speak snake_case.
 */
import { z } from "zod";
import { anyBoolean, anyNumber, anyRecord, anyString, idNumber, mapped, optBoolean } from "./schema-helpers";
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

/** Template fields to the wire; `full` fills the registry fields the API requires with "". */
export function templateToWire(t: Partial<TemplateInput>, full: boolean): Record<string, unknown> {
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
    docker_login_repo: t.dockerLoginRepo ?? (full ? "" : undefined),
    docker_login_user: t.dockerLoginUser ?? (full ? "" : undefined),
    docker_login_pass: t.dockerLoginPass ?? (full ? "" : undefined),
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

/** Search: `{templates: [...]}`; no match may come as `{success: false, msg}` without a list. */
export const templateSearchResponse: z.ZodType<Template[]> = z
  .looseObject({ templates: z.array(templateSchema).nullish() })
  .transform((r) => r.templates ?? []);

export const successResponse = z.looseObject({ success: optBoolean }).transform((r) => r.success !== false);
