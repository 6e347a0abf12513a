#!/usr/bin/env bash
# Backup and restore throughput of each engine and each location on the same data, and how long a
# backup keeps its snapshots open per GB: a home of 2 shards with one sharded table of sysbench-like
# rows (about 200 bytes each, a secondary index) loaded through the proxy, then 'cleave backup
# --engine E --to L --wait --json' and 'cleave restore' of it into a new home with 2 shards, each
# timed, for each engine in ENGINES and each location in LOCATIONS. Prints one line of figures per
# engine and location, with the share of the host's CPU other processes used during each step.
# MB/s are of the rows' data (what the logical engine reads) for every engine, so they compare.
#
#   bench/backup.sh [ROWS] [WORKDIR]      ROWS default 1000000; WORKDIR default a new /tmp directory
#   SERVER=$(scripts/debian-mariadb) ENGINES="logical physical" bench/backup.sh 200000
#                                         the physical engine needs a server with its mariadb-backup
#   LOCATIONS="dir s3" bench/backup.sh    also to S3: moto's server (python3 -m moto.server, which
#                                         scripts/test installs) on loopback, as the e2e tests run it
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rows=${1:-1000000}
work=${2:-$(mktemp -d /tmp/cleave-bench-backup-XXXXXX)}
chmod 711 "$work" # searchable: a root daemon's shards run as server.os_user
jar="$top/manager/target/cleave.jar"
engines=(${ENGINES:-logical})
locations=(${LOCATIONS:-dir})
[[ -f $jar ]] || { echo "build first: mvn -q -DskipTests package" >&2; exit 2; }
base=$(python3 - <<'PY'
import random, socket
for _ in range(200):
    base = random.randint(20000, 50000)
    try:
        for p in range(base, base + 13):
            with socket.socket() as s:
                s.bind(("127.0.0.1", p))
        print(base); break
    except OSError:
        pass
PY
)
half=$((rows / 2))
s3_yaml=""
moto_pid=""
if [[ " ${locations[*]} " == *" s3 "* ]]; then
  # moto keeps objects in memory: the S3 location's bytes go through its HTTP server, not a disk.
  python3 -m moto.server -H 127.0.0.1 -p $((base + 12)) >"$work/moto.log" 2>&1 &
  moto_pid=$!
  for _ in $(seq 60); do curl -sf -o /dev/null "http://127.0.0.1:$((base + 12))/" && break; sleep 1; done
  curl -sf -X PUT -o /dev/null "http://127.0.0.1:$((base + 12))/backups" \
    || { echo "moto's server did not start: $(cat "$work/moto.log")" >&2; exit 2; }
  export AWS_ACCESS_KEY_ID=cleave-bench AWS_SECRET_ACCESS_KEY=cleave-bench-secret
  s3_yaml="backup: { s3: { endpoint: \"http://127.0.0.1:$((base + 12))\" } }"
fi
location() { if [[ $1 == s3 ]]; then echo "s3://backups/bench"; else echo "$work/backups"; fi; }
cat >"$work/cleave.yaml" <<EOF
shards: 2
server: { base_port: $base, binary: "${SERVER:-auto}" }
buffer_pool: 512M
proxy:
  listen: 127.0.0.1:$((base + 10))
  users: [ { name: root, password: "" } ]
admin: { port: $((base + 11)) }
sharding:
  keyspaces: [ { name: k, function: range, ranges: [ { from: 1, to: $half, shard: 0 }, { from: $((half + 1)), shard: 1 } ] } ]
  tables: [ { name: sbtest1, keyspace: k, column: id } ]
$s3_yaml
EOF
home="$work/home"
cleave() { java -jar "$jar" "$@"; }
cleanup() { cleave down --home "$home" >/dev/null 2>&1 || true; [[ -z $moto_pid ]] || kill "$moto_pid" 2>/dev/null || true; }
trap cleanup EXIT
cleave up --home "$home" --config "$work/cleave.yaml" --detach >/dev/null
for _ in $(seq 60); do
  mariadb -h127.0.0.1 -P$((base + 10)) -uroot -e 'SELECT 1' >/dev/null 2>&1 && break
  sleep 1
done
sql() { mariadb -h127.0.0.1 -P$((base + 10)) -uroot "$@"; }
sql -e "CREATE DATABASE bench; CREATE TABLE bench.sbtest1 (id INT PRIMARY KEY, k INT NOT NULL,
  c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL, KEY k_1 (k))"
python3 - "$rows" <<'PY' | sql bench
import random, sys
rows = int(sys.argv[1]); r = random.Random(7)
def s(n): return str(r.getrandbits(4 * n)).rjust(n, '0')[:n]
for start in range(1, rows + 1, 1000):
    print("INSERT INTO sbtest1 VALUES " + ",".join(
        f"({i},{r.randint(1, rows)},'{s(120)}','{s(60)}')" for i in range(start, min(rows, start + 999) + 1)) + ";")
PY
# CPU meters. 'ticks PID...': the host's busy and total ticks, and those of the processes given and
# their descendants alive now. 'metered NAME CMD...' runs CMD (its output in NAME.cpu.out) and keeps its wall
# seconds, the host's busy seconds, and ours: CMD's with the descendants it waited for, the running
# daemon's tree and moto's. The rest is what other processes used meanwhile.
ticks() {
  python3 - "$@" <<'PY'
import os, sys
roots = {int(p) for p in sys.argv[1:] if p}
cpu = open('/proc/stat').readline().split()[1:]
busy = sum(int(x) for x in cpu[:8]) - int(cpu[3]) - int(cpu[4])  # user .. steal, as HostCpu counts it
total = busy + int(cpu[3]) + int(cpu[4])
procs = {}
for d in os.listdir('/proc'):
    if d.isdigit():
        try:
            s = open(f'/proc/{d}/stat').read()
            f = s[s.rindex(')') + 2:].split()
            procs[int(d)] = (int(f[1]), int(f[11]) + int(f[12]))
        except (OSError, ValueError):
            pass
def ours(p):
    while p > 1:
        if p in roots:
            return True
        p = procs.get(p, (0, 0))[0]
    return False
print(busy, total, sum(t for p, (_, t) in procs.items() if ours(p)))
PY
}
daemon_pid() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pid"])' "$home/state/daemon.json" 2>/dev/null || true; }
metered() {
  local name=$1 pids b0 t0 o0 b1 t1 o1
  shift
  pids="$(daemon_pid) $moto_pid"
  read -r b0 t0 o0 < <(ticks $pids)
  python3 - "$work/$name.cpu" "$@" <<'PY'
import resource, subprocess, sys, time
t = time.time()
code = subprocess.call(sys.argv[2:], stdout=open(sys.argv[1] + '.out', 'w'))
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], 'w').write(f"{time.time() - t} {r.ru_utime + r.ru_stime}\n")
sys.exit(code)
PY
  read -r b1 t1 o1 < <(ticks $pids)
  echo "$((b1 - b0)) $((t1 - t0)) $((o1 - o0))" >>"$work/$name.cpu"
}
read -r load1 _ </proc/loadavg
for l in "${locations[@]}"; do
  for e in "${engines[@]}"; do
    metered "backup-$l-$e" java -jar "$jar" backup --home "$home" --to "$(location "$l")" --engine "$e" --wait --json
  done
done
cleave down --home "$home" >/dev/null
for l in "${locations[@]}"; do
  for e in "${engines[@]}"; do
    id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$work/backup-$l-$e.cpu.out")
    metered "restore-$l-$e" java -jar "$jar" restore --home "$work/restored-$l-$e" --config "$work/cleave.yaml" \
      --from "$(location "$l")" --backup "$id"
    read -r load2 _ </proc/loadavg
    python3 - "$work/backup-$l-$e" "$work/restore-$l-$e" "$l" "$load1" "$load2" \
      "$work/backup-${locations[0]}-${engines[0]}.cpu.out" <<'PY'
import json, sys
def step(prefix):
    lines = open(prefix + '.cpu').read().split('\n')
    wall, cmd = map(float, lines[0].split())
    busy, total, ours = map(float, lines[1].split())
    others = max(0.0, busy / 100 - ours / 100 - cmd)
    return wall, 100 * others / (total / 100)
b = json.load(open(sys.argv[1] + '.cpu.out'))
first = json.load(open(sys.argv[6]))
rows, data = first["rowsRead"], first["bytesRead"]  # the rows' data, as the first backup read it
backup, others_b = step(sys.argv[1])
restore, others_r = step(sys.argv[2])
gb = b["bytesRead"] / 1e9
print(f"{b['engine']} to {sys.argv[3]}: rows {rows:,}  data {data/1e6:.0f} MB  copied {b['bytesRead']/1e6:.0f} MB"
      f"  stored {b['storedBytes']/1e6:.0f} MB  backup {backup:.1f} s ({data/1e6/backup:.1f} MB/s of rows,"
      f" {rows/backup:,.0f} rows/s; others {others_b:.0f}% of the host's CPU)  snapshots open"
      f" {b['snapshotMillis']/1000:.1f} s ({b['snapshotMillis']/1000/gb:.0f} s per GB copied)  history list"
      f" {b['historyLength']}  restore {restore:.1f} s ({data/1e6/restore:.1f} MB/s, {rows/restore:,.0f} rows/s;"
      f" others {others_r:.0f}% of the host's CPU)  load average {sys.argv[4]} before, {sys.argv[5]} after")
PY
  done
done
echo "(work directory $work)"
