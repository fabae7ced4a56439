import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { tableToIPC } from 'apache-arrow';
import { BLE_SCENARIO_NAMES, bleScenarioConfig, generateBleScenario } from '../../src/core/index.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';

/** The help text of `sextant generate`. */
export const GENERATE_USAGE = `Usage:
  sextant generate ble --seed N [--scenario NAME] --out FILE [--per-receiver]
  sextant generate ble --list

ble    generates a synthetic BLE scenario (docs/ble-scenarios.md): normalized BLE captures as
       Arrow IPC and their ground truth as FILE.truth.json; prints a JSON summary on stdout.
       The written files load back with \`sextant import\` and \`--capture ID=FILE\`.

--seed N        any integer; the same seed and scenario give the same files
--scenario NAME default, same_template_crowd, fast_rotation, slow_rotation, dense, gaps,
                drift, android_multi_set, crc_noise (default: default)
--out FILE      the Arrow IPC file: one capture, every receiver in its \`receiver\` column
--per-receiver  instead one capture per receiver, written to FILE with the receiver's name
                before the extension (out.arrow → out.rx-1.arrow, out.rx-2.arrow)
--list          prints the scenarios and their descriptions as JSON

Exit codes: 0 written; 4 bad arguments (unknown scenario, missing or non-integer seed, no
--out) or a file that cannot be written.`;

function fail(io: Io, message: string, usage = false): number {
  io.stderr(`sextant generate: ${message}\n`);
  if (usage) io.stderr(`\n${GENERATE_USAGE}\n`);
  return EXIT.badArguments;
}

/** `out.arrow` + `rx-1` → `out.rx-1.arrow`; without an extension, `out` → `out.rx-1`. */
export function perReceiverPath(out: string, receiver: string): string {
  const name = basename(out);
  const dot = name.lastIndexOf('.');
  const safe = receiver.replace(/[^A-Za-z0-9_-]+/g, '_');
  const file = dot > 0 ? `${name.slice(0, dot)}.${safe}${name.slice(dot)}` : `${name}.${safe}`;
  return join(dirname(out), file);
}

/** `sextant generate …`: returns the exit code, never throws. */
export async function runGenerate(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        seed: { type: 'string' },
        scenario: { type: 'string' },
        out: { type: 'string' },
        'per-receiver': { type: 'boolean' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail(io, error instanceof Error ? error.message : String(error), true);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(`${GENERATE_USAGE}\n`);
    return EXIT.ok;
  }
  const [kind, ...extra] = positionals;
  if (kind !== 'ble') return fail(io, kind === undefined ? 'generate needs a kind: ble' : `unknown kind '${kind}' (known: ble)`, true);
  if (extra.length > 0) return fail(io, `unexpected argument '${extra[0]}'`, true);
  if (values.list) {
    const list = BLE_SCENARIO_NAMES.map((name) => ({ name, description: bleScenarioConfig(name).description }));
    io.stdout(`${JSON.stringify(list, null, 2)}\n`);
    return EXIT.ok;
  }
  if (values.seed === undefined) return fail(io, '--seed N is required', true);
  if (!/^-?\d+$/.test(values.seed) || !Number.isSafeInteger(Number(values.seed))) return fail(io, `--seed must be an integer, got '${values.seed}'`);
  if (!values.out) return fail(io, '--out FILE is required', true);
  const seed = Number(values.seed);
  const scenario = values.scenario ?? 'default';
  const perReceiver = values['per-receiver'] ?? false;
  const generated = generateBleScenario({ seed, scenario, layout: perReceiver ? 'per_receiver' : 'combined' });
  if (!generated.ok) return fail(io, `${generated.error.message} [${generated.error.code}]`);
  const { captures, truth } = generated.value;

  const files: Array<{ path: string; capture_id: string; receivers: string[]; rows: number; bounds: { start_ms: number; end_ms: number } }> = [];
  const truthPath = `${values.out}.truth.json`;
  try {
    for (const capture of captures) {
      const receivers = truth.receivers.filter((receiver) => receiver.capture_id === capture.info.id).map((receiver) => receiver.name);
      const path = perReceiver ? perReceiverPath(values.out, receivers[0]) : values.out;
      await writeFile(path, tableToIPC(capture.table, 'file'));
      files.push({ path, capture_id: capture.info.id, receivers, rows: capture.info.rowCount, bounds: capture.info.bounds });
    }
    await writeFile(truthPath, `${JSON.stringify(truth, null, 2)}\n`);
  } catch (error) {
    return fail(io, `cannot write: ${error instanceof Error ? error.message : String(error)}`);
  }
  const summary = {
    scenario,
    seed,
    description: generated.value.config.description,
    layout: perReceiver ? 'per_receiver' : 'combined',
    files,
    truth: truthPath,
    counts: truth.counts,
    rotations: truth.rotations.length,
  };
  io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
  return EXIT.ok;
}
