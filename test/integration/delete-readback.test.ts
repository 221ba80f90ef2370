/**
 * Issue 33 item 3: deletes whose documented answer any server can give (`{success: true}`, a JSON
 * string, `{}`, 204) count only when a read shows the object gone. A wrong server's answer
 * (a simulator fault that answers without deleting) fails the delete and leaves the object
 * named, instead of reporting it deleted.
 */
import { DeleteNotConfirmedError, DeleteNotSeenError } from "../../provider/client";
import { planOf as jobPlanOf } from "../../provider/resources/scheduledJob/plan";
import { SEED } from "../../simulator/seed/seed";
import { useSimulator } from "../support/simulator";

const h = useSimulator();

const notDeleted = (e: unknown) => e instanceof DeleteNotSeenError || e instanceof DeleteNotConfirmedError;

describe("33.3 a delete answered as done while the object stays is not a delete", () => {
  for (const [answer, status, body] of [
    ["200 {success: true}", 200, { success: true }],
    ["200 {}", 200, {}],
    ["204", 204, ""],
    ['200 "ok"', 200, '"ok"'],
  ] as const) {
    it(`33.3 a scheduled job's delete answered ${answer} fails while the job is listed`, async () => {
      const { id: instanceId } = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" });
      const { job } = await h.client.scheduledJobs.create(jobPlanOf({ instanceId, action: "reboot", frequency: "DAILY", hour: 3, timeZone: "UTC", end: "2099-01-01T00:00:00Z" }, "2026-01-01T00:00:00Z"));
      await h.fault({ method: "DELETE", path: "/api/v0/commands/schedule_job/*", status, body });
      const outcome = await h.client.scheduledJobs.delete(job.id).then(() => "deleted", (e: unknown) => (notDeleted(e) ? "not deleted" : String(e)));
      expect(outcome).toBe("not deleted");
      expect((await h.client.scheduledJobs.list()).map((j) => j.id)).toContain(job.id);
      // Without the fault, the same delete counts (the read shows it gone).
      await expect(h.client.scheduledJobs.delete(job.id)).resolves.toEqual({ alreadyGone: false });
    });
  }

  it('33.3 an API key\'s delete answered 200 "ok" (or a forged {success: true}) fails while the key is listed', async () => {
    const key = await h.client.apiKeys.create({ name: "ci", scopes: ["instance_read"] });
    for (const body of ['"ok"', { success: true }]) {
      await h.fault({ method: "DELETE", path: "/api/v0/auth/apikeys/*", status: 200, body });
      await expect(h.client.apiKeys.delete(key.id)).rejects.toThrow(/API key \d+: the delete was answered as done, but reading it back still finds it/);
      expect((await h.client.apiKeys.list()).map((k) => k.id)).toContain(key.id);
    }
    await expect(h.client.apiKeys.delete(key.id)).resolves.toEqual({ alreadyGone: false });
  });

  it("33.3 a team role's delete answered with the documented success fails while the role is there", async () => {
    await h.client.teams.create({ name: "readback-team" });
    await h.client.teams.createRole({ name: "ops", scopes: ["instance_read"] });
    await h.fault({ method: "DELETE", path: "/api/v0/team/roles/*", status: 200, body: { status: "success" } });
    await expect(h.client.teams.deleteRole("ops")).rejects.toThrow(/team role "ops": the delete was answered as done, but reading it back still finds it/);
    expect(await h.client.teams.role("ops")).not.toBeNull();
    await expect(h.client.teams.deleteRole("ops")).resolves.toEqual({ alreadyGone: false });
  });
});
