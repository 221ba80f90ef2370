import type { Declaration } from "../kit/declaration";

/** The `Overlay` resource, declared once for its class and its provider. */
export const OVERLAY = {
  kind: "overlay",
  type: "Overlay",
  computed: ["overlayId", "internalSubnet", "instanceIds", "adopted"],
  replaceOn: ["clusterId", "name"],
  deleteBeforeReplace: true,
} as const satisfies Declaration;
