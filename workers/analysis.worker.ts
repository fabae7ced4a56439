import { expose } from 'comlink';
import { createAnalysisApi } from './analysis-api.ts';

expose(createAnalysisApi());
