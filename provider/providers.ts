import type * as pulumi from "@pulumi/pulumi";
import { serializableProvider } from "./resources/kit/loader";
import { KINDS, type ResourceKind } from "./runtime";

/**
 * The provider objects behind each resource class, by kind. Drive them directly to test a
 * stack's behaviour without the engine (`await providers.template.create({...})`), or pass
 * them to `pulumi.dynamic.Resource` yourself.
 */
export const providers = Object.fromEntries(
  (Object.keys(KINDS) as ResourceKind[]).map((kind) => [kind, serializableProvider(kind)]),
) as Record<ResourceKind, pulumi.dynamic.ResourceProvider>;
