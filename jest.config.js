/** Tests run as CommonJS TypeScript through @swc/jest (types stripped; `npm run typecheck`
 * does the type checking). got is ESM-only and is loaded with a real dynamic import(),
 * which jest's CommonJS runtime supports under --experimental-vm-modules (set by the
 * npm scripts). See README, "Module setup". */
const os = require("os");

module.exports = {
  testEnvironment: "node",
  // Two workers at least (jest's default is one fewer than the cores: one on a 2-core CI
  // machine). Much of the suite waits on loopback HTTP and plugin processes rather than the
  // CPU, and the files share no port (the system picks each), no file in the checkout and no
  // environment (issue 28 item 6).
  maxWorkers: Math.max(2, (os.availableParallelism?.() ?? os.cpus().length) - 1),
  // A worker keeps some of every file's modules (@pulumi/pulumi holds on to its runtime), so its
  // heap grew past 1 GB over the run and garbage collection took a quarter of the CPU: a worker
  // whose heap passes this after a file is replaced by a fresh one (issue 28 item 6).
  workerIdleMemoryLimit: "300MB",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The end-to-end suite runs the real Pulumi CLI: `npm run test:e2e` (test/e2e/jest.config.js).
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/e2e/"],
  transform: {
    // swc strips the types (a native compiler: a cold cache costs seconds, where ts-jest's
    // TypeScript transpiler cost minutes of CPU on a fresh clone, issue 28 item 6). Dynamic
    // import() stays a real one (got is ESM-only), as tsconfig's node16 module kind keeps it.
    "^.+\\.ts$": [
      "@swc/jest",
      {
        jsc: { parser: { syntax: "typescript" }, target: "es2022" },
        module: { type: "commonjs", ignoreDynamic: true },
        sourceMaps: "inline",
      },
    ],
  },
  moduleNameMapper: {
    "^pulumi-vastai$": "<rootDir>/provider/index.ts",
    "^pulumi-vastai/client$": "<rootDir>/provider/client/index.ts",
    "^pulumi-vastai/simulator$": "<rootDir>/simulator/index.ts",
    "^pulumi-vastai/testing$": "<rootDir>/testing/index.ts",
    "^pulumi-vastai/runtime$": "<rootDir>/provider/runtime.ts",
    "^pulumi-vastai/automation$": "<rootDir>/provider/automation.ts",
    // Loaded by @pulumi/pulumi at start, used by few files: loaded on first use instead
    // (test/support/lazy/lazy.js; about 1 s of CPU less per test file that loads the SDK,
    // issue 28 item 6).
    "^typescript$": "<rootDir>/test/support/lazy/typescript.js",
    "^@npmcli/arborist$": "<rootDir>/test/support/lazy/arborist.js",
  },
  // One scratch directory per run for what its files share (the packed package).
  globalSetup: "<rootDir>/test/support/run-setup.js",
  globalTeardown: "<rootDir>/test/support/run-teardown.js",
  testTimeout: 30000,
};
