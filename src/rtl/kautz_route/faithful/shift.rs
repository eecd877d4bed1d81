//! The shift block of the faithful route generator, which gathers the hops of each phase's
//! route and holds the route found, and the shift/increment parts, the letter counters of
//! phases B and C.

use super::super::{RouteGenParams, name};
use crate::rtl::ir::{Expr, Module, SignalId, port_struct, ports};
use std::ops::Add;

port_struct!(
    pub(super) struct ShiftBlockPorts {
        clk, rst, load, shift, first, shifted_in, capture, phase_b, phase_c, letter_b,
        letter_c, head, route, route_len,
    }
);

pub(super) fn shift_block(params: &RouteGenParams) -> (Module, ShiftBlockPorts) {
    let (k, w, lw) = (params.k(), params.letter_bits(), params.length_bits());
    let mut m = Module::new(
        name(params, "shift_block"),
        &[
            "the shift block: collects the destination letters leaving the match block into the",
            "hops of the phase A route, assembles the route of the current phase with the letters",
            "of the shift/increment parts, and holds the route found on the outputs.",
        ],
    );
    let clocking = m.clocked();
    let load = m.input("load", 1, "start a new search (init)");
    let shift = m.input("shift", 1, "the match block shifts: prepend shifted_in");
    let first = m.input("first", w, "bk, the first letter to leave the match block");
    let shifted_in = m.input("shifted_in", w, "the letter leaving the match block");
    let capture = m.input(
        "capture",
        1,
        "a route is found: hold it on route and route_len",
    );
    let phase_b = m.input("phase_b", 1, "phase B: one letter inserted");
    let phase_c = m.input("phase_c", 1, "phase C: two letters inserted");
    let letter_b = m.input(
        "letter_b",
        w,
        "shift/increment part 1: inserted letter (B), in-letter (C)",
    );
    let letter_c = m.input("letter_c", w, "shift/increment part 2: out-letter (C)");
    let head = m.output("head", w, "first hop of the phase A route: its out-letter");
    let route = m.output(
        "route",
        (k as u32 + 2) * w,
        "the route found, first hop in the most significant letter",
    );
    let route_len = m.output("route_len", lw, "number of hops of the route found");
    let inserted = Inserted {
        phase_b,
        phase_c,
        letter_b,
        letter_c,
    };
    let phase_a = phase_a_hops(&mut m, params, load, shift, first, shifted_in);
    m.assign(
        head,
        Expr::Slice {
            signal: phase_a.0,
            lo: k as u32 * w - w,
            width: w,
        },
        "The first hop.",
    );
    let assembled = assemble_route(&mut m, params, phase_a, &inserted);
    hold_route(&mut m, params, load, capture, assembled, (route, route_len));
    let ports = ports!(
        m,
        ShiftBlockPorts {
            clk = clocking.clock, rst = clocking.reset, load, shift, first, shifted_in,
            capture, phase_b, phase_c, letter_b, letter_c, head, route, route_len,
        }
    );
    (m, ports)
}

/// The phase selects and the letters of the shift/increment parts, which the shift block
/// inserts into the routes of phases B and C.
struct Inserted {
    phase_b: SignalId,
    phase_c: SignalId,
    letter_b: SignalId,
    letter_c: SignalId,
}

/// The hops of the phase A route, left-aligned, and their count: the letters leaving the
/// match block, prepended one per shift.
fn phase_a_hops(
    m: &mut Module,
    params: &RouteGenParams,
    load: SignalId,
    shift: SignalId,
    first: SignalId,
    shifted_in: SignalId,
) -> (SignalId, SignalId) {
    let (k, w, lw) = (params.k(), params.letter_bits(), params.length_bits());
    let kw = k as u32 * w;
    let hops = m.internal(
        "hops",
        kw,
        "hops of the phase A route, left-aligned, zero-filled",
    );
    let count = m.internal(
        "count",
        lw,
        "letters shifted into hops: the phase A route length",
    );
    let prepended = if k == 1 {
        Expr::from(shifted_in)
    } else {
        Expr::concat(vec![
            shifted_in.into(),
            Expr::Slice {
                signal: hops,
                lo: w,
                width: kw - w,
            },
        ])
    };
    let loaded = if k == 1 {
        Expr::from(first)
    } else {
        Expr::concat(vec![first.into(), Expr::zero(kw - w)])
    };
    m.register(
        hops,
        0,
        Expr::mux(
            load.into(),
            loaded,
            Expr::mux(shift.into(), prepended, hops.into()),
        ),
        "Each shift prepends the letter leaving the match block.",
    );
    m.register(
        count,
        0,
        Expr::mux(
            load.into(),
            Expr::konst(lw, 1),
            Expr::mux(
                shift.into(),
                Expr::from(count).add(Expr::konst(lw, 1)),
                count.into(),
            ),
        ),
        "Counts the hops of the phase A route (p).",
    );
    (hops, count)
}

/// The route of the current phase and its length, from the phase A route `(hops, count)`
/// and the letters `inserted` in phases B and C.
fn assemble_route(
    m: &mut Module,
    params: &RouteGenParams,
    (hops, count): (SignalId, SignalId),
    inserted: &Inserted,
) -> (SignalId, SignalId) {
    let (k, w, lw) = (params.k(), params.letter_bits(), params.length_bits());
    let Inserted {
        phase_b,
        phase_c,
        letter_b,
        letter_c,
    } = *inserted;
    let assembled = m.internal(
        "assembled",
        (k as u32 + 2) * w,
        "route of the current phase",
    );
    let assembled_len = m.internal(
        "assembled_len",
        lw,
        "length of the route of the current phase",
    );
    m.assign(
        assembled,
        Expr::mux(
            phase_c.into(),
            Expr::concat(vec![letter_c.into(), letter_b.into(), hops.into()]),
            Expr::mux(
                phase_b.into(),
                Expr::concat(vec![letter_b.into(), hops.into(), Expr::zero(w)]),
                Expr::concat(vec![hops.into(), Expr::zero(2 * w)]),
            ),
        ),
        "Phase C: out-letter, in-letter, b1..bk. Phase B: letter, b1..bk. Phase A: the hops.",
    );
    m.assign(
        assembled_len,
        Expr::mux(
            phase_c.into(),
            Expr::konst(lw, k as u64 + 2),
            Expr::mux(phase_b.into(), Expr::konst(lw, k as u64 + 1), count.into()),
        ),
        "k+2, k+1, or the hops counted in phase A.",
    );
    (assembled, assembled_len)
}

/// The `(route, route_len)` registers: cleared by `load`, they take the assembled route
/// on `capture` and hold it until the next.
fn hold_route(
    m: &mut Module,
    params: &RouteGenParams,
    load: SignalId,
    capture: SignalId,
    (assembled, assembled_len): (SignalId, SignalId),
    (route, route_len): (SignalId, SignalId),
) {
    let (k, w, lw) = (params.k(), params.letter_bits(), params.length_bits());
    m.register(
        route,
        0,
        Expr::mux(
            load.into(),
            Expr::zero((k as u32 + 2) * w),
            Expr::mux(capture.into(), assembled.into(), route.into()),
        ),
        "The route found, held until the next one.",
    );
    m.register(
        route_len,
        0,
        Expr::mux(
            load.into(),
            Expr::zero(lw),
            Expr::mux(capture.into(), assembled_len.into(), route_len.into()),
        ),
        "Its length.",
    );
}

port_struct!(
    pub(super) struct ShiftIncPorts { clk, rst, clear, inc, letter, onehot, last }
);

/// A shift/increment part: a one-hot letter counter, so that "letter d reached" and the
/// used bit of the letter and of the next one are read off single register bits without
/// comparing with constants.
pub(super) fn shift_inc(params: &RouteGenParams) -> (Module, ShiftIncPorts) {
    let w = params.letter_bits();
    let d = params.d() as u32;
    let mut m = Module::new(
        name(params, "shift_inc"),
        &[
            "a shift/increment part: counts letters 0..d for the inserted letters of phases B and C,",
            "one-hot.",
        ],
    );
    let clocking = m.clocked();
    let clear = m.input("clear", 1, "restart at letter 0");
    let inc = m.input("inc", 1, "go to the next letter");
    let letter_q = m.output("letter", w, "the current letter");
    let onehot = m.output(
        "onehot",
        d + 1,
        "the current letter, one-hot: bit i is letter i",
    );
    let last = m.output("last", 1, "the current letter is d, the last");
    let rotated = Expr::concat(vec![
        Expr::Slice {
            signal: onehot,
            lo: 0,
            width: d,
        },
        Expr::Slice {
            signal: onehot,
            lo: d,
            width: 1,
        },
    ]);
    m.register(
        onehot,
        1,
        Expr::mux(
            clear.into(),
            Expr::konst(d + 1, 1),
            Expr::mux(inc.into(), rotated, onehot.into()),
        ),
        "The letter counter: inc moves the bit up (never past d: the control does not advance a part at d).",
    );
    m.assign(
        letter_q,
        encode(onehot, w, d),
        "The letter in binary, for the route.",
    );
    m.assign(
        last,
        Expr::Slice {
            signal: onehot,
            lo: d,
            width: 1,
        },
        "Letter d reached.",
    );
    let ports = ports!(
        m,
        ShiftIncPorts {
            clk = clocking.clock, rst = clocking.reset, clear, inc, letter = letter_q, onehot,
            last,
        }
    );
    (m, ports)
}

/// The binary value of the one-hot `onehot` (bits 0..=d): bit j is the OR of the bits of
/// the letters with bit j set.
fn encode(onehot: SignalId, w: u32, d: u32) -> Expr {
    Expr::concat(
        (0..w)
            .rev()
            .map(|j| {
                Expr::or_all((0..=d).filter(|i| i >> j & 1 == 1).map(|i| Expr::Slice {
                    signal: onehot,
                    lo: i,
                    width: 1,
                }))
            })
            .collect(),
    )
}
