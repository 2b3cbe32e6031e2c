set logscale xy
set grid
set key outside below center horizontal maxrows 4
set format x "10^{%L}"
set xlabel "mean absolute error at tend, all components (SciML :final)"
set ylabel "time (s, median)"
set title "fekete: work-precision, tol 1e-4:1e-9\nAMD EPYC, Cooperlake kernel, commit ce6cad0c0731, 2026-12-03T22:34:09Z" noenhanced
set terminal svg size 1000,700 dynamic enhanced font "sans,12" background rgb "white"
set output "fekete-final-mean.svg"
plot "fekete-final-mean.dat" index 0 using 1:2 with linespoints pointsize 1.3 linewidth 2 linecolor rgb "#E69F00" pointtype 7 dashtype 1 title "rodas5p" noenhanced, \
     "fekete-final-mean.dat" index 0 using 1:2:3:4 with yerrorbars linecolor rgb "#E69F00" dashtype 1 pointtype -1 notitle, \
     "fekete-final-mean.dat" index 1 using 1:2 with linespoints pointsize 1.3 linewidth 2 linecolor rgb "#56B4E9" pointtype 5 dashtype 1 title "rodas5p-suppressed" noenhanced, \
     "fekete-final-mean.dat" index 1 using 1:2:3:4 with yerrorbars linecolor rgb "#56B4E9" dashtype 1 pointtype -1 notitle, \
     "fekete-final-mean.dat" index 2 using 1:2 with linespoints pointsize 1.3 linewidth 2 linecolor rgb "#009E73" pointtype 9 dashtype 1 title "ida" noenhanced, \
     "fekete-final-mean.dat" index 2 using 1:2:3:4 with yerrorbars linecolor rgb "#009E73" dashtype 1 pointtype -1 notitle, \
     "fekete-final-mean.dat" index 3 using 1:2 with linespoints pointsize 1.3 linewidth 2 linecolor rgb "#0072B2" pointtype 11 dashtype 1 title "ida-core" noenhanced, \
     "fekete-final-mean.dat" index 3 using 1:2:3:4 with yerrorbars linecolor rgb "#0072B2" dashtype 1 pointtype -1 notitle, \
     "fekete-final-mean.dat" index 4 using 1:2 with linespoints pointsize 1.3 linewidth 2 linecolor rgb "#D55E00" pointtype 13 dashtype 1 title "ida-all-components (failed at tol 1e-08, 1e-09: convergence_failures)" noenhanced, \
     "fekete-final-mean.dat" index 4 using 1:2:3:4 with yerrorbars linecolor rgb "#D55E00" dashtype 1 pointtype -1 notitle
set terminal pngcairo size 1000,700 enhanced font "sans,11" background rgb "white"
set output "fekete-final-mean.png"
replot
