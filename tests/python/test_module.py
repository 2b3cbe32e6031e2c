"""The Python module as a notebook user meets it: plugin problems and problems written in
Python on every solver, exceptions from callbacks, dense output, and wpd rows."""
import json
import math
import os
import re
import traceback

import numpy as np
import pytest

import daekit


def rober_rhs(t, y):
    return np.array([-0.04 * y[0] + 1e4 * y[1] * y[2],
                     0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
                     y[0] + y[1] + y[2] - 1.0])


def rober_jac(t, y):
    return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                     [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                     [1.0, 1.0, 1.0]])


def test_lists_and_info():
    assert {"rodas5p", "radauiia", "bdf", "ida", "cvode"} <= set(daekit.solvers())
    assert {"rober", "fekete", "hires"} <= set(daekit.problems())
    assert daekit.info("radauiia")["kind"] == "solver"
    assert daekit.info("fekete")["n"] == 160
    with pytest.raises(daekit.UsageError, match="did you mean 'radauiia'"):
        daekit.info("radauiaa")


@pytest.mark.parametrize("solver", daekit.solvers())
def test_every_solver_on_rober(solver, run_cli):
    r = daekit.solve("rober", solver, rtol=1e-6, atol=1e-10, every_step=False)
    assert r.status == "success", r.message
    assert r.t[-1] == pytest.approx(1e11)
    assert r.y.shape == (1, 3)
    assert r.mescd is not None and r.mescd > 5.0
    # The same steps as the command's run of the same settings.
    cli = run_cli("run", "--problem", "rober", "--solver", solver, "--rtol", "1e-6", "--atol", "1e-10",
                  "--report", "json")
    report = json.loads(cli.stdout)
    assert report["status"] == "success"
    assert report["stats"]["steps"] == r.stats["steps"]
    assert report["stats"]["nfev"] == r.stats["nfev"]
    assert report["mescd"] == pytest.approx(r.mescd, abs=1e-6)


def test_ode_only_solver_refuses_a_dae():
    # An ODE-only solver refuses a DAE before it starts, as the command does.
    dae = daekit.Problem(n=3, rhs=rober_rhs, y0=[1.0, 0.0, 0.0], t_span=(0.0, 40.0), differential=[1, 1, 0])
    odes_only = [s for s in daekit.solvers() if daekit.info(s)["max_dae_index"] < 1]
    assert "cvode" in odes_only
    for solver in odes_only:
        with pytest.raises(daekit.UsageError, match="index|algebraic|mass"):
            daekit.solve(dae, solver)


@pytest.mark.parametrize("solver", ["rodas5p", "rodas4", "radau5", "radauiia", "bdf", "ida"])
def test_python_dae_agrees_with_the_plugin(solver):
    p = daekit.Problem(n=3, rhs=rober_rhs, jac=rober_jac, y0=[1.0, 0.0, 0.0], t_span=(0.0, 40.0),
                       differential=[1, 1, 0], name="rober_in_python")
    mine = daekit.solve(p, solver, rtol=1e-8, atol=1e-12, every_step=False)
    plugin = daekit.solve("rober", solver, rtol=1e-8, atol=1e-12, tend=40.0, every_step=False)
    assert mine.status == "success", mine.message
    assert mine.stats["jacobian"] == "analytic"  # the Python Jacobian is used
    # The test set's value at t = 40 (Hairer & Wanner), to the tolerance.
    assert mine.y[-1] == pytest.approx([0.7158270687193772, 9.185534764910707e-6, 0.2841637457371], rel=1e-5)
    assert np.allclose(mine.y[-1], plugin.y[-1], rtol=1e-5, atol=1e-11)


def test_a_python_exception_comes_back_as_itself():
    class ModelBroke(Exception):
        pass

    def rhs(t, y):
        if t > 1.0:
            raise ModelBroke(f"no data beyond t = {t:.3f}")
        return -y

    p = daekit.Problem(n=2, rhs=rhs, y0=[1.0, 2.0], t_span=(0.0, 5.0))
    for solver in ["rodas5p", "radauiia", "bdf", "ida", "cvode"]:
        with pytest.raises(ModelBroke, match="no data beyond") as info:
            daekit.solve(p, solver)
        frames = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
        assert "rhs" in frames  # the callback's own frame is in the traceback


def test_bad_python_callbacks_are_statuses_not_crashes():
    wrong_size = daekit.Problem(n=3, rhs=lambda t, y: np.zeros(2), y0=[1, 0, 0], t_span=(0, 1))
    r = daekit.solve(wrong_size, "rodas5p")
    assert r.status == "evaluation_failure" and "expected an array of n values" in r.message
    nan = daekit.Problem(n=1, rhs=lambda t, y: np.array([math.nan]), y0=[1.0], t_span=(0, 1))
    assert daekit.solve(nan, "radau5").status != "success"
    with pytest.raises(daekit.UsageError, match="y0 must have"):
        daekit.Problem(n=2, rhs=lambda t, y: -y, y0=[1.0], t_span=(0, 1))
    with pytest.raises(daekit.UsageError, match="rtol"):
        daekit.solve("rober", "rodas5p", rtol=-1.0)
    with pytest.raises(daekit.UsageError, match="has no option"):
        daekit.solve("rober", "rodas5p", solver_options={"no_such_option": 1})
    # A broken exact solution is not a run without a score: its exception comes back.
    broken_exact = daekit.Problem(n=1, rhs=lambda t, y: -y, y0=[1.0], t_span=(0, 1), exact=lambda t: [1 / 0])
    with pytest.raises(ZeroDivisionError):
        daekit.solve(broken_exact, "rodas5p")


@pytest.mark.parametrize("solver", ["rodas5p", "radau5", "bdf", "ida", "cvode"])
def test_a_failed_solve_returns_where_it_got(solver):
    end = daekit.solve("rober", solver, rtol=1e-8, atol=1e-8, every_step=False, max_steps=20)
    every = daekit.solve("rober", solver, rtol=1e-8, atol=1e-8, every_step=True, max_steps=20)
    assert end.status == every.status == "too_many_steps" and not end.success
    assert end.y.shape == (1, 3) and end.t.tolist() == [end.t_reached]
    assert 0 < end.t_reached < 1e11
    assert every.t[-1] == end.t[0]
    np.testing.assert_allclose(end.y[0], every.y[-1], rtol=0, atol=1e-14)
    # A Python problem too: the step limit, then its last state.
    p = daekit.Problem(n=1, rhs=lambda t, y: -y, y0=[1.0], t_span=(0, 100))
    r = daekit.solve(p, solver, rtol=1e-10, atol=1e-12, every_step=False, max_steps=5)
    assert r.status == "too_many_steps" and len(r.t) == 1 and r.t[0] == r.t_reached > 0
    assert abs(r.y[0, 0] - math.exp(-r.t[0])) < 1e-6


@pytest.mark.parametrize("solver", ["rodas5p", "rodas4p2", "radau5", "radauiia", "bdf", "ndf", "ida", "cvode"])
def test_interpolation_matches_saveat_and_the_exact_solution(solver):
    # y' = -50 (y - cos t) - sin t has the exact solution cos t from y(0) = 1.
    p = daekit.Problem(n=1, rhs=lambda t, y: -50.0 * (y - np.cos(t)) - np.sin(t), y0=[1.0], t_span=(0.0, 3.0),
                       jac=lambda t, y: np.array([[-50.0]]), exact=lambda t: [np.cos(t)])
    times = np.linspace(0.0, 3.0, 61)
    dense = daekit.solve(p, solver, rtol=1e-8, atol=1e-8, dense=True)
    saved = daekit.solve(p, solver, rtol=1e-8, atol=1e-8, saveat=times)
    assert dense.has_dense and dense.status == saved.status == "success"
    assert dense.scd is not None and dense.scd > 6  # scored against exact(t) at tend
    assert np.array_equal(saved.t, times)
    assert np.max(np.abs(dense(times) - saved.y)) < 1e-13
    assert np.max(np.abs(dense(times)[:, 0] - np.cos(times))) < 1e-6
    with pytest.raises(ValueError, match="outside the solved span"):
        dense(3.5)


def test_no_dense_output_is_said():
    r = daekit.solve("rober", "ida")  # dense output not asked for
    assert not r.has_dense
    with pytest.raises(RuntimeError, match="no dense output"):
        r(1.0)


def test_output_vars_are_columns_computed_at_the_points():
    r = daekit.solve("feed_reactor", "radauiia", rtol=1e-8, atol=1e-10, saveat=[5.0, 15.0],
                     output_vars=["feed_on", "der(a)", "a"])
    assert r.success and r.variable_names == ["feed_on", "der(a)", "a"]
    assert r.variables.shape == (len(r.t), 3)
    ordinary = [k for k, t in enumerate(r.t) if t in (5.0, 15.0)]
    assert [r["feed_on"][k] for k in ordinary] == [0.0, 1.0]
    for k in ordinary:
        assert r["der(a)"][k] == pytest.approx(2.0 * r["feed_on"][k] - r["a"][k], abs=1e-12)
        assert r["a"][k] == r.y[k, 0]
    with pytest.raises(KeyError):
        r["b"]
    with pytest.raises(daekit.UsageError, match="did you mean 'feed_on'"):
        daekit.solve("feed_reactor", "radauiia", output_vars="feed_onn")


def test_views_keep_the_solution_alive():
    y = daekit.solve("hires", "rodas5p").y
    import gc
    gc.collect()
    assert y.shape[1] == 8 and np.isfinite(y).all()
    assert not y.flags.writeable or y.base is not None


def test_wpd_rows_equal_the_commands(run_cli, tmp_path):
    rows = daekit.wpd(problems="hires", solvers=["rodas5p", "radau5"], tols=[1e-5, 1e-7])
    out = tmp_path / "cli"
    done = run_cli("wpd", "--problem", "hires", "--solvers", "rodas5p,radau5", "--tols", "1e-05,1e-07",
                   "--quiet", "--out", str(out))
    assert done.returncode == 0, done.stderr
    cli_rows = json.loads((out / "results.json").read_text())["rows"]
    timing = {"wall_median_s", "wall_min_s", "wall_max_s"}
    strip = lambda rs: sorted(({k: v for k, v in r.items() if k not in timing} for r in rs),
                              key=lambda r: (r["solver"], r["rtol"]))
    assert len(rows) == 4
    assert strip(rows) == strip(cli_rows)
    # Named setups, as --setup: one solver with two option sets.
    rows = daekit.wpd("rober_dae", setups={"plain": "rodas5p", "suppressed": "rodas5p:suppress-algebraic=true"},
                      tols=[1e-6])
    assert sorted(r["setup"] for r in rows) == ["plain", "suppressed"]
    assert all(r["solver"] == "rodas5p" and r["status"] == "success" for r in rows)


def test_plot_wpd_draws_when_matplotlib_is_there():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    rows = [{"problem": "p", "solver": "s", "status": "success", "scd": 3.0, "wall_median_s": 0.1},
            {"problem": "p", "solver": "s", "status": "error_test_failures", "scd": None, "wall_median_s": 0.2},
            {"problem": "p", "solver": "s", "status": "success", "scd": 5.0, "wall_median_s": 0.3}]
    ax = daekit.plot_wpd(rows)
    (line,) = ax.get_lines()
    assert list(line.get_xdata()) == [3.0, 5.0]  # the failed point is left out


def test_the_guide_runs():
    # Every ```python block of docs/python.md, in order, in one namespace: the guide's
    # examples are code that works.
    source = os.environ.get("DAEKIT_SOURCE_DIR")
    if not source:
        pytest.fail("DAEKIT_SOURCE_DIR is not set (run through ctest)")
    text = open(os.path.join(source, "docs", "python.md")).read()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 3
    namespace = {}
    for block in blocks:
        exec(compile(block, "docs/python.md", "exec"), namespace)


def test_the_gil_is_released_while_a_plugin_problem_is_solved():
    import threading
    import time
    counter, done = [0], threading.Event()

    def spin():
        while not done.is_set():
            counter[0] += 1

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        time.sleep(0.02)
        start, before = time.perf_counter(), counter[0]
        r = daekit.solve("fekete", "radau5", rtol=1e-10, atol=1e-10, params={"N": 20}, every_step=False)
        elapsed, during = time.perf_counter() - start, counter[0] - before
        time.sleep(0.1)  # the other thread's pace with the GIL to itself
        pace = (counter[0] - before - during) / 0.1
    finally:
        done.set()
        spinner.join()
    assert r.status == "success"
    # Held, the GIL would let the other thread run only in the Python parts around the
    # solve (about 1% of its pace, measured); released, it runs beside the solver.
    assert during > 0.1 * pace * elapsed, (during, pace, elapsed)


def test_event_samples_and_the_derivative_check_are_options():
    # The bouncing ball's bounces with the default sampling and with the step ends only;
    # a bad count is a UsageError.
    sampled = daekit.solve("bouncing_ball", "rodas5p", rtol=1e-8, atol=1e-8)
    ends_only = daekit.solve("bouncing_ball", "rodas5p", rtol=1e-8, atol=1e-8, event_samples=0)
    assert sampled.status == ends_only.status == "success"
    assert sampled.stats["nevents"] == ends_only.stats["nevents"] == 20
    assert sampled.stats["nroot_evals"] > ends_only.stats["nroot_evals"]
    with pytest.raises(daekit.UsageError):
        daekit.solve("bouncing_ball", "rodas5p", event_samples=-1)
    checked = daekit.solve("rober", "rodas5p", rtol=1e-8)
    trusted = daekit.solve("rober", "rodas5p", rtol=1e-8, derivative_check=False)
    assert checked.stats["nderivative_checks"] > 0 and checked.stats["nderivative_mismatches"] == 0
    assert trusted.stats["nderivative_checks"] == 0
    assert checked.y[-1] == pytest.approx(trusted.y[-1], rel=1e-12)


def test_shapes_are_checked_never_flattened():
    decay = daekit.Problem(1, lambda t, y: -y, [1.0], (0.0, 1.0), exact=lambda t: np.array([math.exp(-t)]))
    with pytest.raises(ValueError, match="saveat"):
        daekit.solve(decay, "rodas5p", saveat=[[0.1, 0.2], [0.3, 0.4]])
    assert daekit.solve(decay, "rodas5p", saveat=0.5).t.tolist() == [0.5]  # one time is a 1-D sequence of one
    with pytest.raises(ValueError, match="y0"):
        daekit.Problem(2, lambda t, y: -y, [[1.0], [2.0]], (0.0, 1.0))
    # exact() of the wrong length: a ValueError from solve, never a success with scd None.
    wrong = daekit.Problem(1, lambda t, y: -y, [1.0], (0.0, 1.0), exact=lambda t: np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="exact"):
        daekit.solve(wrong, "rodas5p")
    right = daekit.solve(decay, "rodas5p", rtol=1e-8, atol=1e-8)
    assert right.scd is not None and right.scd > 6


def test_ctrl_c_stops_a_native_solve_promptly_and_the_module_stays_usable():
    # A solve of minutes (the brusselator at 1e-11), Ctrl-C after one second: the
    # KeyboardInterrupt comes within a step, and the next solve runs as usual.
    import subprocess
    import sys
    script = (
        "import daekit, os, signal, threading, time\n"
        "threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "start = time.time()\n"
        "try:\n"
        "    daekit.solve('brusselator', 'rodas5p', params={'N': 60}, rtol=1e-11, atol=1e-11, every_step=False)\n"
        "    print('not interrupted')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted after', time.time() - start)\n"
        "print(daekit.solve('rober', 'rodas5p').status)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
    assert "interrupted after" in done.stdout, done.stdout + done.stderr
    assert float(done.stdout.split("interrupted after")[1].split()[0]) < 10.0
    assert done.stdout.strip().endswith("success")


def test_sensitivities_are_points_by_components_by_columns():
    # y' = -2 y: dy/dy0 = exp(-2 t) at every point, against the closed form.
    p = daekit.Problem(1, lambda t, y: -2.0 * y, [1.0], (0.0, 1.5), jac=lambda t, y: np.array([[-2.0]]))
    r = daekit.solve(p, "cvode", rtol=1e-10, atol=1e-12, sensitivities="y0")
    assert r.success and r.sensitivity_names == ["y0:y1"]
    assert r.sensitivities.shape == (len(r.t), 1, 1)
    assert np.allclose(r.sensitivities[:, 0, 0], np.exp(-2.0 * r.t), rtol=1e-7, atol=1e-12)
    # Robertson's dy/dk1 at t = 40 against central differences of tight solves.
    s = daekit.solve("rober", "ida", rtol=1e-10, atol=1e-16, tend=40.0, every_step=False,
                     sensitivities=["k1", "k3"], sensitivity_error_control=True)
    assert s.success and s.sensitivities.shape == (1, 3, 2)
    h = 0.04e-4
    up, down = (daekit.solve("rober", "radauiia", rtol=1e-13, atol=1e-20, tend=40.0, every_step=False,
                             params={"k1": 0.04 + d}).y[-1] for d in (h, -h))
    assert np.allclose(s.sensitivities[-1, :, 0], (up - down) / (2 * h), rtol=1e-6, atol=1e-14)
    with pytest.raises(daekit.UsageError, match="no real parameter 'k9'"):
        daekit.solve("rober", "cvode", sensitivities="k9")


def ball_at(x0, v0, e, g, t):
    # The bouncing ball in closed form: free fall, then flights of e^k times the impact speed.
    speed = np.sqrt(v0 * v0 + 2.0 * g * x0)
    t_bounce = (v0 + speed) / g
    if t < t_bounce:
        return np.array([x0 + v0 * t - 0.5 * g * t * t, v0 - g * t])
    up = e * speed
    while t_bounce + 2.0 * up / g < t:
        t_bounce += 2.0 * up / g
        up *= e
    s = t - t_bounce
    return np.array([up * s - 0.5 * g * s * s, up - g * s])


def test_sensitivities_go_through_events():
    # dy/dy0 of the bouncing ball after three bounces, against differences of its closed form.
    r = daekit.solve("bouncing_ball", "radau5", rtol=1e-10, atol=1e-12, every_step=False,
                     params={"bounces": "3"}, sensitivities="y0")
    assert r.success and r.sensitivity_names == ["y0:x", "y0:v"]
    t, h = r.t[-1], 1e-6
    exact = np.column_stack([(ball_at(10.0 + h, 0.0, 0.8, 9.81, t) - ball_at(10.0 - h, 0.0, 0.8, 9.81, t)) / (2 * h),
                             (ball_at(10.0, h, 0.8, 9.81, t) - ball_at(10.0, -h, 0.8, 9.81, t)) / (2 * h)])
    assert np.allclose(r.sensitivities[-1], exact, rtol=1e-6, atol=1e-6)
