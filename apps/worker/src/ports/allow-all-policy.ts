import type { PolicyPort } from '@looplane/engine';

/**
 * The policy port until governance exists: every call is allowed. Replace this one file (the
 * worker builds the port per session in `session-ports.ts`) when team policies are evaluated.
 */
export const allowAllPolicy: PolicyPort = {
  evaluate: async () => ({ decision: 'allow' }),
};
