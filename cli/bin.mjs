#!/usr/bin/env node
// The `scheduler` CLI (docs/cli.md). Registers tsx so the TypeScript sources run from a fresh clone
// without a build step, then hands over to main.ts.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv);
