import { SEED } from "pulumi-vastai/simulator";
import { z } from "zod";
import { ENDPOINTS, GoneError, NotFoundError, VastApiError, VastValidationError } from "../../provider/client";
import { useSimulator } from "../support/simulator";

const h = useSimulator();

// A rented offer is taken until destroyed: each create rents the next offer of the catalogue.
let next = 0;
beforeEach(() => {
  next = 0;
});
const offerId = () => SEED.offerIds[next++ % SEED.offerIds.length];

describe("instances over HTTP", () => {
  it("creates an instance and reads the id from new_contract", async () => {
    const offer = offerId();
    const created = await h.client.instances.create(offer, { image: "ubuntu:22.04", label: "it-create", env: { A: "1" }, ports: ["8080:8080"], disk: 16 });
    expect(created.id).toEqual(expect.any(Number));
    expect(created.success).toBe(true);
    const inst = await h.client.instances.get(created.id);
    expect(inst).toMatchObject({ id: created.id, label: "it-create", actualStatus: "running", intendedStatus: "running", diskSpace: 16 });
    expect(inst?.extraEnv).toEqual(expect.arrayContaining([["A", "1"]]));
    const log = await h.requests();
    expect(log.find((r) => r.method === "PUT" && r.path === `/api/v0/asks/${offer}/`)?.body).toEqual({
      image: "ubuntu:22.04",
      label: "it-create",
      env: { A: "1", "-p 8080:8080": "1" },
      disk: 16,
    });
  });

  it("lists instances unpaged, by page and by walking every page", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await h.client.instances.create(offerId(), { image: "ubuntu", label: `page-${i}` })).id);
    expect((await h.client.instances.list()).map((i) => i.id)).toEqual(ids);
    const first = await h.client.instances.listPage({ limit: 3 });
    expect(first.instances.map((i) => i.id)).toEqual(ids.slice(0, 3));
    expect(first.totalInstances).toBe(7);
    expect(first.nextToken).toEqual(expect.any(String));
    const second = await h.client.instances.listPage({ limit: 3, afterToken: first.nextToken });
    expect(second.instances.map((i) => i.id)).toEqual(ids.slice(3, 6));
    expect((await h.client.instances.listAll(3)).map((i) => i.id)).toEqual(ids);
  });

  it("reads a destroyed instance as null and destroying it again as already gone", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu" });
    await expect(h.client.instances.destroy(id)).resolves.toEqual({ alreadyGone: false });
    await expect(h.client.instances.get(id)).resolves.toBeNull();
    await expect(h.client.instances.destroy(id)).resolves.toEqual({ alreadyGone: true });
  });

  it("sets the label and stops and starts the instance", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu" });
    await h.client.instances.setLabel(id, "renamed");
    await expect(h.client.instances.stop(id)).resolves.toEqual({ applied: true });
    expect(await h.client.instances.get(id)).toMatchObject({ label: "renamed", intendedStatus: "stopped", actualStatus: "stopped" });
    await expect(h.client.instances.start(id)).resolves.toEqual({ applied: true });
    expect(await h.client.instances.get(id)).toMatchObject({ intendedStatus: "running", actualStatus: "running" });
  });

  it("reports a start queued for lack of resources as not applied, not as an error", async () => {
    const offer = offerId();
    const { id } = await h.client.instances.create(offer, { image: "ubuntu" });
    await h.client.instances.stop(id);
    await h.control("POST", `/offers/${offer}`, { state: "unavailable" });
    const result = await h.client.instances.start(id);
    expect(result).toMatchObject({ applied: false, code: "resources_unavailable" });
  });

  it("attaches an SSH key to one instance", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu" });
    const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAttachTestKey attach@test";
    await h.client.instances.attachSshKey(id, key);
    expect((await h.client.sshKeys.list()).map((k) => k.publicKey)).toContain(key);
  });

  it("turns a vanished offer into NotFoundError and an unavailable one into GoneError", async () => {
    const offer = offerId();
    await h.control("POST", `/offers/${offer}`, { state: "gone" });
    const gone = await h.client.instances.create(offer, { image: "ubuntu" }).catch((e) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).toMatchObject({ status: 404, code: "no_such_ask" });
    await h.control("POST", `/offers/${offer}`, { state: "unavailable" });
    const busy = await h.client.instances.create(offer, { image: "ubuntu" }).catch((e) => e);
    expect(busy).toBeInstanceOf(GoneError);
    expect(busy.message).toMatch(/^PUT \/api\/v0\/asks\/\d+\/ failed: HTTP 410 no_such_ask: No ask by id \d+ is available\./);
  });

  it("has the service reject template_id, and the client refuse it before sending", async () => {
    const raw: unknown = await h.client
      .request({ endpoint: ENDPOINTS.instancesCreate, params: { id: offerId() }, body: { template_id: 101, image: "ubuntu" }, schema: z.unknown() })
      .catch((e) => e);
    expect(raw).toBeInstanceOf(VastApiError);
    expect(raw).toMatchObject({ status: 400, code: "invalid_args" });
    expect((raw as Error).message).toMatch(/template_id is not accepted/);
    await h.clearRequests();
    await expect(h.client.instances.create(offerId(), { templateId: 101 } as never)).rejects.toBeInstanceOf(VastValidationError);
    expect(await h.requests()).toHaveLength(0);
  });

  it("reports status changes the control API makes", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu" });
    await h.control("POST", `/instances/${id}/status`, { actual_status: "exited" });
    expect((await h.client.instances.get(id))?.actualStatus).toBe("exited");
  });
});
