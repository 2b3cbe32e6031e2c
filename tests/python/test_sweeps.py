"""Parameters of Python problems, and sweeps and ensembles over them: rhs(t, y, p) with
named parameters that solve(params=), sensitivities, fit(), wpd() and ensemble() take as
they take a plugin's."""

import math

import numpy as np
import pytest

import daekit

RATES = {"k1": 0.04, "k2": 3e7, "k3": 1e4}


def rober(t, y, p):
    k1, k2, k3 = p
    return np.array([-k1 * y[0] + k3 * y[1] * y[2], k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] ** 2, k2 * y[1] ** 2])


def python_rober(**changes):
    arguments = dict(n=3, rhs=rober, y0=[1.0, 0.0, 0.0], t_span=(0.0, 40.0), parameters=RATES, name="pyrober")
    return daekit.Problem(**{**arguments, **changes})


def decay(**changes):
    # y' = -k y, exactly y = exp(-k t) (the exact solution takes p as rhs does).
    arguments = dict(n=1, rhs=lambda t, y, p: -p[0] * y, y0=[1.0], t_span=(0.0, 2.0), parameters={"k": 1.5},
                     exact=lambda t, p: [math.exp(-p[0] * t)], name="decay")
    return daekit.Problem(**{**arguments, **changes})


def test_parameters_reach_every_callback_and_params_set_them():
    mine = daekit.solve(python_rober(), "radau5", rtol=1e-10, atol=1e-14, every_step=False)
    plugin = daekit.solve("rober", "radau5", rtol=1e-10, atol=1e-14, tend=40.0, every_step=False)
    np.testing.assert_allclose(mine.y[-1], plugin.y[-1], rtol=0, atol=1e-12)
    # Other values for one solve; the problem keeps its own.
    faster = daekit.solve(decay(), "rodas5p", rtol=1e-10, atol=1e-12, every_step=False, params={"k": 3.0})
    assert abs(faster.y[-1, 0] - math.exp(-6.0)) < 1e-9 and faster.scd > 8
    again = daekit.solve(decay(), "rodas5p", rtol=1e-10, atol=1e-12, every_step=False)
    assert abs(again.y[-1, 0] - math.exp(-3.0)) < 1e-9
    with pytest.raises(daekit.UsageError, match="no parameter 'k9'.*k1, k2, k3"):
        daekit.solve(python_rober(), "bdf", params={"k9": 1.0})
    with pytest.raises(daekit.UsageError, match="k1 must be a number"):
        daekit.solve(python_rober(), "bdf", params={"k1": "fast"})
    with pytest.raises(daekit.UsageError, match="parameters must map"):
        python_rober(parameters=[0.04, 3e7, 1e4])


def test_sensitivities_to_python_parameters_match_central_differences():
    s = daekit.solve(python_rober(), "bdf", rtol=1e-10, atol=1e-14, every_step=False, sensitivities=["k1", "k3"])
    assert s.success and s.sensitivity_names == ["k1", "k3"]
    for column, name in enumerate(["k1", "k3"]):
        h = 1e-6 * RATES[name]
        up, down = (daekit.solve(python_rober(), "radau5", rtol=1e-12, atol=1e-16, every_step=False,
                                 params={name: RATES[name] + d}) for d in (h, -h))
        central = (up.y[-1] - down.y[-1]) / (2 * h)
        np.testing.assert_allclose(s.sensitivities[-1][:, column], central, rtol=1e-4, atol=1e-9 * np.abs(central).max())


def test_fit_estimates_the_parameters_of_a_python_problem():
    times = [0.4, 4.0, 40.0]
    truth = daekit.solve(python_rober(), "radau5", rtol=1e-11, atol=1e-15, saveat=times)
    rows = [(t, f"y{j + 1}", truth.y[i, j], 1e-3 * abs(truth.y[i, j]) + 1e-12)
            for i, t in enumerate(times) for j in range(3)]
    guess = python_rober(parameters={"k1": 0.02, "k2": 1e7, "k3": 3e3})
    r = daekit.fit(guess, {"a": rows}, ["k1", "k2", "k3"], log=True, rtol=1e-9, atol=1e-14)
    assert r.status == "success", r.message
    for name, value in RATES.items():
        assert abs(r.estimates[name] / value - 1) < 1e-5, (name, r.estimates[name])


def test_wpd_sweeps_a_python_problem_in_this_process():
    rows = daekit.wpd(decay(), ["rodas5p", "radau5"], tols="1e-4:1e-8:1", runs=2)
    assert [(r["solver"], r["rtol"]) for r in rows] == [(s, t) for s in ("rodas5p", "radau5")
                                                         for t in (1e-4, 1e-5, 1e-6, 1e-7, 1e-8)]
    for r in rows:
        assert r["status"] == "success" and r["runs"] == 2 and r["reference"] == "exact(t)"
        assert r["wall_min_s"] <= r["wall_median_s"] <= r["wall_max_s"]
        assert r["stats"]["steps"] > 0 and r["problem"] == "decay"
        # The row's score is the one solve() gives at that tolerance.
        alone = daekit.solve(decay(), r["solver"], rtol=r["rtol"], atol=r["rtol"], every_step=False)
        assert r["scd"] == pytest.approx(alone.scd, abs=1e-12)
    for solver in ("rodas5p", "radau5"):
        scds = [r["scd"] for r in rows if r["solver"] == solver]
        assert scds[-1] > scds[0] + 2  # four decades tighter: digits gained
    # Without an exact solution: scored against the reference solver's solution, the same
    # digits to within the reference's own error.
    blind = daekit.wpd(decay(exact=None), ["radau5"], tols=[1e-4, 1e-7])
    assert all(r["reference"].startswith("rodas5p at tol 1e-12") for r in blind)
    for r, known in zip(blind, [x for x in rows if x["solver"] == "radau5" and x["rtol"] in (1e-4, 1e-7)]):
        assert r["scd"] == pytest.approx(known["scd"], abs=0.05)
    # Parameters are swept as a plugin's are.
    fast = daekit.wpd(decay(), ["bdf"], tols=[1e-6], params={"k": 3.0})
    assert fast[0]["params"] == {"k": 3.0} and fast[0]["scd"] > 3  # measured 3.81; against k = 1.5: < 1


def test_wpd_takes_python_and_plugin_problems_together_and_every_solver_by_default():
    rows = daekit.wpd([decay(), "hires"], ["rodas5p"], tols=[1e-6])
    assert sorted(r["problem"] for r in rows) == ["decay", "hires"]
    dae = daekit.Problem(n=2, rhs=lambda t, y: np.array([-y[0], y[1] - y[0]]), y0=[1.0, 1.0], t_span=(0, 1),
                         differential=[1, 0], exact=lambda t: [math.exp(-t), math.exp(-t)])
    everyone = {r["solver"] for r in daekit.wpd(dae, tols=[1e-6])}
    odes_only = {s for s in daekit.solvers() if daekit.info(s)["max_dae_index"] < 1}
    assert everyone == set(daekit.solvers()) - odes_only and "radau5" in everyone


def test_wpd_refuses_what_it_cannot_do_for_a_python_problem():
    with pytest.raises(daekit.UsageError, match="error='final'"):
        daekit.wpd(decay(), ["rodas5p"], tols=[1e-6], error="l2")
    with pytest.raises(daekit.UsageError, match="in this process"):
        daekit.wpd(decay(), ["rodas5p"], tols=[1e-6], out="/tmp/nowhere")
    with pytest.raises(daekit.UsageError, match="tols"):
        daekit.wpd(decay(), ["rodas5p"], tols="1e-4:")
    with pytest.raises(daekit.UsageError, match="tols"):
        daekit.wpd(decay(), ["rodas5p"], tols=[-1.0])


def test_ensemble_solves_one_member_per_parameter_set():
    ks = np.linspace(0.5, 2.5, 5)
    results = daekit.ensemble(decay(), "radau5", {"k": ks}, rtol=1e-10, atol=1e-12, every_step=False)
    assert [r.status for r in results] == ["success"] * 5
    np.testing.assert_allclose([r.y[-1, 0] for r in results], np.exp(-2.0 * ks), atol=1e-9)
    # A list of members, and threads: the same answers in the same order.
    members = [{"N": n} for n in (8, 12, 16, 8)]
    one = daekit.ensemble("fekete", "rodas5p", members, rtol=1e-7, atol=1e-7, every_step=False)
    two = daekit.ensemble("fekete", "rodas5p", members, workers=2, rtol=1e-7, atol=1e-7, every_step=False)
    assert all(r.success for r in two) and two[0].y.shape == two[3].y.shape != two[1].y.shape
    for a, b in zip(one, two):
        assert a.status == b.status and np.array_equal(a.y, b.y)
    with pytest.raises(daekit.UsageError, match="differ in length"):
        daekit.ensemble(decay(), "radau5", {"k": [1, 2], "j": [1]})
    with pytest.raises(daekit.UsageError, match="no members"):
        daekit.ensemble(decay(), "radau5", [])
    with pytest.raises(daekit.UsageError, match="members give"):
        daekit.ensemble(decay(), "radau5", [{"k": 1}], params={"k": 2})
