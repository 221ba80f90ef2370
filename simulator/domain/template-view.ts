/** Templates as the API returns them. The registry password is never sent back. */
import type { TemplateRecord } from "../store/types";

export const TEMPLATE_DEFAULTS: Record<string, unknown> = {
  tag: "latest",
  desc: "",
  readme: "",
  env: "",
  onstart: "",
  runtype: "args",
  args_str: "",
  ssh_direct: false,
  use_ssh: false,
  jup_direct: false,
  jupyter_dir: null,
  use_jupyter_lab: false,
  href: "",
  repo: "",
  extra_filters: {},
  recommended_disk_space: 8,
  private: false,
  volume_info: null,
};

export function templateView(t: TemplateRecord): Record<string, unknown> {
  const { docker_login_pass: _secret, ...fields } = t.fields;
  return {
    ...TEMPLATE_DEFAULTS,
    ...fields,
    id: t.id,
    hash_id: t.hashId,
    creator_id: t.creatorId,
    created_at: t.createdAt / 1000,
    count_created: t.countCreated,
    recent_create_date: t.recentCreateDate === null ? null : t.recentCreateDate / 1000,
    recommended: t.recommended,
    default_tag: fields.tag ?? TEMPLATE_DEFAULTS.tag,
  };
}

/** Flat record used by search filters (spec: select_filters fields). */
export function templateFilterRecord(t: TemplateRecord): Record<string, unknown> {
  return templateView(t);
}
