export * from './provider-types.ts';
export * from './providers/index.ts';
export * from './loop/index.ts';
export * from './demo/index.ts';
