/**
 * `RsyncCopy`: starts a remote rsync copy between two instance containers (or returns the
 * connection fields for a copy to or from the local machine). Each create is one copy; a
 * change of any input, `triggers` included, replaces the resource and copies again. Deleting
 * it does nothing on the service: copied data stays where it is.
 */
import * as pulumi from "@pulumi/pulumi";
import { VastResource } from "../kit/resource";

/** Inputs of an `RsyncCopy` resource (a copy between instances or volumes). */
export interface RsyncCopyArgs {
  /** Source instance id. Omit it to copy from the local machine (use `dstAddr`/`dstPort`). */
  srcId?: pulumi.Input<number | string>;
  /** Destination instance id. Omit it to copy to the local machine (use `srcAddr`/`srcPort`). */
  dstId?: pulumi.Input<number | string>;
  /** Path to copy from, inside the source container. */
  srcPath: pulumi.Input<string>;
  /** Path to copy to, inside the destination container. */
  dstPath: pulumi.Input<string>;
  /** Any value; when it changes the copy runs again (the resource is replaced). */
  triggers?: pulumi.Input<unknown>;
}

/**
 * Copies data between instances with rsync, once, and again whenever `triggers` changes.
 *
 *   new vastai.RsyncCopy("weights", { srcId: trainer.id, dstId: server.id, srcPath: "/workspace/out/", dstPath: "/models/" });
 *
 * With only `dstId`, nothing is copied by the service: `dstAddr`/`dstPort` say where to rsync
 * local data to (and `srcAddr`/`srcPort` with only `srcId`).
 */
export class RsyncCopy extends VastResource {
  declare readonly srcId: pulumi.Output<number | string | undefined>;
  declare readonly dstId: pulumi.Output<number | string | undefined>;
  declare readonly srcPath: pulumi.Output<string>;
  declare readonly dstPath: pulumi.Output<string>;
  declare readonly triggers: pulumi.Output<unknown>;
  /** Address to reach the source instance at, for instance-to-local copies (null when not returned). */
  declare readonly srcAddr: pulumi.Output<string | null>;
  declare readonly srcPort: pulumi.Output<number | null>;
  /** Address to reach the destination instance at, for local-to-instance copies (null when not returned). */
  declare readonly dstAddr: pulumi.Output<string | null>;
  declare readonly dstPort: pulumi.Output<number | null>;

  constructor(name: string, args: RsyncCopyArgs, opts?: pulumi.CustomResourceOptions) {
    super("rsyncCopy", "RsyncCopy", name, { ...args, srcAddr: undefined, srcPort: undefined, dstAddr: undefined, dstPort: undefined }, opts);
  }
}
