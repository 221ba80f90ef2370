/**
 * SshKey: an SSH public key of the account, used to connect to instances. Register keys
 * before creating instances that need them (a VM instance cannot get a key afterwards).
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";


/** Inputs of an `SshKey` resource. */
export interface SshKeyArgs extends ImportArgs {
  /**
   * OpenSSH public key line `TYPE BASE64 [COMMENT]`, as in a `.pub` file. Types: ssh-ed25519,
   * ssh-rsa, ecdsa-sha2-nistp256/384/521, sk-ssh-ed25519@openssh.com,
   * sk-ecdsa-sha2-nistp256@openssh.com. Surrounding whitespace is dropped. A change updates
   * the key in place.
   */
  publicKey: pulumi.Input<string>;
}

/** An SSH public key registered with the service; `keyId` goes into an instance's `sshKeyIds`. */
export class SshKey extends VastResource {
  /** Numeric key id; also the Pulumi id. */
  declare readonly keyId: pulumi.Output<number>;
  /** `SHA256:...` fingerprint, as `ssh-keygen -lf` prints it (computed locally). */
  declare readonly fingerprint: pulumi.Output<string>;
  /** The key type, for example `ssh-ed25519`. */
  declare readonly keyType: pulumi.Output<string>;
  /** Registration time (ISO 8601 when the service reports epoch seconds). */
  declare readonly createdAt: pulumi.Output<string | undefined>;
  /** The key text in canonical form (single spaces, trimmed). */
  declare readonly publicKey: pulumi.Output<string>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: SshKeyArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { ...args, keyId: undefined, fingerprint: undefined, keyType: undefined, createdAt: undefined };
    super("sshKey", "SshKey", name, { ...props, imported: undefined }, opts);
  }
}
