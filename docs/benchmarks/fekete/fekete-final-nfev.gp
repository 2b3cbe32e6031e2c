set logscale xy
set grid
set key outside right top
set format x "10^{%L}"
set xlabel "error at tend (max relative, scored components)"
set ylabel "f evaluations"
set title "fekete: work-precision, tol 1e-4:1e-10" noenhanced
set terminal svg size 1000,600 dynamic enhanced font "sans,12" background rgb "white"
set output "fekete-final-nfev.svg"
plot "fekete-final-nfev.dat" index 0 with linespoints pointsize 1.3 linewidth 2 title "radau5" noenhanced, \
     "fekete-final-nfev.dat" index 1 with linespoints pointsize 1.3 linewidth 2 title "radauiia" noenhanced, \
     "fekete-final-nfev.dat" index 2 with linespoints pointsize 1.3 linewidth 2 title "rodas5p" noenhanced, \
     "fekete-final-nfev.dat" index 3 with linespoints pointsize 1.3 linewidth 2 title "rodas5" noenhanced, \
     "fekete-final-nfev.dat" index 4 with linespoints pointsize 1.3 linewidth 2 title "rodas4p2" noenhanced, \
     "fekete-final-nfev.dat" index 5 with linespoints pointsize 1.3 linewidth 2 title "rodas4p" noenhanced, \
     "fekete-final-nfev.dat" index 6 with linespoints pointsize 1.3 linewidth 2 title "rodas4" noenhanced, \
     "fekete-final-nfev.dat" index 7 with linespoints pointsize 1.3 linewidth 2 title "rodas42" noenhanced, \
     "fekete-final-nfev.dat" index 8 with linespoints pointsize 1.3 linewidth 2 title "rodas3" noenhanced, \
     "fekete-final-nfev.dat" index 9 with linespoints pointsize 1.3 linewidth 2 title "ros34pw2 (all failed: unsupported_problem)" noenhanced, \
     "fekete-final-nfev.dat" index 10 with linespoints pointsize 1.3 linewidth 2 title "ros3p" noenhanced, \
     "fekete-final-nfev.dat" index 11 with linespoints pointsize 1.3 linewidth 2 title "rosenbrock23" noenhanced, \
     "fekete-final-nfev.dat" index 12 with linespoints pointsize 1.3 linewidth 2 title "bdf" noenhanced, \
     "fekete-final-nfev.dat" index 13 with linespoints pointsize 1.3 linewidth 2 title "ndf" noenhanced, \
     "fekete-final-nfev.dat" index 14 with linespoints pointsize 1.3 linewidth 2 title "ida" noenhanced, \
     "fekete-final-nfev.dat" index 15 with linespoints pointsize 1.3 linewidth 2 title "cvode (all failed: unsupported_problem)" noenhanced
set terminal pngcairo size 1000,600 enhanced font "sans,11" background rgb "white"
set output "fekete-final-nfev.png"
replot
