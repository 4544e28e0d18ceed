#!/usr/bin/env node
// Commit subjects of at most 72 characters (details go in the body), for every commit after the
// one that set the rule: older history is left as it is. Part of `npm run lint`.
//   node scripts/check-commit-subjects.mjs            check the commits since the rule
//   node scripts/check-commit-subjects.mjs --file F   check a message file (a commit-msg hook)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 72;
/** The last commit before the rule. */
const SINCE = '9389f9d';

const fileAt = process.argv.indexOf('--file');
/** [where, subject] pairs to check. */
let subjects;
if (fileAt > 0) {
  const file = process.argv[fileAt + 1];
  subjects = [
    [
      file,
      readFileSync(file, 'utf8')
        .split('\n')
        .find((line) => !line.startsWith('#')) ?? '',
    ],
  ];
} else {
  const known = spawnSync('git', ['cat-file', '-e', `${SINCE}^{commit}`]);
  if (known.error || known.status !== 0) {
    console.log(`commit subjects: not checked (no git history with ${SINCE} here)`);
    process.exit(0);
  }
  const log = spawnSync('git', ['log', '--format=%h%x09%s', `${SINCE}..HEAD`], { encoding: 'utf8' });
  if (log.status !== 0) {
    console.error(`commit subjects: git log failed: ${log.stderr.trim()}`);
    process.exit(1);
  }
  subjects = log.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
}
const long = subjects.filter(([, subject]) => subject.length > MAX);
for (const [where, subject] of long) console.error(`${where}: subject of ${subject.length} characters (at most ${MAX}): ${subject.slice(0, 80)}…`);
if (long.length) process.exit(1);
console.log(`commit subjects: ${subjects.length} checked, all at most ${MAX} characters`);
