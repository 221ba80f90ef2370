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
 * Not a replacement for the CLI: no refresh, no parents, no providers other than dynamic
 * ones, state kept in memory.
 */
import * as pulumi from "@pulumi/pulumi";
import { PluginCallError, type ProviderPlugin } from "./plugin";
import { mergeOutcomes, shortType, type ResourceOutcome, type StepReport } from "./report";
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
}

export interface EngineOptions {
  /** Project name, as in Pulumi.yaml (the program's `new pulumi.Config()` namespace). */
  project: string;
  /** Stack name, as `pulumi.getStack()` returns it. */
  stack: string;
}

/** A Pulumi program: registers resources, returns (or resolves to) its stack outputs. */
export type Program = () => unknown;

/** Starts a dynamic-provider plugin process (the engine starts one per operation). */
export type PluginStarter = () => Promise<ProviderPlugin>;

export class OfflineEngine {
  private state: StateEntry[] = [];
  private config: Record<string, string> = {};

  constructor(
    private readonly startPlugin: PluginStarter,
    private readonly options: EngineOptions,
  ) {}

  /** The ids in state, by `Type::name` (for reports and for tests). */
  ids(): Record<string, string> {
    return Object.fromEntries(this.state.map((e) => [`${shortType(e.type)}::${e.name}`, e.id]));
  }

  /**
   * Runs the program like `pulumi preview` with this stack configuration (`secretKeys` name
   * the secret entries): check and diff only, nothing changes on the service or in state.
   */
  async preview(program: Program, config: Record<string, string> = {}, secretKeys: string[] = []): Promise<StepReport> {
    return this.withPlugin(config, async (plugin) => {
      const run = new Run(plugin, this.options, this.state, true);
      const { failure, outputs } = await run.execute(program, config, secretKeys);
      if (failure) throw failure;
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
      if (failure) {
        this.state = run.stateAfterFailure();
        throw failure;
      }
      const deleted = await run.deleteLeftovers();
      this.state = run.newState();
      return { outcomes: mergeOutcomes([...run.outcomes, ...deleted]), ...outputs };
    });
  }

  /** Deletes every resource in state, dependents first, like `pulumi destroy --yes`. */
  async destroy(): Promise<StepReport> {
    return this.withPlugin(this.config, async (plugin) => {
      const outcomes: ResourceOutcome[] = [];
      for (const entry of [...this.state].reverse()) {
        await plugin.delete(entry.urn, entry.id, entry.outputs);
        this.state = this.state.filter((e) => e !== entry);
        outcomes.push({ type: shortType(entry.type), name: entry.name, outcome: "deleted" });
      }
      return { outcomes, outputs: {}, secretOutputs: [] };
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

/** One `preview` or `up`: the registrations of one program run and what they did. */
class Run {
  readonly outcomes: ResourceOutcome[] = [];
  /** Entries this run created, updated or kept, in completion order (dependencies first). */
  private readonly touched: StateEntry[] = [];
  /** Old objects of create-before-delete replacements, deleted after the program. */
  private readonly replacedOld: StateEntry[] = [];
  /** Objects made on the service by an operation that then failed (kept so destroy finds them). */
  private readonly orphans: StateEntry[] = [];
  private readonly errors: unknown[] = [];
  /** `additionalSecretOutputs` of each registration, by `type::name`. */
  private readonly secretOutputsOf = new Map<string, string[]>();

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
    await pulumi.runtime.setMocks(this.mocks(), this.options.project, this.options.stack, this.dryRun);
    this.watchSecretOutputs();
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
   * The mocks' `newResource` is not told a resource's `additionalSecretOutputs`; the request
   * the SDK sends to the monitor carries them, so they are read there.
   */
  private watchSecretOutputs(): void {
    type Request = { getType(): string; getName(): string; getAdditionalsecretoutputsList(): string[] };
    const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource(req: Request, cb: unknown): Promise<void> };
    const register = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req, cb) => {
      this.secretOutputsOf.set(`${req.getType()}::${req.getName()}`, req.getAdditionalsecretoutputsList());
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

  failure(): Error | undefined {
    const first = this.errors[0];
    if (first === undefined) return undefined;
    return first instanceof Error ? first : new Error(String(first));
  }

  private async register(type: string, name: string, raw: Props): Promise<pulumi.runtime.MockResourceResult> {
    const urn = `urn:pulumi:${this.options.stack}::${this.options.project}::${type}::${name}`;
    const { plain, secretKeys } = unwrapSecrets(raw);
    const secret = [...new Set([...secretKeys, ...(this.secretOutputsOf.get(`${type}::${name}`) ?? [])])];
    const prior = this.prior.find((e) => e.urn === urn);
    const checked = await this.plugin.check(urn, prior?.inputs ?? {}, plain);
    if (checked.failures.length > 0) {
      throw new Error(`${shortType(type)} ${name}: ${checked.failures.map((f) => f.reason).join("; ")}`);
    }
    if (this.dryRun) return this.plan(urn, type, name, prior, checked.inputs, secret);
    const entry = await this.apply(urn, type, name, prior, checked.inputs, secret, plain);
    this.touched.push(entry);
    return { id: entry.id, state: wrapSecrets(entry.outputs, secret) };
  }

  /**
   * A preview of one resource: what `up` would do, from check and diff only. Outputs of a
   * resource that would change are its checked inputs; the SDK makes the rest unknown.
   */
  private async plan(urn: string, type: string, name: string, prior: StateEntry | undefined, inputs: Props, secret: string[]): Promise<pulumi.runtime.MockResourceResult> {
    this.touched.push(prior ?? { urn, type, name, id: "", inputs, outputs: {} });
    const note = (outcome: ResourceOutcome["outcome"]) => this.outcomes.push({ type: shortType(type), name, outcome });
    if (!prior) {
      note("created");
      return { id: undefined, state: wrapSecrets(inputs, secret) };
    }
    const diff = await this.plugin.diff(urn, prior.id, prior.outputs, inputs);
    if (diff.changes === "none" && !prior.initErrors) {
      note("unchanged");
      return { id: prior.id, state: wrapSecrets(prior.outputs, secret) };
    }
    note(diff.replaces.length > 0 ? "replaced" : "updated");
    return { id: diff.replaces.length > 0 ? undefined : prior.id, state: wrapSecrets(inputs, secret) };
  }

  private async apply(urn: string, type: string, name: string, prior: StateEntry | undefined, inputs: Props, secret: string[], news: Props): Promise<StateEntry> {
    const note = (outcome: ResourceOutcome["outcome"]) => this.outcomes.push({ type: shortType(type), name, outcome, secretOutputs: secret });
    if (!prior) {
      note("created");
      return this.create(urn, type, name, inputs);
    }
    const diff = await this.plugin.diff(urn, prior.id, prior.outputs, inputs);
    if (diff.changes === "none" && !prior.initErrors) {
      note("unchanged");
      return { ...prior, inputs };
    }
    if (diff.replaces.length > 0) {
      note("replaced");
      // The engine checks the inputs again without the old ones before a replacement: what
      // check carried over from the old object does not belong to the new one.
      const fresh = await this.plugin.check(urn, {}, news);
      if (fresh.failures.length > 0) throw new Error(`${shortType(type)} ${name}: ${fresh.failures.map((f) => f.reason).join("; ")}`);
      if (diff.deleteBeforeReplace) await this.plugin.delete(urn, prior.id, prior.outputs);
      else this.replacedOld.push(prior);
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
    return this.gone().map((entry) => ({ type: shortType(entry.type), name: entry.name, outcome: "deleted" }));
  }

  private gone(): StateEntry[] {
    const kept = new Set(this.touched.map((e) => e.urn));
    return this.prior.filter((e) => !kept.has(e.urn)).reverse();
  }

  /** Deletes what the program no longer declares, then the old halves of replacements. */
  async deleteLeftovers(): Promise<ResourceOutcome[]> {
    const outcomes: ResourceOutcome[] = [];
    for (const entry of this.gone()) {
      await this.plugin.delete(entry.urn, entry.id, entry.outputs);
      outcomes.push({ type: shortType(entry.type), name: entry.name, outcome: "deleted" });
    }
    for (const entry of [...this.replacedOld].reverse()) await this.plugin.delete(entry.urn, entry.id, entry.outputs);
    return outcomes;
  }

  newState(): StateEntry[] {
    return [...this.touched];
  }

  /** After a failed run: everything that may still exist on the service, so destroy removes it. */
  stateAfterFailure(): StateEntry[] {
    const touched = new Set(this.touched.map((e) => e.urn));
    const untouchedPrior = this.prior.filter((e) => !touched.has(e.urn));
    return [...untouchedPrior, ...this.replacedOld, ...this.touched, ...this.orphans];
  }
}
