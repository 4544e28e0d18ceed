// Baselines for npm run bench, each its own process like the service:
// - `bare`: a plain Node http server answering a constant JSON (the ceiling of any Node service here);
// - `bare-file`: the same server answering the bytes of a file (the service's cheapest answer, so
//   the baseline sends as much as the service does);
// - `sql`: a plain Node http server answering each request with the raw SQL of the cheapest query
//   through pg (what the service would cost if it asked PostgreSQL every time).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { EEA_EFTA_STATES, EU_MEMBER_STATES } from '../src/domain/compliance/jurisdictions.js';

const [mode, portArg, file] = process.argv.slice(2);
const port = Number(portArg);
const EEA = [...EU_MEMBER_STATES, ...EEA_EFTA_STATES];

// Top 5 offers of a GPU in EEA regions of the current version, by price per GPU-hour. Simpler than
// the service's answer (no currency conversion, reserved amortization or explanations).
const CHEAPEST_SQL = `
  WITH v AS (SELECT cv.seq FROM catalog_publications p JOIN catalog_versions cv ON cv.id = p.version_id ORDER BY p.id DESC LIMIT 1)
  SELECT o.key_hash, o.provider_slug, o.region_code, o.gpu_count, o.pricing_model, o.price_per_hour, o.currency, r.country
  FROM offers o, v, regions r
  WHERE o.gpu_slug = $1 AND o.valid_from <= v.seq AND (o.valid_to IS NULL OR o.valid_to > v.seq)
    AND r.code = o.region_code AND r.valid_from <= v.seq AND (r.valid_to IS NULL OR r.valid_to > v.seq)
    AND r.country = ANY($2)
  ORDER BY o.price_per_hour / o.gpu_count, o.key_hash LIMIT 5`;

const body = mode === 'bare-file' ? readFileSync(file ?? '') : JSON.stringify({ status: 'ok', items: [{ provider: 'bare', amount: '1.0000' }] });
let handler: http.RequestListener;
if (mode === 'bare' || mode === 'bare-file') {
  handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  };
} else {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  handler = (req, res) => {
    const gpu = new URL(req.url ?? '/', 'http://x').searchParams.get('gpu') ?? 'h100-sxm-80gb';
    pool.query(CHEAPEST_SQL, [gpu, EEA]).then(
      (r) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ items: r.rows }));
      },
      (e: Error) => {
        res.writeHead(500);
        res.end(e.message);
      },
    );
  };
}
http.createServer(handler).listen(port, '127.0.0.1', () => console.log(`ready ${mode} ${port}`));
