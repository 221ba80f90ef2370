/**
 * The shape of the code, checked from its import graph (parsed with the TypeScript compiler,
 * type-only imports left out since they vanish at run time): no import circle (none with
 * type-only imports counted either), data flowing one way (resource -> provider -> client ->
 * HTTP), and a resource being one folder plus one line in the registry of kinds.
 */
import * as fs from "fs";
import * as path from "path";
import ts from "typescript";
import { KINDS } from "../../provider/runtime";

const ROOT = path.join(__dirname, "..", "..");
const TREES = ["provider", "simulator", "testing", "bench"].filter((d) => fs.existsSync(path.join(ROOT, d)));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, "index.ts")].find((f) => fs.existsSync(f));
}

/**
 * Run-time imports of a file: import/export declarations that are not type-only, require("./x")
 * calls, and paths built as path.join(__dirname, "..", "x") (what a require by variable loads).
 */
function runtimeImports(file: string): string[] {
  return moduleImports(file, false);
}

/** Every import of a file, type-only ones too (what the type checker follows). */
function allImports(file: string): string[] {
  return moduleImports(file, true);
}

function moduleImports(file: string, withTypes: boolean): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const specs: string[] = [];
  const visit = (node: ts.Node) => {
    if (withTypes && (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      const named = node.importClause?.namedBindings;
      const onlyTypes = named && ts.isNamedImports(named) && !node.importClause?.name && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isCallExpression(node) && node.expression.getText() === "require" && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      specs.push(node.arguments[0].text);
    } else if (ts.isCallExpression(node) && node.expression.getText() === "path.join" && node.arguments[0]?.getText() === "__dirname") {
      const parts = node.arguments.slice(1);
      if (parts.every(ts.isStringLiteral)) specs.push(`./${parts.map((p) => p.text).join("/")}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs.map((s) => resolveLocal(file, s)).filter((f): f is string => f !== undefined);
}

const files = TREES.flatMap((d) => sourceFiles(path.join(ROOT, d)));
const graph = new Map(files.map((f) => [f, runtimeImports(f)]));
const rel = (f: string) => path.relative(ROOT, f);

function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const walk = (f: string): string[] | undefined => {
    if (state.get(f) === "done") return undefined;
    if (state.get(f) === "open") return [...stack.slice(stack.indexOf(f)), f];
    state.set(f, "open");
    stack.push(f);
    for (const next of graph.get(f) ?? []) {
      const cycle = walk(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(f, "done");
    return undefined;
  };
  for (const f of files) {
    const cycle = walk(f);
    if (cycle) return cycle;
  }
  return undefined;
}

describe("architecture", () => {
  it("has no import circle", () => {
    expect(findCycle(graph)?.map(rel)).toBeUndefined();
  });

  it("has no import circle with type-only imports counted (two modules that share a type keep it in a third)", () => {
    expect(findCycle(new Map(files.map((f) => [f, allImports(f)])))?.map(rel)).toBeUndefined();
  });

  it("keeps the client free of Pulumi and of the layers above it", () => {
    const clientDir = path.join(ROOT, "provider", "client");
    for (const f of files.filter((x) => x.startsWith(clientDir))) {
      const text = fs.readFileSync(f, "utf8");
      expect({ file: rel(f), pulumi: /from "@pulumi\/pulumi"/.test(text) }).toEqual({ file: rel(f), pulumi: false });
      for (const dep of graph.get(f) ?? []) expect({ file: rel(f), dep: rel(dep).startsWith("provider/client/") }).toEqual({ file: rel(f), dep: true });
    }
  });

  it("never lets a resource load the package surface or the registry of kinds", () => {
    const resources = path.join(ROOT, "provider", "resources");
    const surface = ["provider/index.ts", "provider/providers.ts", "provider/runtime.ts"];
    // The serialized shim loads the runtime at call time: that is its whole job.
    const shim = path.join(resources, "kit", "loader.ts");
    for (const f of files.filter((x) => x.startsWith(resources) && x !== shim)) {
      for (const dep of graph.get(f) ?? []) expect({ file: rel(f), dep: surface.includes(rel(dep)) }).toEqual({ file: rel(f), dep: false });
    }
  });

  it("serves every resource folder from the registry: a folder with index.ts and provider.ts, and one line in RESOURCE_KINDS", () => {
    const dir = path.join(ROOT, "provider", "resources");
    const folders = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== "kit")
      .map((e) => e.name)
      .sort();
    expect(Object.keys(KINDS).sort()).toEqual(folders);
    for (const kind of folders) {
      expect(fs.existsSync(path.join(dir, kind, "index.ts"))).toBe(true);
      // The provider object its resources register (kit/loader.ts): the installed package's `pulumi-vastai/shims/<kind>`.
      expect({ kind, shim: fs.readFileSync(path.join(dir, kind, "shim.ts"), "utf8").includes(`export = loaderFor("${kind}");`) }).toEqual({ kind, shim: true });
      const provider = (KINDS as Record<string, () => object>)[kind]();
      // Beside the six methods, a kind may declare how importId takes over its objects (kit/import.ts).
      expect(Object.keys(provider).filter((k) => k !== "importing").sort()).toEqual(["check", "create", "delete", "diff", "read", "update"]);
    }
  });

  it("keeps resource classes light: a class module loads no provider code", () => {
    const dir = path.join(ROOT, "provider", "resources");
    for (const kind of Object.keys(KINDS)) {
      const index = path.join(dir, kind, "index.ts");
      const deps = (graph.get(index) ?? []).map(rel);
      // The identity's rules (its nonce's form, the stack name) and the markers' names are pure: no client, no schema.
      // The storage listings' shared class (kit/storage-listing.ts) is a class module itself, the kinds' names a type, and
      // a kind's declaration (its declare.ts, kit/declare.ts) plain data and the class made from it.
      const kit = [
        "provider/resources/kit/loader.ts",
        "provider/resources/kit/resource.ts",
        "provider/resources/kit/create-once.ts",
        "provider/resources/stackIdentity/rules.ts",
        "provider/resources/kit/storage-listing.ts",
        "provider/resources/kit/kinds.ts",
        "provider/resources/kit/declare.ts",
        "provider/resources/kit/declaration.ts",
      ];
      // Another kind's class module is light too: this loop checks it on its own turn.
      const light = (d: string) => kit.includes(d) || !d.startsWith("provider/") || /^provider\/resources\/[^/]+\/(limits|index|declare)\.ts$/.test(d);
      expect({ kind, deps }).toEqual({ kind, deps: deps.filter(light) });
    }
  });
});
