#!/usr/bin/env node
// The first thing `npm start`, `npm test` and the admin scripts run. The project runs on every Node
// its dependencies support: 20.19 and later, 22 and 24 (package.json "engines"). Older, it stops
// with one line that says how to get a newer Node with npm alone, instead of a build that fails
// minutes later with errors that do not say why; on Node 20, past its end of life, one line
// recommends 22 LTS and the command goes on (scripts/node-support.mjs decides).
import { readFileSync } from 'node:fs';
import { nodeVerdict } from './node-support.mjs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const { verdict, line } = nodeVerdict({ version: process.versions.node, wanted: engines.node, platform: process.platform, arch: process.arch });
// Said once per command: the npm scripts this one starts inherit the variable and stay quiet.
if (line && !process.env.GPU_COST_API_NODE_CHECKED) console.error(line);
process.env.GPU_COST_API_NODE_CHECKED = '1';
if (verdict === 'stop') process.exit(1);
