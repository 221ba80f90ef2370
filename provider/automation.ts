/**
 * Running a program under a Pulumi CLI that has no Node.js language host, such as the one
 * `npm run pulumi-cli` builds into `.pulumi/bin`: `pulumi up` in a project needs
 * `pulumi-language-nodejs`, but the Automation API runs the program inline, in this process,
 * and asks the CLI only for the engine (and the dynamic-provider plugin, which sits next to it).
 *
 *     import { runInline } from "pulumi-vastai/automation";
 *     await runInline({ program: async () => { new vastai.Instance("gpu", {...}); }, projectName: "gpus", stackName: "dev",
 *       cli: ".pulumi/bin/pulumi", config: { "vastai:apiKey": { value: key, secret: true } } });
 *
 * The engine's output (steps, `[diff: ...]`, the provider's messages) is printed as `pulumi up`
 * prints it. State goes where PULUMI_BACKEND_URL says (a `file://` directory or the Pulumi
 * Cloud), as for the CLI; nothing here chooses it for you.
 */
import * as path from "path";
import type { ConfigMap, PulumiFn } from "@pulumi/pulumi/automation";

/** What `runInline` runs, with which CLI, on which stack. */
export interface InlineRun {
  /** The program: what `index.ts` would hold, as an async function. */
  program: PulumiFn;
  projectName: string;
  stackName: string;
  /** Path of the `pulumi` binary (e.g. `.pulumi/bin/pulumi`); default `pulumi` on the PATH. */
  cli?: string;
  /** The operation; default `up`. */
  operation?: "preview" | "up" | "refresh" | "destroy";
  /** Stack configuration, set before the operation (`{ "vastai:apiKey": { value, secret: true } }`). */
  config?: ConfigMap;
  /** Directory of the project (Pulumi.<stack>.yaml goes there); default the current one. */
  workDir?: string;
  /** Environment for the CLI, added to this process's. */
  envVars?: Record<string, string>;
  /** Where the engine's output goes; default this process's stdout. */
  onOutput?: (text: string) => void;
}

/** Runs `run.program` as `pulumi <operation>` would, under the CLI `run.cli`; resolves with the stack's outputs (after up). */
export async function runInline(run: InlineRun): Promise<Record<string, unknown>> {
  const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");
  const cli = run.cli ?? "pulumi";
  const onOutput = run.onOutput ?? ((text: string) => void process.stdout.write(text));
  const builtIn = cli !== "pulumi";
  const binDir = path.dirname(path.resolve(cli));
  const pulumiCommand = await PulumiCommand.get(builtIn ? { root: path.dirname(binDir) } : {});
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName: run.projectName, stackName: run.stackName, program: run.program },
    {
      workDir: run.workDir ?? process.cwd(),
      pulumiCommand,
      envVars: {
        PULUMI_SKIP_UPDATE_CHECK: "true",
        // The dynamic-provider plugin (pulumi-resource-pulumi-nodejs) is found next to a built CLI.
        ...(builtIn ? { PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}` } : {}),
        ...run.envVars,
      },
    },
  );
  if (run.config) await stack.setAllConfig(run.config);
  switch (run.operation ?? "up") {
    case "preview":
      await stack.preview({ onOutput });
      return {};
    case "refresh":
      await stack.refresh({ onOutput });
      return {};
    case "destroy":
      await stack.destroy({ onOutput });
      return {};
    default: {
      const result = await stack.up({ onOutput });
      return Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value]));
    }
  }
}
