import { startProviderPlugin } from "pulumi-vastai/simulator";
import * as path from "path";

test("closing the plugin twice returns at once the second time", async () => {
  const plugin = await startProviderPlugin({ cwd: path.resolve(__dirname, "..", "..") });
  await plugin.close();
  const second = await Promise.race([
    plugin.close().then(() => "closed"),
    new Promise((resolve) => setTimeout(() => resolve("hung"), 5000).unref()),
  ]);
  expect(second).toBe("closed");
}, 60_000);
