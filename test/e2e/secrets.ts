/** Checks on `pulumi stack export` output: secrets only as ciphertext, `__provider` in the clear and free of secrets. */

const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

interface ExportedResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/**
 * No value of `secrets` appears anywhere in the export (not even inside a larger string), the
 * export holds encrypted values, and each dynamic resource's `__provider` is plain text (it
 * captured no secret, so the engine did not have to encrypt it) without any of `secrets`.
 */
export function expectNoPlainSecrets(exportText: string, secrets: string[]): void {
  const deployment = JSON.parse(exportText) as { resources?: ExportedResource[] };
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(3);
    if (exportText.includes(secret)) {
      throw new Error(`the stack export shows a secret (${secret.slice(0, 3)}...) in plain text at ${whereIs(deployment, secret).join(", ")}`);
    }
  }
  expect(exportText).toContain(SECRET_SIG);
  expect(exportText).toContain("ciphertext");
  const dynamic = (deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
  expect(dynamic.length).toBeGreaterThan(0);
  for (const r of dynamic) {
    for (const side of [r.inputs, r.outputs]) {
      const provider = side?.__provider;
      if (typeof provider !== "string") throw new Error(`${r.urn}: __provider is not plain text (${JSON.stringify(provider)?.slice(0, 80)})`);
    }
  }
}

/** JSON paths of the strings that contain `secret`. */
function whereIs(value: unknown, secret: string, at = "$"): string[] {
  if (typeof value === "string") return value.includes(secret) ? [at] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => whereIs(v, secret, `${at}[${i}]`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => whereIs(v, secret, `${at}.${k}`));
  return [];
}
