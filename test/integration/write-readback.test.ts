/**
 * Issue 33 item 3 (creates and updates): an answer without the documented fields is unreadable,
 * and a documented `{success: true}` that any server can give counts only when a read shows the
 * effect. A wrong server's answer (a simulator fault that answers without acting) fails the
 * write and names what was not seen, instead of reporting it made; a read that fails does not
 * refute the documented answer.
 */
import { UndocumentedSuccessError, WriteNotSeenError } from "../../provider/client";
import { planOf as jobPlanOf } from "../../provider/resources/scheduledJob/plan";
import { SEED } from "../../simulator/seed/seed";
import { useSimulator } from "../support/simulator";

const h = useSimulator();
const [M1, M2] = SEED.hostedMachineIds;
const [DISK] = SEED.hostNetworkDisks;

describe("33.3 a create or update answered as done without the effect is not done", () => {
  it("33.3 a team invitation answered 200 {} is unreadable, not sent", async () => {
    await h.client.teams.create({ name: "readback-invite" });
    await h.client.teams.createRole({ name: "dev", scopes: ["instance_read"] });
    await h.fault({ method: "POST", path: "/api/v0/team/invite/", status: 200, body: {} });
    await expect(h.client.teams.invite("ana@example.com", "dev")).rejects.toBeInstanceOf(UndocumentedSuccessError);
    await expect(h.client.teams.invite("ana@example.com", "dev")).resolves.toBeUndefined();
  });

  it("33.3 a machine listing answered 200 {} is unreadable; one answered {success: true} while the machine stays unlisted fails naming it", async () => {
    await h.fault({ method: "PUT", path: "/api/v0/machines/create_asks/", status: 200, body: {} });
    await expect(h.client.machines.listMachine(M1, { pricePerGpu: 0.4 })).rejects.toBeInstanceOf(UndocumentedSuccessError);
    await h.fault({ method: "PUT", path: "/api/v0/machines/create_asks/", status: 200, body: { success: true } });
    const forged = await h.client.machines.listMachine(M1, { pricePerGpu: 0.4 }).catch((e: unknown) => e);
    expect(forged).toBeInstanceOf(WriteNotSeenError);
    expect(String(forged)).toMatch(/machine listing of machine \d+: the listing \(PUT \/api\/v0\/machines\/create_asks\/\) was answered as done, but the machine shows/);
    expect((await h.client.machines.get(M1))?.listing?.pricePerGpu).not.toBe(0.4);
    // A changed price forged the same way is seen not taken.
    await h.client.machines.listMachine(M1, { pricePerGpu: 0.4 });
    await h.fault({ method: "PUT", path: "/api/v0/machines/create_asks/", status: 200, body: { success: true } });
    await expect(h.client.machines.listMachine(M1, { pricePerGpu: 0.5 })).rejects.toBeInstanceOf(WriteNotSeenError);
    await expect(h.client.machines.listMachine(M1, { pricePerGpu: 0.5 })).resolves.toEqual({ extended: expect.any(Number) });
  });

  it("33.3 a read that fails after a documented machine listing answer does not refute it", async () => {
    await h.fault({ method: "GET", path: "/api/v0/machines/*", status: 503, body: { error: "down" }, times: 10 });
    await expect(h.client.machines.listMachine(M2, { pricePerGpu: 0.3 })).resolves.toEqual({ extended: expect.any(Number) });
  });

  it("33.3 a scheduled job's update answered {success: true} while the job keeps its old terms fails", async () => {
    const { id: instanceId } = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" });
    const input = { instanceId, action: "reboot", frequency: "DAILY", hour: 3, timeZone: "UTC", end: "2099-01-01T00:00:00Z" } as const;
    const { job } = await h.client.scheduledJobs.create(jobPlanOf(input, "2026-01-01T00:00:00Z"));
    const moved = jobPlanOf({ ...input, hour: 5 }, "2026-01-01T00:00:00Z");
    await h.fault({ method: "PUT", path: "/api/v0/commands/schedule_job/*", status: 200, body: { success: true } });
    await expect(h.client.scheduledJobs.update(job.id, moved)).rejects.toThrow(/scheduled job \d+: the update \(PUT \/api\/v0\/commands\/schedule_job\/\{id\}\/\) was answered as done, but reading it back shows/);
    await expect(h.client.scheduledJobs.update(job.id, moved)).resolves.toBeUndefined();
  });

  it("33.3 a cluster create answered {success: true} with no cluster made fails naming it", async () => {
    await h.fault({ method: "POST", path: "/api/v0/cluster/", status: 200, body: { success: true } });
    await expect(h.client.clusters.create("10.71.0.0/24", M1)).rejects.toThrow(/cluster of manager machine \d+ \(subnet 10\.71\.0\.0\/24\): the create \(POST \/api\/v0\/cluster\/\) was answered as done, but/);
    expect((await h.client.clusters.list()).some((c) => c.managerId === M1)).toBe(false);
    await expect(h.client.clusters.create("10.71.0.0/24", M1)).resolves.toEqual(expect.objectContaining({}));
  });

  it("33.3 a team create answered {success: true} with no team made fails naming it", async () => {
    await h.fault({ method: "POST", path: "/api/v0/team/", status: 200, body: { success: true } });
    await expect(h.client.teams.create({ name: "forged" })).rejects.toThrow(/team "forged": the create \(POST \/api\/v0\/team\/\) was answered as done, but/);
    expect(await h.client.teams.isTeam()).toBe(false);
  });

  for (const [kind, path, write] of [
    ["local", "/api/v0/volumes/", () => h.client.volumeListings.listOnMachine(M2, { sizeGb: 100, pricePerGbMonth: 0.09 })],
    ["network", "/api/v0/network_volumes/", () => h.client.volumeListings.listOnNetworkDisk(DISK.id, { sizeGb: 100, pricePerGbMonth: 0.09 })],
  ] as const) {
    it(`33.3 a ${kind} volume listing answered {success: true} without listing (or without its new price) fails naming it`, async () => {
      await h.fault({ method: "POST", path, status: 200, body: { success: true } });
      await expect(write()).rejects.toThrow(/volume listing of .*: the listing \(POST \/api\/v0\/(network_)?volumes\/\) was answered as done, but/);
      await write();
      const change = () => (kind === "local" ? h.client.volumeListings.listOnMachine(M2, { sizeGb: 100, pricePerGbMonth: 0.12 }) : h.client.volumeListings.listOnNetworkDisk(DISK.id, { sizeGb: 100, pricePerGbMonth: 0.12 }));
      await h.fault({ method: "POST", path, status: 200, body: { success: true } });
      await expect(change()).rejects.toThrow(WriteNotSeenError);
      await expect(change()).resolves.toMatchObject({ listing: { pricePerGbMonth: 0.12 } });
    });
  }
});
