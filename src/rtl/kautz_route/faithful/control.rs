//! The control unit of the faithful route generator: the state machine that walks phases
//! A, B and C and answers `init` and `next_route`.
//!
//! Retimed: one register bit per state (no state is IDLE, `done` is DONE), and every test
//! it reads is a register: `matched` from the match block, and the look-ahead free bits
//! of [`super::ahead`], so that `found` and the next state are two or three LUT levels
//! from registers.

use super::super::{Fault, RouteGenParams, name};
use crate::rtl::ir::{Expr, Module, SignalId, port_struct, ports};
use std::ops::Not;

port_struct!(
    pub(super) struct ControlPorts {
        clk, rst, init, next_route, valid, matched, full, free_a, free_b, free_c_out,
        free_c_in, b_last, c_last, all_used, load, shift, found, phase_a, phase_b,
        phase_c, inc_b, clear_b, inc_c, route_valid, done, error,
    }
);

pub(super) fn control(params: &RouteGenParams, fault: Option<Fault>) -> (Module, ControlPorts) {
    let mut m = Module::new(
        name(params, "control"),
        &[
            "the control unit: a state machine that walks phases A, B and C and answers init and next_route.",
            "One register bit per state; none set is IDLE (after reset), and done is DONE.",
        ],
    );
    let clocking = m.clocked();
    let c = ControlSignals::declare(&mut m);
    let s = States::declare(&mut m);
    datapath_controls(&mut m, &c, &s);
    transitions(&mut m, &c, &s, fault);
    let ports = ports!(
        m,
        ControlPorts {
            clk = clocking.clock, rst = clocking.reset, init = c.init,
            next_route = c.next_route, valid = c.valid, matched = c.matched, full = c.full,
            free_a = c.free_a, free_b = c.free_b, free_c_out = c.free_c_out,
            free_c_in = c.free_c_in, b_last = c.b_last, c_last = c.c_last,
            all_used = c.all_used, load = c.load, shift = c.shift,
            found = c.found, phase_a = s.phase_a, phase_b = s.phase_b, phase_c = s.phase_c,
            inc_b = c.inc_b, clear_b = c.clear_b, inc_c = c.inc_c,
            route_valid = c.route_valid, done = c.done, error = c.error,
        }
    );
    (m, ports)
}

/// The control unit's ports other than the clock, the reset and the phase states.
struct ControlSignals {
    init: SignalId,
    next_route: SignalId,
    valid: SignalId,
    matched: SignalId,
    full: SignalId,
    free_a: SignalId,
    free_b: SignalId,
    free_c_out: SignalId,
    free_c_in: SignalId,
    b_last: SignalId,
    c_last: SignalId,
    all_used: SignalId,
    load: SignalId,
    shift: SignalId,
    pre_found: SignalId,
    found: SignalId,
    inc_b: SignalId,
    clear_b: SignalId,
    inc_c: SignalId,
    route_valid: SignalId,
    done: SignalId,
    error: SignalId,
}

impl ControlSignals {
    fn declare(m: &mut Module) -> Self {
        ControlSignals {
            init: m.input("init", 1, "start a new search"),
            next_route: m.input("next_route", 1, "the route on the outputs has been taken"),
            valid: m.input("valid", 1, "src and dst are different nodes"),
            matched: m.input("matched", 1, "phase A: the current overlap exists"),
            full: m.input("full", 1, "phase A: overlap 0 is being tested"),
            free_a: m.input(
                "free_a",
                1,
                "phase A: the out-letter and the in-letter of the overlap are free",
            ),
            free_b: m.input("free_b", 1, "phase B: the letter is free on both sides"),
            free_c_out: m.input("free_c_out", 1, "phase C: the out-letter is free"),
            free_c_in: m.input("free_c_in", 1, "phase C: the in-letter is free"),
            b_last: m.input("b_last", 1, "shift/increment part 1 is at letter d"),
            c_last: m.input("c_last", 1, "shift/increment part 2 is at letter d"),
            all_used: m.input(
                "all_used",
                1,
                "every out- and in-letter is used: d routes given",
            ),
            load: m.output("load", 1, "load the datapath"),
            shift: m.output("shift", 1, "shift the match block and the shift block"),
            pre_found: m.internal(
                "pre_found",
                1,
                "the phase's test passes: a route unless init",
            ),
            found: m.output(
                "found",
                1,
                "a route is found this cycle: capture and mark it",
            ),
            inc_b: m.output("inc_b", 1, "advance shift/increment part 1"),
            clear_b: m.output("clear_b", 1, "restart shift/increment part 1"),
            inc_c: m.output("inc_c", 1, "advance shift/increment part 2"),
            route_valid: m.output("route_valid", 1, "a route is on the outputs"),
            done: m.output("done", 1, "no further route (state DONE)"),
            error: m.output("error", 1, "src or dst is not a node, or they are equal"),
        }
    }
}

/// The state bits other than DONE (the `done` output).
struct States {
    phase_a: SignalId,
    phase_b: SignalId,
    phase_c: SignalId,
    wait_a: SignalId,
    wait_b: SignalId,
    wait_c: SignalId,
}

impl States {
    fn declare(m: &mut Module) -> Self {
        States {
            phase_a: m.output(
                "phase_a",
                1,
                "state PHASE_A: testing overlaps k-1 down to 0, one per clock",
            ),
            phase_b: m.output("phase_b", 1, "state PHASE_B: testing inserted letters 0..d"),
            phase_c: m.output(
                "phase_c",
                1,
                "state PHASE_C: pairing free out-letters with free in-letters",
            ),
            wait_a: m.internal(
                "wait_a",
                1,
                "state WAIT_A: route found in phase A, held until next_route",
            ),
            wait_b: m.internal(
                "wait_b",
                1,
                "state WAIT_B: route found in phase B, held until next_route",
            ),
            wait_c: m.internal(
                "wait_c",
                1,
                "state WAIT_C: route found in phase C, held until next_route",
            ),
        }
    }
}

/// The outputs that drive the datapath in each phase: load, shift, the shift/increment
/// parts, and `found`, which captures and marks a route.
fn datapath_controls(m: &mut Module, c: &ControlSignals, s: &States) {
    let reg = |id: SignalId| Expr::from(id);
    m.assign(
        c.pre_found,
        Expr::or_all([
            reg(s.phase_a).and(c.matched.into()).and(c.free_a.into()),
            reg(s.phase_b).and(c.free_b.into()),
            reg(s.phase_c)
                .and(c.free_c_out.into())
                .and(c.free_c_in.into()),
        ]),
        "A route: in phase A an overlap whose two letters are free; in B and C two free letters.",
    );
    m.assign(
        c.found,
        reg(c.init).not().and(c.pre_found.into()),
        "init takes precedence.",
    );
    m.assign(c.load, c.init.into(), "init loads everything at once.");
    m.assign(
        c.shift,
        reg(s.phase_a).and(reg(c.full).not()).and(reg(c.init).not()),
        "Phase A moves on every clock until overlap 0.",
    );
    m.assign(
        c.inc_b,
        reg(c.b_last).not().and(reg(s.phase_b).or(reg(s.phase_c)
            .and(c.free_c_out.into())
            .and(reg(c.free_c_in).not()))),
        "Part 1 walks the letters of phase B, then the in-letters of phase C while the out-letter waits.",
    );
    m.assign(
        c.clear_b,
        reg(c.init).or(reg(s.phase_b)
            .and(c.b_last.into())
            .and(reg(c.pre_found).not())),
        "Part 1 restarts at init and when phase B ends.",
    );
    m.assign(
        c.inc_c,
        reg(s.phase_c)
            .and(reg(c.c_last).not())
            .and(reg(c.free_c_in).or(reg(c.free_c_out).not())),
        "Part 2 moves past every out-letter that is used or has just been taken (found there is both free).",
    );
}

/// The next state: each phase moves to its WAIT state on a route found, or to the next
/// phase when it runs out; `next_route` resumes; `init` restarts from any state. The
/// outputs are registered from it: `route_valid` in the WAIT states, `done` in DONE.
fn transitions(m: &mut Module, c: &ControlSignals, s: &States, fault: Option<Fault>) {
    let reg = |id: SignalId| Expr::from(id);
    let found = reg(c.pre_found);
    let missed = reg(c.pre_found).not();
    let resume = reg(c.next_route).and(reg(c.all_used).not());
    let a_ends = reg(s.phase_a).and(missed.clone()).and(c.full.into());
    let b_ends = reg(s.phase_b).and(missed.clone()).and(c.b_last.into());
    let c_ends = reg(s.phase_c)
        .and(missed.clone())
        .and(c.c_last.into())
        .and(reg(c.free_c_out).not());
    let (a_to_b, a_to_c) = match fault {
        Some(Fault::PhaseBSkipped) => (Expr::bit(false), a_ends.clone()),
        _ => (a_ends.clone(), Expr::bit(false)),
    };
    let waits = [s.wait_a, s.wait_b, s.wait_c];
    let stays = |phase: SignalId, ends: Expr, wait: SignalId| {
        Expr::or_all([
            reg(phase).and(missed.clone()).and(ends.not()),
            reg(wait).and(resume.clone()),
        ])
    };
    let restart = |to: Expr, next: Expr| Expr::mux(c.init.into(), to, next);
    let never = Expr::bit(false);
    let next = [
        (
            s.phase_a,
            restart(c.valid.into(), stays(s.phase_a, c.full.into(), s.wait_a)),
        ),
        (
            s.phase_b,
            restart(
                never.clone(),
                stays(s.phase_b, c.b_last.into(), s.wait_b).or(a_to_b),
            ),
        ),
        (
            s.phase_c,
            restart(
                never.clone(),
                stays(
                    s.phase_c,
                    reg(c.c_last).and(reg(c.free_c_out).not()),
                    s.wait_c,
                )
                .or(b_ends)
                .or(a_to_c),
            ),
        ),
    ];
    for (state, value) in next {
        m.register(
            state,
            0,
            value,
            "Next state: its own phase, or the phase before ending.",
        );
    }
    let held = |phase: SignalId, wait: SignalId| {
        reg(phase)
            .and(found.clone())
            .or(reg(wait).and(reg(c.next_route).not()))
    };
    let next_waits = [
        held(s.phase_a, s.wait_a),
        held(s.phase_b, s.wait_b),
        held(s.phase_c, s.wait_c),
    ];
    for (wait, value) in waits.into_iter().zip(next_waits.clone()) {
        m.register(
            wait,
            0,
            restart(never.clone(), value),
            "A route found is held until next_route.",
        );
    }
    m.register(
        c.route_valid,
        0,
        restart(never.clone(), Expr::or_all(next_waits)),
        "Registered outputs: a route is held in the WAIT states.",
    );
    let any_wait = Expr::or_all(waits.map(reg));
    m.register(
        c.done,
        0,
        restart(
            reg(c.valid).not(),
            Expr::or_all([
                c_ends,
                any_wait.and(c.next_route.into()).and(c.all_used.into()),
                reg(c.done),
            ]),
        ),
        "DONE: phase C out of letters, d routes given, or invalid words; until init.",
    );
    m.register(
        c.error,
        0,
        Expr::mux(c.init.into(), reg(c.valid).not(), c.error.into()),
        "Whether the last init had invalid words.",
    );
}
