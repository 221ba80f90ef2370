/**
 * The rule a Fleet's `overlay` puts on `offer.clusterId`, pure so that the inputs' check reads it
 * without the overlay's calls (overlay.ts).
 */
/**
 * The one cluster `offer.clusterId` names (a number, or `{eq: n}`), or why not. An overlay is
 * local networking on one physical cluster: a member rented elsewhere cannot join it, and
 * bills all the same, so a fleet with an overlay rents only on the overlay's cluster.
 */
export function overlayClusterProblem(overlay: unknown, offer: unknown): string | undefined {
  if (typeof overlay !== "string" || overlay === "") return undefined;
  const given = offer !== null && typeof offer === "object" ? (offer as Record<string, unknown>).clusterId : undefined;
  const why = `overlay ${JSON.stringify(overlay)} is local networking on one physical cluster: members rented on other clusters cannot join it and bill all the same`;
  if (given === undefined || given === null) return `is required with overlay: ${why}; give the overlay's cluster id (its clusterId, or the Cluster it was made on)`;
  if (clusterOf(given) === undefined) return `must name the overlay's one cluster (a cluster id, or {eq: id}) with overlay: ${why}`;
  return undefined;
}

export function clusterOf(condition: unknown): number | undefined {
  if (typeof condition === "number") return condition;
  if (condition !== null && typeof condition === "object" && !Array.isArray(condition)) {
    const ops = Object.entries(condition as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (ops.length === 1 && ops[0][0] === "eq" && typeof ops[0][1] === "number") return ops[0][1];
  }
  return undefined;
}
