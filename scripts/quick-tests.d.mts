// Types of quick-tests.mjs (plain JavaScript, as scripts/test.mjs runs under node alone).
export const QUICK_API_TESTS: string[];
export function testFiles(dir: string): string[];
export function importsOf(path: string): string[];
export function buildsAppOrProcess(path: string): boolean;
export function quickTestFiles(): string[];
