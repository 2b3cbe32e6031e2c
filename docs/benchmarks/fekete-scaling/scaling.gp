set terminal svg size 800,560 dynamic
set output 'fekete-scaling.svg'
set logscale xy
set xlabel 'particles N (8N unknowns)'
set ylabel 'time to scd 6 (s)'
set title 'Fekete: cost growth with the particle count'
set key left top
set grid
plot 'scaling.dat' using 1:2 with linespoints title 'bdf', 'scaling.dat' using 1:3 with linespoints title 'ndf', 'scaling.dat' using 1:4 with linespoints title 'rodas5p', 'scaling.dat' using 1:5 with linespoints title 'rodas4p2', 'scaling.dat' using 1:6 with linespoints title 'radau5', 'scaling.dat' using 1:7 with linespoints title 'radauiia', 'scaling.dat' using 1:8 with linespoints title 'ida'
set terminal pngcairo size 800,560
set output 'fekete-scaling.png'
replot
