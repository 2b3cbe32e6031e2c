"""daekit.fit as a notebook user meets it: rate constants from data given as rows, a CSV
file and conditions; the intervals, the model curves, and bad input refused."""
import math

import numpy as np
import pytest

import daekit


def decay(k, c, y0, t):
    return c / k + (y0 - c / k) * math.exp(-k * t)


def rober_rows():
    truth = daekit.solve("rober", "radau5", rtol=1e-12, atol=1e-20, saveat=[0.4, 4, 40, 400, 4000, 4e4])
    return [(t, f"y{i + 1}", y[i], max(abs(y[i]) * 1e-3, 1e-14)) for t, y in zip(truth.t, truth.y) for i in range(3)]


def test_fit_recovers_robertson_constants_from_rows():
    r = daekit.fit("rober", {"rober": rober_rows()}, ["k1", "k2", "k3"], initial={"k1": 0.03, "k2": 2e7, "k3": 2e4},
                   log=True, rtol=1e-10, atol=1e-16)
    assert r.success, r.message
    for name, exact in (("k1", 0.04), ("k2", 3e7), ("k3", 1e4)):
        assert abs(r.estimates[name] / exact - 1) < 1e-6
        low, high = r.intervals[name]
        assert low < exact < high
    assert r.covariance.shape == (3, 3)
    curve = r.curves[0]
    assert curve["names"] == ["y1", "y2", "y3"] and curve["values"].shape == (len(curve["t"]), 3)


def test_fit_with_a_file_conditions_and_bounds(tmp_path):
    # y' = -1.5 y + 0.5 written in Python; its initial value is estimated from experiment a,
    # while experiment b starts from the value its condition sets.
    times = [0.25, 0.5, 1.0, 1.5, 2.0]
    rows_a = [(t, "y1", decay(1.5, 0.5, 1.0, t), 1e-3) for t in times]
    rows_b = [(t, "y1", decay(1.5, 0.5, 2.0, t), 1e-3) for t in times]
    path = tmp_path / "a.csv"
    path.write_text("t,name,value,sigma\n" + "".join(f"{t!r},{n},{v!r},{s!r}\n" for t, n, v, s in rows_a))
    problem = daekit.Problem(1, lambda t, y: np.array([-1.5 * y[0] + 0.5]), [1.7], (0.0, 2.0))
    r = daekit.fit(problem, {"a": str(path), "b": rows_b}, "y0:y1", conditions={"b": {"y0:y1": 2.0}},
                   bounds={"y0:y1": (0.0, 3.0)}, rtol=1e-10, atol=1e-12)
    assert r.success, r.message
    assert abs(r.estimates["y0:y1"] - 1.0) < 1e-6
    assert [e["id"] for e in r.experiments] == ["a", "b"]
    assert abs(r.experiments[1]["points"][0]["model"] - rows_b[0][2]) < 1e-7
    with pytest.raises(daekit.UsageError, match="lies outside its bounds"):
        daekit.fit(problem, {"a": rows_a}, "y0:y1", initial={"y0:y1": 5.0}, bounds={"y0:y1": (0.0, 3.0)})
    with pytest.raises(daekit.UsageError, match="no experiment 'c'"):
        daekit.fit(problem, {"a": rows_a}, "y0:y1", conditions={"c": {"y0:y1": 1.0}})


def test_fit_refuses_bad_input_before_solving(tmp_path):
    with pytest.raises(daekit.UsageError, match="no real parameter 'kk'"):
        daekit.fit("rober", {"a": [(1.0, "y1", 0.9, 0.1)]}, "kk")
    with pytest.raises(daekit.UsageError, match="sigma must be positive"):
        daekit.fit("rober", {"a": [(1.0, "y1", 0.9, 0.0)]}, "k1")
    with pytest.raises(daekit.UsageError, match="has no component or output 'y9'"):
        daekit.fit("rober", {"a": [(1.0, "y9", 0.9, 0.1)]}, "k1")
    with pytest.raises(daekit.UsageError, match="is not a readable file"):
        daekit.fit("rober", str(tmp_path / "missing.csv"), "k1")
    with pytest.raises(daekit.UsageError, match="bounds names k2"):
        daekit.fit("rober", {"a": [(1.0, "y1", 0.9, 0.1)]}, "k1", bounds={"k2": (0, 1)})


def test_fit_by_adjoint_gradients():
    r = daekit.fit("rober", {"rober": rober_rows()}, ["k1", "k2", "k3"], solver="cvode", gradient="adjoint",
                   initial={"k1": 0.03, "k2": 2e7, "k3": 2e4}, log=True, rtol=1e-10, atol=1e-16)
    assert r.success, r.message
    assert r.gradient == "adjoint"
    assert abs(r.estimates["k2"] / 3e7 - 1) < 1e-6
    with pytest.raises(daekit.UsageError, match="forward, adjoint or auto"):
        daekit.fit("rober", {"a": [(1.0, "y1", 0.9, 0.1)]}, "k1", gradient="backward")
