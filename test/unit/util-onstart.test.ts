import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { ONSTART_LIMIT, decodeOnstart, encodeOnstart, onstartScript, prepareOnstart } from "../../provider/client/wire/onstart";

function longScript(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `echo "step ${i}: preparing the model cache" >> /var/log/onstart.log`).join("\n");
}

describe("onstart encoding", () => {
  it("keeps a script that fits as it is", () => {
    const p = prepareOnstart("echo hi");
    expect(p).toEqual({ command: "echo hi", length: 7, fits: true, encoded: false });
  });

  it("compresses a long script into one line under the limit", () => {
    const script = longScript(200);
    expect(script.length).toBeGreaterThan(ONSTART_LIMIT);
    const p = prepareOnstart(script);
    expect(p.encoded).toBe(true);
    expect(p.fits).toBe(true);
    expect(p.length).toBe(p.command.length);
    expect(p.command).not.toContain("\n");
    expect(p.length).toBeLessThanOrEqual(ONSTART_LIMIT);
  });

  it("reports when even the encoded form is too long", () => {
    const random = Array.from({ length: 6000 }, (_, i) => ((i * 7919) % 65536).toString(36)).join("");
    const p = prepareOnstart(random);
    expect(p.encoded).toBe(true);
    expect(p.fits).toBe(false);
    expect(p.length).toBeGreaterThan(ONSTART_LIMIT);
  });

  it("decodes its own lines back to the script for any text", () => {
    fc.assert(fc.property(fc.string({ maxLength: 500 }), (s) => expect(decodeOnstart(encodeOnstart(s).command)).toBe(s)));
  });

  it("is deterministic, so the same script never shows as a change", () => {
    expect(encodeOnstart(longScript(50)).command).toBe(encodeOnstart(longScript(50)).command);
  });

  it("runs the script when bash executes the line", () => {
    const script = `X='it'"'"'s'\nfor i in 1 2 3; do printf "%s-" "$i"; done\necho "$X"\nread -r line; echo "stdin:$line"`;
    const out = execFileSync("bash", ["-c", encodeOnstart(script).command], { input: "kept\n" }).toString();
    expect(out).toBe("1-2-3-it's\nstdin:kept\n");
  });

  it("returns plain commands unchanged when reading back", () => {
    expect(decodeOnstart("echo hi")).toBeUndefined();
    expect(onstartScript("echo hi")).toBe("echo hi");
    expect(onstartScript(encodeOnstart("echo hi").command)).toBe("echo hi");
  });
});
