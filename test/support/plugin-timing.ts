/**
 * Timing for tests that drive the real provider plugin (contract tests, the testing kit)
 * against a simulator without rate limits: stack configuration, read by the plugin as a
 * user's stack would set it. Status polls every 5 ms instead of 10 s, and request pacing at a
 * hundredth of the service's intervals (`vastai:rateLimitScale`), so no test waits on the
 * plugin's own pacing (issue 28 item 6). A test about the product's default timing sets its
 * own values over these.
 */
export const FAST_PLUGIN_CONFIG: Readonly<Record<string, string>> = {
  "vastai:pollIntervalMs": "5",
  "vastai:rateLimitScale": "0.01",
};
