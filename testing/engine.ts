/**
 * An offline deployment engine for tests and machines without the Pulumi CLI. It runs a Pulumi
 * program under `pulumi.runtime.setMocks`, and the mocks hand every dynamic resource to
 * Pulumi's real dynamic-provider plugin (the process `pulumi up` would start), doing what the
 * engine does:
 *
 * - `preview`: check, then diff against the state of the last `up`; nothing is created,
 *   updated or deleted, and outputs not known yet stay unknown to the program.
 * - `up`: check, diff, then create, update or replace; resources the program no longer
 *   declares are deleted. Real outputs go back to the program, so dependencies (a template's
 *   hashId into an instance) flow as they do under `pulumi up`.
 * - `destroy`: delete everything in state, dependents first.
 *
 * Secret inputs and `additionalSecretOutputs` come back secret to the program, and each report
 * names the secret outputs of each resource and of the stack.
 *
 * Resource options are honoured as the engine honours them: `protect` (deleting or replacing a
 * protected resource fails the step), `retainOnDelete` (removed from the stack, left on the
 * service), `ignoreChanges` (top-level and dotted paths), `deleteBeforeReplace`,
 * `replaceOnChanges`, `dependsOn` (order of creation and deletion), `parent` (the child's URN
 * carries its parent's type) and `aliases` (a renamed resource keeps its object). Options it
 * cannot honour (`import`, `Resource.get`, `deletedWith`, array paths in `ignoreChanges`) fail
 * the step with a message that says so, rather than doing something else than `pulumi up`.
 *
 * A failed step throws `StepFailedError`, whose `report` says what was done and which resource
 * failed and why. Not a replacement for the CLI: no refresh, no providers other than dynamic
 * ones, state kept in memory.
 */
import * as pulumi from "@pulumi/pulumi";
import { PluginCallError, type ProviderPlugin } from "./plugin";
import { BOOKKEEPING_TYPES, mergeOutcomes, messageOf, shortType, StepFailedError, type ResourceOutcome, type StepReport } from "./report";
import { resolveOutputs, unwrapSecrets, wrapSecrets } from "./values";

type Props = Record<string, unknown>;

const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/";

interface StateEntry {
  urn: string;
  type: string;
  name: string;
  id: string;
  /** Checked inputs of the last successful operation (what `check` gets as olds). */
  inputs: Props;
  /** Inputs and outputs as the provider returned them (what diff/update/delete get). */
  outputs: Props;
  /**
   * Set when the create made the object but failed (a partial failure): as the engine keeps
   * `initErrors`, the next `up` updates the resource even when its diff finds no change.
   */
  initErrors?: string[];
  /** Options of its last registration that matter once the program no longer declares it. */
  protect?: boolean;
  retainOnDelete?: boolean;
  /** URNs it depends on (dependsOn and inputs): deleted after them... they after it. */
  dependencies?: string[];
}

/** The resource options of one registration, as the SDK sends them to the engine. */
interface Registration {
  urn: string;
  protect: boolean;
  retainOnDelete: boolean;
  ignoreChanges: string[];
  deleteBeforeReplace: boolean;
  replaceOnChanges: string[];
  dependencies: string[];
  aliasUrns: string[];
  additionalSecretOutputs: string[];
  importId: string;
  deletedWith: string;
}

/** Options of the `OfflineEngine`. */
export interface EngineOptions {
  /** Project name, as in Pulumi.yaml (the program's `new pulumi.Config()` namespace). */
  project: string;
  /** Stack name, as `pulumi.getStack()` returns it. */
  stack: string;
  /**
   * Organization, as `pulumi.getOrganization()` returns it (default `organization`, the name
   * the CLI gives a self-managed backend's stacks).
   */
  organization?: string;
}

/** A Pulumi program: registers resources, returns (or resolves to) its stack outputs. */
export type Program = () => unknown;

/** Starts a dynamic-provider plugin process (the engine starts one per operation). */
export type PluginStarter = () => Promise<ProviderPlugin>;

/** Runs a program's resources through the real providers without the Pulumi CLI: preview, up and destroy, honouring the engine's resource options. */
export class OfflineEngine {
  private state: StateEntry[] = [];
  private config: Record<string, string> = {};

  constructor(
    private readonly startPlugin: PluginStarter,
    private readonly options: EngineOptions,
  ) {}

  /** The ids in state, by `Type::name` (for reports and for tests). */
  ids(): Record<string, string> {
    // The program's resources, as the reports list them: the package's stack identity is left out.
    return Object.fromEntries(this.state.filter((e) => !BOOKKEEPING_TYPES.includes(shortType(e.type))).map((e) => [`${shortType(e.type)}::${e.name}`, e.id]));
  }

  /**
   * Runs the program like `pulumi preview` with this stack configuration (`secretKeys` name
   * the secret entries): check and diff only, nothing changes on the service or in state.
   */
  async preview(program: Program, config: Record<string, string> = {}, secretKeys: string[] = []): Promise<StepReport> {
    return this.withPlugin(config, async (plugin) => {
      const run = new Run(plugin, this.options, this.state, true);
      const { failure, outputs } = await run.execute(program, config, secretKeys);
      if (!failure) {
        try {
          run.refuseProtectedLeftovers();
        } catch (err) {
          run.fail(err);
        }
      }
      if (run.failed()) throw new StepFailedError("preview", run.partialReport(), run.causes());
      return { outcomes: mergeOutcomes([...run.outcomes, ...run.leftovers()]), ...outputs };
    });
  }

  /** Runs the program once, like `pulumi up --yes`, with this stack configuration. */
  async up(program: Program, config: Record<string, string> = {}, secretKeys: string[] = []): Promise<StepReport> {
    // Destroy runs with the configuration of the last `up`, as the stack's settings would be.
    this.config = config;
    return this.withPlugin(config, async (plugin) => {
      const run = new Run(plugin, this.options, this.state, false);
      const { failure, outputs } = await run.execute(program, config, secretKeys);
      if (!failure) {
        try {
          run.refuseProtectedLeftovers();
          await run.deleteLeftovers();
        } catch (err) {
          run.fail(err);
        }
      }
      if (run.failed()) {
        this.state = run.stateAfterFailure();
        throw new StepFailedError("up", run.partialReport(), run.causes());
      }
      this.state = run.newState();
      return { outcomes: mergeOutcomes(run.outcomes), ...outputs };
    });
  }

  /** Deletes every resource in state, dependents first, like `pulumi destroy --yes`. */
  async destroy(): Promise<StepReport> {
    return this.withPlugin(this.config, async (plugin) => {
      const outcomes: ResourceOutcome[] = [];
      const fail = (err: unknown) => {
        throw new StepFailedError("destroy", { outcomes: mergeOutcomes(outcomes), outputs: {}, secretOutputs: [] }, [err]);
      };
      const protectedOnes = this.state.filter((e) => e.protect);
      for (const entry of protectedOnes) {
        outcomes.push({ ...label(entry), outcome: "failed", error: protectedMessage("delete") });
      }
      if (protectedOnes.length > 0) fail(new Error(protectedMessage("delete")));
      for (const entry of deletionOrder(this.state)) {
        try {
          if (!entry.retainOnDelete) await plugin.delete(entry.urn, entry.id, entry.outputs);
        } catch (err) {
          outcomes.push({ ...label(entry), outcome: "failed", error: withoutTypePrefix(messageOf(err), entry) });
          fail(err);
        }
        this.state = this.state.filter((e) => e !== entry);
        outcomes.push({ ...label(entry), outcome: "deleted", ...(entry.retainOnDelete ? { retained: true } : {}) });
      }
      return { outcomes: mergeOutcomes(outcomes), outputs: {}, secretOutputs: [] };
    });
  }

  /**
   * A fresh plugin for each operation, configured with the whole stack configuration, as the
   * engine does: nothing cached in one run's provider process carries over to the next.
   */
  private async withPlugin<T>(config: Record<string, string>, work: (plugin: ProviderPlugin) => Promise<T>): Promise<T> {
    const plugin = await this.startPlugin();
    try {
      await plugin.configure(config);
      return await work(plugin);
    } finally {
      await plugin.close();
    }
  }
}

const label = (e: { type: string; name: string }) => ({ type: shortType(e.type), name: e.name });

function protectedMessage(action: "delete" | "replace"): string {
  return `it is protected (protect: true) and pulumi would refuse to ${action} it; set protect: false, run up, then ${action === "delete" ? "remove it or destroy" : "change it"}`;
}

/** Provider messages often start with the type ("Fleet: ..."): the report says `Type name` once. */
function withoutTypePrefix(message: string, e: { type: string; name: string }): string {
  const type = shortType(e.type);
  for (const prefix of [`${type} ${e.name}: `, `${type}: `]) if (message.startsWith(prefix)) return message.slice(prefix.length);
  return message;
}

/** Dependents before what they depend on; otherwise last created first. */
function deletionOrder(entries: readonly StateEntry[]): StateEntry[] {
  const pending = [...entries].reverse();
  const out: StateEntry[] = [];
  while (pending.length > 0) {
    // The first entry nothing still pending depends on.
    const i = pending.findIndex((e) => !pending.some((o) => o !== e && (o.dependencies ?? []).includes(e.urn)));
    out.push(...pending.splice(i < 0 ? 0 : i, 1));
  }
  return out;
}

/** The URN the engine gives a resource: a child's type is qualified by its parent's. */
function urnOf(stack: string, project: string, parent: string, type: string, name: string): string {
  if (parent) type = `${parent.split("::")[2].split("$").pop()}$${type}`;
  return `urn:pulumi:${stack}::${project}::${type}::${name}`;
}

const splitPath = (path: string) => path.split(".");

function valueAt(obj: unknown, path: string[]): unknown {
  let v = obj;
  for (const k of path) v = v && typeof v === "object" ? (v as Props)[k] : undefined;
  return v;
}

/**
 * `ignoreChanges`: each named property keeps its old input (or stays absent when it had none),
 * as the engine does before Check. Array and wildcard paths are refused.
 */
function applyIgnoreChanges(news: Props, olds: Props, paths: string[], who: string): Props {
  const out = structuredClone(news);
  for (const path of paths) {
    if (/[[\]*"]/.test(path)) {
      throw new Error(`${who}: ignoreChanges path "${path}" is not supported by the offline engine (use top-level or dotted property names)`);
    }
    const keys = splitPath(path);
    const old = valueAt(olds, keys);
    let target: Props = out;
    for (const k of keys.slice(0, -1)) {
      if (!target[k] || typeof target[k] !== "object") target[k] = {};
      target = target[k] as Props;
    }
    const last = keys[keys.length - 1];
    if (old === undefined) delete target[last];
    else target[last] = structuredClone(old);
  }
  return out;
}

/** One `preview` or `up`: the registrations of one program run and what they did. */
class Run {
  readonly outcomes: ResourceOutcome[] = [];
  /** Entries this run created, updated or kept, in completion order (dependencies first). */
  private readonly touched: StateEntry[] = [];
  /** Old objects of create-before-delete replacements, deleted after the program. */
  private readonly replacedOld: StateEntry[] = [];
  /** Objects made on the service by an operation that then failed (kept so destroy finds them). */
  private readonly orphans: StateEntry[] = [];
  /** Leftovers deleted so far by `deleteLeftovers` (gone from the service and from state). */
  private readonly deleted = new Set<StateEntry>();
  private readonly errors: unknown[] = [];
  /** The options of each registration, by `type::name`. */
  private readonly registrations = new Map<string, Registration>();

  constructor(
    private readonly plugin: ProviderPlugin,
    private readonly options: EngineOptions,
    private readonly prior: readonly StateEntry[],
    private readonly dryRun: boolean,
  ) {}

  /** Runs the program to the end; the first failure, or its stack outputs. */
  async execute(
    program: Program,
    config: Record<string, string>,
    secretKeys: string[],
  ): Promise<{ failure?: Error; outputs: { outputs: Props; secretOutputs: string[] } }> {
    pulumi.runtime.setAllConfig(config, secretKeys);
    await pulumi.runtime.setMocks(this.mocks(), this.options.project, this.options.stack, this.dryRun, this.options.organization ?? "organization");
    this.watchRegistrations();
    let exported: unknown;
    try {
      exported = await program();
    } catch (err) {
      this.fail(err);
    }
    // Every registration has reached the mocks (and so the plugin) once the RPC queue drains.
    await pulumi.runtime.disconnect();
    const failure = this.failure();
    if (failure) return { failure, outputs: { outputs: {}, secretOutputs: [] } };
    return { outputs: await resolveOutputs(exported) };
  }

  /**
   * The mocks' `newResource` is not told a resource's options (`protect`, `ignoreChanges`,
   * `additionalSecretOutputs`, ...); the request the SDK sends to the monitor carries them, so
   * they are read there.
   */
  private watchRegistrations(): void {
    type Alias = { getUrn(): string; hasSpec(): boolean; getSpec(): { getName(): string; getType(): string; getStack(): string; getProject(): string; getParenturn(): string; getNoparent(): boolean } };
    type Request = {
      getType(): string;
      getName(): string;
      getParent(): string;
      getProtect(): boolean;
      getRetainondelete(): boolean;
      getIgnorechangesList(): string[];
      getDeletebeforereplace(): boolean;
      getReplaceonchangesList(): string[];
      getDependenciesList(): string[];
      getAliasesList(): Alias[];
      getAliasurnsList(): string[];
      getAdditionalsecretoutputsList(): string[];
      getImportid(): string;
      getDeletedwith(): string;
    };
    const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource(req: Request, cb: unknown): Promise<void> };
    const register = monitor.registerResource.bind(monitor);
    const { stack, project } = this.options;
    monitor.registerResource = (req, cb) => {
      const type = req.getType();
      const name = req.getName();
      const parent = req.getParent();
      const aliasUrns = [
        ...req.getAliasurnsList(),
        ...req.getAliasesList().map((a) => {
          if (!a.hasSpec()) return a.getUrn();
          const spec = a.getSpec();
          const aliasParent = spec.getNoparent() ? "" : spec.getParenturn() || parent;
          return urnOf(spec.getStack() || stack, spec.getProject() || project, aliasParent, spec.getType() || type, spec.getName() || name);
        }),
      ];
      this.registrations.set(`${type}::${name}`, {
        urn: urnOf(stack, project, parent, type, name),
        protect: req.getProtect(),
        retainOnDelete: req.getRetainondelete(),
        ignoreChanges: req.getIgnorechangesList(),
        deleteBeforeReplace: req.getDeletebeforereplace(),
        replaceOnChanges: req.getReplaceonchangesList(),
        dependencies: req.getDependenciesList(),
        aliasUrns,
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        importId: req.getImportid(),
        deletedWith: req.getDeletedwith(),
      });
      return register(req, cb);
    };
  }

  mocks(): pulumi.runtime.Mocks {
    return {
      newResource: async (args) => {
        if (!args.type.startsWith(DYNAMIC_PREFIX)) {
          // Component or other custom resource: nothing for the offline engine to deploy.
          return { id: args.custom ? `${args.name}-id` : undefined, state: args.inputs };
        }
        // After a failure nothing more is deployed. The failure is reported by `up`; answering
        // with an empty result (not a rejection) keeps the SDK from raising unhandled rejections.
        if (this.errors.length > 0) return { id: "", state: {} };
        try {
          // `import` (and a static `get`) make the engine call read without `__provider`, which
          // fails for every dynamic resource under `pulumi up`: fail here too, never create.
          if (args.id) throw new Error(`${shortType(args.type)} ${args.name}: the import resource option (or get) with id "${args.id}" cannot reach a dynamic provider (the engine's read gets no __provider); take the object over with the input importId`);
          return await this.register(args.type, args.name, args.inputs as Props);
        } catch (err) {
          this.outcomes.push({ ...label(args), outcome: "failed", error: withoutTypePrefix(messageOf(err), args) });
          this.fail(err);
          return { id: "", state: {} };
        }
      },
      call: async (args) => {
        this.fail(new Error(`the offline engine does not serve the function ${args.token}`));
        return {};
      },
    };
  }

  fail(err: unknown): void {
    this.errors.push(err);
  }

  failed(): boolean {
    return this.errors.length > 0;
  }

  causes(): unknown[] {
    return [...this.errors];
  }

  failure(): Error | undefined {
    const first = this.errors[0];
    if (first === undefined) return undefined;
    return first instanceof Error ? first : new Error(String(first));
  }

  /** What was done before the failure and what failed. */
  partialReport(): StepReport {
    return { outcomes: mergeOutcomes(this.outcomes), outputs: {}, secretOutputs: [] };
  }

  private async register(type: string, name: string, raw: Props): Promise<pulumi.runtime.MockResourceResult> {
    const who = `${shortType(type)} ${name}`;
    const opts = this.registrations.get(`${type}::${name}`);
    const urn = opts?.urn ?? urnOf(this.options.stack, this.options.project, "", type, name);
    if (opts?.importId) throw new Error(`import (id ${opts.importId}) is not supported by the offline engine; test the program without the import option`);
    if (opts?.deletedWith) throw new Error(`deletedWith is not supported by the offline engine`);
    const { plain, secretKeys } = unwrapSecrets(raw);
    const secret = [...new Set([...secretKeys, ...(opts?.additionalSecretOutputs ?? [])])];
    const found = this.prior.find((e) => e.urn === urn) ?? this.prior.find((e) => opts?.aliasUrns.includes(e.urn));
    // An aliased entry is the same object under its new URN from now on.
    const prior = found && found.urn !== urn ? { ...found, urn, type, name, aliasOf: found.urn } : found;
    const news = prior && opts?.ignoreChanges.length ? applyIgnoreChanges(plain, prior.inputs, opts.ignoreChanges, who) : plain;
    const checked = await this.plugin.check(urn, prior?.inputs ?? {}, news);
    if (checked.failures.length > 0) {
      throw new Error(`${who}: ${checked.failures.map((f) => f.reason).join("; ")}`);
    }
    const keep = { protect: opts?.protect ?? false, retainOnDelete: opts?.retainOnDelete ?? false, dependencies: opts?.dependencies ?? [] };
    if (this.dryRun) return this.plan(urn, type, name, prior, checked.inputs, secret, opts);
    const entry: StateEntry & { aliasOf?: string } = { ...(await this.apply(urn, type, name, prior, checked.inputs, secret, opts, news)), ...keep };
    // The alias is spent once the run ends (newState drops the mark).
    this.touched.push(entry);
    return { id: entry.id, state: wrapSecrets(entry.outputs, secret) };
  }

  /**
   * The diff of one resource with the options applied: `replaceOnChanges` turns a change of a
   * named property into a replacement; `deleteBeforeReplace` deletes the old object first.
   * Replacing a protected resource fails, as under `pulumi up`.
   */
  private async decide(prior: StateEntry, inputs: Props, opts: Registration | undefined): Promise<"none" | "update" | "replace" | "delete-then-replace"> {
    const diff = await this.plugin.diff(prior.urn, prior.id, prior.outputs, inputs);
    // A partially failed create (initErrors) is updated by the next up even with no change.
    if (diff.changes === "none" && !prior.initErrors) return "none";
    const roc = opts?.replaceOnChanges ?? [];
    const changed = (path: string) => JSON.stringify(valueAt(prior.inputs, splitPath(path))) !== JSON.stringify(valueAt(inputs, splitPath(path)));
    const forced = roc.includes("*") ? Object.keys({ ...prior.inputs, ...inputs }).some(changed) : roc.some(changed);
    if (diff.replaces.length === 0 && !forced) return "update";
    if (prior.protect || opts?.protect) throw new Error(protectedMessage("replace"));
    return diff.deleteBeforeReplace || opts?.deleteBeforeReplace ? "delete-then-replace" : "replace";
  }

  /**
   * A preview of one resource: what `up` would do, from check and diff only. Outputs of a
   * resource that would change are its checked inputs; the SDK makes the rest unknown.
   */
  private async plan(urn: string, type: string, name: string, prior: StateEntry | undefined, inputs: Props, secret: string[], opts: Registration | undefined): Promise<pulumi.runtime.MockResourceResult> {
    this.touched.push(prior ?? { urn, type, name, id: "", inputs, outputs: {} });
    const note = (outcome: ResourceOutcome["outcome"]) => this.outcomes.push({ type: shortType(type), name, outcome });
    if (!prior) {
      note("created");
      return { id: undefined, state: wrapSecrets(inputs, secret) };
    }
    const decision = await this.decide(prior, inputs, opts);
    if (decision === "none") {
      note("unchanged");
      return { id: prior.id, state: wrapSecrets(prior.outputs, secret) };
    }
    note(decision === "update" ? "updated" : "replaced");
    return { id: decision === "update" ? prior.id : undefined, state: wrapSecrets(inputs, secret) };
  }

  private async apply(urn: string, type: string, name: string, prior: StateEntry | undefined, inputs: Props, secret: string[], opts: Registration | undefined, news: Props): Promise<StateEntry> {
    const note = (outcome: ResourceOutcome["outcome"]) => this.outcomes.push({ type: shortType(type), name, outcome, secretOutputs: secret });
    if (!prior) {
      note("created");
      return this.create(urn, type, name, inputs);
    }
    const decision = await this.decide(prior, inputs, opts);
    if (decision === "none") {
      note("unchanged");
      return { ...prior, inputs };
    }
    if (decision !== "update") {
      note("replaced");
      // The engine checks the inputs again without the old ones before a replacement: what
      // check carried over from the old object does not belong to the new one.
      const fresh = await this.plugin.check(urn, {}, news);
      if (fresh.failures.length > 0) throw new Error(`${shortType(type)} ${name}: ${fresh.failures.map((f) => f.reason).join("; ")}`);
      if (decision === "delete-then-replace") {
        if (!prior.retainOnDelete) await this.plugin.delete(urn, prior.id, prior.outputs);
        this.deleted.add(prior);
      } else this.replacedOld.push(prior);
      return this.create(urn, type, name, fresh.inputs);
    }
    note("updated");
    const { properties } = await this.plugin.update(urn, prior.id, prior.outputs, inputs);
    return { urn, type, name, id: prior.id, inputs, outputs: properties };
  }

  private async create(urn: string, type: string, name: string, inputs: Props): Promise<StateEntry> {
    try {
      const { id, properties } = await this.plugin.create(urn, inputs);
      return { urn, type, name, id, inputs, outputs: properties };
    } catch (err) {
      const init = err instanceof PluginCallError ? err.initFailure : undefined;
      if (init?.id) this.orphans.push({ urn, type, name, id: init.id, inputs, outputs: init.properties, initErrors: init.reasons });
      throw err;
    }
  }

  /** What the program no longer declares (what `up` deletes), last created first. */
  leftovers(): ResourceOutcome[] {
    return this.gone().map((entry) => ({ ...label(entry), outcome: "deleted", ...(entry.retainOnDelete ? { retained: true } : {}) }));
  }

  private gone(): StateEntry[] {
    const kept = new Set(this.touched.flatMap((e) => [e.urn, (e as { aliasOf?: string }).aliasOf]));
    return deletionOrder(this.prior.filter((e) => !kept.has(e.urn)));
  }

  /** `up` (and preview) fail when the program no longer declares a protected resource. */
  refuseProtectedLeftovers(): void {
    const protectedOnes = this.gone().filter((e) => e.protect);
    for (const e of protectedOnes) this.outcomes.push({ ...label(e), outcome: "failed", error: protectedMessage("delete") });
    if (protectedOnes.length > 0) {
      throw new Error(`${protectedOnes.map((e) => `${shortType(e.type)} ${e.name}`).join(", ")}: ${protectedMessage("delete")}`);
    }
  }

  /** Deletes what the program no longer declares, then the old halves of replacements. */
  async deleteLeftovers(): Promise<void> {
    for (const entry of [...this.gone(), ...[...this.replacedOld].reverse()]) {
      try {
        if (!entry.retainOnDelete) await this.plugin.delete(entry.urn, entry.id, entry.outputs);
      } catch (err) {
        this.outcomes.push({ ...label(entry), outcome: "failed", error: withoutTypePrefix(messageOf(err), entry) });
        throw err;
      }
      this.deleted.add(entry);
      if (!this.replacedOld.includes(entry)) this.outcomes.push({ ...label(entry), outcome: "deleted", ...(entry.retainOnDelete ? { retained: true } : {}) });
    }
  }

  newState(): StateEntry[] {
    return this.touched.map(({ aliasOf: _spent, ...entry }: StateEntry & { aliasOf?: string }) => entry);
  }

  /** After a failed run: everything that may still exist on the service, so destroy removes it. */
  stateAfterFailure(): StateEntry[] {
    const touched = new Set(this.touched.flatMap((e) => [e.urn, (e as { aliasOf?: string }).aliasOf]));
    const untouchedPrior = this.prior.filter((e) => !touched.has(e.urn));
    return [...untouchedPrior, ...this.replacedOld, ...this.touched, ...this.orphans].filter((e) => !this.deleted.has(e));
  }
}
