/**
 * A boot shows its progress: while create waits for `running`, the plugin logs the service's
 * status and message (`status_msg`) each time they change, once per change however often it
 * polls. Through Pulumi's own dynamic-provider plugin, from the package as a user installs it;
 * with no engine to log to, the plugin prints its log lines, which the driver collects. The
 * simulator boots through no status ("Provisioning"), then `loading` ("Pulling the image").
 */
import { dynamicUrn } from "pulumi-vastai/testing";
import { useContract } from "./harness";

// A boot of 400 ms polled every 5 ms or less: dozens of polls, two states seen.
const fx = useContract("instance", { simulator: { bootMs: 400 }, config: { "vastai:pollIntervalMs": "5" } });

test("create logs each boot status and message once as it changes, then nothing more", async () => {
  const urn = dynamicUrn("dev", "proj", "Instance", "booting");
  const checked = await fx.plugin.check(urn, {}, { __provider: fx.provider, offerId: 700003, image: "pytorch/pytorch" });
  expect(checked.failures).toEqual([]);
  const created = await fx.plugin.create(urn, checked.inputs);
  expect(created.properties).toMatchObject({ actualStatus: "running" });

  const polls = (await fx.takeRequests()).filter((r) => r.method === "GET" && r.path.startsWith("/api/v0/instances")).length;
  const lines = fx.plugin.output().filter((l) => l.includes(`Instance ${created.id}:`));
  expect(polls).toBeGreaterThan(lines.length + 2);
  expect(lines).toEqual([
    expect.stringMatching(new RegExp(`^info: \\[runtime\\] Instance ${created.id}: provisioning \\(\\d+s\\)$`)),
    expect.stringMatching(new RegExp(`^info: \\[runtime\\] Instance ${created.id}: loading, "Pulling the image" \\(\\d+s\\)$`)),
  ]);

  // A second wait of the same instance (a read of a running one) has nothing to say.
  await fx.plugin.read(urn, created.id, created.properties, checked.inputs);
  expect(fx.plugin.output().filter((l) => l.includes(`Instance ${created.id}:`))).toEqual(lines);
  await fx.plugin.delete(urn, created.id, created.properties);
}, 60_000);
