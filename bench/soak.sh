#!/usr/bin/env bash
# 10-minute soak of GET /v1/offers/cheapest at a fixed 600 req/s (about 70% of the measured maximum).
cd "$(dirname "$0")/.."
CATALOG_DIR=data/catalog EMBEDDED_PG_DATA_DIR=.data/dev2 PORT=3099 LOG_LEVEL=warn LOG_FORMAT=json RATE_LIMIT_PER_MINUTE=1000000 node dist/app/main.js > /tmp/soak-app.log 2>&1 &
APP=$!
sleep 8
mem() { curl -s localhost:3099/metrics | grep -E '^(process_resident_memory_bytes|nodejs_heap_size_used_bytes) '; }
echo "start $(date -u +%T)"; mem
npx autocannon -c 32 -d 300 -R 600 "http://127.0.0.1:3099/v1/offers/cheapest?gpu=h100-sxm-80gb,h100-pcie-80gb&preset=GDPR_PERSONAL_DATA&explain=true&limit=5" > /tmp/soak-1.txt 2>&1
echo "half $(date -u +%T)"; mem
npx autocannon -c 32 -d 300 -R 600 "http://127.0.0.1:3099/v1/offers/cheapest?gpu=h100-sxm-80gb,h100-pcie-80gb&preset=GDPR_PERSONAL_DATA&explain=true&limit=5" > /tmp/soak-2.txt 2>&1
echo "end $(date -u +%T)"; mem
kill -INT $APP
