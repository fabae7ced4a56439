// Entry of a tool thread: TypeScript loader first, then the thread's source.
import { register } from 'tsx/esm/api';

register();
await import('./tool-thread.ts');
