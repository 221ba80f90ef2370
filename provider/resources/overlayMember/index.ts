/** `OverlayMember`: an instance joined to an overlay network (`PUT /api/v0/overlay/`). */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { OVERLAY_MEMBER } from "./declare";

/** An overlay membership's inputs, each also an output of the same name. */
interface OverlayMemberFields {
  /** The overlay's name (`Overlay.name`): the service joins by name. A change replaces the membership. */
  overlayName: string;
  /** The instance to join (`Instance.instanceId`). A change replaces the membership. */
  instanceId: number;
}

/** What the service shows of it. */
interface OverlayMemberComputed extends ImportedOutput {
  /** The overlay's numeric id. */
  overlayId: number;
}

/** Inputs of an `OverlayMember` resource. */
export interface OverlayMemberArgs extends ImportArgs, Inputs<OverlayMemberFields> {}

/**
 * An instance joined to an overlay network.
 *
 *   new vastai.OverlayMember("gpu-on-net", { overlayName: net.name, instanceId: gpu.instanceId });
 *
 * **Delete cannot take the instance off the overlay**: the service offers no call to leave one
 * (the vendor's client has none). Deleting the resource only forgets the membership; the
 * instance leaves when it is destroyed or when the overlay is deleted.
 */
export class OverlayMember extends resourceClass<OverlayMemberArgs, OverlayMemberFields & OverlayMemberComputed>(OVERLAY_MEMBER) {}
