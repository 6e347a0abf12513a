#!/usr/bin/env bash
# Regenerates every table and chart in bench/RESULTS.md, in one go: the machine description, the proxy
# overhead (sysbench suite directly on one shard vs through the proxy), one instance holding the
# whole buffer pool vs N shards behind the proxy with TPC-C and with sysbench, cross-shard
# transactions (commit latency by shards per transaction, TPC-C's cross-shard share) on 4 shards,
# sysbench over 4 shards with the deadlock detector off and on, consistent cuts off and on (point
# selects, sums over every shard with and without transfers, TPC-C), root against application accounts
# (point select, TPC-C), and the daemon's memory per idle client connection.
#
#   bench/run-all.sh                 sizes for a small host (about 125 minutes on 2 cores)
#   bench/run-all.sh --short         the same comparisons on smaller data with shorter runs (about 72 minutes)
#   bench/run-all.sh --large         a 16+ core host with flash: 100 warehouses, 64 clients, 1/2/4/8 shards,
#                                    cores split among each home's shards (cpu_sets: auto)
#   bench/run-all.sh --quick         seconds-long runs on tiny data into a temporary directory, to check that
#                                    the suite works end to end (its figures mean nothing; RESULTS.md is untouched)
#   bench/run-all.sh [...] -- OPTS   OPTS go to every comparison, e.g. -- --datadir-root /mnt/nvme0/cleave-bench
#
# Run it on a quiet machine: every table records the load average during its runs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top="$(cd "$here/.." && pwd)"

invocation="bench/run-all.sh${1:+ }$*"
preset=default
extra=()
while (($#)); do
  case "$1" in
    --short) preset=short ;;
    --large) preset=large ;;
    --quick) preset=quick ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
command -v sysbench >/dev/null || { echo "sysbench is missing: apt-get install sysbench" >&2; exit 2; }

case $preset in
  default)
    overhead=(--tables 4 --table-size 100000 --threads 8 --duration 30s --warmup 10s --rounds 3 --buffer-pool 1G)
    tpcc=(--shards 1,2,4 --warehouses 8 --connections 16 --duration 60s --warmup 20s --rounds 3 --buffer-pool 1G)
    sysb=(--shards 1,2,4 --tables 8 --table-size 100000 --threads 16 --duration 30s --warmup 10s --rounds 3
          --buffer-pool 1G)
    xshard=(--k 1,2,4 --threads 8 --accounts-per-shard 10000 --duration 30s --warmup 10s --rounds 3 --warehouses 4
            --connections 8 --tpcc-duration 60s --buffer-pool 1G)
    dead=(--shards 4 --tables 4 --table-size 1000 --threads 8 --duration 30s --warmup 5s --rounds 3 --buffer-pool 1G)
    cuts=(--shards 4 --tables 4 --table-size 10000 --threads 8 --readers 4 --writers 4 --duration 20s --warmup 5s
          --rounds 3 --warehouses 4 --connections 8 --tpcc-rounds 3 --tpcc-duration 30s --buffer-pool 1G)
    acct_sb=(--shards 2 --tables 4 --table-size 100000 --threads 8 --duration 30s --warmup 10s --rounds 3 --buffer-pool 1G)
    acct_tpcc=(--shards 2 --warehouses 4 --connections 8 --duration 30s --warmup 10s --rounds 3 --buffer-pool 1G)
    conns=1000,2000 ;;
  short)
    overhead=(--tables 4 --table-size 25000 --threads 8 --duration 15s --warmup 10s --rounds 3 --buffer-pool 1G)
    tpcc=(--shards 1,2,4 --warehouses 4 --connections 8 --duration 30s --warmup 15s --rounds 3 --buffer-pool 1G)
    sysb=(--shards 1,2,4 --tables 4 --table-size 25000 --threads 8 --duration 15s --warmup 10s --rounds 3
          --buffer-pool 1G)
    xshard=(--k 1,2,4 --threads 8 --accounts-per-shard 10000 --duration 15s --warmup 5s --rounds 3 --warehouses 4
            --connections 8 --tpcc-duration 30s --buffer-pool 1G)
    dead=(--shards 4 --tables 4 --table-size 1000 --threads 8 --duration 20s --warmup 5s --rounds 3 --buffer-pool 512M)
    cuts=(--shards 4 --tables 4 --table-size 10000 --threads 8 --readers 4 --writers 4 --duration 10s --warmup 3s
          --rounds 3 --warehouses 4 --connections 8 --tpcc-rounds 2 --tpcc-duration 20s --buffer-pool 512M)
    acct_sb=(--shards 2 --tables 4 --table-size 25000 --threads 8 --duration 15s --warmup 5s --rounds 3 --buffer-pool 1G)
    acct_tpcc=(--shards 2 --warehouses 4 --connections 8 --duration 20s --warmup 10s --rounds 3 --buffer-pool 1G)
    conns=1000,2000 ;;
  large)
    overhead=(--tables 16 --table-size 1000000 --threads 64 --duration 120s --warmup 30s --rounds 3 --buffer-pool 32G
              --cpu-sets auto)
    tpcc=(--shards 1,2,4,8 --warehouses 100 --connections 64 --duration 300s --warmup 120s --rounds 3
          --buffer-pool 32G --loader-threads 16 --report-interval 10s --cpu-sets auto)
    sysb=(--shards 1,2,4,8 --tables 16 --table-size 1000000 --threads 64 --duration 120s --warmup 30s --rounds 3
          --buffer-pool 32G --loader-threads 16 --cpu-sets auto)
    xshard=(--k 1,2,4 --threads 64 --accounts-per-shard 1000000 --duration 120s --warmup 30s --rounds 3
            --warehouses 100 --connections 64 --tpcc-duration 300s --buffer-pool 32G --loader-threads 16
            --report-interval 10s --cpu-sets auto)
    dead=(--shards 8 --tables 16 --table-size 10000 --threads 64 --duration 120s --warmup 30s --rounds 3
          --buffer-pool 32G --loader-threads 16 --cpu-sets auto)
    cuts=(--shards 8 --tables 16 --table-size 100000 --threads 64 --readers 16 --writers 32 --duration 60s --warmup 20s
          --rounds 3 --warehouses 100 --connections 64 --tpcc-rounds 3 --tpcc-duration 120s --buffer-pool 32G
          --loader-threads 16 --cpu-sets auto)
    acct_sb=(--shards 4 --tables 16 --table-size 1000000 --threads 64 --duration 120s --warmup 30s --rounds 3
             --buffer-pool 32G --loader-threads 16 --cpu-sets auto)
    acct_tpcc=(--shards 4 --warehouses 100 --connections 64 --duration 300s --warmup 120s --rounds 3 --buffer-pool 32G
               --loader-threads 16 --report-interval 10s --cpu-sets auto)
    conns=1000,5000,10000 ;;
  quick)
    overhead=(--tables 2 --table-size 2000 --threads 4 --duration 3s --warmup 1s --rounds 2 --buffer-pool 256M)
    tpcc=(--shards 1,2 --warehouses 2 --connections 4 --duration 4s --warmup 1s --rounds 2 --buffer-pool 256M
          --report-interval 1s)
    sysb=(--shards 1,2 --tables 2 --table-size 2000 --threads 4 --duration 3s --warmup 1s --rounds 2
          --buffer-pool 256M)
    xshard=(--k 1,2,4 --threads 4 --accounts-per-shard 1000 --duration 3s --warmup 1s --rounds 2 --warehouses 4
            --connections 4 --tpcc-duration 4s --buffer-pool 256M --report-interval 1s)
    dead=(--shards 2 --tables 2 --table-size 1000 --threads 4 --duration 3s --warmup 0s --rounds 2 --buffer-pool 256M)
    cuts=(--shards 2 --tables 2 --table-size 2000 --threads 4 --readers 2 --writers 2 --duration 3s --warmup 1s --rounds 2
          --warehouses 2 --connections 4 --tpcc-rounds 1 --tpcc-duration 4s --buffer-pool 256M --report-interval 1s)
    acct_sb=(--shards 2 --tables 2 --table-size 2000 --threads 4 --duration 3s --warmup 1s --rounds 2 --buffer-pool 256M)
    acct_tpcc=(--shards 2 --warehouses 2 --connections 4 --duration 4s --warmup 1s --rounds 2 --buffer-pool 256M
               --report-interval 1s)
    conns=100 ;;
esac

cd "$top"   # relative paths, so the commands recorded in RESULTS.md can be copied as they are
results=bench/results
doc=bench/RESULTS.md
if [[ $preset == quick ]]; then
  results=$(mktemp -d /tmp/cleave-bench-quick-XXXXXX)
  cp "$doc" "$results/RESULTS.md"
  doc="$results/RESULTS.md"
fi
bench() { "$here/cleave-bench.sh" "$@"; }
BENCH_REBUILD="${BENCH_REBUILD:-0}" bench --version >/dev/null   # builds the jars once, before anything is timed

# The machine, read from the system (the tables below repeat the essentials in their headers).
machine=$(mktemp)
trap 'rm -f "$machine"' EXIT
server=$(ls "${CLEAVE_CACHE:-$HOME/.cache/cleave}"/embedded/*/bin/mariadbd 2>/dev/null | head -1 || true)
{
  echo "Recorded $(date -u +%Y-%m-%dT%H:%M:%SZ) by \`$invocation\` (preset: $preset)."
  echo
  echo "- CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "- Memory: $(free -h | awk '/^Mem:/ {print $2}') ($(free -h | awk '/^Mem:/ {print $7}') available at the start)"
  echo "- Disk under the datadirs (\`df -hT /tmp\`): $(df -hT /tmp | awk 'NR==2 {print $1", "$2", "$3}')"
  echo "- Block devices (\`lsblk -d -o NAME,ROTA,SIZE,MODEL\`): $(lsblk -d -o NAME,ROTA,SIZE,MODEL 2>/dev/null | tail -n +2 | awk '{$1=$1; print}' | paste -sd ';' -)"
  echo "- Kernel: $(uname -sr)"
  if [[ -n $server ]]; then
    echo "- Server: $("$server" --version 2>/dev/null | head -1 | sed 's#^.*/##') (the embedded MariaDB Cleave runs by default)"
  else
    echo "- Server: the one named in each table's header"
  fi
  echo "- JDK: $(java -version 2>&1 | head -1)"
  echo "- sysbench: $(sysbench --version)"
  echo "- Load average before the suite (\`uptime\`): $(uptime | sed 's/.*load average: //')"
} > "$machine"
bench splice --doc "$doc" --section machine --file "$machine"

status=0
bench proxy-overhead "${overhead[@]}" "${extra[@]}" --output "$results/proxy-overhead" --doc "$doc" || status=1
bench scaling --workload tpcc "${tpcc[@]}" "${extra[@]}" --output "$results/scaling-tpcc" --doc "$doc" || status=1
bench scaling --workload oltp_read_write,oltp_point_select "${sysb[@]}" "${extra[@]}" \
  --output "$results/scaling-sysbench" --doc "$doc" || status=1
bench cross-shard "${xshard[@]}" "${extra[@]}" --output "$results/cross-shard" --doc "$doc" || status=1
bench deadlocks "${dead[@]}" "${extra[@]}" --output "$results/deadlocks" --doc "$doc" || status=1
bench cuts "${cuts[@]}" "${extra[@]}" --output "$results/cuts" --doc "$doc" || status=1
bench accounts --workload oltp_point_select "${acct_sb[@]}" "${extra[@]}" --output "$results/accounts-sysbench" \
  --doc "$doc" || status=1
bench accounts --workload tpcc "${acct_tpcc[@]}" "${extra[@]}" --output "$results/accounts-tpcc" --doc "$doc" || status=1
bench connection-memory --counts "$conns" "${extra[@]}" --doc "$doc" || status=1
echo "results in $results; tables and charts spliced into $doc"
exit $status
