#!/usr/bin/env bash
# Proxy overhead: sysbench against one shard directly and through the Cleave proxy, alternating in
# one run, each repeated. Reports the throughput ratio (proxy / direct), the proxy's CPU time per
# query, and the shard's CPU time per query both ways (a proxy that makes the server work harder is
# not free). CPU times come from /proc/<pid>/stat (user + system) over each measured run.
#
#   bench/proxy-overhead.sh [--workload oltp_point_select] [--threads 8] [--time 20] [--rounds 3]
#                           [--tables 4] [--table-size 100000] [--ps-mode auto|disable]
#                           [--proxy-socket] [--output bench/results]
#
# Starts its own daemon with config/single.yaml (one shard, every table unsharded) in a fresh
# home under /tmp, on free ports, and stops it at the end. Needs sysbench (apt-get install
# sysbench) and the built jar (mvn -q -DskipTests package).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top="$(cd "$here/.." && pwd)"

workload=oltp_point_select threads=8 time=20 rounds=3 tables=4 table_size=100000 ps_mode=auto
output="$here/results" proxy_socket=0
while (($#)); do
  case "$1" in
    --workload) workload=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --time) time=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --tables) tables=$2; shift 2 ;;
    --table-size) table_size=$2; shift 2 ;;
    --ps-mode) ps_mode=$2; shift 2 ;;
    --proxy-socket) proxy_socket=1; shift ;;
    --output) output=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
command -v sysbench >/dev/null || { echo "sysbench is missing: apt-get install sysbench" >&2; exit 2; }
jar="$top/manager/target/cleave.jar"
[[ -f $jar ]] || (cd "$top" && mvn -B -q -DskipTests package)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
home=$(mktemp -d /tmp/cleave-bench-XXXXXX)
proxy_port=$(free_port) admin_port=$(free_port) base_port=$(free_port)
cat > "$home/cleave.yaml" <<YAML
shards: 1
server: { binary: auto, base_port: $base_port }
buffer_pool: 1G
proxy:
  listen: 127.0.0.1:$proxy_port
  users: [ { name: root, password: "" } ]
admin: { port: $admin_port }
YAML
cleanup() { java -jar "$jar" down --home "$home" >/dev/null 2>&1 || true; rm -rf "$home"; }
trap cleanup EXIT
java -jar "$jar" up --config "$home/cleave.yaml" --home "$home" --detach >/dev/null
for _ in $(seq 100); do
  mysql -h127.0.0.1 -P"$proxy_port" -uroot -e 'SELECT 1' >/dev/null 2>&1 && break
  sleep 0.2
done

daemon_pid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pid"])' "$home/state/daemon.json")
shard_pid=$(cat "$home/run/shard-0.pid")
secret=$(cat "$home/state/shard-secret")
hz=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

proxy_target=(--mysql-host=127.0.0.1 --mysql-port="$proxy_port" --mysql-user=root)
((proxy_socket)) && proxy_target=(--mysql-socket="$home/run/proxy.sock" --mysql-user=root)
direct_target=(--mysql-host=127.0.0.1 --mysql-port="$base_port" --mysql-user=cleave --mysql-password="$secret")
common=(--tables="$tables" --table-size="$table_size" --db-ps-mode="$ps_mode" --mysql-db=sbtest)

mysql -h127.0.0.1 -P"$proxy_port" -uroot -e 'CREATE DATABASE IF NOT EXISTS sbtest'
sysbench "$workload" "${proxy_target[@]}" "${common[@]}" --threads=4 prepare >/dev/null

# One measured sysbench run: prints "queries cpu_proxy_us cpu_shard_us".
measure() {
  local -a target=("$@")
  local p0 s0 p1 s1 out queries
  p0=$(cpu_ticks "$daemon_pid"); s0=$(cpu_ticks "$shard_pid")
  out=$(sysbench "$workload" "${target[@]}" "${common[@]}" --threads="$threads" --time="$time" run)
  p1=$(cpu_ticks "$daemon_pid"); s1=$(cpu_ticks "$shard_pid")
  queries=$(awk '/queries:/ {print $2; exit}' <<<"$out")
  errors=$(awk '/ignored errors:/ {print $3; exit}' <<<"$out")
  [[ ${errors:-0} == 0 ]] || { echo "sysbench reported $errors errors" >&2; exit 1; }
  echo "$queries $(( (p1 - p0) * 1000000 / hz )) $(( (s1 - s0) * 1000000 / hz ))"
}

# Warm the buffer pool and the JIT both ways before anything counts.
measure "${direct_target[@]}" >/dev/null
measure "${proxy_target[@]}" >/dev/null

mkdir -p "$output"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
tsv="$output/proxy-overhead-$workload-$stamp.tsv"
echo -e "round\ttarget\tqueries\tqps\tproxy_cpu_us\tshard_cpu_us" > "$tsv"
for r in $(seq "$rounds"); do
  for target in direct proxy; do
    if [[ $target == direct ]]; then read -r q pc sc < <(measure "${direct_target[@]}")
    else read -r q pc sc < <(measure "${proxy_target[@]}"); fi
    echo -e "$r\t$target\t$q\t$((q / time))\t$pc\t$sc" >> "$tsv"
  done
done

python3 - "$tsv" "$workload" "$threads" "$time" "$rounds" "$ps_mode" "$proxy_socket" <<'PY'
import csv, sys, statistics
path, workload, threads, secs, rounds, ps_mode, sock = sys.argv[1:]
rows = list(csv.DictReader(open(path), delimiter="\t"))
def pick(t): return [r for r in rows if r["target"] == t]
d, p = pick("direct"), pick("proxy")
ratios = [int(b["queries"]) / int(a["queries"]) for a, b in zip(d, p)]
def per_query(rs, col): return [int(r[col]) / int(r["queries"]) for r in rs]
print(f"workload {workload}, {threads} threads, {secs} s x {rounds} rounds, ps-mode {ps_mode}, "
      f"client -> proxy over {'Unix socket' if sock == '1' else 'TCP'}")
print(f"{'round':>5} {'direct qps':>11} {'proxy qps':>10} {'ratio':>6} {'proxy us/q':>11} "
      f"{'shard us/q direct':>18} {'shard us/q proxy':>17}")
for i, (a, b) in enumerate(zip(d, p), 1):
    print(f"{i:>5} {int(a['qps']):>11} {int(b['qps']):>10} {ratios[i-1]:>6.2f} "
          f"{int(b['proxy_cpu_us'])/int(b['queries']):>11.1f} "
          f"{int(a['shard_cpu_us'])/int(a['queries']):>18.1f} {int(b['shard_cpu_us'])/int(b['queries']):>17.1f}")
med = statistics.median
print(f"median ratio {med(ratios):.2f}; proxy CPU {med(per_query(p, 'proxy_cpu_us')):.1f} us/query; "
      f"shard CPU {med(per_query(d, 'shard_cpu_us')):.1f} us/query direct, "
      f"{med(per_query(p, 'shard_cpu_us')):.1f} us/query through the proxy")
print(f"raw figures: {path}")
PY
