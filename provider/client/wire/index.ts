/**
 * Wire encoding: the forms the service speaks (docker-flag strings, the instance-creation env
 * object, encoded start scripts, snake_case filters, MB) and the rules of those forms. The
 * client converts with these; the resource layer only borrows the rules to validate early.
 */
export { ENV_NAME, ENV_NAME_RULE, isPortMapping, formatEnvFlags, templateEnvFlags, parseEnvFlags, toRequestEnv, fromRequestEnv, type EnvSpec } from "./env";
export { ONSTART_LIMIT, encodeOnstart, prepareOnstart, decodeOnstart, onstartScript, encodedOnstart, type EncodedOnstart, type PreparedOnstart } from "./onstart";
export { FILTER_OPS, type FilterOp } from "./filters";
export { MB_PER_GB, mbOfGb, gbOfMb, isoOfEpochSeconds, epochSecondsOf } from "./units";
export { IMAGE_NAME_LIMIT, IMAGE_RULE, TAG_RULE, imageReferenceProblem, isImageTag } from "./image";
export { utf8Bytes, fitsBytes } from "./text";
