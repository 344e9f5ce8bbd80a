#!/usr/bin/env node
// The `looplane` command. Plain ESM on purpose: it registers tsx so the CLI runs from its
// TypeScript source (workspace packages export TS with extensionless imports).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
