# Sourced by bench/first-start.sh and bench/starts.sh: how long a command takes to be ready.
# Needs $port and $pg_port (the service's and the embedded PostgreSQL's) and $log (its output).

ms() { echo $(( $(date +%s%N) / 1000000 )); }

# time_to_ready URL [NAME=VALUE ...] -- COMMAND: runs COMMAND (with those variables, PORT,
# EMBEDDED_PG_PORT and LOG_LEVEL=warn) in a session of its own, prints the milliseconds to the first
# 200 of URL, then stops the whole session and waits until it is gone.
time_to_ready() {
  local url=$1 started pid
  shift
  local env=()
  while [ "$1" != "--" ]; do env+=("$1"); shift; done
  shift
  started=$(ms)
  env "${env[@]}" PORT="$port" EMBEDDED_PG_PORT="$pg_port" LOG_LEVEL=warn setsid bash -c "$*" >"$log" 2>&1 &
  pid=$!
  until curl -sf -o /dev/null "$url"; do
    if ! kill -0 "$pid" 2>/dev/null; then echo "failed: $*: $(tail -n 5 "$log")" >&2; return 1; fi
    sleep 0.01
  done
  echo $(( $(ms) - started ))
  kill -TERM -- "-$pid" 2>/dev/null
  while kill -0 -- "-$pid" 2>/dev/null; do sleep 0.05; done
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

machine() {
  echo "$(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); node $(node --version), npm $(npm --version); $(date -u +'%Y-%m-%d %H:%M UTC')"
}
