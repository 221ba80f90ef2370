/**
 * The mask of what one request sent (issue 33 item 4): a start script, arguments and a webhook
 * address echoed by an answer are hidden in every form an answer carries text in, and the mask
 * costs one pass over the text however many lines the script has.
 */
import { echoMask, hideUrls, shortUrl } from "../../provider/client/echo-mask";

const TOKEN = "hf_secretTOKEN123456";
const SCRIPT = `#!/bin/bash\nset -e\nexport HF_TOKEN=${TOKEN}\ngit clone https://oauth2:ghp_9Zq8Yx7Wv6Ut5Sr4@git.example.com/m.git\n  python3 -c "print('ключ-9f3a')" --key 'abc\\def-77x'\necho done`;
const ARGS = "--token tok_98765abcdef --port 8000";
const HOOK = "https://hooks.slack.com/services/T01/B02/xyzSECRET";
const mask = echoMask({ onstart: SCRIPT, args_str: ARGS, webhook_url: HOOK })!;
const leaks = (text: string) => [TOKEN, "tok_98765abcdef", "xyzSECRET", "ключ-9f3a", "abc\\def-77x", "python3 -c", "ghp_9Zq8Yx7Wv6Ut5Sr4"].filter((s) => text.includes(s));
const ascii = (s: string) => s.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const pyRepr = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/'/g, "\\'")}'`;

test.each([
  ["as sent", `invalid onstart: ${SCRIPT}`],
  ["whitespace run together", `invalid onstart: ${SCRIPT.replace(/\s+/g, " ")}`],
  ["JSON-escaped", `bad body: ${JSON.stringify({ onstart: SCRIPT })}`],
  ["JSON-escaped, non-ASCII as \\u", `bad body: ${ascii(JSON.stringify({ onstart: SCRIPT }))}`],
  ["Python repr", `bad body: {'onstart': ${pyRepr(SCRIPT)}}`],
  ["HTML-escaped", `<p>${SCRIPT.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;")}</p>`],
  ["one line", `line 3 failed: export HF_TOKEN=${TOKEN}`],
  ["clipped", `invalid onstart: ${SCRIPT.replace(/\s+/g, " ").slice(0, 70)}...`],
  ["a token of the arguments", "unknown argument tok_98765abcdef"],
  ["a key inside an address of the script", "clone failed: bad credentials ghp_9Zq8Yx7Wv6Ut5Sr4"],
  ["the webhook address and its path", `url ${HOOK} refused; path /services/T01/B02/xyzSECRET`],
])("hides an echo %s", (_how, text) => {
  expect(leaks(text).length).toBeGreaterThan(0);
  expect(leaks(mask(text))).toEqual([]);
  expect(mask(text)).toMatch(/<redacted>|\/…/);
});

test("keeps the rest of the text, and shows a webhook address as scheme://host/…", () => {
  expect(mask("GET /api/v0/x failed: no such offer 42")).toBe("GET /api/v0/x failed: no such offer 42");
  expect(mask(`url ${HOOK} refused`)).toBe("url https://hooks.slack.com/… refused");
  expect(shortUrl("https://u:p@x.example.com")).toBe("https://x.example.com/…");
  expect(hideUrls('got "ftp://x.example.com" and http://h.example.com/a?t=1')).toBe('got "ftp://x.example.com" and http://h.example.com/…');
});

test("costs one pass: a 2 MB answer against a 3000-line script", () => {
  const script = Array.from({ length: 3000 }, (_, i) => `echo line number ${i} token_${i}abcdefgh`).join("\n");
  let started = Date.now();
  const big = echoMask({ onstart: script })!;
  const built = Date.now() - started;
  const text = `${"x".repeat(1_000_000)} ${script.replace(/\s+/g, " ")} ${"y".repeat(1_000_000)}`;
  started = Date.now();
  const out = big(text);
  const applied = Date.now() - started;
  console.log(`echo mask: built for ${script.length} characters in ${built} ms, applied to ${text.length} in ${applied} ms`);
  expect(out).not.toContain("token_2999abcdefgh");
  expect(built + applied).toBeLessThan(5000);
});

test("costs one pass also when every line is echoed on its own, each beside a clipped one", () => {
  const script = Array.from({ length: 3000 }, (_, i) => `echo line number ${i} token_${i}abcdefgh`).join("\n");
  const big = echoMask({ onstart: script })!;
  const text = script.split("\n").map((l) => `bad: ${l}; and ${l.slice(0, 20)}...`).join(" ");
  const started = Date.now();
  const out = big(text);
  console.log(`echo mask: ${text.length} characters of single-line echoes in ${Date.now() - started} ms`);
  expect(out).not.toMatch(/token_\d+abcdefgh/);
  expect(Date.now() - started).toBeLessThan(5000);
});
