import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { VastValidationError } from "../errors";
import { registerSecret, registerSecrets } from "../redact";
import { successResponse, templateCreateResponse, templateEditResponse, templateSearchResponse, templateToWire } from "../schemas";
import type { Template, TemplateCreateResult, TemplateInput } from "../types-templates";
import { TemplateFilters, WireFilters, buildSelectFilters } from "../wire/filters";

/** Templates: reusable instance-creation presets. */
export class TemplatesApi {
  constructor(private readonly core: RequestCore) {}

  /**
   * Search templates. Typed filters are converted with util/filters `buildSelectFilters`
   * (a bare value means `eq`). An empty list can also mean a key without `user_read`.
   */
  async search(filters: TemplateFilters = {}): Promise<Template[]> {
    let wire: WireFilters;
    try {
      wire = buildSelectFilters(filters);
    } catch (error) {
      throw new VastValidationError((error as Error).message);
    }
    return this.core.request({
      endpoint: ENDPOINTS.templatesSearch,
      query: { select_filters: JSON.stringify(wire) },
      schema: templateSearchResponse,
      // "No templates found" comes as success=false: an empty result, not a failure. Any other
      // refusal (one with an error code) is a failure: read as "none", it would drop live
      // templates from state.
      acceptOperationFailure: (body) => /no templates? found/i.test(String(body.msg ?? "")) || (!body.error && Array.isArray(body.templates)),
    });
  }

  /**
   * Create a template. When the service already holds the same content it returns that
   * template with `existing: true` (adopt it). Not resent if the response is lost: search by
   * name, or call again (identical content is answered with the existing template).
   */
  create(template: TemplateInput): Promise<TemplateCreateResult> {
    registerSecret(template.dockerLoginPass);
    registerSecrets(template.env);
    return this.core.request({
      endpoint: ENDPOINTS.templatesCreate,
      body: templateToWire(template, true),
      schema: templateCreateResponse,
      // success=false with a template is "Existing Template Found"; without one it is a failure.
      acceptOperationFailure: (body) => body.template !== undefined && body.template !== null,
    });
  }

  /** Change some fields; the others keep their values. Returns the template with its new `hashId`. */
  edit(hashId: string, changes: Partial<TemplateInput>): Promise<Template> {
    registerSecret(changes.dockerLoginPass);
    registerSecrets(changes.env);
    return this.core.request({
      endpoint: ENDPOINTS.templatesEdit,
      body: { ...templateToWire(changes, false), hash_id: hashId },
      schema: templateEditResponse,
    });
  }

  /** Delete by numeric `id` (not `hashId`). Only the creator may delete; not while others use it. */
  async delete(id: number): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.templatesDelete, body: { template_id: id }, schema: successResponse });
  }
}
