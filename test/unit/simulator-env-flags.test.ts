import { EnvFlagError, mergeEnv, parseEnvFlags, tokenize } from "../../simulator/domain/env-flags";
import { matches, plainReader } from "../../simulator/domain/filters";

describe("template env flag strings", () => {
  it("splits like a shell: quotes group words, escapes keep quote characters", () => {
    expect(tokenize(`-e A="x y" -e 'B=it''s' -e C=a\\ b -e D="say \\"hi\\""`)).toEqual(["-e", "A=x y", "-e", "B=its", "-e", "C=a b", "-e", 'D=say "hi"']);
  });

  it("reads -e VAR=value and -p ports, keeping = inside values and ignoring other flags", () => {
    expect(parseEnvFlags("-e URL=http://h/?a=1 --env EMPTY -p 8080:8080 -p 53:53/udp -h host --shm-size=1g")).toEqual([
      ["URL", "http://h/?a=1"],
      ["EMPTY", ""],
      ["-p 8080:8080", "1"],
      ["-p 53:53/udp", "1"],
    ]);
  });

  it.each([`-e A="open`, "-e", "-p", "-p eighty"])("rejects %j", (text) => {
    expect(() => parseEnvFlags(text)).toThrow(EnvFlagError);
  });

  it("keeps template entries, adds request entries and lets the request win", () => {
    expect(mergeEnv([["A", "1"], ["B", "2"]], { B: "3", C: "4" })).toEqual([["A", "1"], ["B", "3"], ["C", "4"]]);
  });
});

describe("search filters", () => {
  const rec = plainReader({ n: 4, s: "RTX 4090", b: true });

  it.each([
    [{ n: { eq: 4 } }, true],
    [{ n: { eq: "4" } }, true],
    [{ n: { neq: 4 } }, false],
    [{ n: { gt: 3, lte: 4 } }, true],
    [{ n: { lt: 4 } }, false],
    [{ s: { in: ["RTX 4090", "A100"] } }, true],
    [{ s: { notin: ["RTX 4090"] } }, false],
    [{ b: { eq: true } }, true],
    [{ missing: { eq: 1 } }, false],
    [{ missing: { neq: 1 } }, true],
  ])("evaluates %j as %s", (filters, expected) => {
    expect(matches(rec, filters)).toBe(expected);
  });

  it("rejects unknown operators and in without an array", () => {
    expect(() => matches(rec, { n: { near: 4 } })).toThrow(/near/);
    expect(() => matches(rec, { n: { in: 4 } })).toThrow(/array/);
  });
});
