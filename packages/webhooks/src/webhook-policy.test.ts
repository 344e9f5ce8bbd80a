import { judgeAddress } from '@looplane/shared/net';
import { ADDRESS_CASES } from '@looplane/shared/testing';
import { describe, expect, it } from 'vitest';
import { webhookPolicy } from './egress';

describe('which addresses a webhook may reach', () => {
  const strict = webhookPolicy({ allowPrivate: false });
  const open = webhookPolicy({ allowPrivate: true });
  const destination = { host: 'hooks.example.test', port: 443 };
  for (const { address, kind } of ADDRESS_CASES) {
    it(`${kind === 'public' ? 'allows' : 'refuses'} ${address} (${kind}); LOOPLANE_WEBHOOKS_ALLOW_PRIVATE=true allows it`, () => {
      const verdict = judgeAddress(address);
      if (kind === 'public') expect(strict.refusal(verdict, destination)).toBeNull();
      else expect(strict.refusal(verdict, destination)).toMatch(/public addresses only \(LOOPLANE_WEBHOOKS_ALLOW_PRIVATE=true allows others\)/);
      expect(open.refusal(verdict, destination)).toBeNull();
    });
  }
});
