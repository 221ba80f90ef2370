/** Says in one line why the suite is skipped when the CLI is not built. */
const fs = require("fs");
const path = require("path");

module.exports = async () => {
  const cli = path.resolve(__dirname, "..", "..", ".pulumi", "bin", "pulumi");
  if (!fs.existsSync(cli)) process.stdout.write("\ne2e: SKIPPED: .pulumi/bin/pulumi is missing; build it with `npm run pulumi-cli`\n");
};
