/**
 * What the orphan report reads from a `pulumi stack export` file besides its resources: Pulumi
 * secrets, the checkpoint's time and the stack the export is of.
 *
 * A secret is stored as `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
 * "ciphertext": ...}`; `pulumi stack export --show-secrets` writes `"plaintext"` instead, the
 * JSON of the value (the Pulumi CLI's SecretV1). A field the report relies on is opened through
 * `openField`: plaintext is read, ciphertext (or anything else unreadable) refuses naming the
 * file, the resource and the field, never reads as "nothing".
 */

/** The key and value that mark a Pulumi secret in a state file. */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The command that writes an export whose secrets the report can read. */
export const READABLE_EXPORT = "pulumi stack export --show-secrets --file <file>";

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A field the report relies on that it cannot read: exit code 2, nothing deleted. */
export class UnreadableFieldError extends Error {
  constructor(file: string, resource: string, field: string, problem: string) {
    super(
      `${file}: ${resource}: \`${field}\` ${problem}; the report needs it to tell what the stack holds. Nothing was deleted. ` +
        `Give an export that shows it: \`${READABLE_EXPORT}\`.`,
    );
    this.name = "UnreadableFieldError";
  }
}

/** Where a field is read: the file and the resource (its URN, or its place in the list). */
export interface FieldSite {
  file: string;
  resource: string;
}

/** The resource's name for messages: its URN, else its place and type. */
export function resourceLabel(r: { urn?: unknown; type?: unknown }, index: number): string {
  if (typeof r.urn === "string" && r.urn !== "") return r.urn;
  return `deployment.resources[${index}]${typeof r.type === "string" ? ` (${r.type})` : ""}`;
}

export const isSecret = (v: unknown): v is Record<string, unknown> => isObject(v) && v[SECRET_SIG_KEY] === SECRET_SIG;

/** `value` with any Pulumi secret around it opened; throws naming the field when it is encrypted or unreadable. */
export function openField(site: FieldSite, field: string, value: unknown): unknown {
  const opened = openSecret(value);
  if ("problem" in opened) throw new UnreadableFieldError(site.file, site.resource, field, opened.problem);
  return opened.value;
}

/**
 * `value` with any Pulumi secret around it opened (plaintext read), or why it cannot be: for a
 * reader that goes on without the field and says so (the cost report), where openField refuses.
 */
export function openSecret(value: unknown): { value: unknown } | { problem: string } {
  let v = value;
  while (isSecret(v)) {
    if (typeof v.plaintext === "string") {
      try {
        v = JSON.parse(v.plaintext) as unknown;
      } catch {
        return { problem: "is a Pulumi secret whose plaintext is not JSON" };
      }
      continue;
    }
    return { problem: "ciphertext" in v ? "is encrypted (a Pulumi secret)" : "is a Pulumi secret with neither plaintext nor ciphertext" };
  }
  return { value: v };
}

/** RFC 3339 as Go writes a time.Time: fractional seconds to 9 digits, `Z` or an offset. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

/** Epoch ms of an RFC 3339 time, or undefined when it is not one. */
export function rfc3339Ms(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return undefined;
  const ms = Number((m[7] ?? "0").padEnd(3, "0").slice(0, 3));
  const zone = m[8].toUpperCase();
  const offsetMin = zone === "Z" ? 0 : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMin * 60_000;
  return Number.isFinite(t) ? t : undefined;
}

/** The stack and project an export is of, from its `pulumi:pulumi:Stack` resource's URN. */
export interface OwnStack {
  project: string;
  stack: string;
}

/** `urn:pulumi:<stack>::<project>::<type>::<name>` of the Stack resource; undefined without one. */
export function ownStackOf(resources: ReadonlyArray<{ urn?: unknown; type?: unknown }>): OwnStack | undefined {
  for (const r of resources) {
    if (r.type !== "pulumi:pulumi:Stack" || typeof r.urn !== "string") continue;
    const m = /^urn:pulumi:([^:]+)::([^:]+)::/.exec(r.urn);
    if (m) return { stack: m[1], project: m[2] };
  }
  return undefined;
}

/** Outputs a StackIdentity may record the fully qualified name of the stack it was made for in (`org/project/stack`). */
export const RECORDED_STACK_OUTPUTS = ["fullyQualifiedStackName", "stackName"] as const;

/**
 * Whether a recorded stack name (`org/project/stack`, `project/stack` or `stack`) names the
 * export's own stack: the parts it gives must equal the URN's (a URN names no organization).
 */
export function recordedNameMatches(recorded: string, own: OwnStack): boolean {
  const parts = recorded.split("/");
  if (parts.length > 3 || parts.some((p) => p === "")) return false;
  const stack = parts[parts.length - 1];
  const project = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  return stack === own.stack && (project === undefined || project === own.project);
}
