/** The update endpoint recreates the container: the status goes through loading again (simulator clock). */
import { manualClock, openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const clock = manualClock();
const h = useSimulator({ start: openSimulator, simulator: { bootMs: 1000, now: clock.now } });

const read = async (id: number) => (await h.call("GET", `/api/v0/instances/${id}/`)).body.instances;

it("update_template boots the container again on the same machine: loading, then running", async () => {
  const id = (await h.call("PUT", "/api/v0/asks/700001/", { image: "ubuntu" })).body.new_contract as number;
  clock.advance(2000);
  const before = await read(id);
  expect(before.actual_status).toBe("running");
  const r = await h.call("PUT", `/api/v0/instances/update_template/${id}/`, { id, image: "nginx" });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ success: true, updated_instance: { id, image_uuid: "nginx:latest" } });
  clock.advance(600);
  expect((await read(id)).actual_status).toBe("loading");
  clock.advance(1000);
  expect(await read(id)).toMatchObject({
    actual_status: "running", machine_id: before.machine_id, ssh_port: before.ssh_port, ssh_host: before.ssh_host, image_uuid: "nginx:latest",
  });
});
