/** The shape of one fleet member in state (the `members` output), shared by the class and the provider. */
/** One member of a fleet. */
export interface FleetMember {
  id: number;
  machineId: number | null;
  country: string;
  offerId: number;
  /** $/hour while running (the offer's price, disk included). */
  pricePerHour: number;
  /** $/hour of its disk while stopped. */
  storagePerHour: number;
  /** The member's own volume (with `volume`), null without one; deleted with the member. */
  volumeId: number | null;
  /** $/hour of its volume's storage, billed whatever the member's state (0 without one). */
  volumePerHour: number;
  status: string | null;
  /** Passed the readiness probe: true or false with `readiness`, null without. */
  ready: boolean | null;
  sshHost: string | null;
  sshPort: number | null;
  marker: string;
  /** Hash of the inputs it was made with: another hash rolls it. */
  spec: string;
  /** Who stopped it (as Instance's `stoppedBy`: autostop, ttl, outside, ...); null or absent while it runs. */
  stoppedBy?: string | null;
}
