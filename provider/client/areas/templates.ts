import type { Logger, RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { VastValidationError } from "../errors";
import { registerSecret, registerSecrets } from "../redact";
import { successResponse, templateCreateResponse, templateEditResponse, templateSearchResponse, templateToWire } from "../schemas";
import type { DeleteResult, Template, TemplateCreateResult, TemplateInput } from "../types-templates";
import { SUCCESS_TRUE, deleteConfirmed } from "./confirm";
import { TemplateFilters, WireFilters, buildSelectFilters } from "../wire/filters";

/** Templates: reusable instance-creation presets. */
export class TemplatesApi {
  constructor(
    private readonly core: RequestCore,
    private readonly logger?: Logger,
  ) {}

  /**
   * Search templates. Typed filters are converted with wire/filters `buildSelectFilters`
   * (a bare value means `eq`). An empty list can also mean a key without `user_read`.
   */
  async search(filters: TemplateFilters = {}): Promise<Template[]> {
    let wire: WireFilters;
    try {
      wire = buildSelectFilters(filters);
    } catch (error) {
      throw new VastValidationError((error as Error).message);
    }
    const rows = await this.core.request({
      endpoint: ENDPOINTS.templatesSearch,
      // All columns, as the vendor's client asks: the default column set is not fixed.
      query: { select_cols: JSON.stringify(["*"]), select_filters: JSON.stringify(wire) },
      schema: templateSearchResponse,
      // "No templates found" comes as success=false: an empty result, not a failure. Any other
      // refusal (one with an error code) is a failure: read as "none", it would drop live
      // templates from state.
      acceptOperationFailure: (body) => /no templates? found/i.test(String(body.msg ?? "")) || (!body.error && Array.isArray(body.templates)),
    });
    if (rows.skipped > 0) {
      this.logger?.debug?.(`GET ${ENDPOINTS.templatesSearch.route}: skipped ${rows.skipped} template row(s) that did not validate (first: ${rows.firstProblem})`);
    }
    return rows.items;
  }

  /**
   * Create a template. `private` is sent only when given (see DEFAULT_TEMPLATE_PRIVATE). When the service already holds the same content it returns that
   * template with `existing: true` (adopt it). Not resent if the response is lost: search by
   * name, or call again (identical content is answered with the existing template).
   */
  create(template: TemplateInput): Promise<TemplateCreateResult> {
    registerSecret(template.dockerLoginPass);
    registerSecrets(template.env);
    return this.core.request({
      endpoint: ENDPOINTS.templatesCreate,
      body: templateToWire(template),
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
      body: { ...templateToWire(changes), hash_id: hashId },
      schema: templateEditResponse,
    });
  }

  /**
   * Delete by numeric `id` (not `hashId`). Only the creator may delete; not while others use
   * it. The service's 404 resolves `{alreadyGone: true}`; a 404 not from the service, or a 2xx
   * without `{success: true}`, is checked by `stillThere` (default: a search by id).
   */
  delete(id: number, stillThere?: () => Promise<boolean>): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `template ${id}`,
      run: () => this.core.request({ endpoint: ENDPOINTS.templatesDelete, body: { template_id: id }, schema: successResponse, documented: SUCCESS_TRUE }),
      stillThere: stillThere ?? (async () => (await this.search({ id: { eq: id } })).some((t) => t.id === id)),
    });
  }
}
