#include "gnuplot.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace daekit::host {
namespace {

namespace fs = std::filesystem;

// gnuplot on a script in `dir`, without a shell (any --out path works), its messages in log.
int run_gnuplot(const fs::path& dir, const std::string& script, const fs::path& log) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (FILE* f = std::fopen(log.c_str(), "w")) {  // before chdir: log may be relative
      dup2(fileno(f), STDERR_FILENO);
      dup2(fileno(f), STDOUT_FILENO);
    }
    if (chdir(dir.c_str()) != 0) _exit(126);
    execlp("gnuplot", "gnuplot", script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The image of script X.gp (X.svg, X.png) that is not complete: an SVG without its
// closing tag, a PNG without its IEND chunk. "" when both are whole.
std::string incomplete_image(const std::string& dir, const std::string& script) {
  const std::string base = (fs::path(dir) / script.substr(0, script.size() - 3)).string();
  auto tail = [](const std::string& file, std::size_t count) {
    std::ifstream in(file, std::ios::binary | std::ios::ate);
    const auto size = static_cast<std::size_t>(std::max<std::streamoff>(in.tellg(), 0));
    std::string bytes(std::min(size, count), '\0');
    in.seekg(static_cast<std::streamoff>(size - bytes.size()));
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return bytes;
  };
  if (tail(base + ".svg", 64).find("</svg>") == std::string::npos) return base + ".svg";
  if (const std::string end = tail(base + ".png", 8); end.size() < 8 || end.compare(0, 4, "IEND") != 0)
    return base + ".png";
  return "";
}

}  // namespace

std::string gnuplot_string(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// Series styles: the first 8 colours are Okabe and Ito's colour-blind-safe palette, each
// with its own marker; series 9-16 repeat the colours dashed, with other markers, so 16
// series are pairwise distinct in colour and dash, and markers tell them apart in grey.
std::string series_line_style(int k) {
  static const char* colours[8] = {"#E69F00", "#56B4E9", "#009E73", "#0072B2",
                                   "#D55E00", "#CC79A7", "#000000", "#F0E442"};
  std::ostringstream style;
  style << "linecolor rgb \"" << colours[k % 8] << "\" dashtype " << (k % 16 < 8 ? 1 : 2);
  return style.str();
}

std::string series_style(int k) {
  static const int markers[16] = {7, 5, 9, 11, 13, 15, 4, 6, 1, 2, 3, 8, 10, 12, 14, 16};
  return series_line_style(k) + " pointtype " + std::to_string(markers[k % 16]);
}

std::string series_linespoints(int k) { return "with linespoints pointsize 1.3 linewidth 2 " + series_style(k); }

std::string figure_axes(bool log_x, bool log_y) {
  std::string axes = "set grid\n";
  for (const auto& [log, axis] : {std::pair{log_x, "x"}, std::pair{log_y, "y"}})
    if (log) axes += std::string("set logscale ") + axis + "\nset format " + axis + " \"10^{%T}\"\n";
  return axes;
}

std::string figure_legend() { return "set key outside below center horizontal maxrows 4\n"; }

std::size_t legend_rows(std::size_t series) { return (series + 5) / 6; }

std::string legend_only(const std::vector<std::string>& titles) {
  std::ostringstream legend;
  legend << "unset border\nunset tics\nunset grid\nunset xlabel\nunset ylabel\nunset title\n"
         << "unset logscale\nset xrange [0:1]\nset yrange [0:1]\n"
         << "set key center center horizontal maxrows " << legend_rows(titles.size()) << "\n";
  for (std::size_t k = 0; k < titles.size(); ++k)
    legend << (k ? ", \\\n     " : "plot ") << "NaN " << series_linespoints(static_cast<int>(k)) << " title \""
           << gnuplot_string(titles[k]) << "\" noenhanced";
  legend << "\n";
  return legend.str();
}

std::string svg_and_png(const std::string& base, const std::string& plot) {
  return "set terminal svg size 1000,700 dynamic enhanced font \"sans,12\" background rgb \"white\"\n"
         "set output \"" + base + ".svg\"\n" + plot +
         "\n"
         "set terminal pngcairo size 1000,700 enhanced font \"sans,11\" background rgb \"white\"\n"
         "set output \"" + base + ".png\"\nreplot\n";
}

// Runs gnuplot on each script in `dir`: false when one failed or wrote an incomplete image;
// a missing gnuplot is a warning (the data and scripts are written), not a failure.
bool draw_scripts(const std::string& dir, const std::vector<std::string>& scripts, std::ostream& log, const std::string& command) {
  if (run_gnuplot(dir, "--version", fs::path(dir) / ".gnuplot-version.log") != 0) {
    std::error_code ec;
    fs::remove(fs::path(dir) / ".gnuplot-version.log", ec);
    log << "daekit " << command << ": gnuplot not found, so no SVG/PNG diagrams were drawn; install it with "
           "'apt-get install gnuplot-nox' and run 'gnuplot <file>.gp' in "
        << dir << " (the data and scripts are there)\n";
    return true;  // not a failure of the command: everything else is written
  }
  {
    std::error_code ec;
    fs::remove(fs::path(dir) / ".gnuplot-version.log", ec);
  }
  bool ok = true;
  for (const auto& s : scripts) {
    const fs::path messages = fs::path(dir) / (s + ".log");
    if (run_gnuplot(dir, s, messages) != 0) {
      log << "daekit " << command << ": gnuplot failed on " << (fs::path(dir) / s).string() << " (see " << s << ".log)\n";
      ok = false;
    } else if (const std::string incomplete = incomplete_image(dir, s); !incomplete.empty()) {
      // gnuplot says nothing when its output is cut short (a full disk).
      log << "daekit " << command << ": gnuplot wrote an incomplete " << incomplete << " (a full disk?)\n";
      ok = false;
    } else if (std::error_code ec; fs::is_empty(messages, ec) && !ec) {
      fs::remove(messages, ec);  // keep the log only when gnuplot had something to say
    }
  }
  return ok;
}

}  // namespace daekit::host
