import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** `parseArgs` with positionals, its errors as a UsageError carrying the command's usage. */
export function parseFlags<T extends Options>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), usage);
  }
}

/** Refuses arguments beyond the expected ones. */
export function expectNoMore(rest: string[], usage: string): void {
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`, usage);
}
