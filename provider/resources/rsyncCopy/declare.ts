import type { Declaration } from "../kit/declaration";

/** The `RsyncCopy` resource, declared once for its class and its provider. */
export const RSYNC_COPY = {
  kind: "rsyncCopy",
  type: "RsyncCopy",
  computed: ["srcAddr", "srcPort", "dstAddr", "dstPort"],
  // Every input: a copy is done once; a new one is a new copy.
  replaceOn: ["srcId", "dstId", "srcPath", "dstPath", "triggers"],
  importable: false,
} as const satisfies Declaration;
