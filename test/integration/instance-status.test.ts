/** Instance statuses as the service may spell them, judged through the provider against the simulator. */
import { checked, createChecked, instance } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import { useWarnings } from "../support/warnings";

// No cached listing: each diff reads the status the test just set.
const h = useSimulator({ providers: true, settings: { ...FAST_INSTANCE_SETTINGS, liveCacheTtlMs: 0 } });
const warnings = useWarnings();

const args = { offerId: 700001, image: "alpine" };

async function diffWithStatus(status: string) {
  const { id, outs } = await createChecked(args);
  await h.control("POST", `/instances/${id}/status`, { actual_status: status });
  return instance.diff(id, outs, await checked(args));
}

describe("instance status", () => {
  it.each(["EXITED", "offline ", " Unknown"])("(12) replaces an instance whose status is %j", async (status) => {
    expect(await diffWithStatus(status)).toEqual({ changes: true, replaces: ["actualStatus"], deleteBeforeReplace: true });
    expect(warnings).toEqual([]);
  });

  it("(12) reports a status it does not know through the engine log, and does not replace", async () => {
    expect(await diffWithStatus("hibernating")).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Instance \d+: the service reports the status "hibernating", which the provider does not know/);
  });
});
