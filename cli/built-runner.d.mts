// Types of built-runner.mjs (plain JavaScript so that the launcher needs no compiler).
export declare const ROOT: URL;
export declare const BUILT_DIR: URL;
export declare const BUILT_MAIN: URL;
export declare const MANIFEST: URL;
export declare function builtRunnerIsCurrent(): boolean;
