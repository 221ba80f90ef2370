/**
 * The plumbing every resource shares: the provider contract and its check/diff helpers, the
 * serialized shim, creating at most once after lost responses, settings and timing, and the
 * shared readers of live objects.
 */
export * from "./provider";
export * from "./create-once";
export * from "./settings";
export { serializableProvider } from "./shim";
export { SharedList, type SharedListSource, type SharedListStats } from "./live/shared-list";
export { readerFor } from "./live/readers";
