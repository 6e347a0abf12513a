#!/usr/bin/env bash
# Backup and restore throughput of each engine on the same data, and how long a backup keeps its
# snapshots open per GB: a home of 2 shards with one sharded table of sysbench-like rows (about 200
# bytes each, a secondary index) loaded through the proxy, then 'cleave backup --engine E --wait
# --json' to a directory and 'cleave restore' of it into a new home with 2 shards, each timed, for
# each engine in ENGINES. Prints one line of figures per engine and the load average during the run.
# MB/s are of the rows' data (what the logical engine reads) for every engine, so they compare.
#
#   bench/backup.sh [ROWS] [WORKDIR]      ROWS default 1000000; WORKDIR default a new /tmp directory
#   SERVER=$(scripts/debian-mariadb) ENGINES="logical physical" bench/backup.sh 200000
#                                         the physical engine needs a server with its mariadb-backup
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rows=${1:-1000000}
work=${2:-$(mktemp -d /tmp/cleave-bench-backup-XXXXXX)}
chmod 711 "$work" # searchable: a root daemon's shards run as server.os_user
jar="$top/manager/target/cleave.jar"
engines=(${ENGINES:-logical})
[[ -f $jar ]] || { echo "build first: mvn -q -DskipTests package" >&2; exit 2; }
base=$(python3 - <<'PY'
import random, socket
for _ in range(200):
    base = random.randint(20000, 50000)
    try:
        for p in range(base, base + 12):
            with socket.socket() as s:
                s.bind(("127.0.0.1", p))
        print(base); break
    except OSError:
        pass
PY
)
half=$((rows / 2))
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
EOF
home="$work/home"
cleave() { java -jar "$jar" "$@"; }
cleanup() { cleave down --home "$home" >/dev/null 2>&1 || true; }
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
read -r load1 _ </proc/loadavg
declare -A took
for e in "${engines[@]}"; do
  t0=$(date +%s.%N)
  cleave backup --home "$home" --to "$work/backups" --engine "$e" --wait --json >"$work/backup-$e.json"
  took[$e]=$(python3 -c "print($(date +%s.%N) - $t0)")
done
cleave down --home "$home" >/dev/null
rows_bytes=""
for e in "${engines[@]}"; do
  id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$work/backup-$e.json")
  t1=$(date +%s.%N)
  cleave restore --home "$work/restored-$e" --config "$work/cleave.yaml" --from "$work/backups" --backup "$id" \
    >"$work/restore-$e.out"
  t2=$(date +%s.%N)
  read -r load2 _ </proc/loadavg
  python3 - "$work/backup-$e.json" "${took[$e]}" "$(python3 -c "print($t2 - $t1)")" "$load1" "$load2" "$(nproc)" \
    "$work/backup-${engines[0]}.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1])); backup, restore = float(sys.argv[2]), float(sys.argv[3])
first = json.load(open(sys.argv[7]))
rows, data = first["rowsRead"], first["bytesRead"]  # the rows' data, as the first engine's backup read it
gb = b["bytesRead"] / 1e9
print(f"{b['engine']}: rows {rows:,}  data {data/1e6:.0f} MB  copied {b['bytesRead']/1e6:.0f} MB"
      f"  stored {b['storedBytes']/1e6:.0f} MB  backup {backup:.1f} s ({data/1e6/backup:.1f} MB/s of rows,"
      f" {rows/backup:,.0f} rows/s)  snapshots open {b['snapshotMillis']/1000:.1f} s"
      f" ({b['snapshotMillis']/1000/gb:.0f} s per GB copied)  history list {b['historyLength']}"
      f"  restore {restore:.1f} s ({data/1e6/restore:.1f} MB/s, {rows/restore:,.0f} rows/s)"
      f"  load average {sys.argv[4]} before, {sys.argv[5]} after on {sys.argv[6]} CPUs")
PY
done
echo "(work directory $work)"
