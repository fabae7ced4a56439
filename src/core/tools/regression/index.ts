export { regressionTool, runRegressionTool, checkRegressionArguments, parseRegressionArguments, regressionConfidence, formatCount } from './regression-tool.ts';
export type { RegressionArguments } from './regression-tool.ts';
export { regressionManifest, regressionInputSchema, regressionOutputSchema, REGRESSION_OPERATIONS } from './manifest.ts';
export type { RegressionOperation } from './manifest.ts';
export { fitLinearRegression, solveFactor, DEFAULT_MAX_SAMPLE_SIZE } from './linear-regression.ts';
export type {
  RegressionBatch,
  LinearRegressionOptions,
  LinearRegressionFit,
  LinearRegressionProblem,
  DiagnosticPoint,
  FactorSolution,
} from './linear-regression.ts';
export { HouseholderQr, reduceBlock, canonicalFactor, DEFAULT_BLOCK_ROWS } from './householder-qr.ts';
export type { AddRowsOptions, AddRowsReport } from './householder-qr.ts';
export { summarizeColumns, describeSorted, quantileSorted } from './summary-stats.ts';
export type { ColumnBatch, ColumnSummary } from './summary-stats.ts';
export { oneWayAnova } from './anova.ts';
export type { AnovaBatch, AnovaGroup, OneWayAnova, AnovaProblem } from './anova.ts';
export { correlationMatrix } from './correlation.ts';
export type { CorrelationMatrix, CorrelationPair } from './correlation.ts';
export { tTwoSidedPValue, tCriticalValue, fUpperTail } from './distributions.ts';
