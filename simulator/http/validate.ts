/**
 * Body and parameter checks whose messages name the field, the rule and the value received,
 * the way the service answers bad input: 400 `invalid_args`.
 */
import { invalidArgs, show } from "./errors";

export type Body = Record<string, unknown>;

/** The JSON body as an object; an absent body counts as `{}`. */
export function bodyOf(raw: unknown): Body {
  if (raw === undefined || raw === null || raw === "") return {};
  if (typeof raw === "string") throw invalidArgs("Request body must be a JSON object sent with Content-Type: application/json");
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw invalidArgs(`Request body must be a JSON object (got ${show(raw)})`);
  }
  return raw as Body;
}

export function optString(body: Body, field: string, maxLength?: number): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalidArgs(`${field} must be a string (got ${show(v)})`);
  if (maxLength !== undefined && v.length > maxLength) {
    throw invalidArgs(`${field} must be at most ${maxLength} characters (got ${v.length})`);
  }
  return v;
}

export function reqString(body: Body, field: string, hint = ""): string {
  const v = optString(body, field);
  if (v === undefined) throw invalidArgs(`${field} is required${hint}`);
  return v;
}

export function optBool(body: Body, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw invalidArgs(`${field} must be true or false (got ${show(v)})`);
  return v;
}

export function optNumber(body: Body, field: string): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) throw invalidArgs(`${field} must be a number (got ${show(v)})`);
  return v;
}

export function optInt(body: Body, field: string): number | undefined {
  const v = optNumber(body, field);
  if (v !== undefined && !Number.isInteger(v)) throw invalidArgs(`${field} must be an integer (got ${show(v)})`);
  return v;
}

export function optObject(body: Body, field: string): Body | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) throw invalidArgs(`${field} must be an object (got ${show(v)})`);
  return v as Body;
}

/** A numeric path parameter such as an instance id. */
export function idParam(value: string, name: string): number {
  if (!/^\d{1,15}$/.test(value)) throw invalidArgs(`${name} must be a positive integer (got ${show(value)})`);
  return Number(value);
}
