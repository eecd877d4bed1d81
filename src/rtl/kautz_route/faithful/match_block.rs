//! The match block of the faithful route generator: k match units (Fig. 5 of the
//! route-generator paper) in a chain, which test one overlap of source and destination per
//! clock in phase A.
//!
//! Retimed: each unit's comparator looks at the destination letter it will hold after the
//! next shift (or after `init`), and the block registers the end of that chain, so the
//! overlap tested in a cycle is a register and not a chain of k comparators. The in-node
//! letter a(p) comes from a shift register of the source letters that moves with the off
//! front, instead of a priority multiplexer over the units.

use super::super::{Fault, RouteGenParams, letter, name};
use crate::rtl::ir::{Connections, Expr, Module, SignalId, port_struct, ports};

port_struct!(
    pub(super) struct MatchUnitPorts {
        clk, rst, load, shift, src_load, dst_load, off_load, dst_in, off_in, next_in, load_in,
        dst_part, off, next_out, load_out,
    }
);

/// The comparator of a match unit: equal letters, or unequal under the flipped-comparator
/// fault.
fn compare(fault: Option<Fault>, a: Expr, b: Expr) -> Expr {
    match fault {
        Some(Fault::FlippedComparator) => a.ne(b),
        _ => a.eq(b),
    }
}

pub(super) fn match_unit(
    params: &RouteGenParams,
    fault: Option<Fault>,
) -> (Module, MatchUnitPorts) {
    let w = params.letter_bits();
    let mut m = Module::new(
        name(params, "match_unit"),
        &[
            "one match unit (Fig. 5 of the route-generator paper, Smit et al. 1991): a source letter,",
            "a destination letter and their comparator.",
            "The destination letter and the off bit move one unit to the right on each shift;",
            "a unit that is off always reports a match, so the chain tests ever shorter overlaps.",
            "The comparator tests the letters the unit will hold after the next shift or load, so",
            "that the match block can register the result a cycle before it is tested.",
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
    let next_in = m.input(
        "next_in",
        1,
        "match of the units to the left after the next shift",
    );
    let load_in = m.input(
        "load_in",
        1,
        "match of the units to the left as they are loaded",
    );
    let src_part = m.internal("src_part", w, "source letter (src_part)");
    let dst_part = m.output("dst_part", w, "destination letter (dst_part)");
    let off = m.output(
        "off",
        1,
        "comparator switched off (the sel signal of the paper)",
    );
    let next_out = m.output(
        "next_out",
        1,
        "match of this unit and all units to its left after the next shift",
    );
    let load_out = m.output(
        "load_out",
        1,
        "match of this unit and all units to its left as they are loaded",
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
    m.assign(
        next_out,
        Expr::from(next_in).and(Expr::from(off_in).or(compare(
            fault,
            src_part.into(),
            dst_in.into(),
        ))),
        "Comparator on the letter the next shift brings, bypassed when the unit will be off.",
    );
    m.assign(
        load_out,
        Expr::from(load_in).and(Expr::from(off_load).or(compare(
            fault,
            src_load.into(),
            dst_load.into(),
        ))),
        "Comparator on the letters init loads, bypassed when the unit starts off.",
    );
    let ports = ports!(
        m,
        MatchUnitPorts {
            clk = clocking.clock, rst = clocking.reset, load, shift, src_load, dst_load,
            off_load, dst_in, off_in, next_in, load_in, dst_part, off, next_out, load_out,
        }
    );
    (m, ports)
}

port_struct!(
    pub(super) struct MatchBlockPorts {
        clk, rst, load, shift, src, dst, matched, in_letter, in_next, shifted_out, full,
    }
);

pub(super) fn match_block(
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
        "every unit that is on matches: the overlap exists (registered)",
    );
    let in_letter = m.output(
        "in_letter",
        w,
        "source letter of the last unit switched off: a(p)",
    );
    let in_next = m.output("in_next", w, "a(p+1), the in-letter after the next shift");
    let shifted_out = m.output(
        "shifted_out",
        w,
        "destination letter of the last unit, the next to leave",
    );
    let full = m.output("full", 1, "every unit is off: p = k, overlap 0");
    let chain = UnitChain::declare(&mut m, k, w);
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
            .bind(&p.dst_in, left(&chain.dst_parts, Expr::zero(w)))
            .bind(&p.off_in, left(&chain.offs, Expr::bit(true)))
            .bind(&p.next_in, left(&chain.nexts, Expr::bit(true)))
            .bind(&p.load_in, left(&chain.loads, Expr::bit(true)))
            .bind(&p.dst_part, chain.dst_parts[i])
            .bind(&p.off, chain.offs[i])
            .bind(&p.next_out, chain.nexts[i])
            .bind(&p.load_out, chain.loads[i]);
        m.instance(
            &format!("u_unit_{i}"),
            connections,
            &format!("Match unit {i}: compares source letter a{}.", i + 1),
        );
    }
    let last = k - 1;
    m.register(
        matched,
        0,
        Expr::mux(
            load.into(),
            chain.loads[last].into(),
            Expr::mux(shift.into(), chain.nexts[last].into(), matched.into()),
        ),
        "The match of the units as they will be after this clock: the chain changes only on load and shift.",
    );
    in_letters(&mut m, params, (load, shift, src), (in_letter, in_next));
    m.assign(
        shifted_out,
        chain.dst_parts[last].into(),
        "The letter that leaves the block on the next shift.",
    );
    m.assign(
        full,
        chain.offs[last].into(),
        "The off front has reached the last unit.",
    );
    let ports = ports!(
        m,
        MatchBlockPorts {
            clk = clk.clock, rst = clk.reset, load, shift, src, dst, matched, in_letter,
            in_next, shifted_out, full,
        }
    );
    (m, ports)
}

/// The source letters from a(p) on, shifted with the off front: the units that are off
/// form a prefix 0..p-1, and the last of them holds a(p), the in-letter of the overlap
/// tested. A register of its own rather than a multiplexer over the units, so that a(p)
/// and a(p+1) are register outputs.
fn in_letters(
    m: &mut Module,
    params: &RouteGenParams,
    (load, shift, src): (SignalId, SignalId, SignalId),
    (in_letter, in_next): (SignalId, SignalId),
) {
    let (k, w) = (params.k() as u32, params.letter_bits());
    let letters = m.internal(
        "in_letters",
        k * w,
        "a(p), a(p+1), .., ak, zero-filled: a(p) in the most significant letter",
    );
    let shifted = if k == 1 {
        Expr::zero(w)
    } else {
        Expr::concat(vec![
            Expr::Slice {
                signal: letters,
                lo: 0,
                width: (k - 1) * w,
            },
            Expr::zero(w),
        ])
    };
    m.register(
        letters,
        0,
        Expr::mux(
            load.into(),
            src.into(),
            Expr::mux(shift.into(), shifted, letters.into()),
        ),
        "Loaded with the source; each shift moves the next source letter to the front.",
    );
    let at = |i: u32| Expr::Slice {
        signal: letters,
        lo: (k - 1 - i) * w,
        width: w,
    };
    m.assign(in_letter, at(0), "a(p).");
    m.assign(
        in_next,
        if k == 1 { Expr::zero(w) } else { at(1) },
        "a(p+1); with k = 1 there is no shift.",
    );
}

/// The signals of the k match units of the match block, unit 0 first.
struct UnitChain {
    dst_parts: Vec<SignalId>,
    offs: Vec<SignalId>,
    nexts: Vec<SignalId>,
    loads: Vec<SignalId>,
}

impl UnitChain {
    /// The signals of each unit, declared unit by unit.
    fn declare(m: &mut Module, k: usize, w: u32) -> Self {
        let mut chain = UnitChain {
            dst_parts: Vec::new(),
            offs: Vec::new(),
            nexts: Vec::new(),
            loads: Vec::new(),
        };
        for i in 0..k {
            chain.dst_parts.push(m.internal(
                &format!("dst_part_{i}"),
                w,
                &format!("destination letter in unit {i}"),
            ));
            chain
                .offs
                .push(m.internal(&format!("off_{i}"), 1, &format!("unit {i} switched off")));
            chain.nexts.push(m.internal(
                &format!("next_{i}"),
                1,
                &format!("units 0..{i} match after the next shift"),
            ));
            chain.loads.push(m.internal(
                &format!("load_{i}"),
                1,
                &format!("units 0..{i} match as init loads them"),
            ));
        }
        chain
    }
}
