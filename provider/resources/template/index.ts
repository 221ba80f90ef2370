/**
 * Template: a reusable instance-creation preset (spec: Template). Instances name it by
 * `hashId`, which changes on every edit; resources that use `template.hashId` therefore see
 * each edit, while `templateId` (the Pulumi id) stays.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource, possiblySecret } from "../kit/resource";


/** A machine-search filter condition: `{operator: value}`; `in`/`notin` take lists. */
export type FilterCondition = Partial<Record<"eq" | "neq" | "lt" | "lte" | "gt" | "gte", unknown>> &
  Partial<Record<"in" | "notin", unknown[]>>;

/** Inputs of a `Template` resource. */
export interface TemplateArgs extends ImportArgs {
  /** Human-readable name. */
  name: pulumi.Input<string>;
  /** Container image path, for example `pytorch/pytorch`. */
  image: pulumi.Input<string>;
  /** Image tag; default `latest`. */
  tag?: pulumi.Input<string>;
  /** Short description. */
  desc?: pulumi.Input<string>;
  /** Longer text (markdown). */
  readme?: pulumi.Input<string>;
  /** Environment variables, name to value. Stored with `ports` as the flag string `-e VAR=value -p A:B` (values quoted as needed). */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Port mappings `HOST:CONTAINER` (optionally `/tcp` or `/udp`), for example `["8080:8080", "22:22"]`;
   * a number `N` means `N:N` and is recorded in that form.
   */
  ports?: pulumi.Input<pulumi.Input<string | number>[]>;
  /** Shell commands run when an instance starts. */
  onstart?: pulumi.Input<string>;
  /** `ssh`, `jupyter` or `args`; default `args`. */
  runtype?: pulumi.Input<"ssh" | "jupyter" | "args">;
  /** Replaces the image CMD (passed to the ENTRYPOINT if the image has one); used with runtype `args`. */
  argsStr?: pulumi.Input<string>;
  /** Direct SSH connection (recommended with runtype `ssh`); default false. */
  sshDirect?: pulumi.Input<boolean>;
  /** SSH access enabled; default false. */
  useSsh?: pulumi.Input<boolean>;
  /** Direct Jupyter connection; default false. */
  jupDirect?: pulumi.Input<boolean>;
  /** Directory Jupyter starts from. */
  jupyterDir?: pulumi.Input<string>;
  /** JupyterLab instead of Jupyter Notebook; default false. */
  useJupyterLab?: pulumi.Input<boolean>;
  /** Private registry URL; omit when the image needs no login. */
  dockerLoginRepo?: pulumi.Input<string>;
  /** Registry user; omit when the image needs no login. */
  dockerLoginUser?: pulumi.Input<string>;
  /**
   * Registry access token. Stored as a secret; the service never returns it, so a change made
   * outside this program is not detected.
   */
  dockerLoginPass?: pulumi.Input<string>;
  /** Link to the image's documentation. */
  href?: pulumi.Input<string>;
  /** Repository identifier. */
  repo?: pulumi.Input<string>;
  /**
   * Default machine-search filters `{field: {operator: value}}`, merged with an instance's own
   * (the instance wins). Fields and units are the API's offer fields (`gpu_ram` in MB,
   * `dph_total` in $/hour, ...); operators `eq, neq, lt, lte, gt, gte, in, notin`.
   */
  extraFilters?: pulumi.Input<Record<string, pulumi.Input<FilterCondition>>>;
  /** Recommended disk space, GB; default 8. */
  recommendedDiskSpaceGb?: pulumi.Input<number>;
  /**
   * Whether the template is private. Default true for a new template (its env may hold
   * tokens); a template created by an earlier release without it keeps the service's value.
   */
  private?: pulumi.Input<boolean>;
  /** A hint for user interfaces only; no effect on instance creation. */
  volumeInfo?: pulumi.Input<Record<string, unknown>>;
}

/**
 * A template on the service.
 *
 * Every input is edited in place (nothing forces a replacement): an edit sends only the
 * changed fields, keeps `templateId` and records the new `hashId`. If the service already
 * holds a template with the same content ("Existing Template Found"), create adopts that
 * template (`adopted` is true). An adopted template may be another resource's, so destroying
 * this one leaves it on the service (with a warning); a template this resource created is
 * deleted, unless an instance of the account was started from it.
 */
export class Template extends VastResource {
  /** Numeric template id; also the Pulumi id. Stable across edits. */
  declare readonly templateId: pulumi.Output<number>;
  /** Content hash; changes on every edit. Use it to create instances (`templateHashId`). */
  declare readonly hashId: pulumi.Output<string>;
  /** Creator's user id, when the service reports it. */
  declare readonly creatorId: pulumi.Output<number | undefined>;
  /** Creation time, ISO 8601, when the service reports it. */
  declare readonly createdAt: pulumi.Output<string | undefined>;
  /** True when create found an identical template on the service and adopted it. */
  declare readonly adopted: pulumi.Output<boolean>;
  /** The live docker-flag string holding `env` and `ports`. Secret: it carries the env values. */
  declare readonly envFlags: pulumi.Output<string | undefined>;
  declare readonly name: pulumi.Output<string>;
  declare readonly image: pulumi.Output<string>;
  declare readonly tag: pulumi.Output<string>;
  declare readonly env: pulumi.Output<Record<string, string> | undefined>;
  /** Port mappings as `HOST:CONTAINER` strings. */
  declare readonly ports: pulumi.Output<string[] | undefined>;
  declare readonly runtype: pulumi.Output<"ssh" | "jupyter" | "args">;
  declare readonly recommendedDiskSpaceGb: pulumi.Output<number>;
  /** Secret. */
  declare readonly dockerLoginPass: pulumi.Output<string | undefined>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...args,
      dockerLoginPass: args.dockerLoginPass === undefined ? undefined : pulumi.secret(args.dockerLoginPass),
      templateId: undefined,
      hashId: undefined,
      creatorId: undefined,
      createdAt: undefined,
      adopted: undefined,
      envFlags: undefined,
    };
    // envFlags carries env (and may carry secrets from it): always secret.
    const secretOutputs = ["dockerLoginPass", "envFlags", ...possiblySecret(args, ["env", "onstart", "argsStr"])];
    super("template", "Template", name, { ...props, imported: undefined }, opts, secretOutputs);
  }
}
