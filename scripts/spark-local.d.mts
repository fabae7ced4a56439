// Types of spark-local.mjs (plain JavaScript so that the test script needs no compiler).
export declare function localSparkConf(localDir: string): string[];
export declare function localSparkEnv(venv: string): NodeJS.ProcessEnv;
