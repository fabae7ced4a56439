import { expose } from 'comlink';
import { createToolsApi } from './tools-api.ts';

expose(createToolsApi());
