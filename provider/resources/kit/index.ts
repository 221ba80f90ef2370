/**
 * The plumbing every resource shares: the provider contract and its check/diff helpers, the
 * creating at most once after lost responses, settings and timing, and the
 * shared readers of live objects.
 */
export * from "./provider";
export * from "./names";
export * from "./warn";
export * from "./create-once";
export * from "./claims";
export * from "./import";
export * from "./settings";
export * from "./text";
export { SharedList, type SharedListSource, type SharedListStats } from "./live/shared-list";
export { readerFor, readerOf, type Reader } from "./live/readers";
export { IdReader, type IdListSource, type IdPage } from "./live/id-reader";
export { BootPace, BootReads, bootPaceOf, resetBootPaces, type BootReadSource } from "./live/boot-polls";
