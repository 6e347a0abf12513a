#!/usr/bin/env bash
# Runs the TPC-C harness: bench/tpcc.sh load|run|check|chart [options]; --help lists them.
# Builds bench/target/cleave-bench.jar first when it is missing (TPCC_REBUILD=1 forces a build).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/target/cleave-bench.jar"
if [[ ! -f "$jar" || "${TPCC_REBUILD:-0}" == "1" ]]; then
  (cd "$here/.." && mvn -B -q -pl bench -am package -DskipTests) >&2
fi
# shellcheck disable=SC2086 # JAVA_OPTS is a list of JVM flags
exec java -Djava.awt.headless=true ${JAVA_OPTS:-} -jar "$jar" "$@"
