/**
 * What a stack identity in state must be before anything is found by marker with it.
 *
 * The nonce is random and says nothing of the stack it was made for, so a state copied to
 * another stack name (`pulumi stack export | pulumi stack import`, a state file copied to a
 * second backend) carried a working identity into a second stack, which then adopted,
 * revoked and deleted the first stack's objects by their markers. The identity records the
 * fully qualified stack name it was made for (`stackName`, `org/project/stack`); a stack run
 * under another name is refused until the user says whether it was renamed (the recorded name
 * is confirmed with `vastai:renamedFrom`, and recorded anew) or copied (a fresh nonce, asked for
 * with `vastai:newStackIdentity`, naming the identity to retire). A nonce not of the form its
 * create makes (emptied, a number, missing: a hand-edited or damaged state) is refused too:
 * taken as no identity, every create would lose its marker without a word.
 *
 * Pure: the StackIdentity provider (in the plugin) and the resource classes (in the program)
 * use it both.
 */
import { stackTagOf } from "../kit/create-once";

/** The output (and input) holding the fully qualified stack name the identity was made for. */
export const STACK_NAME_KEY = "stackName";
/** Config key confirming a rename: the fully qualified name the identity was made for. */
export const RENAMED_FROM_SETTING = "renamedFrom";
/** Config key asking for a fresh nonce: the id (tag) of the identity to retire. */
export const NEW_IDENTITY_SETTING = "newStackIdentity";

/** A nonce as the create makes it: 128 random bits, 32 lowercase hex digits. */
export const NONCE_FORM = /^[0-9a-f]{32}$/;

/** Why `nonce` is not a nonce the create made; undefined when it is one. */
export function nonceProblem(nonce: unknown, tag?: unknown): string | undefined {
  if (nonce === undefined || nonce === null) return "missing";
  if (typeof nonce !== "string") return `${typeof nonce === "number" ? "the number" : `a ${typeof nonce}:`} ${shown(nonce)}`;
  if (nonce === "") return "empty";
  if (!NONCE_FORM.test(nonce)) return `"${shown(nonce)}"`;
  if (typeof tag === "string" && tag !== stackTagOf(nonce)) return `a nonce that does not match the identity's tag (${shown(tag)})`;
  return undefined;
}

function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/** The refusal of a nonce not of the form its create made. */
export function corruptedNonceMessage(problem: string, id: string): string {
  return (
    `StackIdentity: the stack's nonce in state is ${problem}, not the 32 hex digits its create made: the state was edited or damaged. ` +
    `Nothing is created until it is repaired (without it, a run after a killed one would not find what that run made, and the orphan report could not tell this stack's objects). ` +
    `Repair: put the StackIdentity's \`nonce\` back from an earlier export or backup of this stack's state (\`pulumi stack export --file state.json\`, edit, \`pulumi stack import --file state.json\`); ` +
    `or, if no good copy exists, give the stack a fresh nonce: \`pulumi config set vastai:${NEW_IDENTITY_SETTING} ${id}\` ` +
    `(what the old nonce made and the state does not hold is then nobody's: \`npx pulumi-vastai orphans\` without state files lists it).`
  );
}

/** The refusal of an identity made for another stack. */
export function otherStackMessage(recorded: string, current: string, id: string): string {
  return (
    `StackIdentity: this stack is ${current}, but its identity was made for ${recorded}: the state was renamed, moved to another backend or organization, ` +
    `imported (\`pulumi stack export | pulumi stack import\`) or copied. Until you say which, nothing is changed: a copy would adopt, revoke and delete ${recorded}'s objects by their markers. ` +
    `If ${recorded} was renamed or moved and no longer runs: \`pulumi config set vastai:${RENAMED_FROM_SETTING} ${recorded}\` (everything is kept). ` +
    `If this stack is a copy: \`pulumi config set vastai:${NEW_IDENTITY_SETTING} ${id}\` (a fresh nonce: what this stack makes from then on is its own, and ${recorded}'s objects are never found by marker; ` +
    `what its state holds by id stays in it, see docs/sharing-an-account.md).`
  );
}

/**
 * Whether the identity recorded for `recorded` may serve stack `current`: the same name, no
 * recorded name (an identity of the previous release: this run records it), or a rename the
 * user confirmed (`renamedFrom` names the recorded stack).
 */
export function servesStack(recorded: unknown, current: string, renamedFrom: string | undefined): boolean {
  if (recorded === undefined || recorded === null) return true;
  return recorded === current || (typeof recorded === "string" && recorded === renamedFrom?.trim());
}
