/** One regenerated key, as the service returns it (the `regeneratedKeys` output), shared by the class and the provider. */
export interface RegeneratedKeyOutput {
  userId: number;
  email: string;
  /** The new API key of the subaccount (secret). */
  derivedKey: string;
}
