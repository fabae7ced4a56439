export type {
  RunDocument,
  RunStep,
  PlannerRunSummary,
  PlannerTimelineEntry,
  HashBasis,
  ReportCapture,
  ReportStep,
  ReportSelection,
  CaseReport,
  CaptureProvenance,
} from './report-types.ts';
export { buildCaseReport, parseRunDocument, parseCaseReport, selectionOf, keyLabelsOf, redactKeys, BLE_CAVEATS, REDACTED_KEY, type BuildReportOptions } from './build-report.ts';
export { renderReportHtml, REPORT_DATA_META } from './render-html.ts';
export { caseReportFiles, checkJsonTwin, readReportHtml, textSha256, type TwinCheck } from './twin.ts';
export { probabilityRgb, probabilityTextIsLight, PROBABILITY_STOPS, NOT_REPORTED_RGB } from './probability-scale.ts';
export { captureEdgeNotes, CAPTURE_EDGE_MS, type CaptureEdgeNote } from './capture-edges.ts';
export { heatmapSvg, timelineSvg, scatterSvg, escapeMarkup, probabilityColor, type SvgSegment } from './svg.ts';
export { verifyReport, evidenceProblems, jsonDifferences, RESULT_TOLERANCE, type VerifyDependencies, type VerifyOutcome, type CaptureCheck, type StepCheck, type CaptureFingerprint } from './verify.ts';
export { builtinCaptureFingerprint, captureProvenance } from './fingerprint.ts';
export type { RecordedFingerprint } from './fingerprint.ts';
