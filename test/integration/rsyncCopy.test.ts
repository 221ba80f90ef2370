/** RsyncCopy through its provider against the simulator: connection fields and refused paths. */
import { SEED } from "pulumi-vastai/simulator";
import { providers } from "../../provider/providers";
import { drive, failureOf } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

const rsync = drive(providers.rsyncCopy);

const h = useSimulator({ providers: true, reset: false });
let src: number;
let dst: number;
beforeAll(async () => {
  [src, dst] = await Promise.all(
    [SEED.offerIds[0], SEED.offerIds[1]].map(async (offer) => (await h.client.instances.create(offer, { image: "ubuntu:22.04" })).id),
  );
});

async function copy(news: Record<string, unknown>) {
  const { inputs, failures } = await rsync.check({}, news);
  expect(failures).toEqual([]);
  return rsync.create(inputs as Record<string, unknown>);
}

it("copies between two instances through copy_direct, as the vendor's client does (no connection fields)", async () => {
  await h.clearRequests();
  const { id, outs } = await copy({ srcId: src, dstId: `C.${dst}`, srcPath: "/workspace/out/", dstPath: "/models/" });
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(outs).toEqual({
    srcId: src,
    dstId: `C.${dst}`,
    srcPath: "/workspace/out/",
    dstPath: "/models/",
    srcAddr: null,
    srcPort: null,
    dstAddr: null,
    dstPort: null,
  });
  const requests = (await h.requests()).filter((r) => r.path.startsWith("/api/v0/commands/"));
  expect(requests.map((r) => r.path)).toEqual(["/api/v0/commands/copy_direct/"]);
  expect(requests[0].body).toMatchObject({ src_id: `C.${src}`, dst_id: `C.${dst}`, src_path: "/workspace/out/", dst_path: "/models/" });
});

it("with only a source, uses rsync and returns where to copy the data from", async () => {
  await h.clearRequests();
  const { outs } = await copy({ srcId: `C.${src}`, srcPath: "/workspace/out/", dstPath: "./local/" });
  expect(outs).toMatchObject({ srcAddr: expect.any(String), srcPort: expect.any(Number), dstAddr: null, dstPort: null });
  const [request] = (await h.requests()).filter((r) => r.path.startsWith("/api/v0/commands/"));
  expect(request.path).toBe("/api/v0/commands/rsync/");
  expect(request.body).toEqual({ src_id: String(src), src_path: "/workspace/out/", dst_path: "./local/" });
});

it("with only a destination, returns where to copy local data to", async () => {
  const { outs } = await copy({ dstId: dst, srcPath: "./data/", dstPath: "/data/" });
  expect(outs).toMatchObject({ srcAddr: null, srcPort: null, dstAddr: expect.any(String), dstPort: expect.any(Number) });
});

it("read returns what state holds and delete changes nothing on the service", async () => {
  const { id, outs } = await copy({ srcId: src, dstId: dst, srcPath: "/a/", dstPath: "/b/", triggers: "v1" });
  expect(await rsync.read(id, outs!)).toEqual({
    id,
    props: outs,
    inputs: { srcId: src, dstId: dst, srcPath: "/a/", dstPath: "/b/", triggers: "v1" },
  });
  await h.clearRequests();
  await rsync.delete(id, outs!);
  expect(await h.requests()).toEqual([]);
});

describe("a 200 with success: false names the input and quotes the service", () => {
  it("an invalid source path", async () => {
    expect(await failureOf(copy({ srcId: src, dstId: dst, srcPath: "/a; rm -rf /", dstPath: "/b/" }))).toBe(
      'RsyncCopy: srcPath "/a; rm -rf /" was refused by the service: Invalid src_path.',
    );
  });

  it("an invalid destination path", async () => {
    expect(await failureOf(copy({ srcId: src, dstId: dst, srcPath: "/a/", dstPath: "/b/$(id)" }))).toBe(
      'RsyncCopy: dstPath "/b/$(id)" was refused by the service: Invalid dst_path.',
    );
  });

  it("an instance the account does not have (one side local: rsync names it)", async () => {
    expect(await failureOf(copy({ srcId: 424242, srcPath: "/a/", dstPath: "./b/" }))).toBe(
      "RsyncCopy: srcId 424242 was refused by the service: Invalid src_id: no instance 424242 on this account.",
    );
  });

  it("an instance the account does not have (two instances: copy_direct names no field)", async () => {
    expect(await failureOf(copy({ srcId: 424242, dstId: dst, srcPath: "/a/", dstPath: "/b/" }))).toMatch(
      /^RsyncCopy: starting the copy failed: PUT \/api\/v0\/commands\/copy_direct\/ failed: HTTP 404 no_such_user: No such user\./,
    );
  });
});
