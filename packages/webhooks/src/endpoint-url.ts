import { z } from 'zod';

/** The longest endpoint URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * An endpoint URL: http(s), a host, no credentials (a signed request authenticates itself; a
 * password in the URL would be stored and shown in the clear), no fragment (never sent), bounded.
 * Where it may point (public addresses only) is checked by {@link resolveWebhookTarget}.
 */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(MAX_WEBHOOK_URL_LENGTH)
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://hooks.example.com/looplane' }))
  .superRefine((value, ctx) => {
    // Refinements run after a failed check too: the URL check has already said what is wrong.
    if (!URL.canParse(value)) return;
    const url = new URL(value);
    if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password' });
    if (!url.hostname) ctx.addIssue({ code: 'custom', message: 'must name a host' });
    if (value.includes('#')) ctx.addIssue({ code: 'custom', message: 'must not contain a fragment (#…)' });
  });
