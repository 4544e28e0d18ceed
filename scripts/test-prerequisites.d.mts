// Types of scripts/test-prerequisites.mjs for the TypeScript that imports it (src/test-prerequisites.spec.ts).
export interface Prerequisite {
  name: string;
  usedBy: string;
  present: () => boolean;
  packages: string[];
}
export declare const PREREQUISITES: Prerequisite[];
export type Decision = { action: 'none' } | { action: 'install'; packages: string[] } | { action: 'stop'; line: string };
export declare function plan(input: { missing: Pick<Prerequisite, 'name' | 'usedBy' | 'packages'>[]; isRoot: boolean; hasAptGet: boolean }): Decision;
