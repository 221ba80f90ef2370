/**
 * Drives Pulumi's own dynamic-provider plugin (`@pulumi/pulumi/cmd/dynamic-provider`) over
 * gRPC, the way the engine does, without the Pulumi CLI. Used by the offline engine
 * (./engine.ts), the contract tests, the demo, and anyone who wants to exercise their
 * providers exactly as `pulumi up` would run them.
 */
import { spawn, type ChildProcess } from "child_process";
import * as path from "path";
import * as readline from "readline";

type Props = Record<string, unknown>;

/** Options of `startProviderPlugin`: the directory it runs in, its environment and start-up timeout. */
export interface PluginOptions {
  /** Directory the plugin runs in (the program directory); its node_modules must hold @pulumi/pulumi. */
  cwd: string;
  /** Extra environment for the plugin process. */
  env?: Record<string, string | undefined>;
  /** Milliseconds to wait for the plugin to print its port (default 30 s). */
  startTimeoutMs?: number;
}

/** A property the provider's check refused, and why. */
export interface CheckFailure { property: string; reason: string }
/** What the provider's diff answered: changes, replacements and delete-before-replace. */
export interface DiffResult { changes: "some" | "none" | "unknown"; replaces: string[]; deleteBeforeReplace: boolean }

/**
 * A diff as the engine prints it: `diffs`, the properties it names (`[diff: ~a,~b]`), and the
 * kind of each in the detailed diff ("UPDATE", "UPDATE_REPLACE", ...); both empty when the
 * engine is left to compare the inputs itself.
 */
export interface ShownDiffResult extends DiffResult { diffs: string[]; detailedDiff: Record<string, string> }

/** A gRPC error from the plugin; `initFailure` is set when the object exists but did not finish. */
export class PluginCallError extends Error {
  constructor(
    message: string,
    readonly initFailure?: { id: string; properties: Props; reasons: string[] },
  ) {
    super(message);
    this.name = "PluginCallError";
  }
}

/** A running dynamic-provider plugin process, driven over gRPC as the Pulumi engine drives it. */
export interface ProviderPlugin {
  readonly pid: number;
  configure(config: Record<string, string>): Promise<void>;
  check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }>;
  diff(urn: string, id: string, olds: Props, news: Props): Promise<DiffResult>;
  /** The same diff call, with what the engine prints of it. */
  diffShown(urn: string, id: string, olds: Props, news: Props): Promise<ShownDiffResult>;
  create(urn: string, properties: Props): Promise<{ id: string; properties: Props }>;
  read(urn: string, id: string, properties: Props, inputs?: Props): Promise<{ id: string; properties: Props; inputs: Props }>;
  update(urn: string, id: string, olds: Props, news: Props): Promise<{ properties: Props }>;
  delete(urn: string, id: string, properties: Props): Promise<void>;
  /**
   * The lines the plugin printed after its port, in order: without an engine to log to, a
   * provider's `pulumi.log` calls print here (`info: [runtime] ...`, `warning: [runtime] ...`).
   */
  output(): string[];
  close(): Promise<void>;
}

/** The value Pulumi sends for properties not known during preview. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Builds a URN the way the engine does for a dynamic resource of this package. */
export function dynamicUrn(stack: string, project: string, type: string, name: string): string {
  return `urn:pulumi:${stack}::${project}::pulumi-nodejs:dynamic/vastai:${type}::${name}`;
}

/** Starts the package's dynamic-provider plugin as the Pulumi engine would, for tests. */
export async function startProviderPlugin(options: PluginOptions): Promise<ProviderPlugin> {
  const resolveFrom = (id: string) => require.resolve(id, { paths: [options.cwd] });
  // The plugin and this client must share the proto and grpc modules of one @pulumi/pulumi copy.
  const pulumiDir = path.dirname(resolveFrom("@pulumi/pulumi/package.json"));
  const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
  const services = require(path.join(pulumiDir, "proto", "provider_grpc_pb"));
  const pb = require(path.join(pulumiDir, "proto", "provider_pb"));
  const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] }));
  const statusPb = require(path.join(pulumiDir, "proto", "status_pb"));

  const env: NodeJS.ProcessEnv = { ...process.env, PULUMI_PROJECT: "plugin-driver", PULUMI_STACK: "dev", ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const child = spawn(process.execPath, [path.join(pulumiDir, "cmd", "dynamic-provider", "index.js"), "127.0.0.1:1"], {
    cwd: options.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8192)));
  const port = await readPort(child, options.startTimeoutMs ?? 30_000, () => stderr);
  const output: string[] = [];
  readline.createInterface({ input: child.stdout! }).on("line", (line) => output.push(line));
  const client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  const call = <T>(method: string, req: unknown): Promise<T> =>
    new Promise((resolve, reject) => {
      client[method](req, (err: (Error & { metadata?: { get(k: string): Buffer[] } }) | null, res: T) => {
        if (err) reject(toPluginError(err, statusPb, pb, stderr));
        else resolve(res);
      });
    });
  const struct = (p: Props) => Struct.fromJavaScript(p);
  const kindNames = new Map(Object.entries(pb.PropertyDiff.Kind as Record<string, number>).map(([name, n]) => [n, name]));
  const diffCall = async (urn: string, id: string, olds: Props, news: Props): Promise<ShownDiffResult> => {
    const req = new pb.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    const res = await call<{
      getChanges(): number; getReplacesList(): string[]; getDeletebeforereplace(): boolean; getDiffsList(): string[];
      getDetaileddiffMap(): { forEach(f: (value: { getKind(): number }, key: string) => void): void };
    }>("diff", req);
    const changes = res.getChanges() === pb.DiffResponse.DiffChanges.DIFF_SOME ? "some"
      : res.getChanges() === pb.DiffResponse.DiffChanges.DIFF_NONE ? "none" : "unknown";
    const detailedDiff: Record<string, string> = {};
    res.getDetaileddiffMap().forEach((d, k) => (detailedDiff[k] = kindNames.get(d.getKind()) ?? String(d.getKind())));
    return { changes, replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace(), diffs: res.getDiffsList(), detailedDiff };
  };

  return {
    pid: child.pid ?? -1,
    async configure(config) {
      const req = new pb.ConfigureRequest();
      req.setArgs(struct(config));
      req.setAcceptsecrets(false);
      await call("configure", req);
    },
    async check(urn, olds, news) {
      const req = new pb.CheckRequest();
      req.setUrn(urn);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      const res = await call<{ getInputs(): { toJavaScript(): Props }; getFailuresList(): { getProperty(): string; getReason(): string }[] }>("check", req);
      return {
        inputs: res.getInputs()?.toJavaScript() ?? {},
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(urn, id, olds, news) {
      const { changes, replaces, deleteBeforeReplace } = await diffCall(urn, id, olds, news);
      return { changes, replaces, deleteBeforeReplace };
    },
    diffShown: diffCall,
    async create(urn, properties) {
      const req = new pb.CreateRequest();
      req.setUrn(urn);
      req.setProperties(struct(properties));
      const res = await call<{ getId(): string; getProperties(): { toJavaScript(): Props } }>("create", req);
      return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {} };
    },
    async read(urn, id, properties, inputs) {
      const req = new pb.ReadRequest();
      req.setUrn(urn);
      req.setId(id);
      req.setProperties(struct(properties));
      if (inputs) req.setInputs(struct(inputs));
      const res = await call<{ getId(): string; getProperties(): { toJavaScript(): Props } | undefined; getInputs(): { toJavaScript(): Props } | undefined }>("read", req);
      return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {}, inputs: res.getInputs()?.toJavaScript() ?? {} };
    },
    async update(urn, id, olds, news) {
      const req = new pb.UpdateRequest();
      req.setUrn(urn);
      req.setId(id);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      const res = await call<{ getProperties(): { toJavaScript(): Props } }>("update", req);
      return { properties: res.getProperties()?.toJavaScript() ?? {} };
    },
    async delete(urn, id, properties) {
      const req = new pb.DeleteRequest();
      req.setUrn(urn);
      req.setId(id);
      req.setProperties(struct(properties));
      await call("delete", req);
    },
    output: () => [...output],
    async close() {
      client.close();
      // A process ended by a signal keeps exitCode null: look at signalCode too.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

function readPort(child: ChildProcess, timeoutMs: number, stderr: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => fail(`did not print its port within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      lines.close();
      child.kill("SIGKILL");
      reject(new Error(`dynamic-provider plugin ${why}. ${stderr().trim()}`.trim()));
    };
    lines.once("line", (line) => {
      clearTimeout(timer);
      const port = Number(line.trim());
      if (Number.isInteger(port) && port > 0) resolve(port);
      else fail(`printed "${line}" instead of a port`);
    });
    child.once("exit", (code) => fail(`exited with code ${code}`));
  });
}

/** The parts of the generated protobuf modules this file reads (they ship without usable types). */
interface ProtoModules {
  statusPb: { Status: { deserializeBinary(b: Uint8Array): { getDetailsList(): { getTypeName(): string; getValue(): Uint8Array }[] } } };
  pb: {
    ErrorResourceInitFailed: {
      deserializeBinary(b: Uint8Array): { getId(): string; getProperties(): { toJavaScript(): Props } | undefined; getReasonsList(): string[] };
    };
  };
}

// The plugin packs "object created but not initialized" into grpc-status-details-bin.
function toPluginError(
  err: Error & { metadata?: { get(k: string): Buffer[] } },
  statusPb: ProtoModules["statusPb"],
  pb: ProtoModules["pb"],
  stderr: string,
) {
  const message = err.message.replace(/^\d+ [A-Z_]+: /, "");
  const raw = err.metadata?.get("grpc-status-details-bin")?.[0];
  if (raw) {
    const status = statusPb.Status.deserializeBinary(raw);
    for (const detail of status.getDetailsList()) {
      if (detail.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
      const init = pb.ErrorResourceInitFailed.deserializeBinary(detail.getValue());
      return new PluginCallError(message, {
        id: init.getId(),
        properties: init.getProperties()?.toJavaScript() ?? {},
        reasons: init.getReasonsList(),
      });
    }
  }
  const crashed = /Error serializing|Cannot find module/.test(stderr) ? ` (plugin stderr: ${stderr.trim().slice(-500)})` : "";
  return new PluginCallError(message + crashed);
}
