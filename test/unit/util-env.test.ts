import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { formatEnvFlags, fromRequestEnv, parseEnvFlags, toRequestEnv } from "../../provider/client/wire/env";
import { shellQuote, shellSplit } from "../../provider/client/wire/shell";

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/);
const port = fc
  .tuple(fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 1, max: 65535 }), fc.constantFrom("", "/tcp", "/udp"))
  .map(([h, c, p]) => `${h}:${c}${p}`);
const value = fc.string({ unit: fc.constantFrom("a", "Z", "0", " ", "'", '"', "=", "$", "\\", "`", "\t", "\n", "-", "é") });

describe("shell quoting", () => {
  it("splits a quoted word back to the original text for any value", () => {
    fc.assert(fc.property(value, (v) => expect(shellSplit(shellQuote(v))).toEqual([v])));
  });

  it("leaves plain words bare and quotes only the value part", () => {
    expect(shellQuote("abc-1.2:3")).toBe("abc-1.2:3");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`"it's"`);
    expect(shellQuote(`it's "x" $HOME`)).toBe(`'it'\\''s "x" $HOME'`);
  });

  it("produces words that bash reads the same way", () => {
    const samples = ["a b", "it's", `both ' and "`, "$HOME `x` \\n", "tab\there", ""];
    const script = `printf '%s\\0' ${samples.map(shellQuote).join(" ")}`;
    const out = execFileSync("bash", ["-c", script]).toString("utf8").split("\0").slice(0, -1);
    expect(out).toEqual(samples);
  });

  it("rejects an unterminated quote", () => {
    expect(() => shellSplit("-e A='x")).toThrow(/unterminated single quote/);
    expect(() => shellSplit('-e A="x')).toThrow(/unterminated double quote/);
  });
});

describe("env flag strings", () => {
  it("round-trips any variables and ports through the flag string", () => {
    const spec = fc.record({
      env: fc.dictionary(name, value, { maxKeys: 6 }),
      ports: fc.uniqueArray(port, { maxLength: 4 }),
    });
    fc.assert(fc.property(spec, (s) => expect(parseEnvFlags(formatEnvFlags(s))).toEqual(s)));
  });

  it("formats -e and -p flags with quoted values", () => {
    expect(formatEnvFlags({ env: { A: "1", MSG: "hello world", EQ: "a=b" }, ports: ["8080:8080"] })).toBe(
      "-e A=1 -e MSG='hello world' -e EQ=a=b -p 8080:8080",
    );
  });

  it("parses the forms other tools write", () => {
    expect(parseEnvFlags(`-e A="x y" --env B=it\\'s -p 22:22 --publish 5000:5000/udp -e C=`)).toEqual({
      env: { A: "x y", B: "it's", C: "" },
      ports: ["22:22", "5000:5000/udp"],
    });
  });

  it("names the offending word of a malformed string", () => {
    expect(() => parseEnvFlags("-v /data:/data")).toThrow(/unexpected "-v"/);
    expect(() => parseEnvFlags("-e NOVALUE")).toThrow(/"-e NOVALUE" needs the form NAME=value/);
    expect(() => parseEnvFlags("-p")).toThrow(/-p at the end has no value/);
    expect(() => parseEnvFlags("-p 80:http")).toThrow(/port mapping "80:http" is invalid/);
    expect(parseEnvFlags("-v /x:/x -e A=1", { strict: false })).toEqual({ env: { A: "1" }, ports: [] });
  });

  it("refuses invalid variable names when formatting", () => {
    expect(() => formatEnvFlags({ env: { "1BAD": "x" } })).toThrow(/name "1BAD" is invalid/);
    expect(() => formatEnvFlags({ env: { "A B": "x" } })).toThrow(/name "A B" is invalid/);
  });
});

describe("instance-creation env objects", () => {
  it("puts ports under '-p HOST:CONTAINER' keys with value 1", () => {
    expect(toRequestEnv({ env: { A: "x" }, ports: ["8000:8000"] })).toEqual({ A: "x", "-p 8000:8000": "1" });
  });

  it("round-trips through the object and through extra_env pairs", () => {
    const spec = fc.record({ env: fc.dictionary(name, value, { maxKeys: 5 }), ports: fc.uniqueArray(port, { maxLength: 3 }) });
    fc.assert(
      fc.property(spec, (s) => {
        const obj = toRequestEnv(s);
        expect(fromRequestEnv(obj)).toEqual(s);
        expect(fromRequestEnv(Object.entries(obj) as Array<[string, string]>)).toEqual(s);
      }),
    );
  });
});
