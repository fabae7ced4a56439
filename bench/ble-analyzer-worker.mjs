// Entry of the analyzer benchmark's worker thread: TypeScript loader first, then the worker.
import { register } from 'tsx/esm/api';

register();
await import('./ble-analyzer-worker.ts');
