/** The service's own limit of variables per account (api-facts: Secrets). */
export const ENV_VAR_LIMIT = 16;
