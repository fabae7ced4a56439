import { tableFromIPC } from 'apache-arrow';
import { expose } from 'comlink';
import initParquet, { readParquet } from 'parquet-wasm/esm';
import { PART_BATCH_ROWS } from '../src/core/index.ts';
import { createImportApi } from './import-api.ts';

// parquet-wasm's browser build fetches its wasm (bundled as an asset) the first time a dataset part is read.
let parquetReady: Promise<unknown> | null = null;

expose(
  createImportApi(async (bytes) => {
    parquetReady ??= initParquet();
    await parquetReady;
    return tableFromIPC(readParquet(bytes, { batchSize: PART_BATCH_ROWS }).intoIPCStream());
  }),
);
