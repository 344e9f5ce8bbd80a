import { describe, expect, it } from 'vitest';
import { webhookEventsSchema } from './events';
import { webhookUrlSchema } from './endpoint-url';
import { withDashboardLinks } from './body';

describe('endpoint URLs', () => {
  it('takes http(s) URLs', () => {
    expect(webhookUrlSchema.parse(' https://hooks.example.com/looplane?x=1 ')).toBe('https://hooks.example.com/looplane?x=1');
    expect(webhookUrlSchema.parse('http://10.0.0.1:8080/in')).toBe('http://10.0.0.1:8080/in');
  });

  const refused: [string, RegExp][] = [
    ['ftp://hooks.example.com/', /http\(s\) URL/],
    ['javascript:alert(1)', /http\(s\) URL/],
    ['hooks.example.com/in', /http\(s\) URL/],
    ['https://user:pw@hooks.example.com/', /user name or password/],
    ['https://token@hooks.example.com/', /user name or password/],
    ['https://hooks.example.com/#frag', /fragment/],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, /2048/],
  ];
  for (const [url, message] of refused) {
    it(`refuses ${url.slice(0, 60)}`, () => {
      const result = webhookUrlSchema.safeParse(url);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message).join('; ')).toMatch(message);
    });
  }
});

describe('event subscriptions', () => {
  it('keeps the known events once, in catalog order', () => {
    expect(webhookEventsSchema.parse(['budget.exceeded', 'run.finished', 'run.finished'])).toEqual(['run.finished', 'budget.exceeded']);
  });
  it('refuses none, unknown ones and the test event', () => {
    expect(webhookEventsSchema.safeParse([]).error?.issues[0]?.message).toMatch(/at least one/);
    expect(webhookEventsSchema.safeParse(['run.started']).success).toBe(false);
    expect(webhookEventsSchema.safeParse(['webhook.test']).success).toBe(false);
  });
});

describe('dashboard links', () => {
  it('links an approval into the inbox and a run to its page', () => {
    const data = withDashboardLinks('approval.requested', { approvalId: 'apr1', runId: 'run1' }, { slug: 'demo' }, 'https://looplane.example.com/');
    expect(data).toMatchObject({ url: 'https://looplane.example.com/t/demo/approvals?approval=apr1', runUrl: 'https://looplane.example.com/t/demo/runs/run1' });
  });
  it('adds no links without a public URL', () => {
    expect(withDashboardLinks('approval.requested', { approvalId: 'apr1' }, { slug: 'demo' }, null)).toEqual({ approvalId: 'apr1' });
  });
});
