import { main, type Io } from '../main.ts';

/** Runs one `sextant` command in this process, for the dataset tests: its exit code and output. */
export async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
