import { expose } from 'comlink';
import { createImportApi } from './import-api.ts';

expose(createImportApi());
