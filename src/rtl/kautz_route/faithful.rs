//! The faithful route generator (`--arch faithful`): the microarchitecture of section 4 of
//! the route-generator paper (Smit et al. 1991; see [`super`]), one overlap or letter
//! tested per clock.
//!
//! In: (d, k) and a top name. Out: a [`Design`] of these blocks, each its own module:
//! - **match unit** (k of them in the **match block**): the registers `src_part` and
//!   `dst_part` and a comparator that the `off` bit switches off. At each shift the
//!   destination letters and the `off` front move one unit to the right, so after p shifts
//!   the chain tests whether the last k-p letters of the source are the first k-p of the
//!   destination: overlap v = k-p, from k-1 down to 0, one per clock.
//! - **shift block**: the letters leaving the last match unit, prepended one per shift, are
//!   the hops of the phase A route `b(v+1)..bk`; after k shifts it holds `b1..bk`. It
//!   assembles the route of each phase and holds it on the `route` output.
//! - **shift/increment parts**: letter counters. Part 1 counts the inserted letter of
//!   phase B, then the in-letter of phase C; part 2 counts the out-letter of phase C.
//! - **used letters** (out and in): one bit per letter, loaded with the letter that names
//!   no neighbour (`ak` for out, `b1` for in), marked by every route taken.
//! - **word check**: whether `src` and `dst` are distinct nodes of K(d,k).
//! - **control**: the state machine that walks phases A, B and C and the handshake.
//!
//! Cycle budget, from `init` to `done` without the cycles that wait for `next_route`:
//! one to load, at most k in phase A (plus one after a route found at overlap 0), at most
//! d+1 in phase B (plus one after a route found at the last letter), at most 2(d+1) in
//! phase C: at most [`cycle_bound`] = k + 3(d+1) + 4 in all.
//!
//! [`super::parallel`] builds the same ports one route per clock.

use super::{Fault, RouteGenParams, TopPorts, WordCheckPorts, decode, letter, name, word_check};
use crate::rtl::ir::{
    Connections, ConstId, Design, Expr, Module, SignalId, Timing, port_struct, ports,
};
use std::collections::BTreeMap;
use std::ops::{Add, Not};

/// The most cycles the generator works from `init` to `done`, waiting not counted; also
/// the most cycles from `init` or `next_route` to the next `route_valid` or `done`.
pub fn cycle_bound(d: usize, k: usize) -> usize {
    k + 3 * (d + 1) + 4
}

/// The route generator of the route-generator paper (Smit et al. 1991).
pub(super) fn design(params: &RouteGenParams, fault: Option<Fault>) -> Design {
    let unit = match_unit(params, fault);
    let block = match_block(params, &unit);
    let shift = shift_block(params);
    let counter = shift_inc(params);
    let used = used_letters(params, fault);
    let check = word_check(params);
    let control = control(params, fault);
    let top = top(
        params,
        Blocks {
            block: &block,
            shift: &shift,
            counter: &counter,
            used: &used,
            check: &check,
            control: &control,
        },
    );
    Design {
        modules: vec![
            unit.0, block.0, shift.0, counter.0, used.0, check.0, control.0, top,
        ],
        params: BTreeMap::from([
            ("d".into(), params.d() as u64),
            ("k".into(), params.k() as u64),
        ]),
        summary: format!(
            "route generator for the node-disjoint routes of the Kautz digraph K({},{})",
            params.d(),
            params.k()
        ),
        timing: Timing::Synchronous,
    }
}

port_struct!(
    struct MatchUnitPorts {
        clk, rst, load, shift, src_load, dst_load, off_load, dst_in, off_in, match_in,
        src_part, dst_part, off, match_out,
    }
);

fn match_unit(params: &RouteGenParams, fault: Option<Fault>) -> (Module, MatchUnitPorts) {
    let w = params.letter_bits();
    let mut m = Module::new(
        name(params, "match_unit"),
        &[
            "one match unit (Fig. 5 of the route-generator paper, Smit et al. 1991): a source letter,",
            "a destination letter and their comparator.",
            "The destination letter and the off bit move one unit to the right on each shift;",
            "a unit that is off always reports a match, so the chain tests ever shorter overlaps.",
        ],
    );
    let clocking = m.clocked();
    let load = m.input("load", 1, "load src_load, dst_load and off_load (init)");
    let shift = m.input(
        "shift",
        1,
        "take dst_in and off_in from the unit to the left",
    );
    let src_load = m.input("src_load", w, "source letter of this position");
    let dst_load = m.input("dst_load", w, "destination letter loaded here");
    let off_load = m.input("off_load", 1, "whether this unit starts switched off");
    let dst_in = m.input("dst_in", w, "destination letter of the unit to the left");
    let off_in = m.input("off_in", 1, "off bit of the unit to the left");
    let match_in = m.input("match_in", 1, "match of the units to the left");
    let src_part = m.output("src_part", w, "source letter (src_part)");
    let dst_part = m.output("dst_part", w, "destination letter (dst_part)");
    let off = m.output(
        "off",
        1,
        "comparator switched off (the sel signal of the paper)",
    );
    let match_out = m.output(
        "match_out",
        1,
        "match of this unit and all units to its left",
    );
    m.register(
        src_part,
        0,
        Expr::mux(load.into(), src_load.into(), src_part.into()),
        "The source letter stays put from load to load.",
    );
    m.register(
        dst_part,
        0,
        Expr::mux(
            load.into(),
            dst_load.into(),
            Expr::mux(shift.into(), dst_in.into(), dst_part.into()),
        ),
        "The destination letter shifts right.",
    );
    m.register(
        off,
        0,
        Expr::mux(
            load.into(),
            off_load.into(),
            Expr::mux(shift.into(), off_in.into(), off.into()),
        ),
        "The off front shifts right with the destination, one more unit per shift.",
    );
    let equal = match fault {
        Some(Fault::FlippedComparator) => Expr::from(src_part).ne(dst_part.into()),
        _ => Expr::from(src_part).eq(dst_part.into()),
    };
    m.assign(
        match_out,
        Expr::from(match_in).and(Expr::from(off).or(equal)),
        "Comparator, bypassed when off.",
    );
    let ports = ports!(
        m,
        MatchUnitPorts {
            clk = clocking.clock, rst = clocking.reset, load, shift, src_load, dst_load,
            off_load, dst_in, off_in, match_in, src_part, dst_part, off, match_out,
        }
    );
    (m, ports)
}

port_struct!(
    struct MatchBlockPorts { clk, rst, load, shift, src, dst, matched, in_letter, shifted_out, full }
);

fn match_block(
    params: &RouteGenParams,
    (unit, p): &(Module, MatchUnitPorts),
) -> (Module, MatchBlockPorts) {
    let (k, w) = (params.k(), params.letter_bits());
    let kw = k as u32 * w;
    let mut m = Module::new(
        name(params, "match_block"),
        &[
            "the match block: k match units in a chain. After p shifts (p = 1..k) it reports whether",
            "the source overlaps the destination in v = k-p letters, and the source letter a(p),",
            "which is the first letter of the route's in-node.",
        ],
    );
    let clk = m.clocked();
    let load = m.input("load", 1, "load a new source and destination (init)");
    let shift = m.input("shift", 1, "shift the destination one unit to the right");
    let src = m.input("src", kw, "source word, a1 in the most significant letter");
    let dst = m.input(
        "dst",
        kw,
        "destination word, b1 in the most significant letter",
    );
    let matched = m.output(
        "matched",
        1,
        "every unit that is on matches: the overlap exists",
    );
    let in_letter = m.output(
        "in_letter",
        w,
        "source letter of the last unit switched off: a(p)",
    );
    let shifted_out = m.output(
        "shifted_out",
        w,
        "destination letter of the last unit, the next to leave",
    );
    let full = m.output("full", 1, "every unit is off: p = k, overlap 0");
    let chain = UnitChain::declare(&mut m, k, w);
    let UnitChain {
        src_parts,
        dst_parts,
        offs,
        matches,
    } = &chain;
    for i in 0..k {
        // Loaded already shifted once, so that the first cycle tests overlap k-1: unit i
        // holds b(i), b(k) has gone to the shift block, and unit 0 (off) keeps a copy of
        // b(k) that nothing compares.
        let dst_load = letter(dst, (i + k - 1) % k, k, w);
        let left =
            |signals: &[SignalId], first: Expr| if i == 0 { first } else { signals[i - 1].into() };
        let connections = Connections::of(unit)
            .bind(&p.clk, clk.clock)
            .bind(&p.rst, clk.reset)
            .bind(&p.load, load)
            .bind(&p.shift, shift)
            .bind(&p.src_load, letter(src, i, k, w))
            .bind(&p.dst_load, dst_load)
            .bind(&p.off_load, Expr::bit(i == 0))
            .bind(&p.dst_in, left(dst_parts, Expr::zero(w)))
            .bind(&p.off_in, left(offs, Expr::bit(true)))
            .bind(&p.match_in, left(matches, Expr::bit(true)))
            .bind(&p.src_part, src_parts[i])
            .bind(&p.dst_part, dst_parts[i])
            .bind(&p.off, offs[i])
            .bind(&p.match_out, matches[i]);
        m.instance(
            &format!("u_unit_{i}"),
            connections,
            &format!("Match unit {i}: compares source letter a{}.", i + 1),
        );
    }
    chain.drive_outputs(&mut m, matched, shifted_out, full, in_letter);
    let ports = ports!(
        m,
        MatchBlockPorts {
            clk = clk.clock, rst = clk.reset, load, shift, src, dst, matched, in_letter,
            shifted_out, full,
        }
    );
    (m, ports)
}

/// The signals of the k match units of the match block, unit 0 first.
struct UnitChain {
    src_parts: Vec<SignalId>,
    dst_parts: Vec<SignalId>,
    offs: Vec<SignalId>,
    matches: Vec<SignalId>,
}

impl UnitChain {
    /// The signals of each unit, declared unit by unit.
    fn declare(m: &mut Module, k: usize, w: u32) -> Self {
        let mut chain = UnitChain {
            src_parts: Vec::new(),
            dst_parts: Vec::new(),
            offs: Vec::new(),
            matches: Vec::new(),
        };
        for i in 0..k {
            chain.src_parts.push(m.internal(
                &format!("src_part_{i}"),
                w,
                &format!("source letter a{} in unit {i}", i + 1),
            ));
            chain.dst_parts.push(m.internal(
                &format!("dst_part_{i}"),
                w,
                &format!("destination letter in unit {i}"),
            ));
            chain
                .offs
                .push(m.internal(&format!("off_{i}"), 1, &format!("unit {i} switched off")));
            chain.matches.push(m.internal(
                &format!("match_{i}"),
                1,
                &format!("units 0..{i} match"),
            ));
        }
        chain
    }

    /// The match block's outputs, read off the end of the chain.
    fn drive_outputs(
        &self,
        m: &mut Module,
        matched: SignalId,
        shifted_out: SignalId,
        full: SignalId,
        in_letter: SignalId,
    ) {
        let last = self.offs.len() - 1;
        m.assign(
            matched,
            self.matches[last].into(),
            "The end of the match chain.",
        );
        m.assign(
            shifted_out,
            self.dst_parts[last].into(),
            "The letter that leaves the block on the next shift.",
        );
        m.assign(
            full,
            self.offs[last].into(),
            "The off front has reached the last unit.",
        );
        // The units that are off form a prefix 0..p-1; the last of them holds a(p).
        let pick = (1..=last).fold(Expr::from(self.src_parts[0]), |earlier, i| {
            Expr::mux(self.offs[i].into(), self.src_parts[i].into(), earlier)
        });
        m.assign(
            in_letter,
            pick,
            "Source letter of the last unit that is off.",
        );
    }
}

port_struct!(
    struct ShiftBlockPorts {
        clk, rst, load, shift, first, shifted_in, capture, phase_b, phase_c, letter_b,
        letter_c, head, route, route_len,
    }
);

fn shift_block(params: &RouteGenParams) -> (Module, ShiftBlockPorts) {
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
    struct ShiftIncPorts { clk, rst, clear, inc, letter, last }
);

fn shift_inc(params: &RouteGenParams) -> (Module, ShiftIncPorts) {
    let w = params.letter_bits();
    let d = params.d() as u64;
    let mut m = Module::new(
        name(params, "shift_inc"),
        &[
            "a shift/increment part: counts letters 0..d for the inserted letters of phases B and C.",
        ],
    );
    let clocking = m.clocked();
    let clear = m.input("clear", 1, "restart at letter 0");
    let inc = m.input("inc", 1, "go to the next letter");
    let letter_q = m.output("letter", w, "the current letter");
    let last = m.output("last", 1, "the current letter is d, the last");
    m.register(
        letter_q,
        0,
        Expr::mux(
            clear.into(),
            Expr::zero(w),
            Expr::mux(
                inc.into(),
                Expr::from(letter_q).add(Expr::konst(w, 1)),
                letter_q.into(),
            ),
        ),
        "The letter counter.",
    );
    m.assign(
        last,
        Expr::from(letter_q).eq(Expr::konst(w, d)),
        "Letter d reached.",
    );
    let ports = ports!(
        m,
        ShiftIncPorts {
            clk = clocking.clock, rst = clocking.reset, clear, inc, letter = letter_q, last,
        }
    );
    (m, ports)
}

port_struct!(
    struct UsedLettersPorts { clk, rst, load, first, mark, query, free, all_used }
);

fn used_letters(params: &RouteGenParams, fault: Option<Fault>) -> (Module, UsedLettersPorts) {
    let (w, d) = (params.letter_bits(), params.d());
    let letters = d as u32 + 1;
    let mut m = Module::new(
        name(params, "used_letters"),
        &[
            "used in-node or out-node register: one bit per letter 0..d, set when a route has used",
            "the neighbour that letter names, or when the letter names no neighbour.",
        ],
    );
    let clocking = m.clocked();
    let load = m.input("load", 1, "start a new search: only `first` is used");
    let first = m.input("first", w, "the letter that names no neighbour");
    let mark = m.input("mark", 1, "a route takes the queried letter");
    let query = m.input("query", w, "the letter asked about");
    let free = m.output("free", 1, "the queried letter is free");
    let all_used = m.output("all_used", 1, "every letter is used: no further route");
    let used = m.internal("used", letters, "bit i: letter i used");
    let first_onehot = m.internal("first_onehot", letters, "first, decoded");
    let query_onehot = m.internal("query_onehot", letters, "query, decoded");
    m.assign(
        first_onehot,
        decode(first.into(), w, d),
        "Decoder for the loaded letter.",
    );
    m.assign(
        query_onehot,
        decode(query.into(), w, d),
        "Decoder for the queried letter.",
    );
    let marked = match fault {
        Some(Fault::UsedBitNeverSet) => Expr::from(used).or(Expr::concat(vec![
            Expr::Slice {
                signal: query_onehot,
                lo: 1,
                width: letters - 1,
            },
            Expr::zero(1),
        ])),
        _ => Expr::from(used).or(query_onehot.into()),
    };
    m.register(
        used,
        0,
        Expr::mux(
            load.into(),
            first_onehot.into(),
            Expr::mux(mark.into(), marked, used.into()),
        ),
        "Load, or mark the queried letter.",
    );
    m.assign(
        free,
        Expr::from(used).and(query_onehot.into()).any().not(),
        "Not used.",
    );
    m.assign(all_used, Expr::from(used).all(), "All letters used.");
    let ports = ports!(
        m,
        UsedLettersPorts {
            clk = clocking.clock, rst = clocking.reset, load, first, mark, query, free, all_used,
        }
    );
    (m, ports)
}

/// States of the control unit, in encoding order.
const STATES: [(&str, &str); 8] = [
    ("S_IDLE", "after reset, until the first init"),
    ("S_PHASE_A", "testing overlaps k-1 down to 0, one per clock"),
    ("S_PHASE_B", "testing inserted letters 0..d"),
    ("S_PHASE_C", "pairing free out-letters with free in-letters"),
    ("S_WAIT_A", "route found in phase A, held until next_route"),
    ("S_WAIT_B", "route found in phase B, held until next_route"),
    ("S_WAIT_C", "route found in phase C, held until next_route"),
    ("S_DONE", "no further route, or the words were invalid"),
];

port_struct!(
    struct ControlPorts {
        clk, rst, init, next_route, valid, matched, full, out_free, in_free, b_last, c_last,
        all_out_used, load, shift, found, phase_b, phase_c, inc_b, clear_b, inc_c,
        route_valid, done, error,
    }
);

fn control(params: &RouteGenParams, fault: Option<Fault>) -> (Module, ControlPorts) {
    let mut m = Module::new(
        name(params, "control"),
        &[
            "the control unit: a state machine that walks phases A, B and C and answers init and next_route.",
        ],
    );
    let clocking = m.clocked();
    let c = ControlSignals::declare(&mut m);
    let states = ControlStates::declare(&mut m);
    let state = StateSignals::declare(&mut m, &states);
    datapath_controls(&mut m, &c, &state);
    transitions(&mut m, &c, &states, &state, fault);
    registered_outputs(&mut m, &c, &states, &state);
    let ports = ports!(
        m,
        ControlPorts {
            clk = clocking.clock, rst = clocking.reset, init = c.init,
            next_route = c.next_route, valid = c.valid, matched = c.matched, full = c.full,
            out_free = c.out_free, in_free = c.in_free, b_last = c.b_last, c_last = c.c_last,
            all_out_used = c.all_out_used, load = c.load, shift = c.shift, found = c.found,
            phase_b = c.phase_b, phase_c = c.phase_c, inc_b = c.inc_b, clear_b = c.clear_b,
            inc_c = c.inc_c, route_valid = c.route_valid, done = c.done, error = c.error,
        }
    );
    (m, ports)
}

/// The control unit's ports other than the clock and reset.
struct ControlSignals {
    init: SignalId,
    next_route: SignalId,
    valid: SignalId,
    matched: SignalId,
    full: SignalId,
    out_free: SignalId,
    in_free: SignalId,
    b_last: SignalId,
    c_last: SignalId,
    all_out_used: SignalId,
    load: SignalId,
    shift: SignalId,
    found: SignalId,
    phase_b: SignalId,
    phase_c: SignalId,
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
            out_free: m.input("out_free", 1, "the out-letter asked about is free"),
            in_free: m.input("in_free", 1, "the in-letter asked about is free"),
            b_last: m.input("b_last", 1, "shift/increment part 1 is at letter d"),
            c_last: m.input("c_last", 1, "shift/increment part 2 is at letter d"),
            all_out_used: m.input(
                "all_out_used",
                1,
                "every out-letter is used: d routes given",
            ),
            load: m.output("load", 1, "load the datapath"),
            shift: m.output("shift", 1, "shift the match block and the shift block"),
            found: m.output(
                "found",
                1,
                "a route is found this cycle: capture and mark it",
            ),
            phase_b: m.output("phase_b", 1, "phase B is being tested"),
            phase_c: m.output("phase_c", 1, "phase C is being tested"),
            inc_b: m.output("inc_b", 1, "advance shift/increment part 1"),
            clear_b: m.output("clear_b", 1, "restart shift/increment part 1"),
            inc_c: m.output("inc_c", 1, "advance shift/increment part 2"),
            route_valid: m.output("route_valid", 1, "a route is on the outputs"),
            done: m.output("done", 1, "no further route"),
            error: m.output("error", 1, "src or dst is not a node, or they are equal"),
        }
    }
}

/// Bits of the control unit's state.
const STATE_BITS: u32 = 3;

/// The encodings of [`STATES`].
struct ControlStates {
    idle: ConstId,
    phase_a: ConstId,
    phase_b: ConstId,
    phase_c: ConstId,
    wait_a: ConstId,
    wait_b: ConstId,
    wait_c: ConstId,
    done: ConstId,
}

impl ControlStates {
    fn declare(m: &mut Module) -> Self {
        let states = m.states(STATE_BITS, &STATES);
        let [
            idle,
            phase_a,
            phase_b,
            phase_c,
            wait_a,
            wait_b,
            wait_c,
            done,
        ] = states[..]
        else {
            unreachable!("eight states")
        };
        ControlStates {
            idle,
            phase_a,
            phase_b,
            phase_c,
            wait_a,
            wait_b,
            wait_c,
            done,
        }
    }
}

/// The state register, its next values and which phase it is in.
struct StateSignals {
    state: SignalId,
    state_next: SignalId,
    next_state: SignalId,
    in_a: SignalId,
    in_b: SignalId,
    in_c: SignalId,
}

impl StateSignals {
    /// The state signals, and the decoding of the phase states.
    fn declare(m: &mut Module, states: &ControlStates) -> Self {
        let s = StateSignals {
            state: m.internal("state", STATE_BITS, "current state"),
            state_next: m.internal(
                "state_next",
                STATE_BITS,
                "state after this clock, unless init",
            ),
            next_state: m.internal("next_state", STATE_BITS, "state after this clock"),
            in_a: m.internal("in_a", 1, "state is S_PHASE_A"),
            in_b: m.internal("in_b", 1, "state is S_PHASE_B"),
            in_c: m.internal("in_c", 1, "state is S_PHASE_C"),
        };
        let is = |state: ConstId| Expr::from(s.state).eq(state.into());
        m.assign(s.in_a, is(states.phase_a), "Phase decoding.");
        m.assign(s.in_b, is(states.phase_b), "");
        m.assign(s.in_c, is(states.phase_c), "");
        s
    }
}

/// The outputs that drive the datapath in each phase: load, shift, the phase selects, the
/// shift/increment parts, and `found`, which captures and marks a route.
fn datapath_controls(m: &mut Module, c: &ControlSignals, s: &StateSignals) {
    let free = Expr::from(c.out_free).and(c.in_free.into());
    m.assign(
        c.found,
        Expr::from(c.init).not().and(
            Expr::from(s.in_a)
                .and(Expr::from(c.matched).and(free.clone()))
                .or(Expr::from(s.in_b).or(s.in_c.into()).and(free)),
        ),
        "A route: in phase A an overlap whose two letters are free; in B and C two free letters.",
    );
    m.assign(c.load, c.init.into(), "init loads everything at once.");
    m.assign(
        c.shift,
        Expr::from(s.in_a)
            .and(Expr::from(c.full).not())
            .and(Expr::from(c.init).not()),
        "Phase A moves on every clock until overlap 0.",
    );
    m.assign(
        c.phase_b,
        s.in_b.into(),
        "Route and letter selection for phase B.",
    );
    m.assign(
        c.phase_c,
        s.in_c.into(),
        "Route and letter selection for phase C.",
    );
    m.assign(
        c.inc_b,
        Expr::from(c.b_last).not().and(
            Expr::from(s.in_b).or(Expr::from(s.in_c).and(c.out_free.into()).and(Expr::from(c.in_free).not())),
        ),
        "Part 1 walks the letters of phase B, then the in-letters of phase C while the out-letter waits.",
    );
    m.assign(
        c.clear_b,
        Expr::from(c.init).or(Expr::from(s.in_b)
            .and(c.b_last.into())
            .and(Expr::from(c.found).not())),
        "Part 1 restarts at init and when phase B ends.",
    );
    m.assign(
        c.inc_c,
        Expr::from(s.in_c)
            .and(Expr::from(c.c_last).not())
            .and(Expr::from(c.found).or(Expr::from(c.out_free).not())),
        "Part 2 moves past every out-letter that is used or has just been taken.",
    );
}

/// The next state: each phase moves to its WAIT state on a route found, or to the next
/// phase when it runs out; `next_route` resumes; `init` restarts from any state.
fn transitions(
    m: &mut Module,
    c: &ControlSignals,
    states: &ControlStates,
    s: &StateSignals,
    fault: Option<Fault>,
) {
    let after_a = match fault {
        Some(Fault::PhaseBSkipped) => states.phase_c,
        _ => states.phase_b,
    };
    let resume = |phase: ConstId, wait: ConstId| {
        Expr::mux(
            c.next_route.into(),
            Expr::mux(c.all_out_used.into(), states.done.into(), phase.into()),
            wait.into(),
        )
    };
    m.case(
        s.state_next,
        s.state,
        vec![
            (
                states.phase_a.into(),
                Expr::mux(
                    c.found.into(),
                    states.wait_a.into(),
                    Expr::mux(c.full.into(), after_a.into(), states.phase_a.into()),
                ),
            ),
            (
                states.phase_b.into(),
                Expr::mux(
                    c.found.into(),
                    states.wait_b.into(),
                    Expr::mux(
                        c.b_last.into(),
                        states.phase_c.into(),
                        states.phase_b.into(),
                    ),
                ),
            ),
            (
                states.phase_c.into(),
                Expr::mux(
                    c.found.into(),
                    states.wait_c.into(),
                    Expr::mux(
                        Expr::from(c.c_last).and(Expr::from(c.out_free).not()),
                        states.done.into(),
                        states.phase_c.into(),
                    ),
                ),
            ),
            (states.wait_a.into(), resume(states.phase_a, states.wait_a)),
            (states.wait_b.into(), resume(states.phase_b, states.wait_b)),
            (states.wait_c.into(), resume(states.phase_c, states.wait_c)),
            (states.done.into(), states.done.into()),
        ],
        states.idle.into(),
        "Transitions of each state when init is low.",
    );
    m.assign(
        s.next_state,
        Expr::mux(
            c.init.into(),
            Expr::mux(c.valid.into(), states.phase_a.into(), states.done.into()),
            s.state_next.into(),
        ),
        "init restarts from any state.",
    );
    m.register(s.state, 0, s.next_state.into(), "The state register.");
}

/// `route_valid`, `done` and `error`, registered from the next state.
fn registered_outputs(
    m: &mut Module,
    c: &ControlSignals,
    states: &ControlStates,
    s: &StateSignals,
) {
    let next_is = |state: ConstId| Expr::from(s.next_state).eq(state.into());
    m.register(
        c.route_valid,
        0,
        Expr::or_all([
            next_is(states.wait_a),
            next_is(states.wait_b),
            next_is(states.wait_c),
        ]),
        "Registered outputs: a route is held in the WAIT states.",
    );
    m.register(c.done, 0, next_is(states.done), "");
    m.register(
        c.error,
        0,
        Expr::mux(c.init.into(), Expr::from(c.valid).not(), c.error.into()),
        "Whether the last init had invalid words.",
    );
}

/// The blocks the top module instantiates, with their ports.
struct Blocks<'a> {
    block: &'a (Module, MatchBlockPorts),
    shift: &'a (Module, ShiftBlockPorts),
    counter: &'a (Module, ShiftIncPorts),
    used: &'a (Module, UsedLettersPorts),
    check: &'a (Module, WordCheckPorts),
    control: &'a (Module, ControlPorts),
}

fn top(params: &RouteGenParams, blocks: Blocks) -> Module {
    let (d, k) = (params.d(), params.k());
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!(
                "route generator for K({d},{k}) (section 4 of the route-generator paper, Smit et al. 1991):"
            ),
            &format!(
                "after init, gives the {d} node-disjoint routes from src to dst one at a time, shortest first;"
            ),
            "next_route takes the one shown.",
            &format!(
                "Each route_valid or done follows init or next_route within {} cycles.",
                cycle_bound(d, k)
            ),
        ],
    );
    let io = TopPorts::declare(&mut m, params);
    let wires = Wires::declare(&mut m, params.letter_bits());
    let (check, p) = blocks.check;
    let connections = Connections::of(check)
        .bind(&p.src, io.src)
        .bind(&p.dst, io.dst)
        .bind(&p.valid, wires.valid);
    m.instance("u_word_check", connections, "Input check.");
    match_block_instance(&mut m, &io, &wires, blocks.block);
    shift_block_instance(&mut m, params, &io, &wires, blocks.shift);
    part_instances(&mut m, &io, &wires, blocks.counter);
    candidate_letters(&mut m, &wires);
    used_letters_instances(&mut m, params, &io, &wires, blocks.used);
    control_instance(&mut m, &io, &wires, blocks.control);
    m
}

/// The wires between the top's blocks, named for the block that drives them.
struct Wires {
    valid: SignalId,
    matched: SignalId,
    in_letter: SignalId,
    shifted_out: SignalId,
    full: SignalId,
    head: SignalId,
    letter_b: SignalId,
    letter_c: SignalId,
    b_last: SignalId,
    c_last: SignalId,
    out_query: SignalId,
    in_query: SignalId,
    out_free: SignalId,
    in_free: SignalId,
    all_out_used: SignalId,
    all_in_used: SignalId,
    load: SignalId,
    shift_en: SignalId,
    found: SignalId,
    phase_b: SignalId,
    phase_c: SignalId,
    inc_b: SignalId,
    clear_b: SignalId,
    inc_c: SignalId,
}

impl Wires {
    fn declare(m: &mut Module, w: u32) -> Self {
        Wires {
            valid: m.internal("valid", 1, "src and dst are different nodes"),
            matched: m.internal("matched", 1, "match block: overlap found"),
            in_letter: m.internal(
                "in_letter",
                w,
                "match block: in-letter of the phase A route",
            ),
            shifted_out: m.internal(
                "shifted_out",
                w,
                "match block: letter leaving the last unit",
            ),
            full: m.internal("full", 1, "match block: all units off"),
            head: m.internal("head", w, "shift block: out-letter of the phase A route"),
            letter_b: m.internal("letter_b", w, "part 1 letter"),
            letter_c: m.internal("letter_c", w, "part 2 letter"),
            b_last: m.internal("b_last", 1, "part 1 at letter d"),
            c_last: m.internal("c_last", 1, "part 2 at letter d"),
            out_query: m.internal("out_query", w, "out-letter of the candidate route"),
            in_query: m.internal("in_query", w, "in-letter of the candidate route"),
            out_free: m.internal("out_free", 1, "out-letter free"),
            in_free: m.internal("in_free", 1, "in-letter free"),
            all_out_used: m.internal("all_out_used", 1, "all out-letters used"),
            all_in_used: m.internal(
                "all_in_used",
                1,
                "all in-letters used (equal in number to the out-letters)",
            ),
            load: m.internal("load", 1, "control: load"),
            shift_en: m.internal("shift_en", 1, "control: shift"),
            found: m.internal("found", 1, "control: route found"),
            phase_b: m.internal("phase_b", 1, "control: phase B"),
            phase_c: m.internal("phase_c", 1, "control: phase C"),
            inc_b: m.internal("inc_b", 1, "control: advance part 1"),
            clear_b: m.internal("clear_b", 1, "control: restart part 1"),
            inc_c: m.internal("inc_c", 1, "control: advance part 2"),
        }
    }
}

fn match_block_instance(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (block, p): &(Module, MatchBlockPorts),
) {
    let connections = Connections::of(block)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.load, wires.load)
        .bind(&p.shift, wires.shift_en)
        .bind(&p.src, io.src)
        .bind(&p.dst, io.dst)
        .bind(&p.matched, wires.matched)
        .bind(&p.in_letter, wires.in_letter)
        .bind(&p.shifted_out, wires.shifted_out)
        .bind(&p.full, wires.full);
    m.instance(
        "u_match_block",
        connections,
        "Match block: the overlaps of phase A.",
    );
}

fn shift_block_instance(
    m: &mut Module,
    params: &RouteGenParams,
    io: &TopPorts,
    wires: &Wires,
    (shift, p): &(Module, ShiftBlockPorts),
) {
    let k = params.k();
    let connections = Connections::of(shift)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.load, wires.load)
        .bind(&p.shift, wires.shift_en)
        .bind(&p.first, letter(io.dst, k - 1, k, params.letter_bits()))
        .bind(&p.shifted_in, wires.shifted_out)
        .bind(&p.capture, wires.found)
        .bind(&p.phase_b, wires.phase_b)
        .bind(&p.phase_c, wires.phase_c)
        .bind(&p.letter_b, wires.letter_b)
        .bind(&p.letter_c, wires.letter_c)
        .bind(&p.head, wires.head)
        .bind(&p.route, io.route)
        .bind(&p.route_len, io.route_len);
    m.instance(
        "u_shift_block",
        connections,
        "Shift block: builds and holds the route.",
    );
}

/// The two shift/increment parts.
fn part_instances(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (counter, p): &(Module, ShiftIncPorts),
) {
    for (label, clear, inc, letter_q, last, doc) in [
        (
            "u_part_1",
            wires.clear_b,
            wires.inc_b,
            wires.letter_b,
            wires.b_last,
            "Shift/increment part 1: phase B letter, phase C in-letter.",
        ),
        (
            "u_part_2",
            wires.load,
            wires.inc_c,
            wires.letter_c,
            wires.c_last,
            "Shift/increment part 2: phase C out-letter.",
        ),
    ] {
        let connections = Connections::of(counter)
            .bind(&p.clk, io.clocking.clock)
            .bind(&p.rst, io.clocking.reset)
            .bind(&p.clear, clear)
            .bind(&p.inc, inc)
            .bind(&p.letter, letter_q)
            .bind(&p.last, last);
        m.instance(label, connections, doc);
    }
}

/// The out- and in-letter of the candidate route, which the used letters are asked about.
fn candidate_letters(m: &mut Module, wires: &Wires) {
    m.assign(
        wires.out_query,
        Expr::mux(
            wires.phase_c.into(),
            wires.letter_c.into(),
            Expr::mux(
                wires.phase_b.into(),
                wires.letter_b.into(),
                wires.head.into(),
            ),
        ),
        "The out-letter of the candidate: phase A's first hop, part 1 in B, part 2 in C.",
    );
    m.assign(
        wires.in_query,
        Expr::mux(
            Expr::from(wires.phase_b).or(wires.phase_c.into()),
            wires.letter_b.into(),
            wires.in_letter.into(),
        ),
        "The in-letter of the candidate: phase A's a(p), part 1 in B and C.",
    );
}

/// The used out-letters and in-letters.
fn used_letters_instances(
    m: &mut Module,
    params: &RouteGenParams,
    io: &TopPorts,
    wires: &Wires,
    (used, p): &(Module, UsedLettersPorts),
) {
    let (k, w) = (params.k(), params.letter_bits());
    for (label, first, free, all, query, doc) in [
        (
            "u_used_out",
            letter(io.src, k - 1, k, w),
            wires.out_free,
            wires.all_out_used,
            wires.out_query,
            "Used out-nodes; ak names no out-neighbour.",
        ),
        (
            "u_used_in",
            letter(io.dst, 0, k, w),
            wires.in_free,
            wires.all_in_used,
            wires.in_query,
            "Used in-nodes; b1 names no in-neighbour.",
        ),
    ] {
        let connections = Connections::of(used)
            .bind(&p.clk, io.clocking.clock)
            .bind(&p.rst, io.clocking.reset)
            .bind(&p.load, wires.load)
            .bind(&p.first, first)
            .bind(&p.mark, wires.found)
            .bind(&p.query, query)
            .bind(&p.free, free)
            .bind(&p.all_used, all);
        m.instance(label, connections, doc);
    }
}

fn control_instance(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (control, p): &(Module, ControlPorts),
) {
    let connections = Connections::of(control)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.init, io.init)
        .bind(&p.next_route, io.next_route)
        .bind(&p.valid, wires.valid)
        .bind(&p.matched, wires.matched)
        .bind(&p.full, wires.full)
        .bind(&p.out_free, wires.out_free)
        .bind(&p.in_free, wires.in_free)
        .bind(&p.b_last, wires.b_last)
        .bind(&p.c_last, wires.c_last)
        .bind(
            &p.all_out_used,
            Expr::from(wires.all_out_used).and(wires.all_in_used.into()),
        )
        .bind(&p.load, wires.load)
        .bind(&p.shift, wires.shift_en)
        .bind(&p.found, wires.found)
        .bind(&p.phase_b, wires.phase_b)
        .bind(&p.phase_c, wires.phase_c)
        .bind(&p.inc_b, wires.inc_b)
        .bind(&p.clear_b, wires.clear_b)
        .bind(&p.inc_c, wires.inc_c)
        .bind(&p.route_valid, io.route_valid)
        .bind(&p.done, io.done)
        .bind(&p.error, io.error);
    m.instance("u_control", connections, "Control unit.");
}
