/**
 * The fault matrix: every operation of every resource against every fault. Each cell starts
 * from the seed state, makes what the operation needs (without faults), arms one fault on the
 * endpoint under test, runs the operation as the engine would, and then judges the error (if
 * any) and the simulator's live state against the engine's state.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Entry, Op, Props, createVia, readVia, updateVia } from "./drive";
import { startWrongServer, type FaultKind, type WrongServer } from "./faults";
import { consistency, matchesTarget, unclear } from "./judge";
import type { LoggedRequest, Rig, StateView } from "./rig";
import { SECRET_VALUES, type Scenario, type Target } from "./scenarios";

export interface Cell {
  row: string;
  fault: string;
  /** ok | retried-ok | adopted | clear-error | partial(<id>), or a problem in capitals. */
  outcome: string;
  bad: boolean;
  /** The error message, or the problems found. */
  detail?: string;
  /** API requests the operation made, and how many of them hit the endpoint under test. */
  requests: number;
  targetRequests: number;
  ms: number;
}

async function perform(s: Scenario, op: Op, entries: Entry[]): Promise<Entry[]> {
  const p = s.provider;
  if (op === "read") {
    const found = await readVia(p, entries[0]);
    return found ? [found] : [];
  }
  if (op === "update") return [await updateVia(p, entries[0], s.updateInputs(entries[0].outs))];
  await p.delete(entries[0].id, entries[0].outs);
  return [];
}

/**
 * The state after a failed operation: a failed create keeps only what a partial failure names;
 * a failed update keeps the old entry, unless a partial failure names what was changed (the
 * engine then stores its properties, as for a create).
 */
function afterFailure(op: Op, entries: Entry[], error: unknown): Entry[] {
  const e = error as { id?: unknown; properties?: Props };
  const partial = typeof e.id === "string" && e.id !== "";
  if (op === "update") return partial ? [{ id: e.id as string, outs: e.properties ?? {} }] : entries;
  if (op !== "create") return entries;
  return partial ? [{ id: e.id as string, outs: e.properties ?? {} }] : [];
}

/** Every secret value a message must not show: fixed ones, the simulator's key, and those the service returned. */
function secretsOf(rig: Rig, s: Scenario, entries: Entry[]): string[] {
  return [...Object.values(SECRET_VALUES), rig.sim.apiKey, ...entries.flatMap((e) => s.secretsOf?.(e) ?? [])];
}

interface Prepared {
  /** The seed state, and the state just before the operation. */
  baseline: StateView;
  before: StateView;
  entries: Entry[];
  context: Props;
}

/** Seed state, the prerequisites, and (for read, update, delete) the object, made without faults. */
async function prepare(rig: Rig, s: Scenario, op: Op): Promise<Prepared> {
  await rig.reset();
  rig.freshClient();
  const baseline = await rig.liveState();
  const context = (await s.prepare?.(rig)) ?? {};
  const entries = op === "create" ? [] : [await createVia(s.provider, s.inputs(context))];
  if (op !== "create") await s.settle?.(rig, entries);
  // The operation runs as in a new plugin process: nothing cached from the set-up.
  rig.freshClient();
  await rig.clearRequests();
  return { baseline, before: await rig.liveState(), entries, context };
}

async function run(s: Scenario, op: Op, prep: Prepared): Promise<{ entries: Entry[]; error?: unknown }> {
  try {
    if (op === "create") return { entries: [await createVia(s.provider, s.inputs(prep.context))] };
    return { entries: await perform(s, op, prep.entries) };
  } catch (error) {
    return { entries: afterFailure(op, prep.entries, error), error };
  }
}

interface Success {
  op: Op;
  target: Target;
  fault: FaultKind;
  requests: LoggedRequest[];
  targetRequests: number;
  /** The state holds a live object (rotations and copies leave none). */
  holdsLiveObject: boolean;
}

function successOutcome(c: Success): string {
  // The lost request made the object, and the provider kept that one (no delete to start over).
  const effectLost = c.op === "create" && c.fault.acted && c.target.method !== "GET";
  if (effectLost && c.holdsLiveObject && !c.requests.some((r) => r.method === "DELETE")) return "adopted";
  return c.targetRequests >= 2 ? "retried-ok" : "ok";
}

let wrong: Promise<WrongServer> | undefined;

/** The wrong server, started on first use and closed with `closeWrongServer`. */
function wrongServer(): Promise<WrongServer> {
  wrong ??= startWrongServer();
  return wrong;
}

export async function closeWrongServer(): Promise<void> {
  if (wrong) await (await wrong).close();
  wrong = undefined;
}

/** Runs the operation with the providers pointed at the wrong server; its hits count as calls of the target. */
async function runAgainstWrongServer(rig: Rig, s: Scenario, op: Op, prep: Prepared): Promise<{ entries: Entry[]; error?: unknown; hits: number }> {
  const server = await wrongServer();
  const before = server.hits();
  rig.freshClient({ apiUrl: server.url, runUrl: server.url });
  try {
    return { ...(await run(s, op, prep)), hits: server.hits() - before };
  } finally {
    rig.freshClient();
  }
}

export async function runCell(rig: Rig, s: Scenario, op: Op, target: Target | null, fault: FaultKind): Promise<Cell> {
  const started = Date.now();
  const prep = await prepare(rig, s, op);
  if (target && !fault.wrongServer) await rig.fault({ method: target.method, path: target.path, times: 1, ...fault.spec(rig.profile) });
  const ran = fault.wrongServer ? await runAgainstWrongServer(rig, s, op, prep) : { ...(await run(s, op, prep)), hits: 0 };
  const { entries, error } = ran;
  // A slow request is carried out after the client gave up on it: let it land before judging.
  if (target && fault.name === "slow") await sleep(Math.max(0, rig.profile.slowDelayMs - rig.profile.clientTimeoutMs) + 30);
  const requests = await rig.requests();
  const targetRequests = fault.wrongServer ? ran.hits : target ? requests.filter((r) => matchesTarget(r, target)).length : 0;
  const problems: string[] = [];
  let outcome: string;
  let detail: string | undefined;
  if (target && targetRequests === 0 && !fault.wrongServer) problems.push(`NOT-HIT: the operation never called ${target.method} ${target.path}`);
  // Nothing a server that is not the service says can delete an object or show it gone.
  if (fault.wrongServer && error === undefined && targetRequests > 0 && (op === "delete" || (op === "read" && entries.length === 0))) {
    problems.push(`FALSE-${op === "delete" ? "DELETED" : "GONE"}: ${s.name}.${op} succeeded on the answers of a server that is not the service`);
  }
  if (error === undefined) {
    const holdsLiveObject = entries.some((e) => s.claims(e).length > 0);
    outcome = target ? successOutcome({ op, target, fault, requests, targetRequests, holdsLiveObject }) : "ok";
  } else {
    const why = target ? unclear(error, target, fault, secretsOf(rig, s, [...prep.entries, ...entries])) : ["failed without a fault"];
    const id = (error as { id?: unknown }).id;
    outcome = typeof id === "string" && id !== "" ? `partial(${id})` : "clear-error";
    detail = error instanceof Error ? error.message : String(error);
    if (why.length > 0) problems.push(`UNCLEAR: ${why.join("; ")}`);
  }
  if (fault.persistent && targetRequests > rig.profile.maxAttempts * 2) problems.push(`UNBOUNDED: ${targetRequests} requests`);
  const failedDelete = op === "delete" && error !== undefined;
  const found = await consistency(rig, s, entries, { state: await rig.liveState(), baseline: prep.baseline, before: prep.before, failedDelete });
  problems.push(...found.map((p) => `${p.kind}: ${p.detail}`));
  if (problems.length > 0) {
    outcome = [...new Set(problems.map((p) => p.split(":")[0]))].join("+");
    detail = [...problems, ...(detail ? [`error: ${detail}`] : [])].join(" | ");
  }
  const row = `${s.name}.${op}${rig.profile.allEndpoints && target ? ` @ ${target.method} ${target.path}` : ""}`;
  return { row, fault: fault.name, outcome, bad: problems.length > 0, detail, requests: requests.length, targetRequests, ms: Date.now() - started };
}

/** The endpoints an operation touches, as fault patterns (numeric segments become `*`), from a clean run. */
export async function touchedEndpoints(rig: Rig, s: Scenario, op: Op): Promise<Target[]> {
  const prep = await prepare(rig, s, op);
  const { error } = await run(s, op, prep);
  if (error) throw new Error(`${s.name}.${op} fails without faults: ${(error as Error).message}`);
  const seen = new Map<string, Target>();
  for (const r of await rig.requests()) {
    const path = r.path.replace(/\/$/, "").replace(/\/\d+(?=\/|$)/g, "/*");
    seen.set(`${r.method} ${path}`, { method: r.method, path });
  }
  return [...seen.values()];
}
