#!/usr/bin/env bash
# Leak check: the same load for 3 minutes with the heap capped at 160 MB; a leak would crash it.
cd "$(dirname "$0")/.."
CATALOG_DIR=data/catalog EMBEDDED_PG_DATA_DIR=.data/dev2 PORT=3099 LOG_LEVEL=warn LOG_FORMAT=json RATE_LIMIT_PER_MINUTE=1000000 node --max-old-space-size=160 dist/app/main.js > /tmp/soak2-app.log 2>&1 &
APP=$!
sleep 8
mem() { curl -s localhost:3099/metrics | grep -E '^(process_resident_memory_bytes|nodejs_heap_size_used_bytes) '; }
echo "start $(date -u +%T)"; mem
npx autocannon -c 32 -d 180 -R 600 "http://127.0.0.1:3099/v1/offers/cheapest?gpu=h100-sxm-80gb,h100-pcie-80gb&preset=GDPR_PERSONAL_DATA&explain=true&limit=5" > /tmp/soak2-run.txt 2>&1
echo "end $(date -u +%T)"; mem
kill -0 $APP && echo "service alive" || echo "service died"
kill -INT $APP
