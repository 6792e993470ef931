#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench, after the VM run (inside the build root): tables, JSON and
# the chart from DIR/guest.log.   report.sh DIR
set -eu
dir=${1:-build/bench}
python3 "$(dirname "$0")/report.py" "$dir"
gnuplot -e "dir='$dir'" "$(dirname "$0")/chart.gp"
echo
echo "results: $dir/results.md, $dir/results.json, chart: $dir/bench.svg"
