/**
 * Account environment variables (spec: Secrets; api-facts: Secrets). Names are upper-cased,
 * at most 16 per account, and values are never returned: only asterisks, or null when empty.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { account } from "../http/auth";
import { apiError, invalidArgs, show } from "../http/errors";
import { bodyOf, optString, reqString } from "../http/validate";
import type { SecretRecord } from "../store/types";

export const SECRETS_MAX = 16;

function nameOf(request: FastifyRequest): string {
  const key = reqString(bodyOf(request.body), "key").toUpperCase();
  if (!/^[A-Z_]\w{0,127}$/.test(key)) {
    throw invalidArgs(`key must be a variable name of letters, digits and _ not starting with a digit (got ${show(key)})`);
  }
  return key;
}

/** The document's rule for a value; the service refuses anything else. */
const VALUE = /^[a-zA-Z0-9_\-.]+$/;

function valueOf(request: FastifyRequest): string {
  const value = optString(bodyOf(request.body), "value");
  if (value === undefined) throw apiError(400, "missing_input", "Both 'key' and 'value' are required.");
  // The value is a secret: the refusal names the rule, never the value.
  if (!VALUE.test(value)) throw apiError(400, "invalid_characters", "value may hold only letters, digits, '_', '-' and '.'");
  return value;
}

function find(ctx: SimContext, userId: number, name: string): SecretRecord {
  const s = ctx.store.data.secrets.find((x) => x.userId === userId && x.name === name);
  if (!s) throw apiError(400, "nonexistent_key", "Environment variable not found");
  return s;
}

export function registerSecrets(app: FastifyInstance, ctx: SimContext): void {
  app.get("/api/v0/secrets/", (req) => {
    const userId = account(req).user.id;
    const secrets: Record<string, string | null> = {};
    for (const s of ctx.store.data.secrets) {
      if (s.userId === userId) secrets[s.name] = s.value === "" ? null : "*".repeat(Math.min(Math.max(s.value.length, 8), 16));
    }
    return { success: true, secrets };
  });

  app.post("/api/v0/secrets", (req) => {
    const userId = account(req).user.id;
    const name = nameOf(req);
    const value = valueOf(req);
    const mine = ctx.store.data.secrets.filter((s) => s.userId === userId);
    if (mine.some((s) => s.name === name)) throw apiError(400, "existing_key", `Environment variable ${name} already exists; use PUT to change it`);
    if (mine.length >= SECRETS_MAX) throw apiError(400, "max_secrets", `User has reached the limit of ${SECRETS_MAX} environment variables.`);
    ctx.store.data.secrets.push({ userId, name, value });
    ctx.store.changed();
    return { success: true, msg: `Environment variable ${name} added` };
  });

  app.put("/api/v0/secrets", (req) => {
    const s = find(ctx, account(req).user.id, nameOf(req));
    s.value = valueOf(req);
    ctx.store.changed();
    return { success: true, msg: `Environment variable ${s.name} updated` };
  });

  app.delete("/api/v0/secrets", (req) => {
    const s = find(ctx, account(req).user.id, nameOf(req));
    ctx.store.data.secrets = ctx.store.data.secrets.filter((x) => x !== s);
    ctx.store.changed();
    return { success: true, msg: `Environment variable ${s.name} deleted` };
  });
}
