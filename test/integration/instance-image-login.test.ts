/**
 * Private registries (`imageLogin`) over real HTTP against the simulator: sent as
 * `image_login` on create, a change replaces, the value never in errors or check failures.
 */
import { VastApiError } from "../../provider/client";
import { CREATE_PATH, checked, createChecked, instance, rejection } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });
const PASSWORD = "reg-pass-7f3e9c1d";
const args = { offerId: 700001, image: "ghcr.io/me/private:1", imageLogin: `-u me -p ${PASSWORD} ghcr.io` };

it("sends image_login on create; a change of it replaces", async () => {
  const { id, outs } = await createChecked(args);
  const create = (await h.requests()).find((r) => r.method === "PUT" && CREATE_PATH.test(r.path))!;
  expect((create.body as Record<string, unknown>).image_login).toBe(args.imageLogin);
  const news = await checked({ ...args, imageLogin: "-u me -p other-pass ghcr.io" });
  expect(await instance.diff(id, outs, news)).toMatchObject({ changes: true, replaces: ["imageLogin"] });
});

it("a malformed login fails check without showing it", async () => {
  const r = await instance.check({}, { ...args, imageLogin: `me:${PASSWORD}@ghcr.io` });
  expect(r.failures).toEqual([{ property: "imageLogin", reason: 'imageLogin: must be "-u USER -p PASSWORD REGISTRY", for example "-u me -p TOKEN ghcr.io"' }]);
  expect(JSON.stringify(r.failures)).not.toContain(PASSWORD);
});

it("a failing create with a login names the call, never the password", async () => {
  await h.control("POST", "/offers/700001", { state: "gone" });
  const error = await rejection(createChecked(args));
  expect(error.message).not.toContain(PASSWORD);
  expect(error.message.length).toBeGreaterThan(0);
  const failed = await h.client.instances.create(700001, { image: "x", imageLogin: args.imageLogin }).catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(VastApiError);
  expect(String((failed as Error).message)).not.toContain(PASSWORD);
});
