set logscale xy
set grid
set key outside right top
set format x "10^{%L}"
set xlabel "error at tend (max relative, scored components)"
set ylabel "time (s, median)"
set title "crank17: work-precision, tol 1e-4:1e-9" noenhanced
set terminal svg size 1000,600 dynamic enhanced font "sans,12" background rgb "white"
set output "crank17-final.svg"
plot "crank17-final.dat" index 0 with linespoints pointsize 1.3 linewidth 2 title "bdf" noenhanced, \
     "crank17-final.dat" index 1 with linespoints pointsize 1.3 linewidth 2 title "ndf" noenhanced, \
     "crank17-final.dat" index 2 with linespoints pointsize 1.3 linewidth 2 title "ida (failed at tol 1e-08, 1e-09: convergence_failures)" noenhanced, \
     "crank17-final.dat" index 3 with linespoints pointsize 1.3 linewidth 2 title "radau5 (all failed: unsupported_problem)" noenhanced
set terminal pngcairo size 1000,600 enhanced font "sans,11" background rgb "white"
set output "crank17-final.png"
replot
