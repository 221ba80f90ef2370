/**
 * The simulator's own dependencies (fastify, proper-lockfile) are optional peer dependencies of
 * the package: a program that only uses the resources does not install them. Loading the
 * simulator without them stops here with one message that says what to install.
 */
const PEERS = ["fastify", "proper-lockfile"] as const;

/**
 * What to install, with versions that install on Node 20 without an engine warning: fastify 5
 * takes any light-my-request 6 (its `inject`), whose releases from 6.8 need cookie 2 and so Node
 * 22; naming 6.6.0 beside fastify makes npm use it for fastify too. docs/installation-configuration.md
 * gives this command.
 */
export const PEER_INSTALL = "npm install --save-dev fastify@5.12.8 light-my-request@6.6.0 proper-lockfile@4.1.2";

/** The peers that cannot be resolved from this file. */
export function missingPeers(resolve: (id: string) => string = require.resolve): string[] {
  return PEERS.filter((id) => {
    try {
      resolve(id);
      return false;
    } catch {
      return true;
    }
  });
}

export function missingPeersMessage(missing: readonly string[]): string {
  return (
    `The simulator of pulumi-vastai (pulumi-vastai/simulator, startTestStack of pulumi-vastai/testing, ` +
    `the vastai-simulator command) needs ${missing.join(" and ")}, which the package lists as optional ` +
    `peer dependencies so that programs that only deploy do not install them. ` +
    `Install them in your project: ${PEER_INSTALL}`
  );
}

const missing = missingPeers();
if (missing.length > 0) throw new Error(missingPeersMessage(missing));
