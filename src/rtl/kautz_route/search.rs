//! The combinational blocks of the route search that the parallel generator
//! ([`super::parallel`]) and the pipelined engine ([`super::pipelined`]) share: the
//! overlaps of source and destination, phase A's candidates and priority encoder, the
//! first-free letter encoders, the phase multiplexer and the marks of a route taken.
//! The parallel design wires them into one chooser; the pipelined engine cuts that chooser
//! in two registered halves.

use super::{Fault, RouteGenParams, decode, letter, name};
use crate::rtl::const_arith::bit;
use crate::rtl::ir::{Connections, Expr, Module, SignalId, port_struct, ports};
use std::ops::Not;

/// `then` when `cond`, else zero: one term of an AND-OR multiplexer.
fn gate(cond: Expr, then: Expr, width: u32) -> Expr {
    Expr::mux(cond, then, Expr::zero(width))
}

/// Whether letter `x` is marked in the mask `used` of d+1 bits.
fn is_used(used: SignalId, x: Expr, w: u32, d: usize) -> Expr {
    Expr::from(used).and(decode(x, w, d)).any()
}

port_struct!(
    /// The ports of [`overlaps`].
    pub(super) struct OverlapsPorts { tail, head, overlap }
);

pub(super) fn overlaps(params: &RouteGenParams, fault: Option<Fault>) -> (Module, OverlapsPorts) {
    let (k, w) = (params.k(), params.letter_bits());
    let tail_bits = (k as u32 - 1) * w;
    let mut m = Module::new(
        name(params, "overlaps"),
        &[
            "every overlap at once: bit v-1 is set when the last v letters of the source are the",
            "first v of the destination, for v = 1..k-1 (overlap 0 always exists).",
        ],
    );
    let tail = m.input(
        "tail",
        tail_bits,
        "source letters a2..ak, a2 most significant",
    );
    let head = m.input(
        "head",
        tail_bits,
        "destination letters b1..b(k-1), b1 most significant",
    );
    let overlap = m.output("overlap", k as u32 - 1, "bit v-1: overlap v exists");
    let letters = k - 1;
    let same = |a: Expr, b: Expr| match fault {
        Some(Fault::FlippedComparator) => a.ne(b),
        _ => a.eq(b),
    };
    // One signal per overlap: a single expression of all k(k-1)/2 comparisons would be
    // longer than Verilator takes on one line for k = 64.
    let mut bits = Vec::new();
    for v in (1..k).rev() {
        let bit = m.internal(&format!("overlap_{v}"), 1, &format!("overlap {v} exists"));
        // The last v source letters are tail letters k-1-v.., the first v of the
        // destination head letters 0..v.
        let compare = (0..v).map(|j| {
            same(
                letter(tail, k - 1 - v + j, letters, w),
                letter(head, j, letters, w),
            )
        });
        m.assign(
            bit,
            Expr::and_all(compare),
            &format!("Overlap {v}: {v} letter comparisons."),
        );
        bits.push(Expr::from(bit));
    }
    m.assign(overlap, Expr::concat(bits), "All overlaps at once.");
    let ports = ports!(
        m,
        OverlapsPorts {
            tail,
            head,
            overlap
        }
    );
    (m, ports)
}

port_struct!(
    /// The ports of [`phase_a`] and of the parallel design's chooser: the next route over
    /// the used masks.
    pub(super) struct ChooserPorts {
        overlap: ?, src, dst, used_out, used_in, found, route, route_len, out_letter, in_letter,
    }
);

pub(super) fn phase_a(params: &RouteGenParams) -> (Module, ChooserPorts) {
    let (k, d, w, lw) = (
        params.k(),
        params.d(),
        params.letter_bits(),
        params.length_bits(),
    );
    let kw = k as u32 * w;
    let route_bits = (k as u32 + 2) * w;
    let mut m = Module::new(
        name(params, "phase_a"),
        &[
            "phase A in one step: the longest overlap whose out-letter b(v+1) and in-letter a(k-v)",
            "are both free, chosen by a priority encoder over the k overlaps.",
        ],
    );
    let overlap = (k > 1).then(|| m.input("overlap", k as u32 - 1, "bit v-1: overlap v exists"));
    let src = m.input("src", kw, "source word, a1 in the most significant letter");
    let dst = m.input(
        "dst",
        kw,
        "destination word, b1 in the most significant letter",
    );
    let used_out = m.input("used_out", d as u32 + 1, "bit i: out-letter i used");
    let used_in = m.input("used_in", d as u32 + 1, "bit i: in-letter i used");
    let found = m.output("found", 1, "some overlap has both letters free");
    let route = m.output(
        "route",
        route_bits,
        "its hops b(v+1)..bk, first hop in the most significant letter",
    );
    let route_len = m.output("route_len", lw, "its length k-v");
    let out_letter = m.output("out_letter", w, "its out-letter b(v+1)");
    let in_letter = m.output("in_letter", w, "its in-letter a(k-v)");
    let pick = phase_a_pick(
        &mut m,
        params,
        PhaseAIn {
            overlap,
            src,
            dst,
            used_out,
            used_in,
        },
        found,
    );
    phase_a_select(
        &mut m,
        params,
        pick,
        (src, dst),
        [route, route_len, out_letter, in_letter],
    );
    let ports = ports!(
        m,
        ChooserPorts {
            overlap: ?, src, dst, used_out, used_in, found, route, route_len, out_letter,
            in_letter,
        }
    );
    (m, ports)
}

/// Phase A's inputs: the overlaps, the words and the used masks.
pub(super) struct PhaseAIn {
    pub overlap: Option<SignalId>,
    pub src: SignalId,
    pub dst: SignalId,
    pub used_out: SignalId,
    pub used_in: SignalId,
}

/// Phase A's first half, added to `m`: every overlap tested against the used masks and
/// the longest candidate picked; `found` is driven, the one-hot pick (bit v: overlap v)
/// returned.
pub(super) fn phase_a_pick(
    m: &mut Module,
    params: &RouteGenParams,
    input: PhaseAIn,
    found: SignalId,
) -> SignalId {
    let (k, d, w) = (params.k(), params.d(), params.letter_bits());
    let PhaseAIn {
        overlap,
        src,
        dst,
        used_out,
        used_in,
    } = input;
    let candidate = m.internal(
        "candidate",
        k as u32,
        "bit v: overlap v exists and both its letters are free",
    );
    let pick = m.internal(
        "pick",
        k as u32,
        "bit v: overlap v is the longest candidate",
    );
    // One signal per overlap, so that no line grows with k*d.
    let mut candidates = Vec::new();
    for v in (0..k).rev() {
        let exists = match (v, overlap) {
            (0, _) | (_, None) => Expr::bit(true),
            (_, Some(overlap)) => bit(overlap, v as u32 - 1),
        };
        let free = m.internal(
            &format!("candidate_{v}"),
            1,
            &format!("overlap {v} exists and both its letters are free"),
        );
        m.assign(
            free,
            exists
                .and(is_used(used_out, letter(dst, v, k, w), w, d).not())
                .and(is_used(used_in, letter(src, k - 1 - v, k, w), w, d).not()),
            &format!("Overlap {v} against the used masks."),
        );
        candidates.push(Expr::from(free));
    }
    m.assign(
        candidate,
        Expr::concat(candidates),
        "Every overlap tested at once.",
    );
    let picks = (0..k as u32).rev().map(|v| {
        let longer = Expr::Slice {
            signal: candidate,
            lo: v + 1,
            width: k as u32 - 1 - v,
        };
        match v + 1 == k as u32 {
            true => bit(candidate, v),
            false => bit(candidate, v).and(longer.any().not()),
        }
    });
    m.assign(
        pick,
        Expr::concat(picks.collect()),
        "Priority encoder: the candidate with no longer candidate above it.",
    );
    m.assign(found, Expr::from(candidate).any(), "Any candidate.");
    pick
}

/// Phase A's second half, added to `m`: the picked overlap's route, length, out- and
/// in-letter (`outs`, in that order) from the one-hot `pick` and the words.
pub(super) fn phase_a_select(
    m: &mut Module,
    params: &RouteGenParams,
    pick: SignalId,
    (src, dst): (SignalId, SignalId),
    outs: [SignalId; 4],
) {
    let (k, w, lw) = (params.k(), params.letter_bits(), params.length_bits());
    let route_bits = (k as u32 + 2) * w;
    let [route, route_len, out_letter, in_letter] = outs;
    let select = |part: &dyn Fn(usize) -> Expr, width: u32| {
        Expr::or_all((0..k).map(|v| gate(bit(pick, v as u32), part(v), width)))
    };
    m.assign(
        route,
        select(
            &|v| {
                Expr::concat(vec![
                    Expr::Slice {
                        signal: dst,
                        lo: 0,
                        width: (k - v) as u32 * w,
                    },
                    Expr::zero((v as u32 + 2) * w),
                ])
            },
            route_bits,
        ),
        "The picked overlap's hops, left-aligned: an AND-OR multiplexer on the one-hot pick.",
    );
    m.assign(
        route_len,
        select(&|v| Expr::konst(lw, (k - v) as u64), lw),
        "",
    );
    m.assign(out_letter, select(&|v| letter(dst, v, k, w), w), "");
    m.assign(in_letter, select(&|v| letter(src, k - 1 - v, k, w), w), "");
}

port_struct!(
    /// The ports of [`first_free`].
    pub(super) struct FirstFreePorts { free, found, letter }
);

pub(super) fn first_free(params: &RouteGenParams) -> (Module, FirstFreePorts) {
    let (d, w) = (params.d(), params.letter_bits());
    let mut m = Module::new(
        name(params, "first_free"),
        &["a priority encoder: the smallest letter whose bit is set in a mask of d+1 letters."],
    );
    let free = m.input("free", d as u32 + 1, "bit i: letter i is free");
    let found = m.output("found", 1, "some letter is free");
    let letter_q = m.output("letter", w, "the smallest free letter (0 when none)");
    m.assign(found, Expr::from(free).any(), "Any letter free.");
    // Letter 0 is all zeros and needs no term.
    let terms = (1..=d as u32).map(|i| {
        let smaller = Expr::Slice {
            signal: free,
            lo: 0,
            width: i,
        };
        gate(
            bit(free, i).and(smaller.any().not()),
            Expr::konst(w, i.into()),
            w,
        )
    });
    m.assign(
        letter_q,
        Expr::or_all(terms),
        "Letter i when it is free and no smaller letter is.",
    );
    let ports = ports!(
        m,
        FirstFreePorts {
            free, found, letter = letter_q,
        }
    );
    (m, ports)
}

pub(super) fn chooser(
    params: &RouteGenParams,
    (phase_a, p): &(Module, ChooserPorts),
    first_free: &(Module, FirstFreePorts),
    fault: Option<Fault>,
) -> (Module, ChooserPorts) {
    let (k, d, w, lw) = (
        params.k(),
        params.d(),
        params.letter_bits(),
        params.length_bits(),
    );
    let kw = k as u32 * w;
    let route_bits = (k as u32 + 2) * w;
    let letters = d as u32 + 1;
    let mut m = Module::new(
        name(params, "chooser"),
        &[
            "the next route of the golden order over the current used masks: phase A's longest free",
            "overlap, else phase B's smallest letter free on both sides, else phase C's smallest free",
            "out-letter and smallest free in-letter.",
        ],
    );
    let overlap = (k > 1).then(|| m.input("overlap", k as u32 - 1, "bit v-1: overlap v exists"));
    let src = m.input("src", kw, "source word");
    let dst = m.input("dst", kw, "destination word");
    let used_out = m.input("used_out", letters, "bit i: out-letter i used");
    let used_in = m.input("used_in", letters, "bit i: in-letter i used");
    let found = m.output("found", 1, "a further route exists");
    let route = m.output("route", route_bits, "its hops, first most significant");
    let route_len = m.output("route_len", lw, "its length");
    let out_letter = m.output("out_letter", w, "its out-letter, to mark used");
    let in_letter = m.output("in_letter", w, "its in-letter, to mark used");
    let signal = |m: &mut Module, n: &str, width: u32, doc: &str| m.internal(n, width, doc);
    let found_a = signal(&mut m, "found_a", 1, "phase A: a route");
    let route_a = signal(&mut m, "route_a", route_bits, "phase A: its hops");
    let len_a = signal(&mut m, "len_a", lw, "phase A: its length");
    let out_a = signal(&mut m, "out_a", w, "phase A: its out-letter");
    let in_a = signal(&mut m, "in_a", w, "phase A: its in-letter");
    let found_b = signal(&mut m, "found_b", 1, "phase B: a letter free on both sides");
    let letter_b = signal(&mut m, "letter_b", w, "phase B: the smallest");
    let found_out = signal(&mut m, "found_out", 1, "phase C: a free out-letter");
    let letter_out = signal(&mut m, "letter_out", w, "phase C: the smallest");
    let found_in = signal(&mut m, "found_in", 1, "phase C: a free in-letter");
    let letter_in = signal(&mut m, "letter_in", w, "phase C: the smallest");
    let connections = Connections::of(phase_a)
        .bind_opt(&p.overlap, overlap)
        .bind(&p.src, src)
        .bind(&p.dst, dst)
        .bind(&p.used_out, used_out)
        .bind(&p.used_in, used_in)
        .bind(&p.found, found_a)
        .bind(&p.route, route_a)
        .bind(&p.route_len, len_a)
        .bind(&p.out_letter, out_a)
        .bind(&p.in_letter, in_a);
    m.instance("u_phase_a", connections, "Phase A: every overlap at once.");
    free_letters(
        &mut m,
        first_free,
        [used_out, used_in],
        letters,
        fault,
        [
            (found_b, letter_b),
            (found_out, letter_out),
            (found_in, letter_in),
        ],
    );
    pick_phase(
        &mut m,
        params,
        dst,
        &Phases {
            found_a,
            route_a,
            len_a,
            out_a,
            in_a,
            found_b,
            letter_b,
            found_out,
            letter_out,
            found_in,
            letter_in,
        },
        [found, route, route_len, out_letter, in_letter],
    );
    let ports = ports!(
        m,
        ChooserPorts {
            overlap: ?, src, dst, used_out, used_in, found, route, route_len, out_letter,
            in_letter,
        }
    );
    (m, ports)
}

/// Adds to `m` the smallest-free-letter encoders of phases B and C over the masks `used`
/// (out, in) of `letters` bits, driving `found` and `letter` of each of: phase B (free as
/// out- and as in-letter), phase C's out-letter, phase C's in-letter.
pub(super) fn free_letters(
    m: &mut Module,
    (first_free, p): &(Module, FirstFreePorts),
    [used_out, used_in]: [SignalId; 2],
    letters: u32,
    fault: Option<Fault>,
    [b, c_out, c_in]: [(SignalId, SignalId); 3],
) {
    for (label, free, (found, letter), doc) in [
        (
            "u_free_b",
            free_both(used_out, used_in, letters, fault),
            b,
            "Phase B: the smallest letter free as out- and as in-letter.",
        ),
        (
            "u_free_out",
            Expr::from(used_out).not(),
            c_out,
            "Phase C: the smallest free out-letter.",
        ),
        (
            "u_free_in",
            Expr::from(used_in).not(),
            c_in,
            "Phase C: the smallest free in-letter.",
        ),
    ] {
        let connections = Connections::of(first_free)
            .bind(&p.free, free)
            .bind(&p.found, found)
            .bind(&p.letter, letter);
        m.instance(label, connections, doc);
    }
}

/// Phase B's mask: the letters free as out- and as in-letter; none with the skipped phase B.
pub(super) fn free_both(
    used_out: SignalId,
    used_in: SignalId,
    letters: u32,
    fault: Option<Fault>,
) -> Expr {
    match fault {
        Some(Fault::PhaseBSkipped) => Expr::zero(letters),
        _ => Expr::from(used_out).or(used_in.into()).not(),
    }
}

/// What each phase found over the same masks, for [`pick_phase`].
#[derive(Clone, Copy)]
pub(super) struct Phases {
    pub found_a: SignalId,
    pub route_a: SignalId,
    pub len_a: SignalId,
    pub out_a: SignalId,
    pub in_a: SignalId,
    pub found_b: SignalId,
    pub letter_b: SignalId,
    pub found_out: SignalId,
    pub letter_out: SignalId,
    pub found_in: SignalId,
    pub letter_in: SignalId,
}

/// The chooser's last part, added to `m`: phase A's route if it has one, else B's, else
/// C's; drives `outs` = found, route, route_len, out_letter, in_letter.
pub(super) fn pick_phase(
    m: &mut Module,
    params: &RouteGenParams,
    dst: SignalId,
    p: &Phases,
    outs: [SignalId; 5],
) {
    let (k, w, lw) = (params.k(), params.letter_bits(), params.length_bits());
    let [found, route, route_len, out_letter, in_letter] = outs;
    let Phases {
        found_a,
        route_a,
        len_a,
        out_a,
        in_a,
        found_b,
        letter_b,
        found_out,
        letter_out,
        found_in,
        letter_in,
    } = *p;
    m.assign(
        found,
        Expr::or_all([
            found_a.into(),
            found_b.into(),
            Expr::from(found_out).and(found_in.into()),
        ]),
        "A route of some phase; phase C needs both letters.",
    );
    let by_phase =
        |a: Expr, b: Expr, c: Expr| Expr::mux(found_a.into(), a, Expr::mux(found_b.into(), b, c));
    m.assign(
        route,
        by_phase(
            route_a.into(),
            Expr::concat(vec![letter_b.into(), dst.into(), Expr::zero(w)]),
            Expr::concat(vec![letter_out.into(), letter_in.into(), dst.into()]),
        ),
        "Phase A's route, else c b1..bk (B), else c c' b1..bk (C).",
    );
    m.assign(
        route_len,
        by_phase(
            len_a.into(),
            Expr::konst(lw, k as u64 + 1),
            Expr::konst(lw, k as u64 + 2),
        ),
        "",
    );
    m.assign(
        out_letter,
        by_phase(out_a.into(), letter_b.into(), letter_out.into()),
        "",
    );
    m.assign(
        in_letter,
        by_phase(in_a.into(), letter_b.into(), letter_in.into()),
        "",
    );
}

/// One bit per letter, bit i set when `x == i`; with the fault, letter 0 never.
pub(super) fn mark(x: SignalId, w: u32, d: usize, fault: Option<Fault>) -> Expr {
    match fault {
        Some(Fault::UsedBitNeverSet) => Expr::concat(
            (1..=d)
                .rev()
                .map(|i| Expr::from(x).eq(Expr::konst(w, i as u64)))
                .chain([Expr::bit(false)])
                .collect(),
        ),
        _ => decode(x.into(), w, d),
    }
}

/// Bits `lo..lo+letters` of a one-hot mark `mask` as they are marked used: with the fault,
/// letter 0 never (masked off, so that the bit is still read).
pub(super) fn marked_slice(mask: SignalId, lo: u32, letters: u32, fault: Option<Fault>) -> Expr {
    let slice = Expr::Slice {
        signal: mask,
        lo,
        width: letters,
    };
    match fault {
        Some(Fault::UsedBitNeverSet) => slice.and(Expr::concat(vec![
            Expr::zero(letters - 1).not(),
            Expr::bit(false),
        ])),
        _ => slice,
    }
}
