/**
 * Values between the Pulumi SDK (under mocks) and the provider plugin: the engine hands the
 * plugin plaintext, keeps secret inputs secret on the outputs of the same name, and reads the
 * program's stack outputs once every registration has finished.
 */
import * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;

function isSecretValue(v: unknown): v is { value: unknown } {
  return !!v && typeof v === "object" && (v as Props)[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
}

/** The engine sends plaintext to the plugin; remember which inputs were secret. */
export function unwrapSecrets(inputs: Props): { plain: Props; secretKeys: string[] } {
  const secretKeys: string[] = [];
  const strip = (v: unknown): unknown => {
    if (isSecretValue(v)) return strip(v.value);
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)]));
    return v;
  };
  const plain: Props = {};
  for (const [k, v] of Object.entries(inputs)) {
    if (JSON.stringify(v ?? null).includes(pulumi.runtime.specialSecretSig)) secretKeys.push(k);
    plain[k] = strip(v);
  }
  return { plain, secretKeys };
}

/** A secret input stays secret on the output of the same name, as under the engine. */
export function wrapSecrets(outputs: Props, secretKeys: string[]): Props {
  const out: Props = { ...outputs };
  for (const k of secretKeys) {
    if (k in out) out[k] = { [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value: out[k] };
  }
  return out;
}

/** The program's exports with every Output resolved to its plain value. */
export async function resolveOutputs(exports: unknown): Promise<Props> {
  if (!exports || typeof exports !== "object") return {};
  const out: Props = {};
  for (const [k, v] of Object.entries(exports as Props)) {
    const value: pulumi.Output<unknown> = pulumi.output(v as pulumi.Input<Props>);
    out[k] = await new Promise((resolve) => value.apply((x) => resolve(x)));
  }
  return out;
}
