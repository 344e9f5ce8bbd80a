import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseTrustedProxies } from '../src/lib/trusted-proxies';
import { rewriteForwardedHeaders } from './forwarded-headers';

const forged: IncomingHttpHeaders = {
  host: 'looplane.example.com',
  'x-forwarded-for': '1.2.3.4',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-port': '443',
  'x-real-ip': '5.6.7.8',
  forwarded: 'for=9.9.9.9',
};

describe('rewriteForwardedHeaders', () => {
  it('without trusted proxies, the socket peer is the client and every forwarding claim is dropped', () => {
    const headers = { ...forged };
    const facts = rewriteForwardedHeaders(headers, '::ffff:198.51.100.20', parseTrustedProxies(undefined));
    expect(facts).toEqual({ client: '198.51.100.20', https: false });
    expect(headers).toEqual({ host: 'looplane.example.com', 'x-forwarded-for': '198.51.100.20' });
  });

  it('a peer that is not a trusted proxy cannot forge the client either', () => {
    const headers = { ...forged };
    rewriteForwardedHeaders(headers, '198.51.100.20', parseTrustedProxies('10.0.0.0/8'));
    expect(headers['x-forwarded-for']).toBe('198.51.100.20');
    expect(headers['x-forwarded-proto']).toBeUndefined();
  });

  it('a trusted proxy names the client, the scheme and the host', () => {
    const headers: IncomingHttpHeaders = {
      host: '127.0.0.1:3000',
      'x-forwarded-for': '203.0.113.5',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'looplane.example.com',
    };
    const facts = rewriteForwardedHeaders(headers, '127.0.0.1', parseTrustedProxies('127.0.0.1'));
    expect(facts).toEqual({ client: '203.0.113.5', https: true });
    expect(headers).toEqual({
      host: '127.0.0.1:3000',
      'x-forwarded-for': '203.0.113.5',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'looplane.example.com',
    });
  });

  it('walks the chain from the nearest hop: what the client put in front of it is ignored', () => {
    const headers: IncomingHttpHeaders = { 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 10.0.0.7' };
    // The client sent "6.6.6.6"; the outer proxy appended the client's real address; an inner proxy (10.0.0.7) appended the outer one.
    expect(rewriteForwardedHeaders(headers, '10.0.0.8', parseTrustedProxies('10.0.0.0/8')).client).toBe('203.0.113.5');
    expect(headers['x-forwarded-for']).toBe('203.0.113.5');
  });

  it('ignores junk in the chain and in the other headers', () => {
    const headers: IncomingHttpHeaders = {
      'x-forwarded-for': ['unknown', '203.0.113.5'],
      'x-forwarded-proto': 'gopher',
      'x-forwarded-host': 'bad host/\r\n',
      'x-forwarded-port': 'x',
    };
    const facts = rewriteForwardedHeaders(headers, '127.0.0.1', parseTrustedProxies('127.0.0.1'));
    expect(facts).toEqual({ client: '203.0.113.5', https: false });
    expect(headers).toEqual({ 'x-forwarded-for': '203.0.113.5' });
  });

  it('a chain of nothing but trusted proxies ends at its farthest hop', () => {
    const headers: IncomingHttpHeaders = { 'x-forwarded-for': '10.0.0.1' };
    expect(rewriteForwardedHeaders(headers, '10.0.0.2', parseTrustedProxies('10.0.0.0/8')).client).toBe('10.0.0.1');
  });
});
