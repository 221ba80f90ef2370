/**
 * The in-machine guard: a small POSIX sh script that the provider adds to an instance's start
 * command (its `onstart`, or its `args` when the image's entrypoint is replaced). It stops or
 * destroys its own instance after an idle period or at a deadline, with the restricted key the
 * service injects into the container (`CONTAINER_API_KEY`, `CONTAINER_ID`), and logs what it does
 * to `GUARD_LOG`. The rules it follows are listed in docs/costs-and-stopping-spend.md ("Stopping spend", "The
 * in-machine guard (autostop and TTL)").
 *
 * Written for sh (dash, busybox ash, bash): no bash-isms, so it runs in ubuntu, nvidia/cuda and
 * pytorch images alike. Settings read from the container's environment (for tests; none is
 * needed in a real instance):
 * - `VASTAI_GUARD_DIR`: the guard's folder (default `/var/log/vastai-guard`, else `$HOME/.vastai-guard`);
 * - `VASTAI_GUARD_TICK_SECONDS`: seconds between two checks (default 30);
 * - `VASTAI_GUARD_MINUTE_SECONDS`: the length of an idle "minute" in seconds (default 60);
 * - `VASTAI_GUARD_SSH_PORT`: the port whose established connections count as activity (default 22; 0: none).
 */
import { shellQuote } from "../../../client/wire/shell";
import type { GuardAction, GuardPlan } from "./plan";

/** The guard's folder in the container (when writable; else `$HOME/.vastai-guard`). */
export const GUARD_DIR = "/var/log/vastai-guard";
/** The file the guard logs to, one line per event with its UTC time. */
export const GUARD_LOG = `${GUARD_DIR}/guard.log`;

/** A shell word that stands for `text` exactly (single-quoted). */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

const ACTIONS: readonly GuardAction[] = ["stop", "destroy"];

function checkAction(name: string, value: GuardAction | undefined): GuardAction | undefined {
  if (value !== undefined && !ACTIONS.includes(value)) {
    throw new Error(`${name} must be "stop" or "destroy" (got ${JSON.stringify(value)})`);
  }
  return value;
}

/** The plan as shell assignments (the only part of the guard that changes from one plan to another). */
function planAssignments(plan: GuardPlan): string {
  const apiUrl = plan.apiUrl.replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s'"\\$`]+$/.test(apiUrl)) throw new Error(`guard apiUrl must be an http(s) URL (got ${JSON.stringify(plan.apiUrl)})`);
  let deadline = "";
  if (plan.expiresAt !== undefined) {
    const ms = Date.parse(plan.expiresAt);
    if (!Number.isFinite(ms)) throw new Error(`expiresAt must be an ISO-8601 time (got ${JSON.stringify(plan.expiresAt)})`);
    deadline = String(Math.floor(ms / 1000));
  }
  const expireAction = checkAction("expireAction", plan.expireAction) ?? "destroy";
  let idle = "";
  let below = "";
  let idleAction = "";
  let sshCounts = "1";
  if (plan.autostop) {
    const a = plan.autostop;
    if (!Number.isInteger(a.idleMinutes) || a.idleMinutes < 1) throw new Error(`autostop.idleMinutes must be a whole number >= 1 (got ${a.idleMinutes})`);
    if (!Number.isFinite(a.gpuUtilBelowPercent) || a.gpuUtilBelowPercent < 0 || a.gpuUtilBelowPercent > 100) {
      throw new Error(`autostop.gpuUtilBelowPercent must be 0-100 (got ${a.gpuUtilBelowPercent})`);
    }
    idle = String(a.idleMinutes);
    // nvidia-smi reports whole percents: "below 5.5" is "at most 5", i.e. below 6.
    below = String(Math.ceil(a.gpuUtilBelowPercent));
    idleAction = checkAction("autostop.action", a.action) ?? "stop";
    if (a.sshKeepsAwake === false) sshCounts = "0";
  }
  return [
    `A=${shellWord(apiUrl)}`,
    `E=${deadline}`,
    `EI=${deadline === "" ? "" : new Date(Number(deadline) * 1000).toISOString().replace(".000Z", "Z")}`,
    `X=${expireAction}`,
    `I=${idle}`,
    `P=${below}`,
    `Y=${idleAction}`,
    `SC=${sshCounts}`,
  ].join(" ");
}

/**
 * The guard itself (run as `sh <dir>/guard.sh`, after the plan's assignments). Variables: D its
 * folder, L the log, T tick, M seconds per idle minute, S the SSH port, K the key, U the
 * instance's URL, H the HTTP tool, t now, i idle since, w next try, n failed tries, d the wait,
 * a a decided idle action, q "no GPU reading" logged, o "SSH session" logged, c the last HTTP status.
 */
const GUARD_BODY = String.raw`trap '' HUP
D=${"${0%/*}"} T=${"${VASTAI_GUARD_TICK_SECONDS:-30}"} M=${"${VASTAI_GUARD_MINUTE_SECONDS:-60}"} S=${"${VASTAI_GUARD_SSH_PORT:-22}"} K=$CONTAINER_API_KEY TO= i= w=0 n=0 d=0 a= q= o=
L=$D/guard.log U=$A/api/v0/instances/$CONTAINER_ID/
[ $SC = 1 ] || S=0
log(){ echo "$(date -u +%FT%TZ) $*" >>"$L"; }
echo $$ >"$D/pid"
[ "$CONTAINER_ID" ] && [ "$K" ] || { log "no CONTAINER_ID or CONTAINER_API_KEY: autostop and TTL cannot act; guard exits"; exit; }
tool(){ H=
if command -v curl >/dev/null; then H=curl
elif command -v wget >/dev/null && wget --help 2>&1 | grep -q -- --method; then H=wget
elif command -v python3 >/dev/null; then H=python3; fi; }
tool
command -v timeout >/dev/null && TO="timeout 20"
log "guard started (pid $$, instance $CONTAINER_ID, ${"${H:-no HTTP tool}"}, tick ${"${T}"}s):${"${E:+ at $EI: $X;}"}${"${I:+ after $I min with every GPU below $P%: $Y}"}"
[ "$H" ] || log "no curl, wget (GNU) or python3: autostop and TTL cannot act until one is installed"
req(){ rm -f "$D/r"; tool
case $H in
'') c="none: no curl, wget or python3";;
curl) c=$(printf 'header="Authorization: Bearer %s"\n' "$K" | curl -sK- -o "$D/r" -w '%{http_code}' -m60 -X $1 -H Content-Type:application/json -d "$2" "$U");;
wget) (umask 077; printf 'header=Authorization: Bearer %s\n' "$K" >"$D/h")
c=$(WGETRC="$D/h" wget -qSO "$D/r" --content-on-error -T60 -t1 --method=$1 --body-data="$2" --header=Content-Type:application/json "$U" 2>&1 | awk '/^ *HTTP\//{c=$2}END{print c}'); rm -f "$D/h";;
*) c=$(python3 -c 'import os,sys,urllib.request as r
u,m,b,o=sys.argv[1:]
try:s=r.urlopen(r.Request(u,b.encode(),{"Authorization":"Bearer "+os.environ["CONTAINER_API_KEY"],"Content-Type":"application/json"},method=m),timeout=60)
except Exception as e:s=e
open(o,"wb").write(s.read() if hasattr(s,"read") else b"")
print(getattr(s,"status",0) or getattr(s,"code",0))' "$U" $1 "$2" "$D/r" 2>/dev/null);;
esac
case $c in 2??) ! grep -q '"success": *false' "$D/r" 2>/dev/null || { c="$c success:false"; return 1; };; *) return 1;; esac; }
act(){ [ $t -lt $w ] && return
if [ $1 = stop ]; then req PUT '{"state":"stopped"}'; else req DELETE {}; fi && { log "$1 of instance $CONTAINER_ID accepted (HTTP $c, $2); guard exits"; exit; }
n=$((n+1)) d=$((d<T?T:d<T*16?d*2:d)); w=$((t+d))
log "$1 of instance $CONTAINER_ID failed (HTTP ${"${c:-none}"}, try $n); next try in ${"${d}"}s"; }
gpu(){ g=none
u=$($TO nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits 2>/dev/null) || return
for x in $u; do case $x in *[!0-9]*) g=none; return;; esac; [ $x -ge $P ] && { g=busy; return; }; g=idle; done; }
ssh_on(){ [ $S -gt 0 ] 2>/dev/null && cat /proc/net/tcp* 2>/dev/null | grep -q ":$(printf %04X $S) [0-9A-F]*:[0-9A-F]* 01 "; }
while :; do t=$(date +%s)
if [ "$E" ] && [ $t -ge $E ]; then act $X "deadline $EI"
elif [ "$a" ]; then act $a "idle $I min"
elif [ "$I" ]; then gpu
[ $g = idle ] && ssh_on && g=ssh
case $g in
none) [ "$q" ] || log "no GPU reading (nvidia-smi missing or failing): no idle stop until one"; q=1 i=;;
idle) q= o=; [ "$i" ] || { i=$t; log "idle: every GPU below $P% ($(echo $u))"; }
[ $((t-i)) -ge $((I*M)) ] && a=$Y && act $a "idle $I min";;
ssh) [ "$o" ] || log "SSH session open: not idle"; q= o=1 i=;;
*) q= o=; [ "$i" ] && log "active again (GPU $(echo $u))"; i=;;
esac
fi
sleep $T
done
`;

/**
 * The launcher: finds the guard's folder, and starts the guard in the background unless one runs
 * already (its pid file names a process whose command line is exactly `sh <dir>/guard.sh`: a pid
 * left by a run before a container restart names nothing, or another process).
 */
function launcher(plan: GuardPlan): string {
  return [
    `# vastai guard (autostop, TTL); log: ${GUARD_LOG}`,
    `_vg=\${VASTAI_GUARD_DIR:-${GUARD_DIR}}`,
    `mkdir -p "$_vg" 2>/dev/null && [ -w "$_vg" ] || { _vg=$HOME/.vastai-guard; mkdir -p "$_vg"; }`,
    `_vp=$(cat "$_vg/pid" 2>/dev/null)`,
    `if [ "$(tr '\\0' ' ' <"/proc/$_vp/cmdline" 2>/dev/null)" != "sh $_vg/guard.sh " ]; then`,
    `cat >"$_vg/g.$$" <<'VASTAI_GUARD_END'`,
    planAssignments(plan),
    GUARD_BODY + "VASTAI_GUARD_END",
    `mv -f "$_vg/g.$$" "$_vg/guard.sh" && { sh "$_vg/guard.sh" </dev/null >/dev/null 2>&1 & echo $! >"$_vg/pid"; }`,
    `fi`,
    `unset _vg _vp`,
  ].join("\n");
}

/**
 * The `onstart` to send: starts the guard in the background (once, also when onstart runs again
 * at a container restart), then runs the user's onstart unchanged in the same shell, so its exit
 * code is the script's exit code.
 */
export function guardedOnstart(userOnstart: string | undefined, plan: GuardPlan): string {
  const start = launcher(plan);
  return userOnstart === undefined || userOnstart === "" ? `${start}\n` : `${start}\n${userOnstart}`;
}

/**
 * The `args` to send for an instance whose entrypoint is replaced by `userArgs`: sh starts the
 * guard, then execs the user's command with its arguments as given (no shell parsing), so it
 * keeps the process, its signals and its exit code.
 */
export function guardedArgs(userArgs: string[], plan: GuardPlan): string[] {
  if (userArgs.length === 0) throw new Error("args must name a command to run when autostop or a TTL is set (got an empty list)");
  return ["sh", "-c", `${launcher(plan)}\nexec "$@"`, "vastai-guard", ...userArgs];
}

/**
 * `guardedArgs` for an Instance's `argsStr` (the command line the service splits into words):
 * the guard's `sh -c` words, quoted, then the user's command line unchanged.
 */
export function guardedArgsStr(userArgsStr: string, plan: GuardPlan): string {
  if (userArgsStr.trim() === "") throw new Error("argsStr must name a command to run when autostop or a TTL is set (got an empty string)");
  const [sh, c, script, name] = guardedArgs(["true"], plan);
  return `${sh} ${c} ${shellQuote(script)} ${name} ${userArgsStr}`;
}
