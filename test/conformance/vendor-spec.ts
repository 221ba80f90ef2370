/**
 * The vendor's OpenAPI document, read at test time from ../shared/spec beside the clone, and
 * validators for its request and response schemas (Ajv, JSON Schema 2020-12, which OpenAPI 3.1
 * schemas are).
 */
import fs from "node:fs";
import path from "node:path";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse } from "yaml";

export const REPO_ROOT = path.resolve(__dirname, "../..");
/** Where the document is looked for when `VASTAI_OPENAPI` does not name it. */
export const DEFAULT_SPEC_PATH = path.resolve(REPO_ROOT, "../shared/spec/vendor-openapi.yaml");

/**
 * Where the vendor's document is: `VASTAI_OPENAPI` when set, else `../shared/spec/` beside the
 * clone. When it is absent the suite is skipped with `skipReason` (one line saying where to put
 * it), unless `VASTAI_REQUIRE_OPENAPI=1` (CI): then `locateSpec` throws, so the suite fails.
 */
export function locateSpec(env: NodeJS.ProcessEnv = process.env): { file: string; skipReason?: string } {
  const file = env.VASTAI_OPENAPI ? path.resolve(env.VASTAI_OPENAPI) : DEFAULT_SPEC_PATH;
  if (fs.existsSync(file)) return { file };
  const where = `the vendor's OpenAPI document is not at ${file}; set VASTAI_OPENAPI=path/to/vendor-openapi.yaml to run it`;
  if (env.VASTAI_REQUIRE_OPENAPI === "1") throw new Error(`conformance suite required (VASTAI_REQUIRE_OPENAPI=1) but ${where}`);
  return { file, skipReason: `conformance suite skipped: ${where}` };
}

type Json = Record<string, unknown>;

export interface Operation {
  /** The document's path template, for example `/api/v0/ssh/{id}`. */
  template: string;
  method: string;
  /** JSON pointer of the operation in the document. */
  pointer: string;
  op: Json;
}

export interface Problem {
  /** Where in the body (JSON pointer), "" for the root. */
  at: string;
  message: string;
}

const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);

export class VendorSpec {
  readonly doc: Json;
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction | null>();

  constructor(file = locateSpec().file) {
    this.doc = parse(fs.readFileSync(file, "utf8")) as Json;
    // Not strict: the document uses OpenAPI's own keywords (`example`) inside its schemas.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema(this.doc, "vendor");
  }

  get paths(): Json {
    return this.doc.paths as Json;
  }

  /** The operation a concrete request path hits (trailing slashes do not matter), if documented. */
  operation(method: string, concretePath: string): Operation | undefined {
    const want = trim(concretePath).split("/");
    const m = method.toLowerCase();
    // Literal segments beat placeholders (`/machines/maintenances` over `/machines/{id}`).
    let best: { op: Operation; literal: number } | undefined;
    for (const template of Object.keys(this.paths)) {
      const parts = trim(template).split("/");
      if (parts.length !== want.length) continue;
      let literal = 0;
      const ok = parts.every((p, i) => {
        if (/^\{\w+\}$/.test(p)) return want[i] !== "";
        if (p === want[i]) literal++;
        return p === want[i];
      });
      const item = (this.paths[template] as Json)[m] as Json | undefined;
      if (!ok || !item) continue;
      if (!best || literal > best.literal) {
        best = { op: { template, method: m, pointer: `#/paths/${escape(template)}/${m}`, op: item }, literal };
      }
    }
    return best?.op;
  }

  private validator(pointer: string): ValidateFunction | null {
    if (!this.cache.has(pointer)) {
      this.cache.set(pointer, this.ajv.getSchema(`vendor${pointer}`) ?? null);
    }
    return this.cache.get(pointer) ?? null;
  }

  /** Whether the document gives a JSON request schema for the operation. */
  hasRequestSchema(op: Operation): boolean {
    return this.validator(`${op.pointer}/requestBody/content/application~1json/schema`) !== null;
  }

  /** Problems of a request body against the operation's JSON request schema (none when it has none). */
  checkRequest(op: Operation, body: unknown): Problem[] {
    const v = this.validator(`${op.pointer}/requestBody/content/application~1json/schema`);
    return v ? problems(v, body) : [];
  }

  /**
   * Problems of a response body against the schema the document gives for that status (or
   * `default`). `undefined` when the document gives no JSON schema for the status.
   */
  checkResponse(op: Operation, status: number, body: unknown): Problem[] | undefined {
    const responses = (op.op.responses ?? {}) as Json;
    const key = String(status) in responses ? String(status) : "default" in responses ? "default" : undefined;
    if (!key) return undefined;
    const v = this.validator(`${op.pointer}/responses/${key}/content/application~1json/schema`);
    return v ? problems(v, body) : undefined;
  }

  /** Required query parameters of the operation that the request left out. */
  missingQuery(op: Operation, query: Record<string, string>): string[] {
    const params = (op.op.parameters ?? []) as Json[];
    return params.filter((p) => p.in === "query" && p.required === true && !(String(p.name) in query)).map((p) => String(p.name));
  }

  /** The JSON schema object at a pointer of the document (for building examples). */
  schemaAt(pointer: string): Json | undefined {
    let node: unknown = this.doc;
    for (const raw of pointer.replace(/^#\//, "").split("/")) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      if (!node || typeof node !== "object") return undefined;
      node = (node as Json)[key];
    }
    return node as Json | undefined;
  }
}

function problems(v: ValidateFunction, body: unknown): Problem[] {
  if (v(body)) return [];
  return (v.errors ?? []).map((e: ErrorObject) => ({ at: e.instancePath, message: `${e.message ?? "invalid"}${detail(e)}` }));
}

function detail(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (p.additionalProperty) return ` (${String(p.additionalProperty)})`;
  if (p.allowedValues) return ` (${JSON.stringify(p.allowedValues)})`;
  return "";
}
