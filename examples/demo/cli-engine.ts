/**
 * The demo with the Pulumi CLI: the quickstart project (root Pulumi.yaml) in a throwaway stack
 * on a local file backend, driven through Pulumi's Automation API (which runs the `pulumi`
 * binary). The program runs inline, in this process (the CLI gets `--client`), so the CLI needs
 * no Node.js language host: the one `npm run pulumi-cli` builds into .pulumi/bin works as well
 * as an installed one. Each resource's outcome comes from the engine's step events.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LocalWorkspace, PulumiCommand, type EngineEvent, type OpType, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { mergeOutcomes, shortType, type Outcome, type ResourceOutcome, type StepReport } from "pulumi-vastai/testing";

const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/";
/** Only this throwaway stack's state is encrypted with it; it lives in a temporary directory. */
const DEMO_PASSPHRASE = "pulumi-vastai-demo";

const OUTCOMES: Partial<Record<OpType, Outcome>> = {
  same: "unchanged",
  create: "created",
  update: "updated",
  replace: "replaced",
  "create-replacement": "replaced",
  "delete-replaced": "replaced",
  delete: "deleted",
};

/** Where `npm run pulumi-cli` installs the CLI, under the checkout's root. */
export const BUILT_CLI_ROOT = ".pulumi";

/**
 * The CLI to use: the one built into `<root>/.pulumi/bin` when present, else `pulumi` on the
 * PATH; with its version, or undefined when there is none.
 */
export function findPulumi(root: string): Promise<{ command: string; version: string } | undefined> {
  const built = path.join(root, BUILT_CLI_ROOT, "bin", "pulumi");
  const command = fs.existsSync(built) ? built : "pulumi";
  return new Promise((resolve) => {
    execFile(command, ["version"], { timeout: 20_000 }, (err, stdout) => resolve(err ? undefined : { command, version: stdout.trim() }));
  });
}

export class CliEngine {
  private constructor(
    private readonly stack: Stack,
    private readonly backendDir: string,
    private readonly projectDir: string,
  ) {}

  /**
   * A new stack `stackName` of the project `projectName` in `projectDir`, running
   * `program` inline with the CLI `command`; state and PULUMI_HOME in a temporary directory.
   */
  static async create(projectDir: string, projectName: string, stackName: string, program: PulumiFn, command: string): Promise<CliEngine> {
    const backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-demo-state-"));
    try {
      const binDir = path.dirname(command);
      const pulumiCommand = await PulumiCommand.get(command === "pulumi" ? {} : { root: path.dirname(binDir) });
      fs.mkdirSync(path.join(backendDir, "home"));
      const stack = await LocalWorkspace.createStack(
        { projectName, stackName, program },
        {
          workDir: projectDir,
          pulumiCommand,
          envVars: {
            PULUMI_BACKEND_URL: `file://${backendDir}`,
            PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE,
            PULUMI_HOME: path.join(backendDir, "home"),
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
            // The dynamic-provider plugin is found next to a built CLI.
            ...(command === "pulumi" ? {} : { PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}` }),
          },
        },
      );
      return new CliEngine(stack, backendDir, projectDir);
    } catch (err) {
      fs.rmSync(backendDir, { recursive: true, force: true });
      throw err;
    }
  }

  /** `pulumi up --yes` with this configuration (replacing the stack's previous one). */
  async up(config: Record<string, string>, secretKeys: string[] = []): Promise<StepReport> {
    await this.stack.setAllConfig(
      Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v, secret: secretKeys.includes(k) }])),
    );
    const ops: ResourceOutcome[] = [];
    const result = await this.stack.up({ onEvent: (e) => collect(e, ops), color: "never" });
    const outputs = Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value]));
    const secretOutputs = Object.entries(result.outputs).flatMap(([k, v]) => (v.secret ? [k] : []));
    return { outcomes: mergeOutcomes(ops), outputs, secretOutputs };
  }

  /** `pulumi destroy --yes`. */
  async destroy(): Promise<StepReport> {
    const ops: ResourceOutcome[] = [];
    await this.stack.destroy({ onEvent: (e) => collect(e, ops), color: "never" });
    return { outcomes: mergeOutcomes(ops), outputs: {}, secretOutputs: [] };
  }

  /** Removes the stack, its settings file and the temporary state. */
  async close(): Promise<void> {
    const name = this.stack.name;
    try {
      await this.stack.workspace.removeStack(name, { force: true });
    } catch {
      // The stack may not exist any more; the directories below still go.
    }
    fs.rmSync(path.join(this.projectDir, `Pulumi.${name}.yaml`), { force: true });
    fs.rmSync(this.backendDir, { recursive: true, force: true });
  }
}

/** The outcome a step event reports for a dynamic resource (other events: undefined). */
export function outcomeOf(event: EngineEvent): ResourceOutcome | undefined {
  const meta = event.resourcePreEvent?.metadata;
  if (!meta || !meta.type.startsWith(DYNAMIC_PREFIX)) return undefined;
  const outcome = OUTCOMES[meta.op];
  if (!outcome) return undefined;
  return { type: shortType(meta.type), name: meta.urn.slice(meta.urn.lastIndexOf("::") + 2), outcome };
}

function collect(event: EngineEvent, into: ResourceOutcome[]): void {
  const outcome = outcomeOf(event);
  if (outcome) into.push(outcome);
}

/**
 * The `error:` lines of a CLI failure (the Automation API's message carries the whole stdout
 * and stderr), each once; without any, the last lines.
 */
export function cliFailureReason(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split("\n");
  const errors = lines.flatMap((l) => {
    const at = l.indexOf("error:");
    return at >= 0 ? [l.slice(at).trim()] : [];
  });
  const chosen = errors.length > 0 ? errors : lines.map((l) => l.trim()).filter(Boolean).slice(-5);
  return [...new Set(chosen)].join("\n");
}
