/**
 * Values between the Pulumi SDK (under mocks) and the provider plugin: the engine hands the
 * plugin plaintext (unknowns of a preview as Pulumi's unknown marker), keeps secret inputs and
 * `additionalSecretOutputs` secret on the outputs it returns to the program, and reads the
 * program's stack outputs once every registration has finished.
 */
import * as pulumi from "@pulumi/pulumi";
import { UNKNOWN_VALUE } from "./plugin";

type Props = Record<string, unknown>;

function isSecretValue(v: unknown): v is { value: unknown } {
  return !!v && typeof v === "object" && (v as Props)[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
}

/** The engine sends plaintext to the plugin; remember which inputs were secret. */
export function unwrapSecrets(inputs: Props): { plain: Props; secretKeys: string[] } {
  const secretKeys: string[] = [];
  const strip = (v: unknown): unknown => {
    if (pulumi.isUnknown(v)) return UNKNOWN_VALUE;
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

/** Marks the outputs named in `secretKeys` secret, as the engine does. */
export function wrapSecrets(outputs: Props, secretKeys: string[]): Props {
  const out: Props = { ...outputs };
  for (const k of secretKeys) {
    if (k in out) out[k] = { [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value: out[k] };
  }
  return out;
}

/**
 * The program's exports with every Output resolved to its plain value, and the names of the
 * exports that are secret. Exports not known yet (in a preview) are left out.
 */
export async function resolveOutputs(exports: unknown): Promise<{ outputs: Props; secretOutputs: string[] }> {
  const outputs: Props = {};
  const secretOutputs: string[] = [];
  if (!exports || typeof exports !== "object") return { outputs, secretOutputs };
  for (const [k, v] of Object.entries(exports as Props)) {
    const value: pulumi.Output<unknown> = pulumi.output(v as pulumi.Input<Props>);
    // An unknown Output never runs its apply callbacks; its isKnown says so without waiting.
    const known = await (value as unknown as { isKnown: Promise<boolean> }).isKnown;
    if (!known) continue;
    outputs[k] = await new Promise((resolve) => value.apply((x) => resolve(x)));
    if (await pulumi.isSecret(value)) secretOutputs.push(k);
  }
  return { outputs, secretOutputs };
}
