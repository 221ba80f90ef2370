/**
 * State file: the whole mutable state as JSON, written to a temporary file and renamed over
 * the target so a crash never leaves half a file (issue: --state FILE). The temporary file
 * has an unpredictable name and is created exclusively (O_EXCL), so a symlink planted in the
 * directory is never followed and another user cannot guess the name ahead.
 *
 * One simulator owns a state file for its whole life: two writing the same file would each
 * overwrite the other's acknowledged changes. The lock is proper-lockfile's lock directory
 * next to the file (kept fresh while the simulator runs, taken over once stale after a crash),
 * with a small owner file beside it so a refused simulator can say who holds the file.
 *
 * A simulator paused past the stale time (SIGSTOP, a suspended laptop) can lose its lock to a
 * second one. Before every write it checks the lock is still its own (the same lock directory,
 * the owner file naming it) and proper-lockfile reports a lock taken over: then it writes
 * nothing more (save throws StateLockLost) and reports it, so a second simulator's acknowledged
 * writes are never overwritten.
 */
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as lockfile from "proper-lockfile";
import { fieldPath, stateFileSchema } from "./schema";
import type { SimData } from "./types";

const FORMAT = "pulumi-vastai-simulator-state";
const VERSION = 1;
/** By default, a lock not refreshed for this long belongs to a simulator that died; it may be taken over. */
const STALE_MS = 10_000;

/** The state file's lock is another simulator's now: nothing more may be written. */
export class StateLockLost extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StateLockLost";
  }
}

interface StateFileBody {
  format: string;
  version: number;
  data: SimData;
}

interface Owner {
  pid: number;
  host: string;
  since: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The file's directory as the system resolves it. Resolving `..` by hand (path.resolve) goes
 * wrong after a symlink: `link/../state.json` is in the parent of the link's target, and a
 * temporary file made elsewhere cannot be renamed over it across filesystems (EXDEV).
 */
function resolveFile(given: string): string {
  const base = path.basename(given);
  if (base === "" || base === "." || base === ".." || given.endsWith("/") || given.endsWith(path.sep)) {
    throw new Error(`Simulator state file must name a file, got "${given}"`);
  }
  const dir = path.dirname(given);
  fs.mkdirSync(dir, { recursive: true });
  return path.join(fs.realpathSync.native(dir), base);
}

function readOwner(file: string): Owner | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Owner;
  } catch {
    return undefined;
  }
}

interface LockIdentity {
  ino: number;
  birthtimeMs: number;
}

export interface StateFileOptions {
  /** Ms after which an unrefreshed lock may be taken over (default STALE_MS). */
  staleMs?: number;
  /** Called once when the lock was lost. */
  onLost?: (error: StateLockLost) => void;
}

export class StateFile {
  private lostError: StateLockLost | undefined;
  private lockId: LockIdentity | undefined;
  private owner: Owner | undefined;
  private onLost: ((error: StateLockLost) => void) | undefined;

  private constructor(
    /** The state file with its directory resolved. */
    readonly file: string,
    private readonly release: () => Promise<void>,
    private readonly ownerFile: string,
    private readonly lockPath: string,
  ) {}

  /** The error that ended this simulator's hold on the file, if it was lost. */
  get lost(): StateLockLost | undefined {
    return this.lostError;
  }

  private markLost(why: string, cause?: unknown): StateLockLost {
    if (this.lostError) return this.lostError;
    this.lostError = new StateLockLost(
      `Simulator lost the lock on state file ${this.file} (${why}); another simulator may own it now, so this one writes nothing more. ` +
        "A simulator paused (stopped, suspended) longer than the lock's stale time loses its file; restart it on another state file.",
      { cause },
    );
    process.stderr.write(`simulator: ${this.lostError.message}\n`);
    this.onLost?.(this.lostError);
    return this.lostError;
  }

  /** Throws StateLockLost unless the lock is still this simulator's. */
  private assertOwned(): void {
    if (this.lostError) throw this.lostError;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.lockPath);
    } catch (err) {
      throw this.markLost("its lock directory is gone", err);
    }
    if (this.lockId && (stat.ino !== this.lockId.ino || stat.birthtimeMs !== this.lockId.birthtimeMs)) {
      throw this.markLost("its lock directory was made anew by another simulator");
    }
    const owner = readOwner(this.ownerFile);
    const mine = this.owner;
    if (mine && (!owner || owner.pid !== mine.pid || owner.host !== mine.host || owner.since !== mine.since)) {
      const who = owner ? `pid ${owner.pid} on ${owner.host}, since ${owner.since}` : "owner unknown";
      throw this.markLost(`the lock is now held by ${who}`);
    }
  }

  /** Resolves the path, locks the file and removes temporary files of earlier runs. */
  static async open(given: string, options: StateFileOptions = {}): Promise<StateFile> {
    const staleMs = options.staleMs ?? STALE_MS;
    // Set once the lock is held; the lock's callback may run only after that.
    const opened: { file?: StateFile } = {};
    const file = resolveFile(given);
    const dir = path.dirname(file);
    const base = path.basename(file);
    const lockPath = path.join(dir, `.${base}.lock`);
    const ownerFile = path.join(dir, `.${base}.lock-owner`);
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(file, {
        realpath: false,
        lockfilePath: lockPath,
        stale: staleMs,
        // Refreshed four times per stale period: a busy event loop still keeps it fresh.
        update: Math.floor(staleMs / 4),
        retries: 0,
        onCompromised: (err) => {
          opened.file?.markLost(err.message, err);
        },
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ELOCKED") {
        throw new Error(`Cannot lock simulator state file ${file}: ${(err as Error).message}`, { cause: err });
      }
      const owner = readOwner(ownerFile);
      const who = owner ? `pid ${owner.pid} on ${owner.host}, since ${owner.since}` : "owner unknown";
      throw new Error(
        `Simulator state file ${file} is in use by another simulator (${who}); stop that one or give this one another state file. ` +
          `A lock left by a simulator that was killed expires after ${staleMs / 1000} s.`,
        { cause: err },
      );
    }
    const owner: Owner = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
    fs.writeFileSync(ownerFile, JSON.stringify(owner), { mode: 0o600 });
    // Holding the lock, every temporary file of this state file is a leftover of a killed run.
    const temp = new RegExp(`^\\.${escapeRegExp(base)}\\.[0-9a-f]+\\.tmp$`);
    for (const name of fs.readdirSync(dir)) if (temp.test(name)) fs.rmSync(path.join(dir, name), { force: true });
    const self = new StateFile(file, release, ownerFile, lockPath);
    const stat = fs.statSync(lockPath);
    self.lockId = { ino: stat.ino, birthtimeMs: stat.birthtimeMs };
    self.owner = owner;
    self.onLost = options.onLost;
    opened.file = self;
    return self;
  }

  /** The saved state, or undefined when the file does not exist yet. */
  load(): SimData | undefined {
    const file = this.file;
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new Error(`Cannot read simulator state file ${file}: ${(err as Error).message}`, { cause: err });
    }
    let parsed: Partial<StateFileBody>;
    try {
      parsed = JSON.parse(text) as Partial<StateFileBody>;
    } catch (err) {
      throw new Error(`Simulator state file ${file} is not valid JSON; delete it to start from the seed state.`, { cause: err });
    }
    if (parsed === null || typeof parsed !== "object" || parsed.format !== FORMAT || parsed.version !== VERSION) {
      throw new Error(
        `Simulator state file ${file} is not a version ${VERSION} simulator state; delete it to start from the seed state.`,
      );
    }
    const checked = stateFileSchema.safeParse(parsed);
    if (!checked.success) {
      const issues = checked.error.issues.slice(0, 5).map((i) => `${fieldPath(i.path)}: ${i.message}`);
      const more = checked.error.issues.length > issues.length ? ` (and ${checked.error.issues.length - issues.length} more)` : "";
      throw new Error(
        `Simulator state file ${file} has invalid fields: ${issues.join("; ")}${more}. Fix them or delete the file to start from the seed state.`,
      );
    }
    return checked.data.data;
  }

  /** Writes the state readable by its owner only: it holds API keys and passwords. */
  save(data: SimData): void {
    this.assertOwned();
    const body: StateFileBody = { format: FORMAT, version: VERSION, data };
    // A name nobody can guess, created only if nothing (not even a symlink) is there.
    const tmp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${randomBytes(12).toString("hex")}.tmp`);
    const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
    try {
      fs.writeFileSync(fd, JSON.stringify(body));
      // The mode above is filtered by the umask.
      fs.fchmodSync(fd, 0o600);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.renameSync(tmp, this.file);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
  }

  /** Gives the file up for another simulator. */
  async close(): Promise<void> {
    // A lost lock is another simulator's: its files are not ours to remove.
    if (this.lostError) return;
    // A lock lost a moment ago (not yet noticed) is not ours either: its owner file is another's.
    const owner = readOwner(this.ownerFile);
    const mine = this.owner;
    if (mine && (!owner || owner.pid !== mine.pid || owner.since !== mine.since)) return;
    fs.rmSync(this.ownerFile, { force: true });
    try {
      await this.release();
    } catch (error) {
      // Released under us: the lock was compromised between the check and the release.
      if ((error as { code?: string }).code !== "ERELEASED") throw error;
    }
  }
}
