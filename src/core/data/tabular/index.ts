// Tabular imports (CSV, Parquet, Arrow IPC) into Arrow tables, and the column-mapping step that
// turns them into BLE captures with the normalized column names.

export type {
  TabularFormat,
  TabularColumnReport,
  TabularImportReport,
  TabularImportProblem,
  TabularImportProblemCode,
  TabularImport,
} from './tabular-report.ts';
export { SOURCE_FORMAT_METADATA, emptyReport } from './tabular-report.ts';

export type { CsvImportOptions, CsvImporter } from './csv-importer.ts';
export { createCsvImporter, readCsv, MAX_CSV_COLUMNS } from './csv-importer.ts';

export type { ParquetImportOptions, ParquetByteSource } from './parquet-reader.ts';
export { readParquet } from './parquet-reader.ts';

export type { ArrowImportOptions } from './arrow-reader.ts';
export { readArrowIpc, detectTabularFormat } from './arrow-reader.ts';

export type { ColumnMapping, TimeUnitName, BleAddressColumn, AppliedColumnMapping } from './column-mapping.ts';
export {
  applyColumnMapping,
  suggestColumnMapping,
  hasNormalizedBleColumns,
  normalizeBleAddress,
  BLE_ADDRESS_COLUMNS,
  COLUMN_MAPPING_METADATA,
} from './column-mapping.ts';
