/**
 * The Template provider. `id` (numeric) is the Pulumi id and never changes; `hashId` changes
 * on every edit (spec: Template identifiers), so update records the hash the edit returns.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  NotFoundError,
  ResponseLostError,
  VastOperationError,
  type Template as LiveTemplate,
  type TemplateCreateResult,
  type TemplateInput,
  type VastClient,
} from "../../client";
import { getClient } from "../../context";
import { changedKeys, checkWith, createAtMostOnce, diffInputs, jsonClean, numericImport, type ImportableImpl, type Props } from "../kit";
import { liveInstances } from "../instance/live";
import { liveTemplates, templatesVisible } from "./live";
import { editFor, inputsFromLive, templateOutputs, toClientTemplate } from "./convert";
import { INPUT_NAMES, OUTPUT_NAMES, templateSchema, withDefaults } from "./inputs";

const SECRET_INPUTS = ["dockerLoginPass", "env", "onstart"];

function templateId(id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`Template id "${id}" is not a numeric template id`);
  return n;
}

/**
 * The live template with this id, or undefined when it no longer exists. The service also
 * answers an empty search to a key without `user_read` (spec: Templates search): an empty
 * answer is believed only when the key can see templates at all (`templatesVisible` throws
 * otherwise).
 */
export async function findTemplate(client: VastClient, id: number): Promise<LiveTemplate | undefined> {
  const found = await client.templates.search({ id: { eq: id } });
  // The filter asked for this id: a single entry without an id field is that template.
  const match = found.find((t) => t.id === id) ?? (found.length === 1 && found[0].id === undefined ? found[0] : undefined);
  if (!match) await templatesVisible(client, [id]);
  return match;
}

/** Instances of the account started from this template (by its current hash). */
async function instancesUsing(client: VastClient, hashId: unknown): Promise<number[]> {
  if (typeof hashId !== "string" || hashId === "") return [];
  const instances = await liveInstances(client).list({ fresh: true });
  return instances.filter((i) => i.templateHashId === hashId).map((i) => i.id);
}

/** Create answers without an id would leave nothing to delete by: look the id up by hash. */
async function requireId(client: VastClient, template: LiveTemplate): Promise<number> {
  if (template.id !== undefined) return template.id;
  const found = await client.templates.search({ hashId: { eq: template.hashId } });
  const id = found.find((t) => t.hashId === template.hashId)?.id;
  if (id === undefined) {
    throw new Error(`Template was created with hash_id ${template.hashId} but the service reported no numeric id; delete it by hand or retry`);
  }
  return id;
}

/**
 * Create, sending again when the response was lost: the service answers content it already
 * holds with that template ("Existing Template Found"), so a second send returns the template
 * the lost one made (or makes it, and a late first send then finds it) and never duplicates.
 */
function createTemplate(client: VastClient, body: TemplateInput): Promise<TemplateCreateResult> {
  return createAtMostOnce({ send: () => client.templates.create(body), recover: async () => undefined });
}

/**
 * Edit with the hash in state; if that hash is stale (edited outside Pulumi), or the answer
 * was lost (the edit may have taken effect and changed the hash), with the live one: the same
 * changes again leave an edited template as it is.
 */
async function edit(client: VastClient, id: number, hashId: unknown, changes: Partial<TemplateInput>): Promise<LiveTemplate> {
  if (typeof hashId === "string" && hashId !== "") {
    try {
      return await client.templates.edit(hashId, changes);
    } catch (error) {
      if (!(error instanceof NotFoundError) && !(error instanceof ResponseLostError)) throw error;
    }
  }
  const live = await findTemplate(client, id);
  if (!live) throw new Error(`Template ${id} no longer exists on the service; run \`pulumi refresh\` to recreate it`);
  return client.templates.edit(live.hashId, changes);
}

export const provider: ImportableImpl = {
  // importId: the numeric template id. Inputs left out keep what the template holds; the
  // registry password is never shown, so a declared one is sent.
  importing: numericImport("Template", "template", {
    keepShown: INPUT_NAMES.filter((k) => k !== "name" && k !== "image" && k !== "dockerLoginPass"),
    notShown: ["dockerLoginPass"],
    secretFields: SECRET_INPUTS,
  }),

  async check(olds, news) {
    const result = checkWith(templateSchema, news, { type: "Template", outputs: OUTPUT_NAMES, secretFields: SECRET_INPUTS });
    return { inputs: withDefaults(news, olds), failures: result.failures ?? [] };
  },

  async diff(_id, olds, news) {
    // The service edits every field in place, so no input forces a replacement.
    return diffInputs(olds, news, { replaceOn: [], ignore: OUTPUT_NAMES });
  },

  async create(inputs) {
    const client = getClient();
    // "Existing Template Found": the service returns the template it already holds with this
    // content, which this resource then adopts; it may belong to another resource or stack,
    // so destroy never deletes an adopted template (see delete).
    const { template, existing } = await createTemplate(client, toClientTemplate(inputs));
    const id = await requireId(client, template);
    const outs = { ...inputs, ...templateOutputs(id, template, {}, existing) };
    return { id: String(id), outs: jsonClean(outs) };
  },

  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const n = templateId(id);
    // Templates read at about the same time (a refresh) share one search per 100 ids.
    const live = await liveTemplates().get(String(n));
    if (!live) return { id: "" };
    const inputs = inputsFromLive(live, props);
    const outs = { ...inputs, ...templateOutputs(n, live, props, props.adopted === true) };
    return { id, props: jsonClean(outs), inputs: jsonClean(inputs) };
  },

  async update(id, olds, news) {
    const n = templateId(id);
    const changes = editFor(changedKeys(olds, news, OUTPUT_NAMES), news);
    const adopted = olds.adopted === true;
    if (Object.keys(changes).length === 0) {
      return { outs: jsonClean({ ...news, ...pickOutputs(olds) }) };
    }
    const edited = await edit(getClient(), n, olds.hashId, changes);
    return { outs: jsonClean({ ...news, ...templateOutputs(n, edited, olds, adopted) }) };
  },

  async delete(id, props) {
    const n = templateId(id);
    // The service keeps one template per content: one this resource adopted may be another
    // resource's, so destroying this one only forgets it.
    if (props.adopted === true) {
      await pulumi.log.warn(
        `Template ${n} was adopted (the service already held a template with the same content), not created by this resource: it is left on the service and only removed from this stack. Delete it by hand when nothing uses it.`,
      );
      return;
    }
    const client = getClient();
    // Another resource may have adopted this template and started instances from it.
    let users: number[];
    try {
      users = await instancesUsing(client, props.hashId);
    } catch (error) {
      throw new Error(`Template ${n} was not deleted and may still exist: checking whether an instance uses it failed: ${(error as Error).message}`, { cause: error });
    }
    if (users.length > 0) {
      await pulumi.log.warn(
        `Template ${n} is used by instance(s) ${users.join(", ")}: it is left on the service and only removed from this stack. Delete it by hand when nothing uses it.`,
      );
      return;
    }
    try {
      // A 404 that is not the service's, or an answer without {success: true}, is read back.
      await client.templates.delete(n, async () => (await findTemplate(client, n)) !== undefined);
    } catch (error) {
      // A refusal at HTTP 200 may also mean "no such template": gone is success.
      if (error instanceof VastOperationError && !(await findTemplate(client, n))) return;
      throw error;
    }
  },
};

function pickOutputs(props: Props): Props {
  return Object.fromEntries(OUTPUT_NAMES.map((k) => [k, props[k]]));
}
