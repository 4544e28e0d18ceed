// Rewrites the vendored Kubernetes JSON schemas from a checkout of their origin (README.md beside
// this file): node deploy/k8s/schemas/refresh.mjs <checkout>/schemas
// Each kind used in deploy/k8s is copied strict: every object schema that lists its properties
// refuses others (additionalProperties: false, as kubeconform's strict schemas), so a misspelt
// field fails. Descriptions are dropped, which makes the files a fraction of the size.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const KINDS = [
  'configmap-v1',
  'secret-v1',
  'service-v1',
  'deployment-apps-v1',
  'horizontalpodautoscaler-autoscaling-v2',
  'poddisruptionbudget-policy-v1',
  'networkpolicy-networking-v1',
  'job-batch-v1',
  'cronjob-batch-v1',
];

function strict(node) {
  if (Array.isArray(node)) return node.map(strict);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description') continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strict(v)])) : strict(value);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const source = process.argv[2];
if (!source) {
  console.error('usage: node deploy/k8s/schemas/refresh.mjs <checkout of the origin>/schemas');
  process.exit(2);
}
const here = path.dirname(new URL(import.meta.url).pathname);
for (const kind of KINDS) {
  const schema = JSON.parse(readFileSync(path.join(source, `${kind}.json`), 'utf8'));
  writeFileSync(path.join(here, `${kind}.json`), JSON.stringify(strict(schema)) + '\n');
}
console.log(`wrote ${KINDS.length} strict schemas`);
