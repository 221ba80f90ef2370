/**
 * State file: the whole mutable state as JSON, written to a temporary file and renamed over
 * the target so a crash never leaves half a file (issue: --state FILE).
 *
 * One simulator owns a state file for its whole life: two writing the same file would each
 * overwrite the other's acknowledged changes. The lock is proper-lockfile's lock directory
 * next to the file (kept fresh while the simulator runs, taken over once stale after a crash),
 * with a small owner file beside it so a refused simulator can say who holds the file.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as lockfile from "proper-lockfile";
import { fieldPath, stateFileSchema } from "./schema";
import type { SimData } from "./types";

const FORMAT = "pulumi-vastai-simulator-state";
const VERSION = 1;
/** A lock not refreshed for this long belongs to a simulator that died; it may be taken over. */
const STALE_MS = 10_000;

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

export class StateFile {
  private constructor(
    /** The state file with its directory resolved. */
    readonly file: string,
    private readonly release: () => Promise<void>,
    private readonly ownerFile: string,
  ) {}

  /** Resolves the path, locks the file and removes temporary files of earlier runs. */
  static async open(given: string): Promise<StateFile> {
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
        stale: STALE_MS,
        retries: 0,
        onCompromised: (err) => {
          process.stderr.write(`simulator: lost the lock on state file ${file} (${err.message}); another simulator may now write it\n`);
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
          `A lock left by a simulator that was killed expires after ${STALE_MS / 1000} s.`,
        { cause: err },
      );
    }
    const owner: Owner = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
    fs.writeFileSync(ownerFile, JSON.stringify(owner), { mode: 0o600 });
    // Holding the lock, every temporary file of this state file is a leftover of a killed run.
    const temp = new RegExp(`^\\.${escapeRegExp(base)}\\.\\d+\\.tmp$`);
    for (const name of fs.readdirSync(dir)) if (temp.test(name)) fs.rmSync(path.join(dir, name), { force: true });
    return new StateFile(file, release, ownerFile);
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
    const body: StateFileBody = { format: FORMAT, version: VERSION, data };
    const tmp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${process.pid}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify(body), { mode: 0o600 });
    // The mode above applies only when the file is created.
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, this.file);
  }

  /** Gives the file up for another simulator. */
  async close(): Promise<void> {
    fs.rmSync(this.ownerFile, { force: true });
    await this.release();
  }
}
