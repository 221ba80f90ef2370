import { REALISTIC_RATE_LIMITS } from "pulumi-vastai/simulator";
import { DEFAULT_INTERVALS_MS, ENDPOINTS, endpointKey, fillRoute } from "../../provider/client/endpoints";
import { PACING_MARGIN } from "../../provider/client/pacing";

/** The simulator's rate-limit key of an endpoint: no trailing slash, run endpoints under /run. */
function simKey(e: (typeof ENDPOINTS)[keyof typeof ENDPOINTS]): string {
  const route = (e.base === "run" ? `/run${e.route}` : e.route).replace(/(.)\/$/, "$1");
  return `${e.method} ${route}`.replace(/\{machine_id\}/, "{id}");
}

describe("endpoint table", () => {
  it("paces every endpoint at least PACING_MARGIN (3%) slower than the service's realistic limits allow", () => {
    const tooFast = Object.values(ENDPOINTS)
      .map((e) => ({ endpoint: endpointKey(e), pacedMs: DEFAULT_INTERVALS_MS[endpointKey(e)], limitMs: REALISTIC_RATE_LIMITS[simKey(e)] ?? REALISTIC_RATE_LIMITS["*"] ?? 0 }))
      .filter((x) => !(x.pacedMs >= x.limitMs * (1 + PACING_MARGIN)));
    expect(tooFast).toEqual([]);
    // The strictest endpoints really are matched by key (not only by the "*" default).
    expect(REALISTIC_RATE_LIMITS[simKey(ENDPOINTS.instancesUpdate)]).toBe(1000);
    expect(REALISTIC_RATE_LIMITS[simKey(ENDPOINTS.workerGroupLogs)]).toBe(1000);
  });

  it("marks every call that creates, rotates or pays something as not safe to resend", () => {
    const unsafe = Object.entries(ENDPOINTS).filter(([, e]) => !e.idempotent).map(([name]) => name).sort();
    expect(unsafe).toEqual(
      ["bundlesAccept", "copyDirect", "copyRsync", "instancesCreate", "instancesPrepay", "maintenancesSchedule", "secretsAdd", "sshKeysCreate", "apiKeysCreate", "subaccountsRegenerateKeys", "templatesCreate", "templatesEdit",
        "volumesCreate", "networkVolumesCreate", "volumeListingCreate", "networkVolumeListingCreate", "endpointsCreate", "workerGroupsCreate", "webhooksCreate", "webhooksRotateSecret", "webhooksTest", "clusterCreate", "overlayCreate", "scheduledJobsCreate", "teamCreate", "teamRoleCreate", "teamInvite", "subaccountsCreate"].sort(),
    );
  });

  it("fills and encodes route parameters, and names a missing one", () => {
    expect(fillRoute("/api/v0/instances/{id}/", { id: 42 })).toBe("/api/v0/instances/42/");
    expect(fillRoute("/api/v0/users/{user_id}/x", { user_id: "a/b" })).toBe("/api/v0/users/a%2Fb/x");
    expect(() => fillRoute("/api/v0/instances/{id}/", {})).toThrow("route /api/v0/instances/{id}/ needs the parameter id");
  });
});
