#!/usr/bin/env bash
# npm run bench:start [-- runs]: warm starts, from the command to the first 200 of /health/ready,
# on a built tree (npm run build first). Cases, each with the embedded PostgreSQL (DATABASE_URL
# unset) on a data folder of its own that an untimed first start seeded:
#   empty Nest app   bench/empty-nest-app.ts on Fastify, to its first 200 of / (the baseline: what
#                    loading Nest and Fastify alone costs on this machine at this moment)
#   npm start        the README's command, bundled catalog (data/catalog)
#   node (start:prod) the same without npm and the freshness check
#   100,000 offers   npm start on a synthetic catalog of 100,000 offers (bench/support.ts)
# Rounds run the cases one after another, so each round is a paired sample; it prints each round,
# then the medians and each case's ratio to the baseline's median. Every process it starts is
# stopped, the data folders are removed.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# BENCH_TREE: another built checkout to measure (an older commit, say) with this script.
cd "${BENCH_TREE:-$(dirname "$0")/..}"
runs=${1:-5}
port=${BENCH_PORT:-3310}
pg_port=${BENCH_PG_PORT:-54510}
work=$(mktemp -d /tmp/bench-starts-XXXXXX)
chmod 755 "$work" # as root, the embedded PostgreSQL runs as the user postgres, who must enter it
trap 'rm -rf "$work"' EXIT
[ -f dist/app/main.js ] && [ -f dist/bench/empty-nest-app.js ] || { echo "Build first: npm run build" >&2; exit 1; }
start_prod=$(node -p "require('./package.json').scripts['start:prod']")

log="$work/out.log"
# shellcheck source=bench/ready-time.sh
source "$here/ready-time.sh"

ready="http://127.0.0.1:$port/health/ready"
bundled=(EMBEDDED_PG_DATA_DIR="$work/pg-bundled")
big=(EMBEDDED_PG_DATA_DIR="$work/pg-100k" CATALOG_DIR="$work/catalog-100k")
node --input-type=module -e "
  import { syntheticCatalog, writeCatalogFiles } from './dist/bench/support.js';
  await writeCatalogFiles(syntheticCatalog(100000), '$work/catalog-100k', 'bench-100k');
" || exit 1
echo "Seeding the data folders (untimed first starts)..."
time_to_ready "$ready" "${bundled[@]}" -- npm start >/dev/null || exit 1
time_to_ready "$ready" "${big[@]}" -- npm start >/dev/null || exit 1

names=("empty Nest app (baseline)" "npm start" "node (start:prod)" "npm start, 100,000 offers")
for round in $(seq 1 "$runs"); do
  row=(
    "$(time_to_ready "http://127.0.0.1:$port/" -- node dist/bench/empty-nest-app.js $port)"
    "$(time_to_ready "$ready" "${bundled[@]}" -- npm start)"
    "$(time_to_ready "$ready" "${bundled[@]}" -- "$start_prod")"
    "$(time_to_ready "$ready" "${big[@]}" -- npm start)"
  )
  [ "${#row[@]}" -eq 4 ] && [[ ! " ${row[*]} " =~ "  " ]] || { echo "a start failed in round $round" >&2; exit 1; }
  echo "round $round (ms): ${row[*]}"
  echo "${row[*]}" >>"$work/rounds"
done

echo "Machine: $(machine); $runs rounds"
base=$(cut -d' ' -f1 "$work/rounds" | median)
for i in "${!names[@]}"; do
  m=$(cut -d' ' -f$((i + 1)) "$work/rounds" | median)
  echo "| ${names[$i]} | $m ms | $(awk -v m="$m" -v b="$base" 'BEGIN { printf "%.2f", m / b }') |"
done
