/**
 * issue 24 item 2: `importId` under the real engine (a template made outside the program is
 * taken over by `pulumi up`, with no create request), and what Pulumi's own import does with a
 * dynamic resource (docs/_index.md, "Importing existing objects": it cannot reach dynamic
 * providers).
 * `pulumi import` on the command line loads the project's language host before anything else,
 * so with the CLI built here (no pulumi-language-nodejs) it stops there; the `import` resource
 * option runs the same import step through the engine from an inline program.
 */
import * as pulumi from "@pulumi/pulumi";
import { createClient, Template } from "pulumi-vastai";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { describeE2E, e2eStack, requestLog, simControl, type E2EStack } from "./harness";

const TEMPLATE_TYPE = "pulumi-nodejs:dynamic/vastai:Template";

describeE2E("issue 24 item 2: importing under the real engine", () => {
  let sim: Simulator;
  let stack: E2EStack;
  let outsideId: number;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, bootMs: 0 });
    const client = createClient({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: sim.runUrl, pacing: false });
    const { template } = await client.templates.create({ name: "outside", image: "vastai/base", tag: "cuda-12", onstart: "echo hi", env: { A: "1" }, ports: [] });
    outsideId = Number(template.id);
    const program = async () => {
      const t = new Template("base", { name: "outside", image: "vastai/base", tag: "cuda-12", importId: String(outsideId) });
      return { templateId: t.templateId, imported: t.imported, hashId: t.hashId as pulumi.Output<string> };
    };
    stack = await e2eStack({ project: "vastai-import", program, sim });
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  test("24.2 importId: pulumi up takes the template over (no create request); the next up changes nothing", async () => {
    const templatesBefore = sim.state().templates.length;
    await simControl(sim, "DELETE", "/requests");
    const up = await stack.up();
    expect(up.ops).toEqual({ "StackIdentity stack": ["create"], "Template base": ["create"] });
    expect(up.outputs).toMatchObject({ templateId: outsideId, imported: true });
    const creates = (await requestLog(sim)).filter((r) => r.method === "POST" && /\/template\/?$/.test(r.path));
    expect(creates).toEqual([]);
    expect(sim.state().templates).toHaveLength(templatesBefore);
    await stack.up({ expectNoChanges: true });
  });

  test("24.2 the import resource option cannot reach the dynamic provider: the up fails in the plugin's read, creating nothing", async () => {
    const templatesBefore = sim.state().templates.length;
    const kept = stack.program;
    await stack.setProgram(async () => {
      await kept();
      new Template("again", { name: "outside", image: "vastai/base", tag: "cuda-12" }, { import: String(outsideId) });
    });
    try {
      const failed = await stack.up().then(
        () => "succeeded",
        (err: Error) => err.message,
      );
      // docs/_index.md, "Importing existing objects", quotes this: the read request carries no inputs, so no __provider.
      expect(failed).toContain("importing failed");
      expect(failed).toContain("Cannot read properties of undefined (reading 'toJavaScript')");
    } finally {
      await stack.setProgram(kept);
    }
    expect(sim.state().templates).toHaveLength(templatesBefore);
  });

  test("24.2 pulumi import itself needs the Node.js language host, which the Go module proxy does not serve", async () => {
    const r = await stack.cli(["import", TEMPLATE_TYPE, "again", String(outsideId), "--stack", "e2e", "--yes", "--non-interactive", "--generate-code=false", "--color", "never"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("no language plugin 'pulumi-language-nodejs' found");
  });

  test("24.2 destroy deletes the imported template", async () => {
    await stack.destroy();
    expect(sim.state().templates.some((t) => t.id === outsideId)).toBe(false);
  });
});
