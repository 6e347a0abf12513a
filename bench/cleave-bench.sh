#!/usr/bin/env bash
# Runs the benchmark harness: bench/cleave-bench.sh tpcc|proxy-overhead|scaling|cross-shard|deadlocks|cuts|report|splice [options];
# --help lists the commands, `<command> --help` their options. Builds bench/target/cleave-bench.jar and
# manager/target/cleave.jar first when either is missing (BENCH_REBUILD=1 forces a build).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top="$(cd "$here/.." && pwd)"
jar="$here/target/cleave-bench.jar"
if [[ ! -f "$jar" || ! -f "$top/manager/target/cleave.jar" || "${BENCH_REBUILD:-0}" == "1" ]]; then
  (cd "$top" && mvn -B -q -pl manager,bench -am package -DskipTests) >&2
fi
# shellcheck disable=SC2086 # JAVA_OPTS is a list of JVM flags
exec java -Djava.awt.headless=true ${JAVA_OPTS:-} -jar "$jar" "$@"
