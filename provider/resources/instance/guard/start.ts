/**
 * The start command the service is sent when an instance has a guard. The service runs the
 * request's `onstart` (or `args`) instead of its template's, so an instance started from a
 * template, without an `onstart` of its own, keeps its template's: it is read (one template
 * search per hashId and process: a template's hashId names its content, which never changes)
 * and the guard is added to it. On an update that moves to another template, the service would
 * put that template's start command in place of the guarded one, so the guarded command is sent
 * again with the new template's.
 */
import type { VastClient } from "../../../client";
import { Props } from "../../kit";
import { planOf, withGuard } from "./inputs";

const byHash = new Map<string, Promise<{ onstart?: string; argsStr?: string }>>();

async function templateStart(client: VastClient, hashId: string): Promise<{ onstart?: string; argsStr?: string }> {
  let found = byHash.get(hashId);
  if (!found) {
    found = client.templates.search({ hashId }).then(([t]) => ({ onstart: t?.onstart || undefined, argsStr: t?.argsStr || undefined }));
    // A failed search is not remembered.
    found.catch(() => byHash.delete(hashId));
    byHash.set(hashId, found);
  }
  return found;
}

/** `props` with the guarded start command (withGuard), the template's own start command kept. */
export async function guardedStart(client: VastClient, props: Props, apiUrl: string): Promise<Props> {
  if (!planOf(props, apiUrl)) return props;
  const own = props.runtype === "args" ? "argsStr" : "onstart";
  if (typeof props[own] === "string" || typeof props.templateHashId !== "string") return withGuard(props, apiUrl);
  const fromTemplate = (await templateStart(client, props.templateHashId))[own];
  return withGuard(fromTemplate === undefined ? props : { ...props, [own]: fromTemplate }, apiUrl);
}

/**
 * Both sides of an in-place update, guarded. When the template changes under a guard, the
 * start command is sent again (the old side's is blanked so that it counts as changed).
 */
export async function guardedSides(client: VastClient, olds: Props, news: Props, apiUrl: string): Promise<[Props, Props]> {
  const guardedNews = await guardedStart(client, news, apiUrl);
  const own = news.runtype === "args" ? "argsStr" : "onstart";
  if (guardedNews === news) {
    // The guard removed: an instance without a start command of its own gets its template's back.
    const oldSide = await guardedStart(client, olds, apiUrl);
    if (oldSide !== olds && typeof news[own] !== "string" && typeof news.templateHashId === "string") {
      return [oldSide, { ...news, [own]: (await templateStart(client, news.templateHashId))[own] ?? "" }];
    }
    return [oldSide, news];
  }
  if (olds.templateHashId !== news.templateHashId) {
    return [{ ...olds, [own]: "" }, guardedNews];
  }
  return [await guardedStart(client, olds, apiUrl), guardedNews];
}
