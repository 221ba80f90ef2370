/**
 * issue 24 item 2: `npm run demo` takes its real-CLI path when .pulumi/bin/pulumi is there, and
 * its table has the README's rows (every title and outcome; times differ from run to run).
 * Runs the compiled demo (what `npm run demo` runs after building) in a process of its own.
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { describeE2E, REPO } from "./harness";

/** The table's rows without the time column. */
function rowsOf(table: string): string[] {
  return table
    .split("\n")
    .filter((l) => /^\d\. /.test(l))
    .map((l) => l.replace(/\s+\d+\.\d s$/, "").trimEnd());
}

describeE2E("issue 24 item 2: npm run demo with the built CLI", () => {
  test("24.2 the demo runs pulumi from .pulumi/bin and prints the README's table", async () => {
    execFileSync(process.execPath, [path.join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(REPO, "tsconfig.demo.json")], { cwd: REPO, stdio: "pipe" });
    const env = { ...process.env, VAST_API_KEY: "", VAST_URL: "", VAST_RUN_URL: "", PULUMI_SKIP_UPDATE_CHECK: "true" };
    const run = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(process.execPath, [path.join(REPO, "dist", "demo", "examples", "demo", "main.js")], { cwd: REPO, env, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}` }),
      );
    });
    const version = JSON.parse(fs.readFileSync(path.join(REPO, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")).version as string;
    expect(run.out).toContain(`Pulumi CLI v${version} found (${path.join(REPO, ".pulumi", "bin", "pulumi")})`);
    expect(run.out).toContain("(Pulumi CLI); nothing left on the simulator.");
    expect(run.code).toBe(0);
    const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
    const shown = /```\n(step {2}[\s\S]*?)\n```/.exec(readme)?.[1] ?? "";
    expect(rowsOf(run.out)).toEqual(rowsOf(shown));
    expect(rowsOf(shown)).toHaveLength(4);
  }, 600_000);
});
