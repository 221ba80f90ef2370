/**
 * `pulumi-vastai/testing`: run a Pulumi program's resources through Pulumi's real
 * dynamic-provider plugin against the local simulator, without the Pulumi CLI or a cloud
 * account: preview, up and destroy, with a report of what happened to each resource and which
 * outputs are secret. State is kept in memory.
 *
 * Loading this module loads no simulator (and so no fastify): `startTestStack` loads it when
 * it starts one.
 */
import type { Simulator, SimulatorOptions } from "../simulator/index";
import { OfflineEngine, type Program } from "./engine";
import { startProviderPlugin, type ProviderPlugin } from "./plugin";
import type { StepReport } from "./report";

export { OfflineEngine, type EngineOptions, type Program, type PluginStarter } from "./engine";
export {
  startProviderPlugin,
  dynamicUrn,
  PluginCallError,
  UNKNOWN_VALUE,
  type ProviderPlugin,
  type PluginOptions,
  type CheckFailure,
  type DiffResult,
  type ShownDiffResult,
} from "./plugin";
export { formatTable, mergeOutcomes, shortType, StepFailedError, type Outcome, type ResourceOutcome, type StepReport, type StepRow } from "./report";

/** Options of `startTestStack`: project, stack, directory, simulator options and configuration. */
export interface TestStackOptions {
  /** Project name: the namespace of `new pulumi.Config()` in the program. Default `test`. */
  project?: string;
  /** Stack name. Default `test`. */
  stack?: string;
  /**
   * Directory the provider plugin runs in; its node_modules must hold `@pulumi/pulumi` and
   * `pulumi-vastai`. Default: the current directory (your project).
   */
  cwd?: string;
  /** Simulator options. Default: a free port on 127.0.0.1 and instances that boot at once. */
  simulator?: SimulatorOptions;
  /**
   * Stack configuration for every run, added to the simulator's credentials
   * (`vastai:apiKey`, secret; `vastai:apiUrl`; `vastai:runUrl`), e.g.
   * `{ "vastai:pollIntervalMs": "5" }` for status polls every 5 ms instead of 10 s.
   */
  config?: Record<string, string>;
}

/** A simulator and an offline engine whose stack configuration points at it. */
export interface TestStack {
  readonly sim: Simulator;
  readonly engine: OfflineEngine;
  /** `pulumi preview`: check and diff only; nothing is created, changed or deleted. */
  preview(program: Program, config?: Record<string, string>): Promise<StepReport>;
  /** `pulumi up --yes`; `config` is added to the stack configuration for this run. */
  up(program: Program, config?: Record<string, string>): Promise<StepReport>;
  /** `pulumi destroy --yes`. */
  destroy(): Promise<StepReport>;
  /**
   * Ends every provider plugin process still running (a step cut short by a test timeout leaves
   * one) and stops the simulator. Call it in `afterAll`; destroy first to delete what the
   * program made.
   */
  close(): Promise<void>;
}

/**
 * Starts a simulator on 127.0.0.1 and returns a stack whose runs go through Pulumi's real
 * dynamic-provider plugin against it. Credentials come from the stack configuration only
 * (the plugin does not see `VAST_API_KEY`, `VAST_URL` or `VAST_RUN_URL`).
 */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  // Loaded here, not at the top: importing this module must not load the simulator's server.
  const { startSimulator } = require("../simulator/start") as typeof import("../simulator/start");
  const sim = await startSimulator({ port: 0, bootMs: 0, ...options.simulator });
  const cwd = options.cwd ?? process.cwd();
  // Every plugin process this stack starts, until it is closed: `close` ends those a timed-out
  // step left running, so jest does not wait on them.
  const live = new Set<ProviderPlugin>();
  let closed = false;
  const startPlugin = async (): Promise<ProviderPlugin> => {
    const plugin = await startProviderPlugin({ cwd, env: { VAST_API_KEY: undefined, VAST_URL: undefined, VAST_RUN_URL: undefined } });
    if (closed) {
      await plugin.close();
      throw new Error("the test stack was closed");
    }
    live.add(plugin);
    return { ...plugin, close: () => (live.delete(plugin), plugin.close()) };
  };
  const engine = new OfflineEngine(startPlugin, { project: options.project ?? "test", stack: options.stack ?? "test" });
  const stackConfig = (extra: Record<string, string> = {}) => ({
    "vastai:apiKey": sim.apiKey,
    "vastai:apiUrl": sim.url,
    "vastai:runUrl": sim.runUrl,
    ...options.config,
    ...extra,
  });
  const secretKeys = ["vastai:apiKey"];
  return {
    sim,
    engine,
    preview: (program, config) => engine.preview(program, stackConfig(config), secretKeys),
    up: (program, config) => engine.up(program, stackConfig(config), secretKeys),
    destroy: () => engine.destroy(),
    close: async () => {
      closed = true;
      await Promise.all([...live].map((p) => (live.delete(p), p.close())));
      await sim.close();
    },
  };
}
