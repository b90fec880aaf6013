#!/usr/bin/env node
// The bin runs the TypeScript sources through tsx so that `npx muster` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
