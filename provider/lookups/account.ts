/** Lookups of the account: its environment variables (secrets). */
import * as pulumi from "@pulumi/pulumi";
import type { SshKey } from "../client";
import { LookupOptions, clientOf } from "./common";

/** An account environment variable as the service shows it: its name, never its value. */
export interface SecretInfo {
  /** The name (upper case). */
  name: string;
  /** False when the variable exists but is empty. */
  isSet: boolean;
}

/** The account's environment variables, by name, with whether each holds a value. Values are never returned. */
export async function getSecrets(options?: LookupOptions): Promise<SecretInfo[]> {
  const secrets = await clientOf(options).secrets.list();
  return Object.entries(secrets)
    .map(([name, masked]) => ({ name, isSet: masked !== null && masked !== "" }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `getSecrets` as an Output (names and whether each is set, never values). */
export function getSecretsOutput(options?: LookupOptions): pulumi.Output<SecretInfo[]> {
  return pulumi.output(getSecrets(options));
}

/** The account's SSH public keys (soft-deleted ones left out; an account without keys gives []). */
export function getSshKeys(options?: LookupOptions): Promise<SshKey[]> {
  return clientOf(options).sshKeys.list();
}

/** `getSshKeys` as an Output. */
export function getSshKeysOutput(options?: LookupOptions): pulumi.Output<SshKey[]> {
  return pulumi.output(getSshKeys(options));
}
