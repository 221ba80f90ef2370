/** EnvVar through its provider against the simulator: lifecycle, drift, the 16 limit. */
import { providers } from "../../provider/providers";
import { drive, failureOf } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

const envVar = drive(providers.envVar);
const SECRET = "hf_live_value_0123456789";

const h = useSimulator({ providers: true });

async function planned(news: Record<string, unknown>) {
  const { inputs, failures } = await envVar.check({}, news);
  expect(failures).toEqual([]);
  return inputs as Record<string, unknown>;
}

it("creates the variable under its upper-case name, updates its value in place and deletes it", async () => {
  const inputs = await planned({ key: "hf_token", value: SECRET });
  const created = await envVar.create(inputs);
  expect(created).toEqual({ id: "HF_TOKEN", outs: { key: "HF_TOKEN", value: SECRET } });
  expect(await h.client.secrets.list()).toEqual({ HF_TOKEN: expect.stringMatching(/^\*+$/) });

  const news = await planned({ key: "hf_token", value: "another-value.2" });
  expect(await envVar.diff("HF_TOKEN", created.outs, news)).toMatchObject({ changes: true, replaces: [] });
  const updated = await envVar.update("HF_TOKEN", created.outs, news);
  expect(updated.outs).toEqual({ key: "HF_TOKEN", value: "another-value.2" });
  expect((await h.requests()).filter((r) => r.method === "PUT").map((r) => r.body)).toEqual([{ key: "HF_TOKEN", value: "another-value.2" }]);

  await envVar.delete("HF_TOKEN", updated.outs!);
  expect(await h.client.secrets.list()).toEqual({});
});

it("reads presence only and keeps the value from state", async () => {
  const { id, outs } = await envVar.create(await planned({ key: "TOKEN", value: SECRET }));
  const read = await envVar.read(id, outs);
  expect(read).toEqual({ id: "TOKEN", props: { key: "TOKEN", value: SECRET }, inputs: { key: "TOKEN", value: SECRET } });
});

it("reports a variable deleted outside Pulumi as gone (empty id)", async () => {
  const { id, outs } = await envVar.create(await planned({ key: "TOKEN", value: SECRET }));
  await h.client.secrets.delete("TOKEN");
  expect(await envVar.read(id, outs)).toEqual({ id: "" });
});

it("shows a value the service lists as empty (null) as drift", async () => {
  const { id, outs } = await envVar.create(await planned({ key: "TOKEN", value: SECRET }));
  // The service refuses to store an empty value; a list that shows one anyway is still read.
  await h.fault({ method: "GET", path: "/api/v0/secrets/", status: 200, body: { success: true, secrets: { TOKEN: null } } });
  const read = await envVar.read(id, outs);
  expect(read.inputs).toEqual({ key: "TOKEN", value: "" });
});

it("puts the variable back when an update finds it deleted outside Pulumi", async () => {
  const { id, outs } = await envVar.create(await planned({ key: "TOKEN", value: SECRET }));
  await h.client.secrets.delete("TOKEN");
  await envVar.update(id, outs, { key: "TOKEN", value: "new-value-12345" });
  expect(await h.client.secrets.list()).toEqual({ TOKEN: expect.stringMatching(/^\*+$/) });
});

it("deleting a variable that is already gone succeeds", async () => {
  await expect(envVar.delete("NEVER_MADE", { key: "NEVER_MADE", value: "x" })).resolves.toBeUndefined();
});

it("names the limit of 16 when the account is full, without the value", async () => {
  for (let i = 0; i < 16; i++) await h.client.secrets.add(`VAR_${i}`, "v");
  const message = await failureOf(envVar.create(await planned({ key: "one_too_many", value: SECRET })));
  expect(message).toBe(
    "EnvVar ONE_TOO_MANY: the account already holds the most environment variables the service allows (16); " +
      "delete one before adding ONE_TOO_MANY. The service said: User has reached the limit of 16 environment variables.",
  );
  expect(message).not.toContain(SECRET);
});

it("quotes the service when a variable of that name already exists", async () => {
  await h.client.secrets.add("TOKEN", "v");
  const message = await failureOf(envVar.create(await planned({ key: "token", value: SECRET })));
  expect(message).toMatch(/^EnvVar TOKEN: adding the variable failed: POST \/api\/v0\/secrets\/ failed: HTTP 400 existing_key: Environment variable TOKEN already exists/);
  expect(message).not.toContain(SECRET);
});
