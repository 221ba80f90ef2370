/**
 * The client's zod schemas accept realistic live payloads: built from the vendor document's
 * response schemas and examples, once with example values, once with null wherever the
 * document allows null, each time with unknown extra fields at every level.
 */
import type { z } from "zod";
import { locateSpec, VendorSpec } from "../conformance/vendor-spec";
import { acknowledgedResponse, successResponse, templateCreateResponse, templateEditResponse, templateSearchResponse } from "../../provider/client/schemas";
import {
  apiKeyCreateResponse,
  apiKeyListResponse,
  currentUserSchema,
  regenerateKeysResponse,
  secretListResponse,
  sshKeyCreateResponse,
  sshKeyListResponse,
} from "../../provider/client/schemas-account";
import { createInstanceResponse, instanceGetResponse, instancePageResponse, offerSearchResponse, stateChangeResponse } from "../../provider/client/schemas-instances";
import { copyDirectResponse, machineListResponse, workerGroupLogsResponse } from "../../provider/client/schemas-hosting";
import { volumeListingAnswer } from "../../provider/client/schemas-volume-listings";

type Json = Record<string, unknown>;
type Mode = "examples" | "nulls";

// Without the vendor's document (a clone outside this workspace) the cases built from it are
// skipped with one line saying where to put it; VASTAI_REQUIRE_OPENAPI=1 makes that a failure.
const located = locateSpec();
if (located.skipReason) process.stderr.write(`${located.skipReason}\n`);
const spec = located.skipReason ? (undefined as unknown as VendorSpec) : new VendorSpec(located.file);

function resolve(schema: Json): Json {
  if (typeof schema.$ref === "string") return resolve(spec.schemaAt(schema.$ref) ?? {});
  return schema;
}

/** A value the schema describes: its example where it gives one, extra unknown fields on every object. */
function sample(raw: Json, mode: Mode, depth = 0, name = ""): unknown {
  const schema = resolve(raw);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  if (mode === "nulls" && types.includes("null")) return null;
  for (const key of ["allOf"] as const) {
    if (Array.isArray(schema[key])) {
      return Object.assign({}, ...(schema[key] as Json[]).map((s) => sample(s, mode, depth)), objectOf(schema, mode, depth));
    }
  }
  for (const key of ["oneOf", "anyOf"] as const) {
    if (Array.isArray(schema[key])) return sample((schema[key] as Json[])[0], mode, depth);
  }
  const type = types.find((t) => t !== "null") ?? (schema.properties ? "object" : undefined);
  if (type === "object") return objectOf(schema, mode, depth);
  if (type === "array") return schema.items && depth < 8 ? [sample(schema.items as Json, mode, depth + 1)] : [];
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (type === "integer") return 7;
  if (type === "number") return 1.5;
  if (type === "boolean") return true;
  // Ids the document types as strings come as digits (`"12345"`).
  if (type === "string") return schema.format === "date-time" ? "2024-01-01T12:00:00Z" : /(^|_)id$/.test(name) ? "12345" : "text";
  return null;
}

function objectOf(schema: Json, mode: Mode, depth: number): Json {
  const out: Json = {};
  for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) out[name] = sample(prop, mode, depth + 1, name);
  const more = schema.additionalProperties;
  if (more && typeof more === "object") {
    // A map (secret names to masked values): one entry of the described kind.
    out.SAMPLE_ENTRY = sample(more as Json, mode, depth + 1);
  } else {
    // The live service adds fields the document does not list.
    out.field_added_later = { nested: [1, "two", null] };
  }
  return out;
}

function payload(method: string, path: string, status: number, mode: Mode): unknown {
  const op = spec.operation(method, path);
  if (!op) throw new Error(`${method} ${path} is not in the document`);
  const schema = spec.schemaAt(`${op.pointer}/responses/${status}/content/application~1json/schema`);
  if (!schema) throw new Error(`${method} ${path} has no JSON schema for ${status}`);
  return sample(schema, mode);
}

const CASES: Array<[string, string, z.ZodType<unknown>]> = [
  ["GET", "/api/v0/ssh/", sshKeyListResponse],
  ["POST", "/api/v0/ssh/", sshKeyCreateResponse],
  ["GET", "/api/v0/secrets/", secretListResponse],
  ["POST", "/api/v0/auth/apikeys/", apiKeyCreateResponse],
  ["GET", "/api/v0/auth/apikeys/", apiKeyListResponse],
  ["DELETE", "/api/v0/auth/apikeys/1/", acknowledgedResponse],
  ["GET", "/api/v0/users/current/", currentUserSchema],
  ["GET", "/api/v0/template/", templateSearchResponse],
  ["POST", "/api/v0/template/", templateCreateResponse],
  ["PUT", "/api/v0/template/", templateEditResponse],
  ["DELETE", "/api/v0/template/", successResponse],
  ["POST", "/api/v0/bundles/", offerSearchResponse],
  ["PUT", "/api/v0/asks/1/", createInstanceResponse],
  ["GET", "/api/v0/instances/1/", instanceGetResponse],
  ["PUT", "/api/v0/instances/1/", stateChangeResponse],
  ["DELETE", "/api/v0/instances/1/", successResponse],
  ["GET", "/api/v1/instances/", instancePageResponse],
  ["GET", "/api/v0/machines/", machineListResponse],
  ["PUT", "/api/v0/commands/copy_direct/", copyDirectResponse],
  ["POST", "/get_workergroup_logs", workerGroupLogsResponse],
  // 27.4: a volume listing's unlist answer.
  ["POST", "/api/v0/volumes/unlist", volumeListingAnswer],
];

(located.skipReason ? describe.skip : describe)("client schemas over payloads built from the vendor document", () => {
  it.each(CASES.flatMap(([m, p, s]) => (["examples", "nulls"] as const).map((mode) => [`${m} ${p} (${mode})`, m, p, s, mode] as const)))(
    "%s parses",
    (_name, method, path, schema, mode) => {
      const body = payload(method, path, 200, mode);
      const parsed = schema.safeParse(body);
      expect(parsed.success ? "ok" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe("ok");
    },
  );

  it("really adds unknown fields and nulls (the generator is not a no-op)", () => {
    const nulls = payload("GET", "/api/v1/instances/", 200, "nulls") as { instances: Json[]; next_token: unknown };
    expect(nulls.next_token).toBeNull();
    expect(nulls.instances[0].actual_status).toBeNull();
    expect(nulls.instances[0].field_added_later).toBeDefined();
  });
});

describe("payloads the live service sends beyond the document", () => {
  it("keeps every regenerated key when a descriptive field is null (email)", () => {
    const keys = regenerateKeysResponse.parse({
      success: true,
      regenerated_keys: [
        { user_id: 10002, email: null, derived_key: "k1" },
        { user_id: 10003, derived_key: "k2", extra: 1 },
      ],
    });
    expect(keys).toEqual([
      { userId: 10002, email: "", derivedKey: "k1" },
      { userId: 10003, email: "", derivedKey: "k2" },
    ]);
  });

  it("still refuses a regenerated key without its value or user id", () => {
    expect(regenerateKeysResponse.safeParse({ regenerated_keys: [{ user_id: 1, email: "a@b" }] }).success).toBe(false);
    expect(regenerateKeysResponse.safeParse({ regenerated_keys: [{ email: "a@b", derived_key: "k" }] }).success).toBe(false);
  });

  it("skips a template row with a null hash_id instead of failing the search", () => {
    const rows = templateSearchResponse.parse({ success: true, templates: [{ id: 1, hash_id: "h1" }, { id: 2, hash_id: null }] });
    expect(rows.items.map((t) => t.hashId)).toEqual(["h1"]);
    expect(rows.skipped).toBe(1);
    expect(rows.firstProblem).toMatch(/^hash_id: /);
  });

  it("drops soft-deleted SSH keys from the list", () => {
    const keys = sshKeyListResponse.parse([
      { id: 1, user_id: 5, key: "ssh-ed25519 A", created_at: "2024-01-01T00:00:00Z", deleted_at: null },
      { id: 2, user_id: 5, key: "ssh-ed25519 B", created_at: "2024-01-01T00:00:00Z", deleted_at: "2024-02-01T00:00:00Z" },
    ]);
    expect(keys.map((k) => k.id)).toEqual([1]);
  });

  it("reads an API key's rights as its permissions, as JSON text or an object", () => {
    const perms = { api: { instance_read: {} } };
    const keys = apiKeyListResponse.parse({ apikeys: [{ id: 1, rights: JSON.stringify(perms) }, { id: 2, rights: perms }, { id: 3, rights: "read" }] });
    expect(keys.map((k) => k.permissions)).toEqual([perms, perms, null]);
  });

  it("takes any acknowledgement of a delete: a JSON string, null, an empty object, {success: true}", () => {
    for (const body of ["Successfully Deleted API Key", null, {}, { success: true }]) expect(acknowledgedResponse.parse(body)).toBe(true);
  });

  it("tells a worker-group error string from logs", () => {
    expect(workerGroupLogsResponse.parse("authenticate_workergroup_apikey: invalid api_key")).toEqual({ errorText: "authenticate_workergroup_apikey: invalid api_key" });
    expect(workerGroupLogsResponse.parse({ logs: "a\nb" })).toEqual({ logs: "a\nb" });
  });
});
