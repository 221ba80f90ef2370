/** The Instance provider: check, diff, create, read, update, delete (see instance.ts for the class). */
import type { Instance, VastClient } from "../client";
import { getClient } from "../context";
import { ProviderImpl, Props, deepEqual, jsonClean, userInputs } from "./framework";
import { describeOutcome, waitForRunning } from "./instance-boot";
import { createInstance } from "./instance-create";
import { diffInstance } from "./instance-diff";
import { checkInstanceInputs, typedInputs } from "./instance-inputs";
import { liveOutputs, storedInputs, storedOutputs } from "./instance-outputs";
import { liveInstances } from "./live/instances";

function instanceNumber(id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`Instance: id "${id}" is not an instance id`);
  return n;
}

/** State from a live record: live outputs, and drift of the properties that change in place. */
function reflect(props: Props, instance: Instance): Props {
  const outs: Props = { ...props, ...liveOutputs(instance) };
  // Only a label the program manages is compared; the service may label instances itself.
  if (typeof props.label === "string") outs.label = instance.label ?? "";
  if (instance.intendedStatus === "running" || instance.intendedStatus === "stopped") outs.targetState = instance.intendedStatus;
  return outs;
}

async function applyInPlace(client: VastClient, id: number, olds: Props, news: Props): Promise<boolean> {
  let stateChanged = false;
  if (!deepEqual(olds.label, news.label)) {
    await client.instances.setLabel(id, typeof news.label === "string" ? news.label : "");
    liveInstances(client).noteWrite(String(id));
  }
  if (!deepEqual(olds.targetState, news.targetState)) {
    if (news.targetState === "stopped") await client.instances.stop(id);
    else await client.instances.start(id);
    liveInstances(client).noteWrite(String(id));
    stateChanged = true;
  }
  return stateChanged;
}

/** After an in-place change: wait for `running` when asked to, else read once; throws when it cannot run. */
async function settle(client: VastClient, id: number, news: Props): Promise<Instance | null> {
  const inputs = typedInputs(news);
  if (!(inputs.waitForRunning && inputs.targetState === "running")) return client.instances.get(id);
  const timeoutMs = inputs.runningTimeoutMinutes * 60_000;
  const outcome = await waitForRunning(client, id, timeoutMs);
  if (outcome.kind === "running") return outcome.instance;
  throw new Error(`Instance ${id}: ${describeOutcome(outcome, timeoutMs)}; the next \`pulumi up\` replaces it if it is dead`);
}

export const instanceImpl: ProviderImpl = {
  async check(_olds, news) {
    return checkInstanceInputs(news);
  },

  diff(id, olds, news) {
    return diffInstance(id, olds, news);
  },

  create(inputs) {
    return createInstance(inputs);
  },

  async read(id, props) {
    const instance = await liveInstances().get(id);
    if (!instance) return { id: "" };
    const outs = jsonClean(reflect(props, instance)) as Props;
    return { id, props: outs, inputs: storedInputs(outs) };
  },

  async update(id, olds, news) {
    const client = getClient();
    const n = instanceNumber(id);
    const stateChanged = await applyInPlace(client, n, olds, news);
    const base = { ...storedOutputs(olds), ...userInputs(news) };
    // A label change needs no read back; a state change (or a boot left unfinished) does.
    const needsStatus = stateChanged || storedOutputs(olds).actualStatus !== "running";
    const instance = needsStatus ? await settle(client, n, news) : null;
    return { outs: jsonClean(instance ? { ...base, ...liveOutputs(instance) } : base) as Props };
  },

  async delete(id) {
    const client = getClient();
    const n = instanceNumber(id);
    try {
      await client.instances.destroy(n);
    } catch (error) {
      throw new Error(`Instance ${id}: destroying it failed: ${(error as Error).message}`, { cause: error });
    } finally {
      liveInstances(client).noteWrite(id);
    }
  },
};
