/**
 * Global set-up and tear-down of one jest run (jest.config.js): a scratch directory for what
 * the run's test files share, named in VASTAI_TEST_RUN_DIR for every worker. The package packed
 * and installed once (test/contract/harness.ts `scratchProject`) is recorded there, so the
 * files that run the package as a user installs it pack it once per run, not once each.
 *
 * NODE_OPTIONS preloads ./lazy/plugin-preload.js into the processes tests start (workers
 * inherit it): dynamic-provider plugin processes then load two SDK modules they never use on
 * first use only, about 0.4 s of CPU less per plugin start (issue 28 item 6).
 */
const fs = require("fs");
const os = require("os");
const path = require("path");

module.exports = async () => {
  process.env.VASTAI_TEST_RUN_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-test-run-"));
  const preload = `--require ${JSON.stringify(path.join(__dirname, "lazy", "plugin-preload.js"))}`;
  if (!(process.env.NODE_OPTIONS ?? "").includes(preload)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} ${preload}`.trim();
};

module.exports.teardown = async () => {
  const dir = process.env.VASTAI_TEST_RUN_DIR;
  if (dir && path.basename(dir).startsWith("vastai-test-run-")) fs.rmSync(dir, { recursive: true, force: true });
};
