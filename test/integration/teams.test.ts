/**
 * Issue 27 items 1 and 6: Team, TeamRole, TeamMember and Subaccount through their providers,
 * and the team, subaccount, audit-log and one-instance lookups, against the simulator over HTTP.
 */
import { SEED } from "pulumi-vastai/simulator";
import { createClient } from "../../provider/client";
import { providers } from "../../provider/providers";
import { getAuditLogs, getAuditLogsOutput, getInstance, getInstanceOutput, getSubaccounts, getTeamMembers, getTeamRoles, getTeamRolesOutput } from "../../provider/lookups";
import { setWarningSink } from "../../provider/resources/kit";
import { drive, failureOf } from "./account-resources-support";
import { simControl } from "../support/control";
import { useSimulator } from "../support/simulator";

type P = Record<string, unknown>;
const team = drive(providers.team);
const role = drive(providers.teamRole);
const member = drive(providers.teamMember);
const subaccount = drive(providers.subaccount);

const h = useSimulator({ providers: true, settings: { pollIntervalMs: 5, lostResponseLookups: 2 } });

async function checked(d: typeof team, news: P, olds: P = {}): Promise<P> {
  const { inputs, failures } = await d.check(olds, news);
  expect(failures).toEqual([]);
  return inputs as P;
}

const client = () => createClient({ apiKey: h.sim.apiKey, apiUrl: h.sim.url, pacing: false });

describe("issue 27 item 1: teams as code", () => {
  test("27.1 Team: created with the service's own roles, refused on a key that already is a team's, deleted with its roles", async () => {
    const made = await team.create(await checked(team, { name: "ml-research", transferCredit: 5 }));
    expect(made.id).toBe("ml-research");
    expect(made.outs).toMatchObject({ name: "ml-research", roleNames: ["manager", "member"] });
    expect((await team.read(made.id, made.outs)).id).toBe("ml-research");

    const second = await checked(team, { name: "another" });
    expect(await failureOf(team.create(second))).toMatch(/already is the key of a team .* never takes over another/);

    await team.delete(made.id, made.outs);
    expect(await client().teams.isTeam()).toBe(false);
    expect((await team.read(made.id, made.outs)).id).toBe("");
    // Deleting a team that is gone already is done.
    await expect(team.delete(made.id, made.outs)).resolves.toBeUndefined();
  });

  test("27.1 TeamRole: permissions as ApiKey's, sent as the service's scopes, changed in place, a taken name refused, removed", async () => {
    await team.create(await checked(team, { name: "roles-team" }));
    const made = await role.create(await checked(role, { name: "developer", permissions: { instances: "write", user: "read" } }));
    expect(made.outs).toMatchObject({ roleId: Number(made.id), scopes: ["instance_read", "instance_write", "user_read"] });
    expect((await client().teams.role("developer"))?.scopes).toEqual(["instance_read", "instance_write", "user_read"]);

    const news = await checked(role, { name: "dev", permissions: { instances: "read" } }, made.outs);
    expect(await role.diff(made.id, made.outs, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = await role.update(made.id, made.outs, news);
    expect(updated.outs).toMatchObject({ name: "dev", scopes: ["instance_read"] });
    expect(await client().teams.role("developer")).toBeNull();

    // Changed outside the program: the refresh shows the service's scopes in the same form.
    await client().teams.updateRole(Number(made.id), { name: "dev", scopes: ["billing_read", "instance_read"] });
    const read = await role.read(made.id, updated.outs);
    expect(read.inputs).toEqual({ name: "dev", permissions: { instances: "read", billing: "read" } });

    expect(await failureOf(role.create(await checked(role, { name: "dev", permissions: { user: "read" } })))).toMatch(/already has a role named "dev" \(id \d+\), not made by this resource/);

    await role.delete(made.id, updated.outs);
    expect((await getTeamRoles()).map((r) => r.name)).toEqual(["manager", "member"]);
    expect((await role.read(made.id, updated.outs)).id).toBe("");
  });

  test("27.1 TeamRole and ApiKey share one permissions mapping and one refusal of a grant of nothing", async () => {
    const [r, k] = await Promise.all([role.check({}, { name: "x", permissions: {} }), providers.apiKey.check!({}, { name: "x", permissions: {} })]);
    expect(r.failures?.map((f) => f.property)).toEqual(["permissions"]);
    expect(k.failures?.map((f) => f.property)).toEqual(["permissions"]);
    const bad = await role.check({}, { name: "x", permissions: { instances: "admin" } });
    expect(bad.failures?.[0]).toMatchObject({ property: "permissions.instances" });
    expect(bad.failures?.[0].reason).toMatch(/must be "read" or "write"/);
    const builtIn = await role.check({}, { name: "owner", permissions: { user: "read" } });
    expect(builtIn.failures?.[0].reason).toMatch(/must not be one of the team's own roles/);
  });

  test("27.1 TeamMember: invited until accepted, then a member; delete removes the member; a pending invitation is said to stay", async () => {
    await team.create(await checked(team, { name: "people" }));
    const made = await member.create(await checked(member, { email: "ana@example.com", role: "member" }));
    expect(made.id).toBe("ana@example.com");
    expect(made.outs).toMatchObject({ status: "invited", pending: true });
    expect((await member.read(made.id, made.outs)).props).toMatchObject({ status: "invited", pending: true });

    await simControl(h.sim.url, "POST", "/team/invitations/accept", { email: "ana@example.com" });
    const read = await member.read(made.id, made.outs);
    expect(read.props).toMatchObject({ status: "member", pending: false, memberId: expect.any(Number) });
    expect((await getTeamMembers()).map((m) => m.email).sort()).toEqual(["ana@example.com", SEED.user.email].sort());

    expect(await failureOf(member.create(await checked(member, { email: "ANA@example.com", role: "member" })))).toMatch(/already is a member of the team/);
    expect(await member.diff(made.id, read.props as P, await checked(member, { email: "ana@example.com", role: "manager" }))).toMatchObject({ replaces: ["role"], deleteBeforeReplace: true });

    await member.delete(made.id, read.props as P);
    expect((await getTeamMembers()).map((m) => m.email)).toEqual([SEED.user.email]);
    expect((await member.read(made.id, read.props as P)).id).toBe("");

    const warnings: string[] = [];
    const previous = setWarningSink((m) => warnings.push(m));
    try {
      const pending = await member.create(await checked(member, { email: "bo@example.com", role: "member" }));
      await member.delete(pending.id, pending.outs);
    } finally {
      setWarningSink(previous);
    }
    expect(warnings.join("\n")).toMatch(/not accepted and the service has no call that withdraws it/);
  });

  test("27.1 TeamMember: a second invitation within 300 s (a lost answer, a rerun) counts as sent", async () => {
    await team.create(await checked(team, { name: "again" }));
    const inputs = await checked(member, { email: "cy@example.com", role: "member" });
    await member.create(inputs);
    await expect(member.create(inputs)).resolves.toMatchObject({ id: "cy@example.com", outs: { status: "invited" } });
  });

  test("27.1 Subaccount: created under the account, read from its list, the password kept out of errors; delete says it cannot delete", async () => {
    const inputs = await checked(subaccount, { email: "bot@example.com", username: "ci-bot", password: "s3cret-Passw0rd" });
    const made = await subaccount.create(inputs);
    expect(made.outs).toMatchObject({ userId: Number(made.id), keyId: expect.any(Number) });
    expect((await getSubaccounts()).map((s) => s.username)).toContain("ci-bot");
    expect((await subaccount.read(made.id, made.outs)).props).toMatchObject({ username: "ci-bot" });

    const again = await failureOf(subaccount.create({ ...inputs, password: "0ther-Passw0rd" }));
    expect(again).toMatch(/already exists \(user id \d+\), not made by this resource/);
    expect(again).not.toContain("0ther-Passw0rd");

    const warnings: string[] = [];
    const previous = setWarningSink((m) => warnings.push(m));
    try {
      await subaccount.delete(made.id, made.outs);
    } finally {
      setWarningSink(previous);
    }
    expect(warnings.join("\n")).toMatch(/no call that deletes a subaccount/);
    expect((await getSubaccounts()).map((s) => s.username)).toContain("ci-bot");

    const bad = await subaccount.check({}, { email: "x@vast.ai", username: "a b", password: "short" });
    expect(bad.failures?.map((f) => f.property).sort()).toEqual(["email", "password", "username"]);
    expect(JSON.stringify(bad.failures)).not.toContain('"short"');
  });
});

describe("issue 27 item 6: lookups still missing", () => {
  test("27.6 getInstance reads one instance by id with one request; a destroyed one is refused by name", async () => {
    const c = client();
    const made = await c.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" });
    const before = (await h.requests()).length;
    const got = await getInstance(made.id);
    expect(got.id).toBe(made.id);
    expect((await h.requests()).slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v0/instances/${made.id}/`]);
    expect(await new Promise((resolve) => getInstanceOutput(made.id).apply(resolve))).toMatchObject({ id: made.id });
    await c.instances.destroy(made.id);
    await expect(getInstance(made.id)).rejects.toThrow(`getInstance: instance ${made.id} is not an instance of this account`);
    await expect(getInstance(0)).rejects.toThrow("getInstance: instanceId must be a positive integer (got 0)");
  });

  test("27.6 getAuditLogs lists the account's important calls; getTeamRolesOutput resolves", async () => {
    await team.create(await checked(team, { name: "audited" }));
    await role.create(await checked(role, { name: "viewer", permissions: { instances: "read" } }));
    const rows = await getAuditLogs();
    expect(rows.map((r) => r.apiRoute)).toEqual(["/api/v0/team/", "/api/v0/team/roles/"]);
    expect(rows[0]).toMatchObject({ apiKeyId: expect.any(Number), ipAddress: expect.any(String), createdAt: expect.any(Number) });
    const viaOutput = await new Promise((resolve) => getAuditLogsOutput().apply(resolve));
    expect((viaOutput as unknown[]).length).toBe(2);
    const names = await new Promise((resolve) => getTeamRolesOutput().apply((r) => resolve(r.map((x) => x.name))));
    expect(names).toEqual(["manager", "member", "viewer"]);
  });
});
