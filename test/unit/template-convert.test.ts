/**
 * Template inputs to the client's fields and back: the flag string for env and ports, the
 * edit body of an update, and inputs rebuilt from a live template for refresh.
 */
import fc from "fast-check";
import type { Template as LiveTemplate, TemplateInput } from "../../provider/client";
import { templateSchema, templateToWire } from "../../provider/client/schemas";
import { editFor, inputsFromLive, toClientTemplate } from "../../provider/resources/template/convert";
import { provider as templateImpl } from "../../provider/resources/template/provider";

const base = { name: "trainer", image: "pytorch/pytorch", tag: "latest", runtype: "args", recommendedDiskSpaceGb: 8 };

/** The flag string the client sends for these template fields. */
const wireEnv = (t: Partial<TemplateInput>) => templateToWire(t).env;

/** The env fields of a live template whose flag string is `text`, as the client reads them. */
const flags = (text: string): Partial<LiveTemplate> => {
  const { env, ports, envFlags } = templateSchema.parse({ hash_id: "h", env: text });
  return { env, ports, envFlags };
};

/** A live template as the service reports it: every field present, defaults filled in. */
function live(fields: Partial<LiveTemplate> = {}): LiveTemplate {
  return {
    id: 5, hashId: "h5", name: "trainer", image: "pytorch/pytorch", tag: "latest", desc: "", readme: "", ...flags(""),
    onstart: "", runtype: "args", argsStr: "", sshDirect: false, useSsh: false, jupDirect: false, jupyterDir: null,
    useJupyterLab: false, dockerLoginRepo: "", dockerLoginUser: "", href: "", repo: "", extraFilters: {},
    recommendedDiskSpace: 8, private: false, volumeInfo: null, creatorId: 1, createdAt: 1767225600, ...fields,
  };
}

describe("Template inputs to the client", () => {
  it("turns env and ports into one quoted flag string and renames the disk size", () => {
    const t = toClientTemplate({ ...base, env: { MSG: "hello world", QUOTE: "it's", EMPTY: "" }, ports: ["8080:8080", "22:22"], recommendedDiskSpaceGb: 20 });
    expect(wireEnv(t)).toBe(`-e EMPTY= -e MSG='hello world' -e QUOTE="it's" -p 8080:8080 -p 22:22`);
    expect(t.recommendedDiskSpace).toBe(20);
    expect(t).not.toHaveProperty("recommendedDiskSpaceGb");
    expect(templateToWire(t)).not.toHaveProperty("ports");
  });

  it("writes variables in name order, so the same env always gives the same string", () => {
    expect(wireEnv(toClientTemplate({ ...base, env: { B: "2", A: "1" } }))).toBe(wireEnv(toClientTemplate({ ...base, env: { A: "1", B: "2" } })));
    expect(wireEnv(toClientTemplate({ ...base, env: { B: "2", A: "1" } }))).toBe("-e A=1 -e B=2");
  });

  it("sends no env field when neither env nor ports is given", () => {
    expect(toClientTemplate(base)).toEqual({ name: "trainer", image: "pytorch/pytorch", tag: "latest", runtype: "args", recommendedDiskSpace: 8 });
  });

  it("26.5 an edit sends the whole template, as the vendor's client does: every input, the service default for one not given", () => {
    const news = { ...base, desc: "new", env: { A: "1" } };
    const edit = editFor(["desc"], { ...news, recommendedDiskSpaceGb: undefined });
    expect(edit).toMatchObject({ name: "trainer", image: "pytorch/pytorch", tag: "latest", runtype: "args", desc: "new", env: { A: "1" }, ports: [] });
    expect(edit).toMatchObject({ onstart: "", recommendedDiskSpace: 8, jupyterDir: null, useSsh: false, private: false, extraFilters: {}, dockerLoginRepo: "" });
    expect(wireEnv(edit)).toBe("-e A=1");
    expect(wireEnv(editFor(["env", "ports"], base))).toBe("");
  });

  it("ignores keys that are not inputs (outputs, bookkeeping)", () => {
    expect(editFor(["hashId", "__provider", "templateId"], base)).toEqual({});
  });
});

describe("Template inputs from the live template", () => {
  it("leaves out service defaults the user did not give, so a refresh shows no diff", () => {
    expect(inputsFromLive(live(), base)).toEqual({ ...base });
  });

  it("keeps a default the user did give", () => {
    expect(inputsFromLive(live(), { ...base, desc: "", private: false })).toEqual({ ...base, desc: "", private: false });
  });

  it("shows values changed outside the program (drift)", () => {
    const old = { ...base, desc: "mine", env: { A: "1" }, ports: ["22:22"] };
    const got = inputsFromLive(live({ desc: "theirs", ...flags("-e A=2 -p 22:22 -p 80:80"), sshDirect: true }), old);
    expect(got).toEqual({ ...base, desc: "theirs", env: { A: "2" }, ports: ["22:22", "80:80"], sshDirect: true });
  });

  it("keeps the registry password from state: the service never returns it", () => {
    expect(inputsFromLive(live({ dockerLoginUser: "me" }), { ...base, dockerLoginUser: "me", dockerLoginPass: "tok-123456789" }).dockerLoginPass).toBe(
      "tok-123456789",
    );
  });

  it("keeps env and ports from state when the service's flag string cannot be read", () => {
    const old = { ...base, env: { A: "1" } };
    expect(inputsFromLive(live(flags("-e 'unterminated")), old).env).toEqual({ A: "1" });
  });

  it("skips flags other than -e and -p set outside the program", () => {
    expect(inputsFromLive(live(flags("-e A=1 --shm-size 1g")), { ...base, env: { A: "1" } }).env).toEqual({ A: "1" });
  });
});

describe("env and ports round trip", () => {
  const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
  const value = fc.string({ unit: fc.constantFrom("a", "Z", "0", " ", "'", '"', "=", "$", "\\", "`", "\t", "\n", "-", "é") });
  const port = fc.oneof(
    fc.integer({ min: 1, max: 65535 }),
    fc.tuple(fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 1, max: 65535 }), fc.constantFrom("", "/tcp", "/udp")).map(([h, c, p]) => `${h}:${c}${p}`),
  );

  it("reads back the inputs check recorded, for any values and ports", async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(name, value, { maxKeys: 5 }), fc.uniqueArray(port, { maxLength: 4, selector: (p) => (typeof p === "number" ? `${p}:${p}` : p) }), async (env, ports) => {
        const checked = await templateImpl.check({}, { ...base, env, ports });
        expect(checked.failures).toEqual([]);
        const text = wireEnv(toClientTemplate(checked.inputs)) as string;
        const back = inputsFromLive(live(flags(text)), checked.inputs);
        expect(back.env).toEqual(env);
        expect(back.ports).toEqual(checked.inputs.ports);
      }),
      { numRuns: 150 },
    );
  });
});
