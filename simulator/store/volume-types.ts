/** Volumes of the simulator's accounts (types.ts holds them as `SimData.volumes`). */

export interface VolumeRecord {
  id: number;
  userId: number;
  /** `local`: on the offer's machine; `network`: on the offer's cluster. */
  kind: "local" | "network";
  offerId: number;
  machineId: number | null;
  clusterId: number | null;
  /** The name given at creation ("" when none). */
  name: string;
  sizeGb: number;
  createdAt: number;
}

export interface VolumeData {
  items: VolumeRecord[];
  nextId: number;
  /** Volume offers whose state the control API changed; the rest are available. */
  offerStates: Record<string, "available" | "gone">;
}

/** Ids look like the service's (`V.20118481`). */
export const FIRST_VOLUME_ID = 20_000_001;

export function emptyVolumeData(): VolumeData {
  return { items: [], nextId: FIRST_VOLUME_ID, offerStates: {} };
}
