/** Tests run as CommonJS TypeScript through ts-jest (transpile only; `npm run typecheck`
 * does the type checking). got is ESM-only and is loaded with a real dynamic import(),
 * which jest's CommonJS runtime supports under --experimental-vm-modules (set by the
 * npm scripts). See README, "Module setup". */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The end-to-end suite runs the real Pulumi CLI: `npm run test:e2e` (test/e2e/jest.config.js).
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/e2e/"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.json" }],
  },
  moduleNameMapper: {
    "^pulumi-vastai$": "<rootDir>/provider/index.ts",
    "^pulumi-vastai/client$": "<rootDir>/provider/client/index.ts",
    "^pulumi-vastai/simulator$": "<rootDir>/simulator/index.ts",
    "^pulumi-vastai/testing$": "<rootDir>/testing/index.ts",
    "^pulumi-vastai/runtime$": "<rootDir>/provider/runtime.ts",
  },
  testTimeout: 30000,
};
