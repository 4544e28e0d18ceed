#!/usr/bin/env bash
# bash bench/first-start.sh [runs] [baseline-commit]: what a newcomer waits for on a fresh clone.
# Each run clones HEAD into a temporary folder, times `npm install`, then times `npm start` (with
# DATABASE_URL unset: the build, a new embedded PostgreSQL, migrations and the bundled catalog's
# seed) up to the first 200 of /health/ready, then three warm `npm start`s of the same clone.
# With a baseline commit, each run does the same for that commit right after (paired runs), on the
# Node given by BASELINE_NODE_DIR when set (a commit that refuses this machine's Node). Prints one
# line per run and the medians. Stops every process it starts and removes its clones.
set -uo pipefail
runs=${1:-3}
baseline=${2:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
port=${BENCH_PORT:-3300}
pg_port=${BENCH_PG_PORT:-54500}

# shellcheck source=bench/ready-time.sh
source "$repo/bench/ready-time.sh"

# Starts `npm start` in $1 and prints the milliseconds to the first 200 of /health/ready.
ready_ms() {
  log="$1/start.log"
  time_to_ready "http://127.0.0.1:$port/health/ready" -- "cd '$1' && exec npm start"
}

# One fresh clone of $1: "install_ms first_start_ms warm1 warm2 warm3".
measure() {
  local commit=$1 dir t0 install first warm=()
  dir=$(mktemp -d /tmp/first-start-XXXXXX)
  git clone -q "$repo" "$dir" && git -C "$dir" checkout -q "$commit"
  t0=$(ms)
  (cd "$dir" && npm install --no-audit --no-fund >"$dir/install.log" 2>&1) || { echo "npm install failed" >&2; return 1; }
  install=$(( $(ms) - t0 ))
  first=$(ready_ms "$dir") || return 1
  for _ in 1 2 3; do warm+=("$(ready_ms "$dir")"); done
  rm -rf "$dir"
  echo "$install $first ${warm[*]}"
}

echo "Machine: $(machine)"
head=$(git -C "$repo" rev-parse --short HEAD)
: >/tmp/first-start-head.txt
: >/tmp/first-start-base.txt
for i in $(seq 1 "$runs"); do
  line=$(measure "$head") || exit 1
  echo "run $i $head: npm install, first npm start, three warm starts (ms): $line"
  echo "$line" >>/tmp/first-start-head.txt
  if [ -n "$baseline" ]; then
    line=$(PATH="${BASELINE_NODE_DIR:+$BASELINE_NODE_DIR:}$PATH" measure "$baseline") || exit 1
    echo "run $i $baseline (baseline): $line"
    echo "$line" >>/tmp/first-start-base.txt
  fi
done
summary() {
  local file=$1 name=$2
  [ -s "$file" ] || return 0
  echo "$name medians: npm install $(cut -d' ' -f1 "$file" | median) ms, first npm start $(cut -d' ' -f2 "$file" | median) ms, install + first start $(awk '{ print $1 + $2 }' "$file" | median) ms, warm npm start $(cut -d' ' -f3- "$file" | tr ' ' '\n' | median) ms"
}
summary /tmp/first-start-head.txt "$head"
summary /tmp/first-start-base.txt "$baseline"
