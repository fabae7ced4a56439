import { ToolRegistry, builtinTools } from '../../src/core/index.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';

export const MANIFESTS_USAGE = `Usage:
  sextant manifests [--enable-test-tools]

Lists the installed tool manifests as JSON: name, version and capabilities of each.

--enable-test-tools installs the diagnostic test_echo tool

Exit codes: 0 listed; 4 bad arguments.`;

/** `sextant manifests`: returns the exit code. */
export async function runManifests(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(args, { 'enable-test-tools': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, MANIFESTS_USAGE);
  if (values.help) {
    io.stdout(`${MANIFESTS_USAGE}\n`);
    return EXIT.ok;
  }
  expectNoMore(positionals, MANIFESTS_USAGE);
  const registry = new ToolRegistry(builtinTools({ testTools: values['enable-test-tools'] ?? false }));
  const list = registry.manifests().map((manifest) => ({ name: manifest.name, version: manifest.version, capabilities: manifest.capabilities }));
  io.stdout(`${JSON.stringify(list, null, 2)}\n`);
  return EXIT.ok;
}
