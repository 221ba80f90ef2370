/**
 * The public names of the package's entry points, read with the TypeScript compiler from the
 * sources each `exports` subpath is built from, and whether each carries a TSDoc comment.
 */
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "../..");

/** Each public entry point of package.json `exports`, by subpath, with its source file. */
export const ENTRY_POINTS: Record<string, string> = {
  "pulumi-vastai": "provider/index.ts",
  "pulumi-vastai/client": "provider/client/index.ts",
  "pulumi-vastai/runtime": "provider/runtime.ts",
  "pulumi-vastai/simulator": "simulator/index.ts",
  "pulumi-vastai/testing": "testing/index.ts",
  "pulumi-vastai/automation": "provider/automation.ts",
};

/** One exported name: what it is and where it is declared. */
export interface PublicName {
  name: string;
  documented: boolean;
  declaredIn: string;
}

/** The exports of every entry point, sorted by name. One program serves them all. */
export function publicNames(): Record<string, PublicName[]> {
  const files = Object.values(ENTRY_POINTS).map((f) => path.join(ROOT, f));
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
    skipLibCheck: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const out: Record<string, PublicName[]> = {};
  for (const [entry, file] of Object.entries(ENTRY_POINTS)) {
    const source = program.getSourceFile(path.join(ROOT, file));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${file}: not a module`);
    out[entry] = checker
      .getExportsOfModule(moduleSymbol)
      .map((exported) => {
        const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const declaration = target.declarations?.[0];
        return {
          name: exported.name,
          documented: documented(target, checker),
          declaredIn: declaration ? path.relative(ROOT, declaration.getSourceFile().fileName) : "?",
        };
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return out;
}

/** A TSDoc comment with text on any declaration of the symbol (a class and its merged interface count as one). */
function documented(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim().length > 0;
}
