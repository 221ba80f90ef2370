/**
 * Issue 25 item 9: outside this workspace the vendor's document may be absent. The suites that
 * read it are then skipped with one line saying where to put it, unless CI requires them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_SPEC_PATH, locateSpec } from "./vendor-spec";

describe("issue 25 item 9: the vendor's OpenAPI document may be absent", () => {
  const missing = path.join(os.tmpdir(), "no-such-dir-25-9", "vendor-openapi.yaml");

  it("25.9 skips with one line naming where it looked and VASTAI_OPENAPI=path", () => {
    const found = locateSpec({ VASTAI_OPENAPI: missing });
    expect(found.file).toBe(missing);
    expect(found.skipReason).toContain(missing);
    expect(found.skipReason).toContain("VASTAI_OPENAPI=");
    expect(found.skipReason).not.toContain("\n");
  });

  it("25.9 fails instead of skipping when VASTAI_REQUIRE_OPENAPI=1 (CI)", () => {
    expect(() => locateSpec({ VASTAI_OPENAPI: missing, VASTAI_REQUIRE_OPENAPI: "1" })).toThrow(/VASTAI_REQUIRE_OPENAPI=1.*VASTAI_OPENAPI=/);
  });

  it("25.9 reads the document VASTAI_OPENAPI names, else the one beside the clone", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-25-9-"));
    const file = path.join(dir, "doc.yaml");
    fs.writeFileSync(file, "openapi: 3.1.0\n");
    try {
      expect(locateSpec({ VASTAI_OPENAPI: file })).toEqual({ file });
      expect(locateSpec({}).file).toBe(DEFAULT_SPEC_PATH);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
