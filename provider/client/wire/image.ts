/**
 * The grammar of image references, as registries and docker apply it (distribution/reference):
 * `[registry[:port]/]path[:tag][@digest]`, path components lower case. An image the service
 * cannot pull is otherwise only found out when the instance fails to start.
 */

const ALPHANUMERIC = "[a-z0-9]+";
const SEPARATOR = "(?:[._]|__|[-]+)";
const PATH_COMPONENT = `${ALPHANUMERIC}(?:${SEPARATOR}${ALPHANUMERIC})*`;
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const HOST = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])`;
const DOMAIN = `${HOST}(?::[0-9]+)?`;
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = "[\\w][\\w.-]{0,127}";
const DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";

const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const TAG_ONLY = new RegExp(`^${TAG}$`);

/** Registries refuse longer repository names. */
export const IMAGE_NAME_LIMIT = 255;

/** The rule in words, to go after "must be". */
export const IMAGE_RULE =
  "an image reference [registry[:port]/]path[:tag][@digest] with lower-case path components of letters, digits and . _ -";
/** The rule an image tag must follow, as error messages state it. */
export const TAG_RULE = "a tag of letters, digits, _ . and - (not starting with . or -), at most 128 characters";

/** Why `ref` is not a valid image reference, or undefined when it is. */
export function imageReferenceProblem(ref: string): string | undefined {
  const m = REFERENCE.exec(ref);
  if (!m) return `must be ${IMAGE_RULE}`;
  if (m[1].length > IMAGE_NAME_LIMIT) return `must have a name of at most ${IMAGE_NAME_LIMIT} characters (before the tag)`;
  return undefined;
}

/** True for a tag the registry grammar accepts. */
export function isImageTag(tag: string): boolean {
  return TAG_ONLY.test(tag);
}
