// Types of scripts/test-prerequisites.mjs for the TypeScript that imports it (src/test-prerequisites.spec.ts, test/setup/browser.ts, test/setup/fleet-processes.ts).
export interface Prerequisite {
  name: string;
  usedBy: string;
  present: () => boolean;
  packages: string[];
}
export declare const PREREQUISITES: Prerequisite[];
export declare const CHROMIUM_CANDIDATES: string[];
export declare function chromiumPath(): string | null;
export declare function postgresServerBinDir(): string | null;
export type Decision = { action: 'none' } | { action: 'install'; packages: string[] } | { action: 'stop'; line: string };
export declare function plan(input: { missing: Pick<Prerequisite, 'name' | 'usedBy' | 'packages'>[]; isRoot: boolean; hasAptGet: boolean }): Decision;
