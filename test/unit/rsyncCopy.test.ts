/** RsyncCopy check and diff: ids, paths, and that every input change copies again. */
import { PROVIDER_KEY, UNKNOWN } from "../../provider/resources/kit";
import { provider as impl } from "../../provider/resources/rsyncCopy/provider";

describe("check", () => {
  it("accepts numeric ids as numbers or digit strings, and one id alone", async () => {
    for (const ids of [{ srcId: 8000001, dstId: "8000002" }, { dstId: 8000002 }, { srcId: "8000001" }]) {
      expect((await impl.check({}, { ...ids, srcPath: "/a/", dstPath: "/b/" })).failures).toEqual([]);
    }
  });

  it("refuses a copy with neither id, naming both", async () => {
    const { failures } = await impl.check({}, { srcPath: "/a/", dstPath: "/b/" });
    expect(failures).toEqual([{ property: "srcId", reason: "srcId, dstId: give at least one instance id (neither was given)" }]);
  });

  it("refuses an id that is not an instance id, and an empty path", async () => {
    const { failures } = await impl.check({}, { srcId: "abc", dstId: 1, srcPath: "/a/", dstPath: "  " });
    expect(failures).toEqual([
      { property: "srcId", reason: 'srcId: must be an instance id (a positive integer, or "C.<id>" as the vendor\'s client writes it) (got "abc")' },
      { property: "dstPath", reason: 'dstPath: must not be empty (got "  ")' },
    ]);
  });

  it("does not judge ids unknown during preview", async () => {
    expect((await impl.check({}, { srcId: UNKNOWN, srcPath: "/a", dstPath: "/b" })).failures).toEqual([]);
  });
});

describe("diff", () => {
  const inputs = { srcId: 1, dstId: 2, srcPath: "/a/", dstPath: "/b/", triggers: "v1" };
  const olds = { [PROVIDER_KEY]: "p", ...inputs, srcAddr: "10.0.0.1", srcPort: 22, dstAddr: "10.0.0.2", dstPort: 22 };

  it("ignores the outputs and the provider code", async () => {
    expect(await impl.diff("c", olds, { [PROVIDER_KEY]: "q", ...inputs })).toMatchObject({ changes: false });
  });

  it.each(["srcId", "dstId", "srcPath", "dstPath", "triggers"])("copies again (replaces) when %s changes", async (property) => {
    expect(await impl.diff("c", olds, { ...inputs, [property]: "changed" })).toMatchObject({ changes: true, replaces: [property] });
  });
});
