/**
 * Opens the output directory of `sextant analyze-dataset` for browsing, from any file access
 * (the browser's picked directory in a worker, the file system in Node): `analysis.json` first,
 * then — for a windowed run — the stitched files line by line into a `StitchedDevices`.
 */
import { err, ok, type Result } from '../../../util/result.ts';
import { textLines } from '../../../util/text-lines.ts';
import { StitchedDevices } from './stitched-devices.ts';
import { ANALYSIS_FILE, parseAnalysisOverview, parseStitchedLine, STITCHED_FILES, type DatasetAnalysisOverview, type StitchedFile, type StitchedOutputProblem } from './stitched-output.ts';

/** The output directory's files by their path under it; undefined for a file it lacks. */
export interface AnalysisFiles {
  text(path: string): Promise<string> | undefined;
  bytes(path: string): AsyncIterable<Uint8Array> | undefined;
}

export interface OpenedAnalysis {
  overview: DatasetAnalysisOverview;
  /** Null for a one-window run (no `--window`): nothing was stitched, its result is the whole answer. */
  devices: StitchedDevices | null;
}

export async function openStitchedAnalysis(files: AnalysisFiles, onProgress?: (linesRead: number) => void): Promise<Result<OpenedAnalysis, StitchedOutputProblem>> {
  const overviewText = files.text(ANALYSIS_FILE);
  if (!overviewText) {
    return err({ code: 'ANALYSIS_NOT_FOUND', message: `no ${ANALYSIS_FILE} at the directory's top: it is not the output of sextant analyze-dataset DIR --out OUT`, path: ANALYSIS_FILE });
  }
  const overview = parseAnalysisOverview(await overviewText);
  if (!overview.ok) return overview;
  if (overview.value.windowing === null) return ok({ overview: overview.value, devices: null });
  const devices = new StitchedDevices();
  let linesRead = 0;
  for (const file of Object.keys(STITCHED_FILES) as StitchedFile[]) {
    const path = STITCHED_FILES[file];
    const bytes = files.bytes(path);
    if (!bytes) return err({ code: 'ANALYSIS_FILE_MISSING', message: `${path} is missing: ${ANALYSIS_FILE} says the run was stitched, so it wrote ${path}`, path });
    let line = 0;
    for await (const text of textLines(bytes)) {
      line++;
      const parsed = parseStitchedLine(file, text, line);
      if (!parsed.ok) return parsed;
      if (parsed.value) devices.add(parsed.value);
      if (++linesRead % 20_000 === 0) onProgress?.(linesRead);
    }
  }
  return ok({ overview: overview.value, devices });
}
