// Types of scripts/node-support.mjs for the TypeScript that imports it (src/start-command.spec.ts).
export declare const NODE_20_END_OF_LIFE: string;
export declare const RECOMMENDED_MAJOR: number;
export declare function nodeVerdict(input: { version: string; wanted: string; platform: string; arch: string }): {
  verdict: 'ok' | 'warn' | 'stop';
  line: string | null;
};
