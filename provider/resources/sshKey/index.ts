/**
 * SshKey: an SSH public key of the account, used to connect to instances. Register keys
 * before creating instances that need them (a VM instance cannot get a key afterwards).
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { SSH_KEY } from "./declare";


/** A SshKey's inputs, each also an output of the same name. */
interface SshKeyFields {
  /**
   * OpenSSH public key line `TYPE BASE64 [COMMENT]`, as in a `.pub` file. Types: ssh-ed25519,
   * ssh-rsa, ecdsa-sha2-nistp256/384/521, sk-ssh-ed25519@openssh.com,
   * sk-ecdsa-sha2-nistp256@openssh.com. Surrounding whitespace is dropped. A change updates
   * the key in place.
   */
  publicKey: string;
}

/** What the service shows of it. */
interface SshKeyComputed extends ImportedOutput {
  /** Numeric key id; also the Pulumi id. */
  keyId: number;
  /** `SHA256:...` fingerprint, as `ssh-keygen -lf` prints it (computed locally). */
  fingerprint: string;
  /** The key type, for example `ssh-ed25519`. */
  keyType: string;
  /** Registration time (ISO 8601 when the service reports epoch seconds). */
  createdAt: string | undefined;
}

/** Inputs of an `SshKey` resource. */
export interface SshKeyArgs extends ImportArgs, Inputs<SshKeyFields> {}

/** An SSH public key registered with the service; `keyId` goes into an instance's `sshKeyIds`. */
export class SshKey extends resourceClass<SshKeyArgs, SshKeyFields & SshKeyComputed>(SSH_KEY) {}
