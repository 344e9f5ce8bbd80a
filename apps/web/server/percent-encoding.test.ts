import { describe, expect, it } from 'vitest';
import { undecodablePart } from './percent-encoding';

describe('undecodablePart', () => {
  it.each([
    '/',
    '/t/demo/runs',
    '/api/v1/teams/abc/runs?status=running&limit=20',
    '/t/demo/runs/r%C3%A9sum%C3%A9',
    '/api/trpc/runs.list?batch=1&input=%7B%220%22%3A%7B%7D%7D',
    '/signin?callbackUrl=%2F%0A%2Fevil.example',
    '/signin?callbackUrl=%2Ft%2Fdemo&error=',
    '/a%2Fb/%F0%9F%98%80?q=a+b&=&&x',
    '*',
  ])('lets %s through', (target) => {
    expect(undecodablePart(target)).toBeNull();
  });

  it.each([
    ['/api/v1/teams/%ED%A0%80/runs', { in: 'path', text: '%ED%A0%80' }],
    ['/api/v1/teams/%ZZ', { in: 'path', text: '%ZZ' }],
    ['/api/trpc/runs.list%ZZ?input=1', { in: 'path', text: 'runs.list%ZZ' }],
    ['/t/%ED%A0%80/runs', { in: 'path', text: '%ED%A0%80' }],
    ['/api/runs/%ZZ/stream', { in: 'path', text: '%ZZ' }],
    ['/api/sessions/%ED%A0%80/workspace.tar.gz', { in: 'path', text: '%ED%A0%80' }],
    ['/signin?callbackUrl=%ZZ', { in: 'query', text: '%ZZ' }],
    ['/signin?callbackUrl=%ED%A0%80', { in: 'query', text: '%ED%A0%80' }],
    ['/signin?%ZZ=1', { in: 'query', text: '%ZZ' }],
    ['/x/%', { in: 'path', text: '%' }],
    ['/x/%4', { in: 'path', text: '%4' }],
    // Overlong, cut short, and split across segments: none of them is UTF-8.
    ['/x/%C0%AF', { in: 'path', text: '%C0%AF' }],
    ['/x/%E2%82', { in: 'path', text: '%E2%82' }],
    ['/x/%E2/%82%AC', { in: 'path', text: '%E2' }],
  ] as const)('refuses %s', (target, part) => {
    expect(undecodablePart(target)).toEqual(part);
  });

  it('shows at most 120 characters of the part it refuses', () => {
    const part = undecodablePart(`/x/${'a'.repeat(500)}%ZZ`);
    expect(part?.text).toBe(`${'a'.repeat(120)}…`);
  });
});
