# SPDX-License-Identifier: GPL-2.0
# make bench's chart: ops/s per echo workload for each implementation,
# log scale (CUSE is orders of magnitude below the in-kernel drivers).
#   gnuplot -e "dir='build/bench'" selftests/bench/chart.gp
if (!exists("dir")) dir = "build/bench"
set terminal svg size 1100,520 dynamic font "sans,12" background rgb "white"
set output dir."/bench.svg"
set title "echo: ops/s per implementation (median of interleaved repetitions, one TCG guest boot)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set format y "10^{%L}"
set ylabel "operations per second (log)"
set grid ytics
set xtics rotate by -30 nomirror
set key top right horizontal
set yrange [*:*]
plot dir."/chart.dat" using 2:xtic(1) title "bpfdrv" lc rgb "#1f77b4", \
	'' using 3 title "native module" lc rgb "#2ca02c", \
	'' using 4 title "CUSE daemon" lc rgb "#d62728", \
	'' using 5 title "floor (/dev/zero, /dev/null)" lc rgb "#7f7f7f"
