/** Lookups of the account's physical clusters and overlay networks (not in the vendor document; the vendor client's shapes). */
import * as pulumi from "@pulumi/pulumi";
import type { Cluster, Overlay } from "../client/types-clusters";
import { LookupOptions, clientOf } from "./common";

/** The clusters of the account's machines (`GET /api/v0/clusters/`): id, subnet, nodes and manager. */
export function getClusters(options?: LookupOptions): Promise<Cluster[]> {
  return clientOf(options).clusters.list();
}
/** `getClusters` as an Output. */
export function getClustersOutput(options?: LookupOptions): pulumi.Output<Cluster[]> {
  return pulumi.output(getClusters(options));
}

/** The account's overlay networks (`GET /api/v0/overlay/`): id, name, cluster, internal subnet and instance ids. */
export function getOverlays(options?: LookupOptions): Promise<Overlay[]> {
  return clientOf(options).clusters.overlays();
}
/** `getOverlays` as an Output. */
export function getOverlaysOutput(options?: LookupOptions): pulumi.Output<Overlay[]> {
  return pulumi.output(getOverlays(options));
}
