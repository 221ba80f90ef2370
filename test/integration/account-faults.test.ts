/**
 * Issue 27: faults the fault matrix found in TeamMember and MachineListing, each reproduced
 * against the simulator over HTTP with the simulator's own faults. A write that landed is
 * recorded in state (a partial failure naming the object), never left behind unrecorded.
 */
import { SEED, type StateView } from "pulumi-vastai/simulator";
import { providers } from "../../provider/providers";
import { drive } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

type P = Record<string, unknown>;
const team = drive(providers.team);
const member = drive(providers.teamMember);
const listing = drive(providers.machineListing);

const h = useSimulator({ providers: true, settings: { pollIntervalMs: 5, lostResponseLookups: 2, liveCacheTtlMs: 0 } });

async function checked(d: typeof team, news: P, olds: P = {}): Promise<P> {
  const { inputs, failures } = await d.check(olds, news);
  expect(failures).toEqual([]);
  return inputs as P;
}

/** The rejection of `promise` with its partial-failure fields (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error & { id?: string; properties?: P }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("expected a rejection, got success");
  return error;
}

const state = () => h.control("GET", "/state") as Promise<StateView>;
const MACHINE = SEED.hostedMachineIds[3];
const listingOf = async () => (await state()).machineListings?.find((l) => l.machine_id === MACHINE);
const DEFAULT_JOB = { image: "vastai/idle", pricePerGpu: 0.1 };

describe("issue 27 item 1: an invitation whose answer was lost", () => {
  test("27.1 TeamMember: the invitation landed but its answer was lost: the create succeeds and state records the one invitation", async () => {
    await team.create(await checked(team, { name: "lost-answers" }));
    await h.fault({ method: "POST", path: "/api/v0/team/invite", drop: "after", times: 1 });
    const made = await member.create(await checked(member, { email: "dee@example.com", role: "member" }));
    expect(made).toMatchObject({ id: "dee@example.com", outs: { status: "invited", pending: true } });
    const pending = ((await state()).teamInvitations ?? []).filter((i) => i.email === "dee@example.com" && !i.accepted);
    expect(pending).toHaveLength(1);
  });

  test("27.1 TeamMember: the invitation was lost before it reached the service: the create sends it and records it", async () => {
    await team.create(await checked(team, { name: "lost-requests" }));
    await h.fault({ method: "POST", path: "/api/v0/team/invite", drop: "before", times: 1 });
    await expect(member.create(await checked(member, { email: "eve@example.com", role: "member" }))).resolves.toMatchObject({ id: "eve@example.com" });
    expect(((await state()).teamInvitations ?? []).filter((i) => i.email === "eve@example.com")).toHaveLength(1);
  });
});

describe("issue 27 item 4: a listing whose default-job call fails", () => {
  test("27.4 MachineListing: listed, then the default job fails: a partial failure keeps the listing in state without the default job", async () => {
    await h.fault({ method: "PUT", path: "/api/v0/machines/create_bids", status: 500, times: 50 });
    const error = await rejection(listing.create(await checked(listing, { machineId: MACHINE, pricePerGpu: 0.45, defaultJob: DEFAULT_JOB })));
    expect(error.message).toContain(`machine ${MACHINE} was listed, but setting its default job failed`);
    expect(error.id).toBe(String(MACHINE));
    expect(error.properties).toMatchObject({ machineId: MACHINE, pricePerGpu: 0.45, listed: true });
    expect(error.properties).not.toHaveProperty("defaultJob");
    expect(await listingOf()).toMatchObject({ listed: true, listed_gpu_cost: 0.45, defjob: null });
  });

  test("27.4 MachineListing: new terms written, then the default job fails: state records the new terms with the old default job", async () => {
    await h.control("DELETE", "/faults");
    const made = await listing.create(await checked(listing, { machineId: MACHINE, pricePerGpu: 0.45 }));
    const news = await checked(listing, { machineId: MACHINE, pricePerGpu: 0.6, defaultJob: DEFAULT_JOB }, made.outs as P);
    await h.fault({ method: "PUT", path: "/api/v0/machines/create_bids", status: 500, times: 50 });
    const error = await rejection(listing.update(made.id, made.outs as P, news));
    expect(error.id).toBe(String(MACHINE));
    expect(error.properties).toMatchObject({ pricePerGpu: 0.6 });
    expect(error.properties).not.toHaveProperty("defaultJob");
    expect(await listingOf()).toMatchObject({ listed_gpu_cost: 0.6, defjob: null });
  });

  test("27.4 MachineListing: a delete whose default-job removal fails leaves the machine listed (never a default job without its listing)", async () => {
    const made = await listing.create(await checked(listing, { machineId: MACHINE, pricePerGpu: 0.45, defaultJob: DEFAULT_JOB }));
    await h.fault({ method: "DELETE", path: "/api/v0/machines/*/defjob", status: 500, times: 50 });
    await rejection(listing.delete(made.id, made.outs as P));
    expect(await listingOf()).toMatchObject({ listed: true, defjob: { image: "vastai/idle" } });
    await h.control("DELETE", "/faults");
    await listing.delete(made.id, made.outs as P);
    expect(await listingOf()).toMatchObject({ listed: false, defjob: null });
  });
});
