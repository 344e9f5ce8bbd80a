import { describe, expect, it, vi } from 'vitest';
import { AppError } from './errors';

describe('AppError', () => {
  it('is recognised across copies of the module (a bundler layer each), and nothing else is', async () => {
    // A second, independent copy of the module, as Next loads one per layer.
    vi.resetModules();
    const copy = await import('./errors');
    expect(copy.AppError).not.toBe(AppError);
    const fromCopy = new copy.AppError('NOT_FOUND', 'missing');
    expect(fromCopy instanceof AppError).toBe(true);
    expect(new AppError('BAD_REQUEST', 'bad') instanceof copy.AppError).toBe(true);
    expect(new Error('plain') instanceof AppError).toBe(false);
    expect(Object.assign(new Error('forged'), { name: 'AppError', code: 'NOT_FOUND' }) instanceof AppError).toBe(false);
    expect((null as unknown as object) instanceof AppError).toBe(false);
    expect(new AppError('NOT_FOUND', 'x') instanceof Error).toBe(true);
  });
});
