import { describe, expect, it } from 'vitest';
import { ADDRESS_CASES } from '../testing/address-cases';
import { parseAddressAllowlist } from './address-allowlist';
import { judgeAddress } from './address-policy';
import { modelEndpointPolicy } from './endpoint-address-policy';
import { AddressRefusedError, resolveOutboundTarget } from './outbound-target';

const url = (address: string, port = 8080) => `http://${address.includes(':') ? `[${address}]` : address}:${port}/v1`;

describe('where model endpoints may connect', () => {
  const strict = modelEndpointPolicy([]);
  for (const { address, kind, what } of ADDRESS_CASES.filter((c) => !c.address.includes('%'))) {
    if (kind === 'special') {
      it(`refuses ${address} (${what?.source}) unless LOOPLANE_ENDPOINTS_ALLOW lists it`, async () => {
        await expect(resolveOutboundTarget(url(address), strict)).rejects.toThrow(AddressRefusedError);
        await expect(resolveOutboundTarget(url(address), strict)).rejects.toThrow(/LOOPLANE_ENDPOINTS_ALLOW/);
        const allowed = modelEndpointPolicy(parseAddressAllowlist(address.includes(':') ? `[${address}]:8080` : `${address}:8080`));
        const target = await resolveOutboundTarget(url(address), allowed);
        expect(judgeAddress(target.address).kind).toBe('special');
        await expect(resolveOutboundTarget(url(address, 8081), allowed)).rejects.toThrow(AddressRefusedError);
      });
    } else {
      it(`allows ${address} (${kind})`, async () => {
        const target = await resolveOutboundTarget(url(address), strict);
        expect(judgeAddress(target.address).kind).toBe(kind);
      });
    }
  }

  it('says what the address is and how to allow it', async () => {
    await expect(resolveOutboundTarget('http://169.254.169.254/latest/meta-data', strict)).rejects.toThrow(
      "169.254.169.254 is a link-local address (a cloud metadata service): model endpoints may not connect there unless the server's LOOPLANE_ENDPOINTS_ALLOW lists it (such as 169.254.169.254:80)",
    );
    await expect(resolveOutboundTarget('https://[::1]/v1', strict)).rejects.toThrow(
      "::1 is a loopback address: model endpoints may not connect there unless the server's LOOPLANE_ENDPOINTS_ALLOW lists it (such as [::1]:443)",
    );
  });

  it('checks every address of a name: one refused address refuses it', async () => {
    const resolve = async () => [
      { address: '10.0.0.5', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ];
    await expect(resolveOutboundTarget('http://models.example.test/v1', modelEndpointPolicy([], resolve))).rejects.toThrow(
      /^models\.example\.test resolves to 169\.254\.169\.254, which is a link-local address \(a cloud metadata service\)/,
    );
    const allowed = modelEndpointPolicy(parseAddressAllowlist('models.example.test'), resolve);
    await expect(resolveOutboundTarget('http://models.example.test/v1', allowed)).resolves.toMatchObject({ address: '10.0.0.5', family: 4, port: 80 });
  });

  it('refuses a name that resolves to loopback (localhost)', async () => {
    await expect(resolveOutboundTarget('http://localhost:11434/v1', strict)).rejects.toThrow(
      /^localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/,
    );
    await expect(resolveOutboundTarget('http://localhost:11434/v1', modelEndpointPolicy(parseAddressAllowlist('localhost:11434')))).resolves.toMatchObject({
      host: 'localhost',
      port: 11434,
    });
  });

  it('a name that does not resolve is a plain bad request, not a refusal', async () => {
    const resolve = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    const failure = resolveOutboundTarget('http://nowhere.example.test/v1', modelEndpointPolicy([], resolve));
    await expect(failure).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Cannot resolve nowhere.example.test (ENOTFOUND)' });
    await expect(failure).rejects.not.toThrow(AddressRefusedError);
  });
});
