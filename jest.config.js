/** Tests run as CommonJS TypeScript through ts-jest (transpile only; `npm run typecheck`
 * does the type checking). got is ESM-only and is loaded with a real dynamic import(),
 * which jest's CommonJS runtime supports under --experimental-vm-modules (set by the
 * npm scripts). See README, "Module setup". */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.json" }],
  },
  moduleNameMapper: {
    "^pulumi-vastai$": "<rootDir>/provider/index.ts",
    "^pulumi-vastai/simulator$": "<rootDir>/simulator/index.ts",
    "^pulumi-vastai/testing$": "<rootDir>/testing/index.ts",
    "^pulumi-vastai/runtime$": "<rootDir>/provider/runtime.ts",
  },
  testTimeout: 30000,
};
