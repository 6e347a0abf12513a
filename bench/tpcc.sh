#!/usr/bin/env bash
# The TPC-C harness on one target: bench/tpcc.sh load|run|check|chart [options] is
# bench/cleave-bench.sh tpcc load|run|check|chart [options].
exec "$(dirname "${BASH_SOURCE[0]}")/cleave-bench.sh" tpcc "$@"
