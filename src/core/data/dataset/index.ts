export { DATASET_FORMAT, MANIFEST_FILE, emptyManifest, manifestParts, parseManifest } from './dataset-manifest.ts';
export type { DatasetManifest, DatasetPart, DatasetProblem, DatasetSource } from './dataset-manifest.ts';
export { NULL_PARTITION, PARTITION_COLUMNS, PARTS_DIR, escapePartitionValue, hourPartition, partitionDirectory, partitionSegment, splitByHour } from './partitions.ts';
export type { HourSlice } from './partitions.ts';
export { conformToDatasetSchema } from './dataset-schema.ts';
export type { ConformProblem, Conformed } from './dataset-schema.ts';
export { MIN_SLICE_ROWS, batchesOfRuns } from './row-runs.ts';
export type { RowRun } from './row-runs.ts';
