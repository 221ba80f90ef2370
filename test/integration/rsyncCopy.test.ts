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

it("starts a copy between two instances and outputs both ends' connection fields", async () => {
  const { id, outs } = await copy({ srcId: src, dstId: String(dst), srcPath: "/workspace/out/", dstPath: "/models/" });
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(outs).toEqual({
    srcId: src,
    dstId: String(dst),
    srcPath: "/workspace/out/",
    dstPath: "/models/",
    srcAddr: expect.any(String),
    srcPort: expect.any(Number),
    dstAddr: expect.any(String),
    dstPort: expect.any(Number),
  });
  const [request] = (await h.requests()).filter((r) => r.path.startsWith("/api/v0/commands/rsync"));
  expect(request.body).toEqual({ src_id: String(src), dst_id: String(dst), src_path: "/workspace/out/", dst_path: "/models/" });
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

  it("an instance the account does not have", async () => {
    expect(await failureOf(copy({ srcId: 424242, dstId: dst, srcPath: "/a/", dstPath: "/b/" }))).toBe(
      "RsyncCopy: srcId 424242 was refused by the service: Invalid src_id: no instance 424242 on this account.",
    );
  });
});
