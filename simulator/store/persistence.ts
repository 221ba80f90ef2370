/**
 * State file: the whole mutable state as JSON, written to a temporary file and renamed over
 * the target so a crash never leaves half a file (issue: --state FILE).
 */
import * as fs from "fs";
import * as path from "path";
import type { SimData } from "./types";

const FORMAT = "pulumi-vastai-simulator-state";
const VERSION = 1;

interface StateFile {
  format: string;
  version: number;
  data: SimData;
}

/** The saved state, or undefined when the file does not exist yet. */
export function loadState(file: string): SimData | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`Cannot read simulator state file ${file}: ${(err as Error).message}`, { cause: err });
  }
  let parsed: Partial<StateFile>;
  try {
    parsed = JSON.parse(text) as Partial<StateFile>;
  } catch (err) {
    throw new Error(`Simulator state file ${file} is not valid JSON; delete it to start from the seed state.`, { cause: err });
  }
  if (parsed.format !== FORMAT || parsed.version !== VERSION || typeof parsed.data !== "object" || !parsed.data) {
    throw new Error(
      `Simulator state file ${file} is not a version ${VERSION} simulator state; delete it to start from the seed state.`,
    );
  }
  return parsed.data;
}

export function saveState(file: string, data: SimData): void {
  const body: StateFile = { format: FORMAT, version: VERSION, data };
  const dir = path.dirname(path.resolve(file));
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(body));
  fs.renameSync(tmp, file);
}
