/**
 * `RsyncCopy`: starts a remote rsync copy between two instance containers (or returns the
 * connection fields for a copy to or from the local machine). Each create is one copy; a
 * change of any input, `triggers` included, replaces the resource and copies again. Deleting
 * it does nothing on the service: copied data stays where it is.
 */
import { resourceClass, type Inputs } from "../kit/declare";
import { RSYNC_COPY } from "./declare";

/** A RsyncCopy's inputs, each also an output of the same name. */
interface RsyncCopyFields {
  /** Source instance id. Omit it to copy from the local machine (use `dstAddr`/`dstPort`). */
  srcId?: number | string;
  /** Destination instance id. Omit it to copy to the local machine (use `srcAddr`/`srcPort`). */
  dstId?: number | string;
  /** Path to copy from, inside the source container. */
  srcPath: string;
  /** Path to copy to, inside the destination container. */
  dstPath: string;
  /** Any value; when it changes the copy runs again (the resource is replaced). */
  triggers?: unknown;
}

/** What the service shows of it. */
interface RsyncCopyComputed {
  /** Address to reach the source instance at, for instance-to-local copies (null when not returned). */
  srcAddr: string | null;
  srcPort: number | null;
  /** Address to reach the destination instance at, for local-to-instance copies (null when not returned). */
  dstAddr: string | null;
  dstPort: number | null;
}

/** Inputs of an `RsyncCopy` resource (a copy between instances or volumes). */
export interface RsyncCopyArgs extends Inputs<RsyncCopyFields> {}

/**
 * Copies data between instances with rsync, once, and again whenever `triggers` changes.
 *
 *   new vastai.RsyncCopy("weights", { srcId: trainer.id, dstId: server.id, srcPath: "/workspace/out/", dstPath: "/models/" });
 *
 * With only `dstId`, nothing is copied by the service: `dstAddr`/`dstPort` say where to rsync
 * local data to (and `srcAddr`/`srcPort` with only `srcId`).
 */
export class RsyncCopy extends resourceClass<RsyncCopyArgs, RsyncCopyFields & RsyncCopyComputed>(RSYNC_COPY) {}
