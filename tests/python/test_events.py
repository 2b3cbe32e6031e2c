"""Events in Python problems (daekit.Problem(events=..., on_event=...)): scipy's event
functions (direction, terminal, names) with resets and a DAE's re-initialisation, in every
solver that handles events, against closed forms."""

import math

import numpy as np
import pytest

import daekit

G, E, H0 = 9.81, 0.8, 10.0


def event_solvers():
    return [s for s in daekit.solvers() if daekit.info(s)["events"]]


def bounce_times(count):
    """The bouncing ball's impacts in closed form: free fall from H0, each flight e times faster."""
    t, v, times = math.sqrt(2 * H0 / G), math.sqrt(2 * G * H0), []
    for _ in range(count):
        times.append(t)
        v *= E
        t += 2 * v / G
    return np.array(times)


def ball(**attributes):
    def ground(t, y):
        return y[0]

    # Falling only: after the reset the ball leaves x = 0 upwards, a rising crossing.
    ground.direction = -1
    for key, value in attributes.items():
        setattr(ground, key, value)
    return daekit.Problem(n=2, rhs=lambda t, y: np.array([y[1], -G]), y0=[H0, 0.0], t_span=(0, 6),
                          jac=lambda t, y: np.array([[0.0, 1.0], [0.0, 0.0]]), events=[ground],
                          on_event=lambda t, y, fired: [y[0], -E * y[1]])


def test_every_event_solver_finds_the_bounces_of_a_python_problem():
    exact = bounce_times(3)
    solvers = event_solvers()
    assert len(solvers) >= 16
    for solver in solvers:
        # ros3p's order-1 error estimate needs steps in 1/rtol^(1/2): a looser tolerance.
        rtol = 1e-6 if solver == "ros3p" else 1e-9
        r = daekit.solve(ball(), solver, rtol=rtol, atol=rtol * 1e-2, every_step=False)
        assert r.success, (solver, r.message)
        (times,) = r.t_events
        assert len(times) == 3, solver
        assert np.max(np.abs(times - exact)) < 1e3 * rtol, (solver, times - exact)
        # After the third bounce, free flight in closed form to t = 6.
        s = 6.0 - exact[2]
        v = math.sqrt(2 * G * H0) * E ** 3
        assert abs(r.y[-1, 0] - (v * s - 0.5 * G * s * s)) < 1e4 * rtol, solver


def test_terminal_stops_at_the_event_and_a_count_at_its_occurrence():
    exact = bounce_times(3)
    first = daekit.solve(ball(terminal=True), "radau5", rtol=1e-10, atol=1e-12)
    assert first.status == "stopped_by_event"
    assert abs(first.t[-1] - exact[0]) < 1e-8 and abs(first.t_reached - exact[0]) < 1e-8
    # The second occurrence; solved twice, the count starts again with each solve.
    second = ball(terminal=2)
    for _ in range(2):
        r = daekit.solve(second, "rodas5p", rtol=1e-10, atol=1e-12)
        assert r.status == "stopped_by_event" and abs(r.t[-1] - exact[1]) < 1e-7
        assert len(r.t_events[0]) == 2


def test_direction_filters_the_crossings():
    # g = x - 5 crosses on the way down and, after the bounce, on the way up.
    def ground(t, y):
        return y[0]

    def half(t, y):
        return y[0] - 5.0

    ground.direction = -1

    def run(direction):
        half.direction = direction
        p = daekit.Problem(n=2, rhs=lambda t, y: np.array([y[1], -G]), y0=[H0, 0.0], t_span=(0, 2.5),
                           events=[ground, half], on_event=lambda t, y, fired: [y[0], -E * y[1]] if 0 in fired else None)
        r = daekit.solve(p, "rodas5p", rtol=1e-10, atol=1e-12)
        assert r.success
        return r

    down, up, both = run(-1), run(1), run(0)
    t_down = math.sqrt(2 * 5.0 / G)
    v = math.sqrt(2 * G * H0) * E
    t_up = bounce_times(1)[0] + (v - math.sqrt(v * v - 2 * G * 5.0)) / G
    assert np.allclose(down.t_events[1], [t_down], atol=1e-8)
    assert np.allclose(up.t_events[1], [t_up], atol=1e-8)
    assert np.allclose(both.t_events[1], [t_down, t_up], atol=1e-8)
    assert [e["direction"] for e in both.events if e["index"] == 1] == [-1, 1]
    # Functions that never fired still have their (empty) entry.
    quiet = daekit.Problem(n=1, rhs=lambda t, y: -y, y0=[1.0], t_span=(0, 1), events=[lambda t, y: y[0] + 1.0])
    assert [len(t) for t in daekit.solve(quiet, "bdf").t_events] == [0]


@pytest.mark.parametrize("solver", ["radau5", "bdf", "ida", "rodas5p"])
def test_a_reset_of_a_dae_solves_its_algebraic_components_again(solver):
    # y' = -1, 0 = z - 2 y; at y = 0.5 the event sets y back to 1 and leaves z as it was:
    # the solver must re-solve z = 2 y = 2 from the new y.
    def half(t, y):
        return y[0] - 0.5

    p = daekit.Problem(n=2, rhs=lambda t, y: np.array([-1.0, y[1] - 2.0 * y[0]]), y0=[1.0, 2.0], t_span=(0, 0.8),
                       differential=[1, 0], events=[half], on_event=lambda t, y, fired: [1.0, y[1]])
    r = daekit.solve(p, solver, rtol=1e-8, atol=1e-10, every_step=False)
    assert r.success, r.message
    assert np.allclose(r.t_events[0], [0.5], atol=1e-8)
    assert abs(r.y[-1, 0] - 0.7) < 1e-7 and abs(r.y[-1, 1] - 1.4) < 1e-6


def test_names_come_from_the_functions():
    def crash(t, y):
        return y[0]

    p = daekit.Problem(n=1, rhs=lambda t, y: -y, y0=[1.0], t_span=(0, 1),
                       events=[crash, lambda t, y: y[0] - 0.5, crash])
    assert p.event_names == ["crash", "event1", "event2"]
    r = daekit.solve(p, "rodas5p", rtol=1e-8, atol=1e-10)
    assert [e["name"] for e in r.events] == ["event1"] and len(r.t_events) == 3
    # A plugin problem's events carry its functions' names too.
    plugin = daekit.solve("bouncing_ball", "radau5", rtol=1e-8, atol=1e-10)
    assert plugin.events and {e["name"] for e in plugin.events} == {"floor"} and len(plugin.t_events) == 1


def test_bad_events_are_refused_or_failed_statuses_never_crashes():
    rhs = lambda t, y: -y  # noqa: E731
    with pytest.raises(daekit.UsageError, match="must be a function"):
        daekit.Problem(n=1, rhs=rhs, y0=[1.0], t_span=(0, 1), events=[3.0])
    with pytest.raises(daekit.UsageError, match="no events"):
        daekit.Problem(n=1, rhs=rhs, y0=[1.0], t_span=(0, 1), on_event=lambda t, y, f: None)

    def g(t, y):
        return y[0] - 0.5

    for bad in (-1, 2.5, "yes"):
        g.terminal = bad
        with pytest.raises(daekit.UsageError, match="terminal"):
            daekit.Problem(n=1, rhs=rhs, y0=[1.0], t_span=(0, 1), events=[g])
    g.terminal = False
    g.time_scale = -1.0
    with pytest.raises(daekit.UsageError, match="time_scale"):
        daekit.Problem(n=1, rhs=rhs, y0=[1.0], t_span=(0, 1), events=[g])

    # What the functions do at run time is the run's status, or their own exception.
    def text(t, y):
        return "high"

    r = daekit.solve(daekit.Problem(n=1, rhs=rhs, y0=[1.0], t_span=(0, 1), events=[text]), "rodas5p")
    assert r.status == "evaluation_failure" and "expected a number" in r.message

    def raises(t, y):
        raise KeyError("no such level")

    with pytest.raises(KeyError, match="no such level"):
        daekit.solve(daekit.Problem(n=1, rhs=rhs, y0=[1.0], t_span=(0, 1), events=[raises]), "radau5")

    def wrong_reset(t, y, fired):
        return [1.0, 2.0]

    p = daekit.Problem(n=1, rhs=rhs, y0=[1.0], t_span=(0, 1), events=[lambda t, y: y[0] - 0.5], on_event=wrong_reset)
    r = daekit.solve(p, "bdf")
    assert r.status == "evaluation_failure" and "on_event" in r.message and "'stop'" in r.message

    def refuses(t, y, fired):
        raise RuntimeError("the valve is stuck")

    p = daekit.Problem(n=1, rhs=rhs, y0=[1.0], t_span=(0, 1), events=[lambda t, y: y[0] - 0.5], on_event=refuses)
    with pytest.raises(RuntimeError, match="valve is stuck"):
        daekit.solve(p, "cvode")
    # The module is still usable after each.
    assert daekit.solve(ball(), "radau5", rtol=1e-6).success


def test_on_event_may_stop_the_run():
    p = daekit.Problem(n=1, rhs=lambda t, y: -y, y0=[1.0], t_span=(0, 5), events=[lambda t, y: y[0] - 0.5],
                       on_event=lambda t, y, fired: "stop")
    r = daekit.solve(p, "ida", rtol=1e-10, atol=1e-12)
    assert r.status == "stopped_by_event" and abs(r.t[-1] - math.log(2.0)) < 1e-8
