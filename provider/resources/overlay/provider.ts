/**
 * The Overlay provider. A create answers only `{msg}`: the overlay is found in the list by its
 * name, which is unique in the account (joins use it). An overlay holds no marker: one of the
 * same name on the same cluster is taken for what a killed run left on the resource's first
 * create only (as Endpoint); otherwise a name in use fails the create, naming the overlay.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Overlay as LiveOverlay, VastClient } from "../../client";
import { getClient } from "../../context";
import { createAtMostOnce, isFirstCreate, jsonClean, lookUp, numericImport, type ImportableImpl, type Props, recordedUpdate, checkAndDiff } from "../kit";
import { OVERLAY } from "./declare";
import { withoutControlCharacters } from "../kit/text-schema";
import { idRule, numericId } from "../cluster/check";

/** The longest overlay name the simulator takes (the service does not document one). */
export const OVERLAY_NAME_LIMIT = 64;

export const overlayNameRule = withoutControlCharacters(
  z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .max(OVERLAY_NAME_LIMIT, `must be at most ${OVERLAY_NAME_LIMIT} characters`)
    .refine((v) => v.trim() === v, "must not start or end with spaces"),
);

const schema = z.object({ clusterId: idRule("a cluster id, Cluster.clusterId"), name: overlayNameRule });

function outputsOf(o: LiveOverlay, adopted: boolean): Props {
  return jsonClean({ overlayId: o.id, internalSubnet: o.internalSubnet, instanceIds: o.instanceIds, adopted }) as Props;
}

async function createOverlay(client: VastClient, clusterId: number, name: string, first: boolean): Promise<{ overlay: LiveOverlay; adopted: boolean }> {
  const label = `Overlay "${name}"`;
  const byName = async () => (await client.clusters.overlays()).find((o) => o.name === name);
  const before = await byName();
  if (before) {
    if (first && before.clusterId === clusterId) return { overlay: before, adopted: true };
    throw new Error(`${label}: the account already has an overlay of this name (id ${before.id}, cluster ${before.clusterId}); names are unique in the account: choose another name`);
  }
  const overlay = await createAtMostOnce<LiveOverlay>({
    send: async () => {
      await client.clusters.createOverlay(clusterId, name);
      const made = await byName();
      if (!made) throw new Error(`${label}: the service answered the create but lists no overlay of this name`);
      return made;
    },
    recover: async () => lookUp(byName),
  });
  return { overlay, adopted: false };
}

export const provider: ImportableImpl = {
  // importId: the overlay's id (`getOverlays`); a cluster left out keeps the service's.
  importing: numericImport("Overlay", "overlay", { keepShown: ["clusterId"], optionalOnImport: ["clusterId"] }),

  ...checkAndDiff(OVERLAY, schema),

  async create(inputs) {
    let made;
    try {
      made = await createOverlay(getClient(), Number(inputs.clusterId), String(inputs.name), isFirstCreate(inputs));
    } catch (error) {
      throw new Error(`Overlay "${String(inputs.name)}": creating the overlay failed: ${(error as Error).message}`, { cause: error });
    }
    return { id: String(made.overlay.id), outs: jsonClean({ ...inputs, ...outputsOf(made.overlay, made.adopted) }) as Props };
  },

  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const n = numericId("Overlay", id);
    const live = (await getClient().clusters.overlays()).find((o) => o.id === n);
    if (!live) return { id: "" };
    const inputs = { clusterId: live.clusterId, name: live.name };
    return { id, props: jsonClean({ ...props, ...inputs, ...outputsOf(live, props.adopted === true) }) as Props, inputs };
  },

  async update(_id, olds, news) {
    return { outs: recordedUpdate(OVERLAY, olds, news) };
  },

  async delete(id, props) {
    try {
      await getClient().clusters.deleteOverlay(numericId("Overlay", id));
    } catch (error) {
      throw new Error(`Overlay "${String(props.name)}" (id ${id}): deleting the overlay failed: ${(error as Error).message}`, { cause: error });
    }
  },
};
