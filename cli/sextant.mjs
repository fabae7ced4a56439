#!/usr/bin/env node
// The `sextant` command: registers the TypeScript loader, then runs the runner's source.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
