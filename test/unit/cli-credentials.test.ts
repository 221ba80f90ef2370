/**
 * Issue 35 item 7: the package's commands run outside Pulumi and read no stack configuration;
 * without a key they say what they read and how to hand them a stack's key, instead of telling
 * the user to set the stack configuration they ignore.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../provider/cli/main";

test("35.7 costs and orphans without a key name VAST_API_KEY and the key file, and how to pass a stack's key", async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "cli-key-"));
  try {
    const file = path.join(home, "dev.json");
    fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: { time: new Date().toISOString() }, resources: [] } }));
    for (const args of [["costs", file], ["orphans"]]) {
      const err: string[] = [];
      const code = await main(args, { out: () => undefined, err: (t) => err.push(t), env: { HOME: home } });
      expect(code).toBe(2);
      const text = err.join("\n");
      expect(text).toContain("VAST_API_KEY");
      expect(text).toContain(path.join(home, ".config", "vastai", "vast_api_key"));
      expect(text).toContain("not the stack configuration");
      expect(text).toContain("give this command's output in VAST_API_KEY: pulumi config get vastai:apiKey --stack <stack>");
      expect(text).not.toContain("pulumi config set --secret");
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
