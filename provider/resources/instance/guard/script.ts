/**
 * The start command that carries the guard (stand-in until the guard script lands: the provider
 * side is written against these three exports; the real script replaces this file).
 *
 * `guardedOnstart` keeps the user's own `onstart` and its exit code; the guard runs beside it
 * in the background, reads `CONTAINER_API_KEY` and `CONTAINER_ID` from the container's
 * environment (never from the script: no key is written into it) and logs to `GUARD_LOG`.
 */
import type { GuardPlan } from "./plan";

/** The file the guard logs what it did to, inside the container. */
export const GUARD_LOG = "/var/log/pulumi-vastai-guard.log";

/** First line of every guarded start command: the provider recognises its own guard by it. */
const GUARD_MARK = "# pulumi-vastai guard";

function guardProgram(plan: GuardPlan): string {
  const json = JSON.stringify(plan).replace(/'/g, "'\\''");
  return `${GUARD_MARK}\n(GUARD_PLAN='${json}'; [ -n "$CONTAINER_API_KEY" ] || echo "guard: no CONTAINER_API_KEY" >> ${GUARD_LOG}; echo "guard: plan $GUARD_PLAN" >> ${GUARD_LOG}) &\n`;
}

/** The instance's onstart with the guard started first, in the background. */
export function guardedOnstart(userOnstart: string | undefined, plan: GuardPlan): string {
  return guardProgram(plan) + (userOnstart ?? "");
}

/** The container's arguments (runtype args) wrapped so that the guard starts beside them. */
export function guardedArgs(userArgs: string | undefined, plan: GuardPlan): string[] {
  return ["sh", "-c", `${guardProgram(plan)}exec ${userArgs ?? "sleep infinity"}`];
}
