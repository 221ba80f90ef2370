/**
 * The demo's story, the same whichever way it runs: deploy the quickstart stack, kill its
 * instance and watch the next `up` replace it, move the template to a new image tag (a new
 * hashId: the instance follows in place, on the same machine), then destroy everything. Each step checks that it did what
 * it shows; a step that does not is a failure, not a quiet table.
 */
import type { Simulator } from "pulumi-vastai/simulator";
import type { ResourceOutcome, StepReport, StepRow } from "pulumi-vastai/testing";

/** Runs the quickstart program: with the Pulumi CLI or offline. */
export interface Driver {
  up(config: Record<string, string>, secretKeys: string[]): Promise<StepReport>;
  destroy(): Promise<StepReport>;
  close(): Promise<void>;
}

/** A public key in OpenSSH format for the demo (its private half is not used anywhere). */
export const DEMO_PUBLIC_KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP8j0WRarqJ7QZ7ksIiDa7oSRCXNRGNGhtYnCq/bAFm8 demo@pulumi-vastai";
export const FIRST_TAG = "2.4.0-cuda12.4-cudnn9-runtime";
export const SECOND_TAG = "2.5.1-cuda12.4-cudnn9-runtime";

export interface ScenarioOptions {
  sim: Simulator;
  /** Project name from Pulumi.yaml: the namespace of the program's own config keys. */
  project: string;
  /** Receives progress lines. */
  log(line: string): void;
}

/** Stack configuration pointing the providers (and the program) at the simulator. */
export function stackConfig(opts: ScenarioOptions, imageTag: string): { config: Record<string, string>; secretKeys: string[] } {
  const { sim, project } = opts;
  return {
    config: {
      "vastai:apiKey": sim.apiKey,
      "vastai:apiUrl": sim.url,
      "vastai:runUrl": sim.runUrl,
      // The simulator boots an instance in a fraction of a second; poll accordingly.
      "vastai:pollIntervalMs": "100",
      [`${project}:sshPublicKey`]: DEMO_PUBLIC_KEY,
      [`${project}:imageTag`]: imageTag,
    },
    secretKeys: ["vastai:apiKey"],
  };
}

export async function runScenario(driver: Driver, opts: ScenarioOptions): Promise<StepRow[]> {
  const rows: StepRow[] = [];
  const step = async (title: string, action: () => Promise<StepReport>): Promise<StepReport> => {
    opts.log(`- ${title}`);
    const started = Date.now();
    const report = await action();
    rows.push({ title, outcomes: report.outcomes, ms: Date.now() - started });
    return report;
  };
  const before = leftovers(opts.sim);
  const first = stackConfig(opts, FIRST_TAG);

  const up1 = await step("1. up", () => driver.up(first.config, first.secretKeys));
  expectOutcome(up1.outcomes, "SshKey", "created", "1");
  expectOutcome(up1.outcomes, "Template", "created", "1");
  expectOutcome(up1.outcomes, "Instance", "created", "1");
  const firstId = String(up1.outputs.instanceId);
  opts.log(`  instance ${firstId} is running; ${String(up1.outputs.sshCommand)}`);

  await markExited(opts.sim, firstId);
  opts.log(`  instance ${firstId} marked exited through the simulator's control API`);
  const up2 = await step("2. instance exited, up", () => driver.up(first.config, first.secretKeys));
  expectOutcome(up2.outcomes, "Instance", "replaced", "2");
  opts.log(`  replaced by instance ${String(up2.outputs.instanceId)}`);

  const second = stackConfig(opts, SECOND_TAG);
  const up3 = await step(`3. template tag ${SECOND_TAG.split("-")[0]}, up`, () => driver.up(second.config, second.secretKeys));
  expectOutcome(up3.outcomes, "Template", "updated", "3");
  // The instance follows the new hashId in place: the container is recreated, the GPU kept.
  expectOutcome(up3.outcomes, "Instance", "updated", "3");
  if (up3.outputs.instanceId !== up2.outputs.instanceId) {
    throw new Error(`step 3: the instance changed from ${String(up2.outputs.instanceId)} to ${String(up3.outputs.instanceId)}; expected an update in place`);
  }
  opts.log(`  template edited in place (new hashId), instance ${String(up3.outputs.instanceId)} updated in place on the same machine`);

  const down = await step("4. destroy", () => driver.destroy());
  for (const type of ["Instance", "Template", "SshKey"]) expectOutcome(down.outcomes, type, "deleted", "4");
  const after = leftovers(opts.sim);
  if (after !== before) throw new Error(`objects left on the simulator after destroy: ${after} (before the demo: ${before})`);
  return rows;
}

function expectOutcome(outcomes: ResourceOutcome[], type: string, outcome: string, stepNo: string): void {
  const found = outcomes.filter((o) => o.type === type);
  if (found.length === 0) throw new Error(`step ${stepNo}: no ${type} took part (expected one to be ${outcome})`);
  const wrong = found.find((o) => o.outcome !== outcome);
  if (wrong) throw new Error(`step ${stepNo}: ${type} ${wrong.name} was ${wrong.outcome}, expected ${outcome}`);
}

/** `POST /_sim/instances/{id}/status`: the instance dies as a real one can (spec: States). */
async function markExited(sim: Simulator, id: string): Promise<void> {
  const res = await fetch(`${sim.url}/_sim/instances/${encodeURIComponent(id)}/status`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ actual_status: "exited" }),
  });
  if (!res.ok) throw new Error(`the simulator refused to mark instance ${id} exited: HTTP ${res.status} ${await res.text()}`);
}

/** Instances, templates and SSH keys on the simulator, as one comparable line. */
function leftovers(sim: Simulator): string {
  const s = sim.state();
  return `${s.instances.length} instances, ${s.templates.length} templates, ${s.sshKeys.length} SSH keys`;
}
