/**
 * Conformance with the vendor's OpenAPI document: every endpoint the client calls is driven
 * against the simulator over HTTP; each request body the client sent must validate against the
 * document's request schema, each simulator response against the response schema for its
 * status. The only tolerated findings are the differences listed in KNOWN_DIFFERENCES (the
 * table of test/conformance/README.md), each with its reason; a listed difference that no
 * longer occurs fails too, so the table stays true.
 */
import fs from "node:fs";
import path from "node:path";
import type { Simulator } from "pulumi-vastai/simulator";
import { ENDPOINTS, endpointKey } from "../../provider/client";
import { KNOWN_DIFFERENCES, type Finding } from "./known-differences";
import { recordExchanges, type Recorded } from "./exchanges";
import { locateSpec, VendorSpec } from "./vendor-spec";

// Outside this workspace the document may be absent: skip with one line that says where to put
// it (CI sets VASTAI_REQUIRE_OPENAPI=1, which makes locateSpec throw instead).
const located = locateSpec();
if (located.skipReason) process.stderr.write(`${located.skipReason}\n`);
const describeIfSpec = located.skipReason ? describe.skip : describe;

let spec: VendorSpec;
let sim: Simulator;
let recorded: Recorded[];

beforeAll(async () => {
  if (located.skipReason) return;
  spec = new VendorSpec(located.file);
  ({ sim, recorded } = await recordExchanges());
}, 60_000);
afterAll(() => sim?.close());

/** The route pattern of ENDPOINTS a recorded exchange belongs to. */
function endpointOf(r: Recorded): string | undefined {
  // Literal routes first: `/machines/maintenances` is not `/machines/{machine_id}/`.
  const byLiteral = Object.values(ENDPOINTS).sort((a, b) => (a.route.match(/\{/g) ?? []).length - (b.route.match(/\{/g) ?? []).length);
  for (const e of byLiteral) {
    if (e.method !== r.method) continue;
    const pattern = new RegExp(`^${e.route.replace(/\/+$/, "").replace(/\{\w+\}/g, "[^/]+")}/?$`);
    if (pattern.test(r.path)) return endpointKey(e);
  }
  return undefined;
}

/** Array positions do not matter: `/machines/3/id` and `/machines/4/id` are one finding. */
const general = (at: string) => at.replace(/\/\d+(?=\/|$)/g, "/*");

function findingsOf(r: Recorded): Finding[] {
  return rawFindingsOf(r).map((f) => ({ ...f, at: general(f.at) }));
}

function rawFindingsOf(r: Recorded): Finding[] {
  const endpoint = endpointOf(r) ?? `${r.method} ${r.path}`;
  const op = spec.operation(r.method, r.path);
  if (!op) return [{ endpoint, kind: "undocumented", at: "", message: "the document has no such operation" }];
  const out: Finding[] = [];
  for (const name of spec.missingQuery(op, r.query)) out.push({ endpoint, kind: "query", at: name, message: "required query parameter left out" });
  if (r.requestBody !== undefined) {
    for (const p of spec.checkRequest(op, r.requestBody)) out.push({ endpoint, kind: "request", ...p });
  }
  const response = spec.checkResponse(op, r.status, r.responseBody);
  if (response === undefined) {
    if (r.status >= 200 && r.status < 300) out.push({ endpoint, kind: "response", at: "", message: `no JSON schema for HTTP ${r.status}` });
  } else {
    for (const p of response) out.push({ endpoint, kind: "response", at: p.at, message: `HTTP ${r.status}: ${p.message}` });
  }
  return out;
}

const describeFinding = (f: Finding) => `${f.endpoint} ${f.kind} ${f.at || "(root)"}: ${f.message}`;

describeIfSpec("the client and the simulator against the vendor's OpenAPI document", () => {
  it("exercises every endpoint the client calls", () => {
    const hit = new Set(recorded.map(endpointOf));
    const missed = Object.values(ENDPOINTS)
      .map(endpointKey)
      .filter((k) => !hit.has(k));
    expect(missed).toEqual([]);
  });

  it("finds no difference beyond the listed ones", () => {
    const unexplained = recorded.flatMap((r) =>
      findingsOf(r)
        .filter((f) => !KNOWN_DIFFERENCES.some((k) => k.covers(f)))
        .map((f) => `${describeFinding(f)} [${r.step}]`),
    );
    expect([...new Set(unexplained)]).toEqual([]);
  });

  it("still meets every listed difference (the README table is current)", () => {
    const findings = recorded.flatMap(findingsOf);
    const stale = KNOWN_DIFFERENCES.filter((k) => !findings.some((f) => k.covers(f))).map((k) => k.id);
    expect(stale).toEqual([]);
  });
});

describe("test/conformance/README.md", () => {
  it("lists every remaining difference of known-differences.ts", () => {
    const readme = fs.readFileSync(path.join(__dirname, "README.md"), "utf8");
    expect(KNOWN_DIFFERENCES.filter((k) => !readme.includes(`| \`${k.id}\` | \`${k.endpoint}\` |`)).map((k) => k.id)).toEqual([]);
  });
});
