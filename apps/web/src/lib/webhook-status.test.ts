import { describe, expect, it } from 'vitest';
import { attemptOutcome, webhookState } from './webhook-status';

describe('webhookState', () => {
  const at = new Date('2026-03-10T12:00:00Z');

  it('tells an enabled endpoint from one whose attempts are failing', () => {
    expect(webhookState({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null })).toMatchObject({ kind: 'active', reason: null });
    expect(webhookState({ enabled: true, disabledAt: null, disabledReason: null, failingSince: at })).toMatchObject({ kind: 'failing', tone: 'warning' });
  });

  it('tells an admin’s disabling from the worker’s, with the recorded reason', () => {
    expect(webhookState({ enabled: false, disabledAt: at, disabledReason: 'disabled by an admin', failingSince: null })).toMatchObject({
      kind: 'disabled-by-admin',
      reason: 'disabled by an admin',
    });
    expect(webhookState({ enabled: false, disabledAt: at, disabledReason: 'the endpoint answered 410 Gone', failingSince: at })).toMatchObject({
      kind: 'disabled-automatically',
      tone: 'danger',
      reason: 'the endpoint answered 410 Gone',
    });
    expect(webhookState({ enabled: false, disabledAt: at, disabledReason: null, failingSince: null }).reason).toBe('no reason recorded');
  });
});

describe('attemptOutcome', () => {
  it('shows the status, and the error only when it says more', () => {
    expect(attemptOutcome({ statusCode: 500, error: 'answered 500' })).toBe('HTTP 500');
    expect(attemptOutcome({ statusCode: 200, error: null })).toBe('HTTP 200');
    expect(attemptOutcome({ statusCode: 302, error: 'answered 302; redirects are not followed (to https://x.test/)' })).toBe(
      'HTTP 302 (answered 302; redirects are not followed (to https://x.test/))',
    );
  });

  it('shows the error of an attempt that got no answer', () => {
    expect(attemptOutcome({ statusCode: null, error: 'connect ECONNREFUSED 127.0.0.1:9' })).toBe('connect ECONNREFUSED 127.0.0.1:9');
    expect(attemptOutcome({ statusCode: null, error: null })).toMatch(/interrupted/);
  });
});
