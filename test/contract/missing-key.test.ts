/**
 * A stack without an API key fails at check (which preview runs), with the message `up`
 * gives, through the real plugin; check only resolves the configuration.
 */
import { dynamicUrn } from "pulumi-vastai/testing";
import { startPlugin, useContract } from "./harness";

const fx = useContract("sshKey");
const ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBDiByGF7pbRC6EslWLTI3W+yus8VMbdLZ5BgX54Hren vector@example";
const urn = (name: string) => dynamicUrn("dev", "proj", "SshKey", name);

test("check fails naming the key settings when no API key is configured", async () => {
  const plugin = await startPlugin({ "vastai:apiUrl": fx.sim.url, "vastai:runUrl": fx.sim.runUrl });
  try {
    await expect(plugin.check(urn("k"), {}, { __provider: fx.provider, publicKey: ED25519 })).rejects.toThrow(
      /No Vast\.ai API key found: set it with `pulumi config set --secret vastai:apiKey <key>`, or the VAST_API_KEY environment variable/,
    );
  } finally {
    await plugin.close();
  }
}, 120_000);

test("check passes with a key", async () => {
  const res = await fx.plugin.check(urn("k"), {}, { __provider: fx.provider, publicKey: ED25519 });
  expect(res.failures ?? []).toEqual([]);
});
