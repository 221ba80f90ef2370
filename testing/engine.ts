/**
 * A small deployment engine for machines without the Pulumi CLI. It runs a Pulumi program
 * under `pulumi.runtime.setMocks`, and the mocks hand every dynamic resource to Pulumi's real
 * dynamic-provider plugin (the process `pulumi up` would start), doing what the engine does:
 * check, then diff against the previous run's state, then create, update or replace; resources
 * the program no longer declares are deleted. The real outputs go back to the program, so
 * dependencies (a template's hashId into an instance) flow as they do under `pulumi up`.
 *
 * Not a replacement for the CLI: no preview, no refresh, no parents, state kept in memory.
 */
import * as pulumi from "@pulumi/pulumi";
import { PluginCallError, type ProviderPlugin } from "../../simulator/plugin";
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
}

export interface EngineOptions {
  /** Project name, as in Pulumi.yaml (the program's `new pulumi.Config()` namespace). */
  project: string;
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

  /** Runs the program once, like `pulumi up --yes`, with this stack configuration. */
  async up(program: Program, config: Record<string, string>, secretKeys: string[] = []): Promise<StepReport> {
    this.config = config;
    return this.withPlugin(async (plugin) => {
      const run = new Run(plugin, this.options, this.state);
      pulumi.runtime.setAllConfig(config, secretKeys);
      await pulumi.runtime.setMocks(run.mocks(), this.options.project, this.options.stack, false);
      let exported: unknown;
      try {
        exported = await program();
      } catch (err) {
        run.fail(err);
      }
      // Every registration has reached the mocks (and so the plugin) once the RPC queue drains.
      await pulumi.runtime.disconnect();
      const failure = run.failure();
      if (failure) {
        this.state = run.stateAfterFailure();
        throw failure;
      }
      const outputs = await resolveOutputs(exported);
      const deleted = await run.deleteLeftovers();
      this.state = run.newState();
      return { outcomes: mergeOutcomes([...run.outcomes, ...deleted]), outputs };
    });
  }

  /** Deletes every resource in state, dependents first, like `pulumi destroy --yes`. */
  async destroy(): Promise<StepReport> {
    return this.withPlugin(async (plugin) => {
      const outcomes: ResourceOutcome[] = [];
      for (const entry of [...this.state].reverse()) {
        await plugin.delete(entry.urn, entry.id, entry.outputs);
        this.state = this.state.filter((e) => e !== entry);
        outcomes.push({ type: shortType(entry.type), name: entry.name, outcome: "deleted" });
      }
      return { outcomes, outputs: {} };
    });
  }

  /**
   * A fresh plugin for each operation, configured with the whole stack configuration, as the
   * engine does: nothing cached in one run's provider process carries over to the next.
   */
  private async withPlugin<T>(work: (plugin: ProviderPlugin) => Promise<T>): Promise<T> {
    const plugin = await this.startPlugin();
    try {
      await plugin.configure(this.config);
      return await work(plugin);
    } finally {
      await plugin.close();
    }
  }
}

/** One `up`: the registrations of one program run and what they did. */
class Run {
  readonly outcomes: ResourceOutcome[] = [];
  /** Entries this run created, updated or kept, in completion order (dependencies first). */
  private readonly touched: StateEntry[] = [];
  /** Old objects of create-before-delete replacements, deleted after the program. */
  private readonly replacedOld: StateEntry[] = [];
  /** Objects made on the service by an operation that then failed (kept so destroy finds them). */
  private readonly orphans: StateEntry[] = [];
  private readonly errors: unknown[] = [];

  constructor(
    private readonly plugin: ProviderPlugin,
    private readonly options: EngineOptions,
    private readonly prior: readonly StateEntry[],
  ) {}

  mocks(): pulumi.runtime.Mocks {
    return {
      newResource: async (args) => {
        if (!args.type.startsWith(DYNAMIC_PREFIX)) {
          // Component or other custom resource: nothing to deploy in this walk-through.
          return { id: args.custom ? `${args.name}-id` : undefined, state: args.inputs };
        }
        // After a failure nothing more is deployed. The failure is reported by `up`; answering
        // with an empty result (not a rejection) keeps the SDK from raising unhandled rejections.
        if (this.errors.length > 0) return { id: "", state: {} };
        try {
          return await this.register(args.type, args.name, args.inputs as Props);
        } catch (err) {
          this.fail(err);
          return { id: "", state: {} };
        }
      },
      call: async (args) => {
        this.fail(new Error(`the offline walk-through does not serve the function ${args.token}`));
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
    const prior = this.prior.find((e) => e.urn === urn);
    const checked = await this.plugin.check(urn, prior?.inputs ?? {}, plain);
    if (checked.failures.length > 0) {
      throw new Error(`${shortType(type)} ${name}: ${checked.failures.map((f) => f.reason).join("; ")}`);
    }
    const entry = await this.apply(urn, type, name, prior, checked.inputs);
    this.touched.push(entry);
    return { id: entry.id, state: wrapSecrets(entry.outputs, secretKeys) };
  }

  private async apply(urn: string, type: string, name: string, prior: StateEntry | undefined, inputs: Props): Promise<StateEntry> {
    const note = (outcome: ResourceOutcome["outcome"]) => this.outcomes.push({ type: shortType(type), name, outcome });
    if (!prior) {
      note("created");
      return this.create(urn, type, name, inputs);
    }
    const diff = await this.plugin.diff(urn, prior.id, prior.outputs, inputs);
    if (diff.changes === "none") {
      note("unchanged");
      return { ...prior, inputs };
    }
    if (diff.replaces.length > 0) {
      note("replaced");
      if (diff.deleteBeforeReplace) await this.plugin.delete(urn, prior.id, prior.outputs);
      else this.replacedOld.push(prior);
      return this.create(urn, type, name, inputs);
    }
    note("updated");
    const { properties } = await this.plugin.update(urn, prior.id, prior.outputs, inputs);
    return { ...prior, inputs, outputs: properties };
  }

  private async create(urn: string, type: string, name: string, inputs: Props): Promise<StateEntry> {
    try {
      const { id, properties } = await this.plugin.create(urn, inputs);
      return { urn, type, name, id, inputs, outputs: properties };
    } catch (err) {
      const init = err instanceof PluginCallError ? err.initFailure : undefined;
      if (init?.id) this.orphans.push({ urn, type, name, id: init.id, inputs, outputs: init.properties });
      throw err;
    }
  }

  /** Deletes what the program no longer declares, then the old halves of replacements. */
  async deleteLeftovers(): Promise<ResourceOutcome[]> {
    const kept = new Set(this.touched.map((e) => e.urn));
    const gone = this.prior.filter((e) => !kept.has(e.urn));
    const outcomes: ResourceOutcome[] = [];
    for (const entry of [...gone].reverse()) {
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
