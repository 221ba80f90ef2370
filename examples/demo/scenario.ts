/**
 * The demo's story, the same whichever way it runs: deploy the quickstart stack with a fleet of
 * three, kill its instance and two fleet members and watch the next `up` replace the instance
 * and heal the fleet, move the template to a new image tag (a new hashId: the instance follows
 * in place, on the same machine; the fleet has its own image and stays), then destroy
 * everything. Each step checks that it did what it shows; a step that does not is a failure,
 * not a quiet table.
 */
import type { Simulator } from "pulumi-vastai/simulator";
import type { Outcome, ResourceOutcome, StepReport, StepRow } from "pulumi-vastai/testing";

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
/** Members of the quickstart's fleet in the demo (the program's default is none). */
export const FLEET_SIZE = 3;
/** Fleet members the demo kills in step 2. */
export const KILLED_MEMBERS = 2;

/** The quickstart's resources as the table labels them: type and name. */
const KEY = "SshKey laptop";
const TEMPLATE = "Template pytorch";
const INSTANCE = "Instance gpu";
const FLEET = "Fleet workers";

export interface ScenarioStep {
  title: string;
  /** What each resource of the stack does in this step; anything else is a failure. */
  expect: Record<string, Outcome>;
}

/** The demo's steps, in order, with the outcome each checks (and so the table shows). */
export const STEPS = {
  up: { title: "1. up", expect: { [KEY]: "created", [TEMPLATE]: "created", [INSTANCE]: "created", [FLEET]: "created" } },
  heal: {
    title: `2. instance + ${KILLED_MEMBERS} fleet members exited, up`,
    // The instance is replaced; the fleet heals in place: the dead members go, new ones are rented on other machines.
    expect: { [KEY]: "unchanged", [TEMPLATE]: "unchanged", [INSTANCE]: "replaced", [FLEET]: "updated" },
  },
  retag: {
    title: `3. template tag ${SECOND_TAG.split("-")[0]}, up`,
    // The instance follows the new hashId in place (the container is recreated, the GPU kept);
    // the fleet has an image of its own, so the template edit leaves it as it is.
    expect: { [KEY]: "unchanged", [TEMPLATE]: "updated", [INSTANCE]: "updated", [FLEET]: "unchanged" },
  },
  destroy: { title: "4. destroy", expect: { [KEY]: "deleted", [TEMPLATE]: "deleted", [INSTANCE]: "deleted", [FLEET]: "deleted" } },
} as const satisfies Record<string, ScenarioStep>;

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
      // The demo's simulator enforces no rate limits, so requests need not keep the service's
      // pace: a tenth of each interval (the paged instance list, about one call a second on the
      // service, would otherwise set the pace of every fleet and instance wait).
      "vastai:rateLimitScale": "0.1",
      [`${project}:sshPublicKey`]: DEMO_PUBLIC_KEY,
      [`${project}:imageTag`]: imageTag,
      [`${project}:fleetSize`]: String(FLEET_SIZE),
    },
    secretKeys: ["vastai:apiKey"],
  };
}

export async function runScenario(driver: Driver, opts: ScenarioOptions): Promise<StepRow[]> {
  const rows: StepRow[] = [];
  const step = async (planned: ScenarioStep, action: () => Promise<StepReport>): Promise<StepReport> => {
    opts.log(`- ${planned.title}`);
    const started = Date.now();
    const report = await action();
    rows.push({ title: planned.title, outcomes: inTableOrder(report.outcomes), ms: Date.now() - started });
    expectOutcomes(report.outcomes, planned);
    return report;
  };
  const before = leftovers(opts.sim);
  const first = stackConfig(opts, FIRST_TAG);

  const up1 = await step(STEPS.up, () => driver.up(first.config, first.secretKeys));
  const firstId = String(up1.outputs.instanceId);
  const members1 = expectFleet(opts.sim, up1.outputs, STEPS.up);
  opts.log(`  instance ${firstId} is running; ${String(up1.outputs.sshCommand)}`);
  opts.log(`  fleet members ${members1.join(", ")} are running, one per machine`);

  const killed = members1.slice(0, KILLED_MEMBERS);
  for (const id of [firstId, ...killed]) await markExited(opts.sim, id);
  opts.log(`  instance ${firstId} and fleet members ${killed.join(", ")} marked exited through the simulator's control API`);
  const up2 = await step(STEPS.heal, () => driver.up(first.config, first.secretKeys));
  const members2 = expectFleet(opts.sim, up2.outputs, STEPS.heal);
  const survivors = killed.filter((id) => members2.includes(id));
  if (survivors.length > 0) throw new Error(`step ${STEPS.heal.title}: killed fleet member(s) ${survivors.join(", ")} are still members: ${members2.join(", ")}`);
  opts.log(`  replaced by instance ${String(up2.outputs.instanceId)}; fleet healed in the same up: members ${members2.join(", ")}`);

  const second = stackConfig(opts, SECOND_TAG);
  const up3 = await step(STEPS.retag, () => driver.up(second.config, second.secretKeys));
  if (up3.outputs.instanceId !== up2.outputs.instanceId) {
    throw new Error(`step ${STEPS.retag.title}: the instance changed from ${String(up2.outputs.instanceId)} to ${String(up3.outputs.instanceId)}; expected an update in place`);
  }
  const members3 = expectFleet(opts.sim, up3.outputs, STEPS.retag);
  if (members3.join() !== members2.join()) throw new Error(`step ${STEPS.retag.title}: the fleet members changed from ${members2.join(", ")} to ${members3.join(", ")}`);
  opts.log(`  template edited in place (new hashId), instance ${String(up3.outputs.instanceId)} updated in place on the same machine; fleet untouched`);

  await step(STEPS.destroy, () => driver.destroy());
  const after = leftovers(opts.sim);
  if (after !== before) throw new Error(`objects left on the simulator after destroy: ${after} (before the demo: ${before})`);
  return rows;
}

/**
 * The table's columns in the program's order (the order of STEPS.up), whichever order the
 * engine reported them in: the Pulumi CLI's events come as its steps finish.
 */
function inTableOrder(outcomes: ResourceOutcome[]): ResourceOutcome[] {
  const order: string[] = Object.keys(STEPS.up.expect);
  const rank = (o: ResourceOutcome) => {
    const at = order.indexOf(`${o.type} ${o.name}`);
    return at < 0 ? order.length : at;
  };
  return [...outcomes].sort((a, b) => rank(a) - rank(b));
}

/** Every resource did what the step expects of it, and no other resource took part. */
function expectOutcomes(outcomes: ResourceOutcome[], planned: ScenarioStep): void {
  const label = (o: ResourceOutcome) => `${o.type} ${o.name}`;
  for (const [resource, outcome] of Object.entries(planned.expect)) {
    const found = outcomes.filter((o) => label(o) === resource);
    if (found.length === 0) throw new Error(`step ${planned.title}: ${resource} took no part (expected it to be ${outcome})`);
    const wrong = found.find((o) => o.outcome !== outcome);
    if (wrong) throw new Error(`step ${planned.title}: ${resource} was ${wrong.outcome}, expected ${outcome}`);
  }
  const stray = outcomes.find((o) => !(label(o) in planned.expect));
  if (stray) throw new Error(`step ${planned.title}: ${label(stray)} was ${stray.outcome}, but the demo expects no such resource`);
}

/**
 * The fleet's member ids from the stack outputs, after checking there are FLEET_SIZE of them,
 * all running, each on a machine of its own (the simulator's view: the spread held).
 */
function expectFleet(sim: Simulator, outputs: Record<string, unknown>, planned: ScenarioStep): string[] {
  const stepNo = planned.title;
  const members = outputs.fleetMembers;
  if (!Array.isArray(members)) throw new Error(`step ${stepNo}: the stack exports no fleetMembers list (got ${JSON.stringify(members)})`);
  const ids = members.map(String);
  if (ids.length !== FLEET_SIZE) throw new Error(`step ${stepNo}: the fleet has ${ids.length} members (${ids.join(", ")}), expected ${FLEET_SIZE}`);
  if (new Set(ids).size !== ids.length) throw new Error(`step ${stepNo}: the fleet lists a member twice: ${ids.join(", ")}`);
  if (outputs.fleetHealthy !== FLEET_SIZE) {
    throw new Error(`step ${stepNo}: ${String(outputs.fleetHealthy)} of the fleet's ${FLEET_SIZE} members are running, expected all`);
  }
  const machines = new Map(sim.state().instances.map((i) => [String(i.id), i.machine_id]));
  const missing = ids.filter((id) => !machines.has(id));
  if (missing.length > 0) throw new Error(`step ${stepNo}: fleet member(s) ${missing.join(", ")} do not exist on the simulator`);
  if (new Set(ids.map((id) => machines.get(id))).size !== ids.length) {
    throw new Error(`step ${stepNo}: fleet members share a machine: ${ids.map((id) => `${id} on ${String(machines.get(id))}`).join(", ")}`);
  }
  return ids;
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
