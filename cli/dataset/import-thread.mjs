// Entry of a dataset import thread when running from the sources: TypeScript loader first.
import { register } from 'tsx/esm/api';

register();
await import('./import-thread.ts');
