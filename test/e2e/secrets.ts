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
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(3);
    if (exportText.includes(secret)) throw new Error(`the stack export shows a secret in plain text: ${secret.slice(0, 3)}...`);
  }
  expect(exportText).toContain(SECRET_SIG);
  expect(exportText).toContain("ciphertext");
  const deployment = JSON.parse(exportText) as { resources?: ExportedResource[] };
  const dynamic = (deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
  expect(dynamic.length).toBeGreaterThan(0);
  for (const r of dynamic) {
    for (const side of [r.inputs, r.outputs]) {
      const provider = side?.__provider;
      if (typeof provider !== "string") throw new Error(`${r.urn}: __provider is not plain text (${JSON.stringify(provider)?.slice(0, 80)})`);
    }
  }
}
