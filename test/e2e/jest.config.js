/** The end-to-end suite (`npm run test:e2e`): the real Pulumi CLI from .pulumi/bin (built by
 * `npm run pulumi-cli`) drives programs against the simulator. The package resolves to its
 * compiled form (dist/, built by the npm script): the provider the engine serializes into
 * state is loaded from that path by the plugin process, which runs plain JavaScript. */
const path = require("path");

const root = path.resolve(__dirname, "..", "..");
module.exports = {
  rootDir: root,
  testEnvironment: "node",
  roots: ["<rootDir>/test/e2e"],
  testMatch: ["**/*.test.ts"],
  // The same TypeScript transform as the main suite (@swc/jest).
  transform: require("../../jest.config.js").transform,
  moduleNameMapper: {
    "^pulumi-vastai$": "<rootDir>/dist/provider/index.js",
    "^pulumi-vastai/client$": "<rootDir>/dist/provider/client/index.js",
    "^pulumi-vastai/simulator$": "<rootDir>/dist/simulator/index.js",
    "^pulumi-vastai/testing$": "<rootDir>/dist/testing/index.js",
    "^pulumi-vastai/runtime$": "<rootDir>/dist/provider/runtime.js",
    "^pulumi-vastai/automation$": "<rootDir>/dist/provider/automation.js",
  },
  globalSetup: "<rootDir>/test/e2e/global-setup.js",
  // One CLI run at a time: each already uses both cores.
  maxWorkers: 1,
  verbose: true,
  testTimeout: 180000,
};
