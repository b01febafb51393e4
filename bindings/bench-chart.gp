# bench-chart.gp: draws the bindings' benchmark results (bindings/node/bench/chart.js and
# bindings/python/bench/chart.py write the data and call this) as an SVG of horizontal bars,
# one panel per tree and mode, frd's bars dark.
#
# gnuplot -e "data='D.tsv'; titles='T.txt'; heading='...'; out='C.svg'" bench-chart.gp
#   D.tsv:    one block per panel (blocks separated by two blank lines), one line per
#             contender: label <TAB> median ms <TAB> 1 for frd, 0 otherwise
#   T.txt:    one line per panel: its title
#   heading:  the chart's title

npanels = int(system(sprintf("wc -l < '%s'", titles)))
rows = int(system(sprintf("grep -c . '%s'", data)))
set terminal svg size 900, 120 + 26 * rows + 70 * npanels dynamic noenhanced font "sans,11" background rgb "white"
set output out
set datafile separator "\t"
set style fill solid 1.0 noborder
set multiplot layout npanels, 1 title heading noenhanced font "sans,14"
set lmargin 34
set rmargin 12
unset key
set grid xtics lc rgb "#dddddd"
set xlabel "median ms (shorter is faster)" offset 0, 0.5
do for [i = 0:npanels - 1] {
    set title system(sprintf("sed -n %dp '%s'", i + 1, titles)) font "sans,12"
    set autoscale xy
    stats data index i using 2 nooutput
    set xrange [0:STATS_max * 1.18]
    set yrange [STATS_records - 0.5:-0.5]
    plot data index i using (0):0:(0):2:($0 - 0.38):($0 + 0.38):($3 > 0.5 ? 0x1f4e79 : 0x9db9d5):ytic(1) \
             with boxxyerror lc rgb variable, \
         data index i using 2:0:(sprintf(" %.0f", $2)) with labels left font "sans,10"
}
unset multiplot
