import type { Declaration } from "../kit/declaration";

/** The `OverlayMember` resource, declared once for its class and its provider. */
export const OVERLAY_MEMBER = {
  kind: "overlayMember",
  type: "OverlayMember",
  computed: ["overlayId"],
  replaceOn: ["overlayName", "instanceId"],
} as const satisfies Declaration;
