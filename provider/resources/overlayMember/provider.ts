/**
 * The OverlayMember provider; the Pulumi id is `<overlayId>/<instanceId>`. Joining is idempotent
 * on the service (an instance already on the overlay stays), so a create simply joins. The
 * service has no call to leave an overlay: delete only forgets (docs/clusters.md, "OverlayMember").
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { getClient } from "../../context";
import { jsonClean, type ImportableImpl, type Props, recordedUpdate, checkAndDiff } from "../kit";
import { OVERLAY_MEMBER } from "./declare";
import { idRule } from "../cluster/check";
import { overlayNameRule } from "../overlay/provider";

const schema = z.object({ overlayName: overlayNameRule, instanceId: idRule("an instance id, Instance.instanceId") });

function parseId(id: string): { overlayId: number; instanceId: number } {
  const m = /^(\d+)\/(\d+)$/.exec(id);
  if (!m) throw new Error(`OverlayMember id "${id}" is not <overlayId>/<instanceId>`);
  return { overlayId: Number(m[1]), instanceId: Number(m[2]) };
}

export const provider: ImportableImpl = {
  // importId: "<overlayId>/<instanceId>"; the declared overlayName must be that overlay's.
  importing: {
    type: "OverlayMember",
    noun: "overlay membership",
    idRule: 'must be "<overlayId>/<instanceId>" (what the resource\'s id would be), such as "2/1000004"',
    validId: (id) => /^[1-9]\d{0,11}\/[1-9]\d{0,15}$/.test(id),
    verify: (id, declared) => (id.endsWith(`/${String(declared.instanceId)}`) ? undefined : `the declared instanceId ${String(declared.instanceId)} is not the one of this id`),
  },

  ...checkAndDiff(OVERLAY_MEMBER, schema),

  async create(inputs) {
    const client = getClient();
    const name = String(inputs.overlayName);
    const instanceId = Number(inputs.instanceId);
    const label = `OverlayMember (instance ${instanceId}, overlay "${name}")`;
    const overlay = (await client.clusters.overlays()).find((o) => o.name === name);
    if (!overlay) throw new Error(`${label}: overlayName: the account has no overlay named "${name}"`);
    try {
      if (!overlay.instanceIds.includes(instanceId)) await client.clusters.joinOverlay(name, instanceId);
    } catch (error) {
      throw new Error(`${label}: joining the overlay failed: ${(error as Error).message}`, { cause: error });
    }
    return { id: `${overlay.id}/${instanceId}`, outs: jsonClean({ ...inputs, overlayId: overlay.id }) as Props };
  },

  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const { overlayId, instanceId } = parseId(id);
    const overlay = (await getClient().clusters.overlays()).find((o) => o.id === overlayId);
    // The instance left (destroyed) or the overlay is gone: the membership is gone.
    if (!overlay || !overlay.instanceIds.includes(instanceId)) return { id: "" };
    const inputs = { overlayName: overlay.name, instanceId };
    return { id, props: jsonClean({ ...props, ...inputs, overlayId }) as Props, inputs };
  },

  async update(_id, olds, news) {
    return { outs: recordedUpdate(OVERLAY_MEMBER, olds, news) };
  },

  // No call leaves an overlay (the vendor's client has none): the membership is forgotten; the
  // instance leaves when it is destroyed or the overlay deleted.
  async delete() {},
};
