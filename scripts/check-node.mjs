#!/usr/bin/env node
// The first thing `npm start`, `npm test` and the admin scripts run: one line when this Node is
// older than package.json's engines (the supported runtime is Node 22 LTS, .nvmrc), instead of
// a build that fails minutes later with errors that do not say why. Plain JavaScript, no imports
// of the project: it must run on any Node.
import { readFileSync } from 'node:fs';

const wanted = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node; // ">=22.12"
const [needMajor, needMinor = 0] = wanted
  .replace(/^>=\s*/, '')
  .split('.')
  .map(Number);
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  console.error(`This project needs Node ${wanted} (package.json "engines", .nvmrc); this is Node ${process.versions.node}. Install Node 22 LTS (nvm use).`);
  process.exit(1);
}
