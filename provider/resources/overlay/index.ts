/** `Overlay`: a virtual network on a cluster, for local networking between instances (`POST /api/v0/overlay/`). */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { OVERLAY } from "./declare";

/** An overlay's inputs, each also an output of the same name. */
interface OverlayFields {
  /** The cluster the overlay is made on (`Cluster.clusterId`, or a cluster id an offer shows). A change replaces the overlay. */
  clusterId: number;
  /**
   * The overlay's name, unique in the account: instances join an overlay by name
   * (`OverlayMember.overlayName`, `Fleet.overlay`). At most 64 characters, no control
   * characters. Held verbatim (no marker: the name is what joins use). A change replaces the overlay.
   */
  name: string;
}

/** What the service shows of it. */
interface OverlayComputed extends ImportedOutput {
  /** The service's numeric id of the overlay (also the Pulumi id). */
  overlayId: number;
  /** The overlay's internal subnet, when the service has assigned one. */
  internalSubnet: string | undefined;
  /** Ids of the instances on the overlay (as of the last create or refresh). */
  instanceIds: number[];
  /** True when the create took over an overlay of this name on this cluster that a killed earlier run made. */
  adopted: boolean;
}

/** Inputs of an `Overlay` resource. */
export interface OverlayArgs extends ImportArgs, Inputs<OverlayFields> {}

/**
 * An overlay network on a cluster. Deleting the resource deletes the overlay, which removes
 * every instance from it.
 *
 *   const net = new vastai.Overlay("net", { clusterId: cluster.clusterId, name: "team-net" });
 */
export class Overlay extends resourceClass<OverlayArgs, OverlayFields & OverlayComputed>(OVERLAY) {}
