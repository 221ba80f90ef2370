/**
 * What each entry point of the built package loads: a program that only uses the resources
 * must not load the simulator's server (fastify) or command line (commander), and
 * `pulumi-vastai/testing` loads the simulator only when it starts one. Checked in a fresh
 * node process, by the modules in its require cache.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { ensureBuilt } from "../contract/harness";

const repo = path.resolve(__dirname, "..", "..");

/** Runs `script` in a new node process in the checkout (where `pulumi-vastai` names the built package). */
function loadedAfter(script: string): string[] {
  const probe = `
    const report = () => {
      const names = Object.keys(require.cache).flatMap((f) => /[\\\\/]node_modules[\\\\/](fastify|commander)[\\\\/]/.exec(f)?.[1] ?? []);
      process.stdout.write(JSON.stringify([...new Set(names)].sort()));
    };
    (async () => { ${script} })().then(report, (e) => { console.error(e); process.exit(1); });
  `;
  return JSON.parse(execFileSync(process.execPath, ["-e", probe], { cwd: repo, encoding: "utf8" }));
}

beforeAll(() => ensureBuilt(), 120_000);

test("require('pulumi-vastai') loads neither fastify nor commander", () => {
  expect(loadedAfter(`const p = require("pulumi-vastai"); if (!p.Instance || !p.providers) throw new Error("not the package");`)).toEqual([]);
});

test("require('pulumi-vastai/runtime') loads neither fastify nor commander", () => {
  expect(loadedAfter(`require("pulumi-vastai/runtime").implementation("template");`)).toEqual([]);
});

test("pulumi-vastai/testing loads the simulator only when startTestStack starts one", () => {
  expect(loadedAfter(`if (typeof require("pulumi-vastai/testing").startTestStack !== "function") throw new Error("no startTestStack");`)).toEqual([]);
  const started = `
    const stack = await require("pulumi-vastai/testing").startTestStack();
    await stack.close();
  `;
  expect(loadedAfter(started)).toEqual(["fastify"]);
}, 30_000);
