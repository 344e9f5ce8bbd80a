/** How a trigger authenticates each delivery. */
export type TriggerAuth = 'standard_webhooks' | 'bearer';

/** The trigger's public URL: the server's origin and the trigger's path (`/api/hooks/<id>`). */
export function hookUrl(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, '')}${path}`;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const SAMPLE_BODY = '{"subject":"Quote request","text":"20 pallets of A4 paper"}';

/**
 * A shell example that sends one delivery: with the bearer secret, or signed per Standard
 * Webhooks (`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<timestamp>.<body>` under the secret's
 * base64 key) with openssl, so it runs anywhere curl and openssl do.
 */
export function curlExample(options: { url: string; auth: TriggerAuth; secret: string }): string {
  if (options.auth === 'bearer') {
    return [
      `curl -sS -X POST ${quote(options.url)} \\`,
      `  -H ${quote(`Authorization: Bearer ${options.secret}`)} \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -d ${quote(SAMPLE_BODY)}`,
    ].join('\n');
  }
  return [
    `SECRET=${quote(options.secret)}`,
    `BODY=${quote(SAMPLE_BODY)}`,
    `ID="msg_$(date +%s)_$RANDOM"   # the same id again is answered with the same run`,
    'TS=$(date +%s)',
    `KEY=$(printf '%s' "\${SECRET#whsec_}" | base64 -d | od -An -v -tx1 | tr -d ' \\n')`,
    `SIG=$(printf '%s' "$ID.$TS.$BODY" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KEY" -binary | base64)`,
    `curl -sS -X POST ${quote(options.url)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H "webhook-id: $ID" -H "webhook-timestamp: $TS" -H "webhook-signature: v1,$SIG" \\`,
    `  -d "$BODY"`,
  ].join('\n');
}
