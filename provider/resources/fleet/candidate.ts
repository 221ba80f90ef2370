/** An offer the fleet may rent a member from, priced as the fleet counts it. */
export interface Candidate {
  id: number;
  machineId: number | null;
  country: string;
  pricePerHour: number;
  /** $/hour of the disk alone (kept while the member is stopped). */
  storagePerHour: number;
  /** With `volume`: the volume offer on the same machine the member's new volume is rented from. */
  volumeOfferId?: number;
  /** With `volume`: $/hour of the member's volume. */
  volumePerHour?: number;
}
