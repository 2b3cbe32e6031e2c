#include "outputs.hpp"

#include "scaling.hpp"
#include "summary_figure.hpp"

#include <sys/utsname.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "../build_info.hpp"
#include "../checked_file.hpp"
#include "../file_digest.hpp"
#include "../records.hpp"
#include "journal.hpp"
#include "version.hpp"

namespace daekit::host::wpd {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string number(double v) {
  if (!std::isfinite(v)) return "";
  std::ostringstream s;
  s << std::setprecision(10) << v;
  return s.str();
}


std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}


}  // namespace





double common_best_scd(const std::vector<PointResult>& rows, const std::string& instance) {
  std::map<std::string, double> best;
  for (const auto& r : rows)
    if (r.point.instance == instance && r.ok() && std::isfinite(r.scd)) {
      const auto [it, first] = best.try_emplace(r.point.setup, r.scd);
      if (!first) it->second = std::max(it->second, r.scd);
    }
  if (best.empty()) return std::numeric_limits<double>::quiet_NaN();
  double target = std::numeric_limits<double>::infinity();
  for (const auto& [setup, scd] : best) target = std::min(target, scd);
  return target;
}

std::map<std::string, double> times_to_reach(const std::vector<PointResult>& rows, const std::string& instance,
                                             const std::vector<std::string>& setups, double target) {
  std::map<std::string, double> time_to;
  for (const auto& setup : setups) {
    std::vector<const PointResult*> points;
    for (const auto& r : rows)
      if (r.point.instance == instance && r.point.setup == setup && r.ok() && std::isfinite(r.scd)) points.push_back(&r);
    std::sort(points.begin(), points.end(), [](auto* a, auto* b) { return a->scd < b->scd; });
    double t = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
      const auto *a = points[k], *b = points[k + 1];
      if (a->scd <= target && target <= b->scd && b->scd > a->scd) {
        // Linear in scd, logarithmic in time: the straight line of the log-log diagram.
        const double s = (target - a->scd) / (b->scd - a->scd);
        t = std::pow(10.0, std::log10(a->wall_median) + s * (std::log10(b->wall_median) - std::log10(a->wall_median)));
        break;
      }
    }
    if (std::isnan(t))
      for (const auto* p : points)
        if (p->scd >= target && (std::isnan(t) || p->wall_median < t)) t = p->wall_median;
    time_to[setup] = t;
  }
  return time_to;
}

static void csv_rows(std::ostream& out, const std::vector<PointResult>& rows) {
  out << "problem,solver,rtol,atol,status,message,runs,wall_median_s,wall_min_s,wall_max_s,steps,accepted,rejected,"
         "nfev,nfev_jac,njac,nlu,nsolve,nnewton,scd,mescd,final_error,l2,setup,host,final_mean,l2_steps,linf_steps,"
         "L2_dense,Linf_dense,instance,sens_error\n";
  for (const auto& r : rows) {
    if (r.status == "interrupted") continue;
    const dk_stats& s = r.stats;
    out << r.point.problem << "," << r.point.solver << "," << number(r.point.rtol) << "," << number(r.point.atol)
        << "," << r.status << "," << csv_field(r.message) << "," << r.runs << "," << number(r.wall_median) << ","
        << number(r.wall_min) << "," << number(r.wall_max) << "," << s.steps << "," << s.accepted << ","
        << s.rejected << "," << s.nfev << "," << s.nfev_jac << "," << s.njac << "," << s.nlu << "," << s.nsolve
        << "," << s.nnewton << "," << number(r.scd) << "," << number(r.mescd) << "," << number(r.final_error)
        << "," << number(r.l2) << "," << r.point.setup << "," << csv_field(r.host) << "," << number(r.final_mean)
        << "," << number(r.l2_steps) << "," << number(r.linf_steps) << "," << number(r.l2_dense) << ","
        << number(r.linf_dense) << "," << csv_field(r.point.instance) << "," << number(r.sens_error) << "\n";
  }
}

void write_csv(const std::string& file, const std::vector<PointResult>& rows) {
  write_file_checked(file, [&](std::ostream& out) { csv_rows(out, rows); });
}


void write_json(const std::string& file, const std::vector<PointResult>& rows, const SweepInfo& info,
                const loader::Registry& registry) {
  json meta;
  utsname u{};
  uname(&u);
  meta["machine"] = {{"system", std::string(u.sysname) + " " + u.release}, {"cpu", cpu_model()},
                     {"cores", sysconf(_SC_NPROCESSORS_ONLN)}};
  meta["build_type"] = DAEKIT_BUILD_TYPE;
  // Which commit, compiler, LAPACK and BLAS kernel made these timings (and these digits:
  // results move with the kernel, scripts/benchmarks/kernel-spread.py).
  meta["build"] = to_json(build_info());
  meta["command_line"] = info.command_line;
  meta["settings"] = info.settings;
  meta["date"] = now_utc();
  meta["daekit_version"] = DAEKIT_VERSION;
  meta["tolerances"] = info.tolerances;
  meta["error"] = info.error;
  meta["error_measures"] = json::array();
  for (Measure m : info.measures) meta["error_measures"].push_back(measure_name(m));
  if (!info.error_reference.empty()) meta["error_reference"] = info.error_reference;
  for (const auto& sweep : info.parameter_sweeps)
    meta["parameter_sweeps"].push_back(
        {{"problem", sweep.problem}, {"key", sweep.key}, {"values", sweep.values}, {"instances", sweep.labels}});
  meta["runs"] = info.runs;
  meta["jobs"] = info.jobs;
  meta["mpi_ranks"] = info.mpi_ranks;
  // Ranks on one machine share its cores as parallel jobs do; on separate machines they do not.
  meta["timings_comparable"] = info.jobs <= 1 && info.ranks_per_host <= 1;
  if (!info.reference.empty()) meta["l2_reference"] = info.reference;
  if (!info.final_reference.empty()) meta["final_reference"] = info.final_reference;
  if (!info.sens_reference.empty()) meta["sens_reference"] = info.sens_reference;
  json plugins = json::array();
  std::set<std::string> used(info.solvers.begin(), info.solvers.end());
  used.insert(info.problem_plugins.begin(), info.problem_plugins.end());
  for (const auto& p : registry.plugins())
    if (used.count(p.manifest.name))
      plugins.push_back({{"name", p.manifest.name}, {"kind", p.manifest.kind == DK_KIND_SOLVER ? "solver" : "problem"},
                         {"version", p.manifest.version}, {"file", p.file.filename().string()},
                         {"sha1", file_sha1(p.file.string())}, {"build", p.manifest.build_id}});
  meta["plugins"] = plugins;
  json out_rows = json::array();
  for (const auto& r : rows)
    if (r.status != "interrupted") out_rows.push_back(row_to_json(r));
  meta["complete"] = out_rows.size() == rows.size();
  const std::string text = json{{"meta", meta}, {"rows", out_rows}}.dump(2);
  write_file_checked(file, [&](std::ostream& out) { out << text << "\n"; });
}

namespace {

// A series' legend: failures stay visible, "ida (failed at tol 1e-09, 1e-10: convergence_failures)".
std::string series_title(const std::string& solver, bool none_ok, const std::vector<const PointResult*>& failed) {
  if (failed.empty()) return solver;
  std::map<std::string, std::vector<double>> by_status;
  for (const auto* f : failed) by_status[f->status].push_back(f->point.rtol);
  std::ostringstream t;
  t << solver << " (";
  bool first_status = true;
  for (const auto& [status, tols] : by_status) {
    t << (first_status ? "" : "; ");
    if (none_ok && by_status.size() == 1) {
      t << "all failed: " << status;
    } else {
      t << "failed at tol ";
      for (std::size_t k = 0; k < tols.size(); ++k) t << (k ? ", " : "") << tols[k];
      t << ": " << status;
    }
    first_status = false;
  }
  t << ")";
  return t.str();
}


}  // namespace

bool write_plots(const std::string& dir, const std::vector<PointResult>& rows, const SweepInfo& info,
                 std::ostream& log) {
  std::vector<std::string> scripts;
  // Where the numbers come from: the machine, the BLAS kernel, the commit, the date.
  const BuildInfo build = build_info();
  const std::string subtitle = build.cpu_model + ", " + (build.blas_kernel.empty() ? "" : build.blas_kernel + " kernel, ") +
                               "commit " + build.commit.substr(0, 12) + ", " + now_utc();
  std::vector<Panel> panels;  // the summary figure's: each problem's first measure against time
  for (const auto& problem : info.problems)
    for (const Measure metric : info.measures)
      for (const char* work : {"time", "nfev"}) {
        const std::string base = problem + "-" + diagram_tag(metric) + (std::string(work) == "nfev" ? "-nfev" : "");
        std::ostringstream data;
        std::ostringstream plot;
        bool first = true, any_valid = false;
        int index = 0, off_axis = 0;
        for (const auto& solver : info.setups) {
          std::vector<const PointResult*> ok, failed;
          for (const auto& r : rows)
            if (r.point.instance == problem && r.point.setup == solver)
              (r.ok() && std::isfinite(value_of(r, metric)) ? ok : failed).push_back(&r);
          std::sort(ok.begin(), ok.end(), [](auto* a, auto* b) { return a->point.rtol > b->point.rtol; });
          any_valid = any_valid || !ok.empty();
          const std::string title = series_title(solver, ok.empty(), failed);
          // In tolerance order, a failed point leaves a gap (a blank line), never a bridge.
          std::vector<const PointResult*> series;
          for (const auto& r : rows)
            if (r.point.instance == problem && r.point.setup == solver) series.push_back(&r);
          std::sort(series.begin(), series.end(), [](auto* a, auto* b) { return a->point.rtol > b->point.rtol; });
          const bool timing = std::string(work) == "time";
          data << "# " << solver << ": error, work, work min, work max\n";
          for (const auto* r : series) {
            const double err = value_of(*r, metric);
            if (!(r->ok() && std::isfinite(err))) {
              data << "\n";
              continue;
            }
            if (err > 1.0) ++off_axis;
            const double w = timing ? r->wall_median : static_cast<double>(r->stats.nfev);
            data << std::setprecision(10) << err << " " << w << " " << (timing ? r->wall_min : w) << " "
                 << (timing ? r->wall_max : w) << "\n";
          }
          if (ok.empty()) data << "NaN NaN NaN NaN\n";  // keeps the block, so the legend still names the solver
          data << "\n\n";
          plot << (first ? "plot " : ", \\\n     ") << "\"" << base << ".dat\" index " << index
               << " using 1:2 " << series_linespoints(index) << " title \""
               << gnuplot_string(title) << "\" noenhanced";
          // Min-max bars of the repeated runs (--runs > 1), without point symbols: gnuplot's
          // "pointsize 0" wrote them as scale(0) transforms, a singular matrix that SVG
          // renderers refuse (librsvg: InvalidMatrix).
          if (timing && info.runs > 1)
            plot << ", \\\n     \"" << base << ".dat\" index " << index << " using 1:2:3:4 with yerrorbars "
                 << series_line_style(index) << " pointtype -1 notitle";
          ++index;
          first = false;
        }
        write_file_checked((fs::path(dir) / (base + ".dat")).string(), [&](std::ostream& o) { o << data.str(); });
        const std::string xlabel = axis_label(metric);
        const std::string ylabel = std::string(work) == "nfev" ? "f evaluations" : "time (s, median)";
        std::ostringstream gp;
        // Below the plot, in columns: the data keep the width however many series there are.
        gp << figure_axes(true, true) << figure_legend() << "set xlabel \"" << xlabel << "\"\nset ylabel \"" << ylabel << "\"\n"
           << "set title \"" << gnuplot_string(problem) << ": work-precision, tol " << gnuplot_string(info.tolerances)
           << (off_axis ? " (" + std::to_string(off_axis) + (off_axis == 1 ? " point" : " points") +
                              " with error > 1 beyond the axis)"
                        : "")
           << "\\n" << gnuplot_string(subtitle) << "\" noenhanced\n"
           // A diverged point (error 1e15) must not squeeze the others into a corner.
           << (off_axis ? "set xrange [*:1]\n" : "")
           << (any_valid ? "" : "set xrange [1e-12:1]\nset yrange [1e-4:10]\nset label 1 \"no successful run\" at graph 0.4, 0.5\n")
               << svg_and_png(base, plot.str());
        write_file_checked((fs::path(dir) / (base + ".gp")).string(), [&](std::ostream& o) { o << gp.str(); });
        scripts.push_back(base + ".gp");
        if (metric == info.measures.front() && std::string(work) == "time")
          panels.push_back({problem, plot.str(), xlabel, off_axis > 0, !any_valid});
      }
  for (const auto& script : write_scaling(dir, rows, info, subtitle)) scripts.push_back(script);
  if (const std::string script = write_summary_figure(dir, panels, info, subtitle); !script.empty())
    scripts.push_back(script);
  return draw_scripts(dir, scripts, log, "wpd");
}

void print_summary(std::ostream& out, const std::vector<PointResult>& rows, const SweepInfo& info) {
  for (const auto& problem : info.problems) {
    // Target: the given scd, else the best scd that every solver with a success reached.
    const double target = info.target_scd > 0 ? info.target_scd : common_best_scd(rows, problem);
    if (std::isnan(target)) {
      out << problem << ": no successful run with a reference to compare at tend\n";
      continue;
    }
    const std::map<std::string, double> time_to = times_to_reach(rows, problem, info.setups, target);
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [s, t] : time_to)
      if (std::isfinite(t)) best = std::min(best, t);
    out << "\n" << problem << ": time to reach scd " << std::fixed << std::setprecision(2) << target
        << std::defaultfloat << " (interpolated on the log-log curve)\n";
    // The name column fits the longest setup name ("rodas5p-suppressed").
    int name_width = 14;
    for (const auto& solver : info.setups) name_width = std::max(name_width, static_cast<int>(solver.size()) + 2);
    out << "  " << std::left << std::setw(name_width) << "solver" << std::right << std::setw(12) << "time s" << std::setw(10)
        << "ratio" << "\n";
    for (const auto& solver : info.setups) {
      const double t = time_to.at(solver);
      out << "  " << std::left << std::setw(name_width) << solver << std::right;
      if (std::isfinite(t))
        out << std::setw(12) << std::setprecision(4) << t << std::setw(10) << std::setprecision(3) << t / best << "\n";
      else
        out << std::setw(12) << "not reached" << "\n";
    }
  }
  if (info.jobs > 1)
    out << "\nnote: points ran " << info.jobs << " at a time; timings taken in parallel are not comparable\n";
}

}  // namespace daekit::host::wpd
