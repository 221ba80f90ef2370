/**
 * What the orphan report reads from a `pulumi stack export` file besides its resources
 * (provider/cli/export-read.ts): secrets as the Pulumi CLI writes them, the checkpoint's time as
 * Go writes a time.Time, and the stack an export is of.
 */
import { SECRET_SIG, SECRET_SIG_KEY, UnreadableFieldError, openField, ownStackOf, recordedNameMatches, rfc3339Ms } from "../../provider/cli/export-read";

const site = { file: "prod.json", resource: "urn:pulumi:prod::p::pulumi-nodejs:dynamic/vastai:Fleet::gpus" };

describe("export-read", () => {
  it("opens plaintext secrets (nested too) and refuses ciphertext naming the file, the resource and the field", () => {
    const plain = (v: unknown) => ({ [SECRET_SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(v) });
    expect(openField(site, "outputs.members", plain(plain([{ id: 1 }])))).toEqual([{ id: 1 }]);
    expect(openField(site, "outputs.members", [1])).toEqual([1]);
    expect(() => openField(site, "outputs.members", { [SECRET_SIG_KEY]: SECRET_SIG, ciphertext: "v1:x" })).toThrow(
      new UnreadableFieldError(site.file, site.resource, "outputs.members", "is encrypted (a Pulumi secret)"),
    );
    expect(() => openField(site, "outputs.members", { [SECRET_SIG_KEY]: SECRET_SIG, plaintext: "[" })).toThrow(/plaintext is not JSON/);
    expect(() => openField(site, "outputs.members", { [SECRET_SIG_KEY]: SECRET_SIG })).toThrow(/neither plaintext nor ciphertext/);
  });

  it("reads RFC 3339 times as Go writes them: nanoseconds, Z or an offset; anything else is no time", () => {
    expect(rfc3339Ms("2026-11-28T21:37:40.133088007Z")).toBe(Date.UTC(2026, 10, 28, 21, 37, 40, 133));
    expect(rfc3339Ms("2026-11-28T13:37:40.5-08:00")).toBe(Date.UTC(2026, 10, 28, 21, 37, 40, 500));
    expect(rfc3339Ms("2026-11-29T03:07:40+05:30")).toBe(Date.UTC(2026, 10, 28, 21, 37, 40));
    for (const bad of ["2026-11-28", "2026-13-01T00:00:00Z", "2026-11-28 21:37:40Z", "yesterday", 1764365860, null, undefined]) expect(rfc3339Ms(bad)).toBeUndefined();
  });

  it("names an export's own stack from its Stack resource, and matches a recorded org/project/stack against it", () => {
    const own = ownStackOf([{ type: "pulumi-nodejs:dynamic/vastai:Instance", urn: "urn:pulumi:x::y::t::n" }, { type: "pulumi:pulumi:Stack", urn: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev" }]);
    expect(own).toEqual({ stack: "dev", project: "proj" });
    expect(ownStackOf([])).toBeUndefined();
    expect(recordedNameMatches("acme/proj/dev", own!)).toBe(true);
    expect(recordedNameMatches("proj/dev", own!)).toBe(true);
    expect(recordedNameMatches("dev", own!)).toBe(true);
    for (const other of ["acme/proj/prod", "acme/other/dev", "a/acme/proj/dev", "acme//dev", ""]) expect(recordedNameMatches(other, own!)).toBe(false);
  });
});
