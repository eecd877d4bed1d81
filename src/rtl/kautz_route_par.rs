//! The parallel route generator (`--arch parallel`): the ports, handshake and route order
//! of the generator of the route-generator paper (Smit et al. 1991; see docs/papers.md)
//! ([`crate::rtl::kautz_route_gen`]), one route per clock.
//!
//! In: the [`RouteGenParams`] of the faithful design and an optional built-in [`Fault`].
//! Out: a [`Design`] with the same top module and ports, of these blocks:
//! - **word check**: the faithful design's, unchanged.
//! - **overlaps**: every overlap v = 1..k-1 of the source's tail and the destination's head
//!   at once, compared while `init` loads them.
//! - **search state**: the words, their overlaps and the used out- and in-letter masks,
//!   loaded by `init` and marked by every route taken.
//! - **phase A**: the longest overlap whose out- and in-letters are both free, by a
//!   priority encoder over the k overlaps.
//! - **first free**: a priority encoder giving the smallest letter of a mask; one over the
//!   letters free on both sides (phase B), one each over the free out- and in-letters
//!   (phase C).
//! - **chooser**: the next route: phase A's if there is one, else B's, else C's.
//! - **handshake**: `init`, `next_route` and the registered outputs.
//!
//! No phase is kept: the used masks only grow, so a candidate of phase A or B that is not
//! free now never will be, and the next route of the golden model
//! ([`crate::routing::kautz::DisjointRoutes`]) is always the first candidate in phase
//! order over the current masks. `init` loads everything in its own clock edge, the next
//! edge shows the first route, and each edge with `next_route` the next one (or `done`):
//! [`CYCLE_BOUND`] cycles of work per route set.

use crate::rtl::const_arith::bit;
use crate::rtl::ir::{Design, Expr, Module, SignalId, Timing};
use crate::rtl::kautz_route_gen::{Fault, RouteGenParams, decode, letter, name, word_check};
use std::collections::BTreeMap;
use std::ops::Not;

/// Cycles of work from `init` to `done`, waiting for `next_route` not counted: the `init`
/// edge and the edge that shows the first route (or `done` after invalid words).
pub const CYCLE_BOUND: usize = 2;

/// The parallel route generator, with `fault` built in if there is one.
pub fn design(params: &RouteGenParams, fault: Option<Fault>) -> Design {
    let check = word_check(params);
    let overlaps = (params.k() > 1).then(|| overlaps(params, fault));
    let phase_a = phase_a(params);
    let first_free = first_free(params);
    let chooser = chooser(params, &phase_a, &first_free, fault);
    let state = search_state(params, fault);
    let handshake = handshake(params);
    let top = top(
        params,
        &check,
        overlaps.as_ref(),
        &state,
        &chooser,
        &handshake,
    );
    let mut modules = vec![check];
    modules.extend(overlaps);
    modules.extend([phase_a, first_free, chooser, state, handshake, top]);
    Design {
        modules,
        params: BTreeMap::from([
            ("cycle_bound".into(), CYCLE_BOUND as u64),
            ("d".into(), params.d() as u64),
            ("k".into(), params.k() as u64),
        ]),
        summary: format!(
            "route generator for the node-disjoint routes of the Kautz digraph K({},{}), one route per clock",
            params.d(),
            params.k()
        ),
        timing: Timing::Synchronous,
    }
}

/// `then` when `cond`, else zero: one term of an AND-OR multiplexer.
fn gate(cond: Expr, then: Expr, width: u32) -> Expr {
    Expr::mux(cond, then, Expr::zero(width))
}

/// Whether letter `x` is marked in the mask `used` of d+1 bits.
fn is_used(used: SignalId, x: Expr, w: u32, d: usize) -> Expr {
    Expr::from(used).and(decode(x, w, d)).any()
}

pub(crate) fn overlaps(params: &RouteGenParams, fault: Option<Fault>) -> Module {
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
    m
}

pub(crate) fn phase_a(params: &RouteGenParams) -> Module {
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
    m
}

/// Phase A's inputs: the overlaps, the words and the used masks.
pub(crate) struct PhaseAIn {
    pub overlap: Option<SignalId>,
    pub src: SignalId,
    pub dst: SignalId,
    pub used_out: SignalId,
    pub used_in: SignalId,
}

/// Phase A's first half, added to `m`: every overlap tested against the used masks and
/// the longest candidate picked; `found` is driven, the one-hot pick (bit v: overlap v)
/// returned.
pub(crate) fn phase_a_pick(
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
pub(crate) fn phase_a_select(
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

pub(crate) fn first_free(params: &RouteGenParams) -> Module {
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
    m
}

pub(crate) fn chooser(
    params: &RouteGenParams,
    phase_a: &Module,
    first_free: &Module,
    fault: Option<Fault>,
) -> Module {
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
    let mut a_ports = Vec::new();
    if let Some(overlap) = overlap {
        a_ports.push(("overlap", Expr::from(overlap)));
    }
    a_ports.extend([
        ("src", src.into()),
        ("dst", dst.into()),
        ("used_out", used_out.into()),
        ("used_in", used_in.into()),
        ("found", found_a.into()),
        ("route", route_a.into()),
        ("route_len", len_a.into()),
        ("out_letter", out_a.into()),
        ("in_letter", in_a.into()),
    ]);
    m.instance(
        phase_a,
        "u_phase_a",
        &a_ports,
        "Phase A: every overlap at once.",
    );
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
    m
}

/// Adds to `m` the smallest-free-letter encoders of phases B and C over the masks `used`
/// (out, in) of `letters` bits, driving `found` and `letter` of each of: phase B (free as
/// out- and as in-letter), phase C's out-letter, phase C's in-letter.
pub(crate) fn free_letters(
    m: &mut Module,
    first_free: &Module,
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
        m.instance(
            first_free,
            label,
            &[
                ("free", free),
                ("found", found.into()),
                ("letter", letter.into()),
            ],
            doc,
        );
    }
}

/// Phase B's mask: the letters free as out- and as in-letter; none with the skipped phase B.
fn free_both(used_out: SignalId, used_in: SignalId, letters: u32, fault: Option<Fault>) -> Expr {
    match fault {
        Some(Fault::PhaseBSkipped) => Expr::zero(letters),
        _ => Expr::from(used_out).or(used_in.into()).not(),
    }
}

/// What each phase found over the same masks, for [`pick_phase`].
#[derive(Clone, Copy)]
pub(crate) struct Phases {
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
pub(crate) fn pick_phase(
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
pub(crate) fn mark(x: SignalId, w: u32, d: usize, fault: Option<Fault>) -> Expr {
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

fn search_state(params: &RouteGenParams, fault: Option<Fault>) -> Module {
    let (k, d, w) = (params.k(), params.d(), params.letter_bits());
    let kw = k as u32 * w;
    let letters = d as u32 + 1;
    let mut m = Module::new(
        name(params, "search_state"),
        &[
            "the state of a search: the words and their overlaps, loaded by init, and the used",
            "out- and in-letter masks, each marked by every route taken.",
        ],
    );
    m.clocked();
    let load = m.input("load", 1, "start a new search (init)");
    let src = m.input("src", kw, "source word to load");
    let dst = m.input("dst", kw, "destination word to load");
    let overlap_in = (k > 1).then(|| m.input("overlap_in", k as u32 - 1, "their overlaps"));
    let take = m.input("take", 1, "a route is taken: mark its letters");
    let out_letter = m.input("out_letter", w, "the out-letter taken");
    let in_letter = m.input("in_letter", w, "the in-letter taken");
    let src_word = m.output("src_word", kw, "the source word");
    let dst_word = m.output("dst_word", kw, "the destination word");
    let overlap = (k > 1).then(|| m.output("overlap", k as u32 - 1, "bit v-1: overlap v exists"));
    let used_out = m.output("used_out", letters, "bit i: out-letter i used");
    let used_in = m.output("used_in", letters, "bit i: in-letter i used");
    let hold = |m: &mut Module, q: SignalId, value: SignalId, doc: &str| {
        m.register(q, 0, Expr::mux(load.into(), value.into(), q.into()), doc);
    };
    hold(
        &mut m,
        src_word,
        src,
        "The words stay put from init to init.",
    );
    hold(&mut m, dst_word, dst, "");
    if let (Some(q), Some(value)) = (overlap, overlap_in) {
        hold(&mut m, q, value, "");
    }
    for (used, first, taken, doc) in [
        (
            used_out,
            letter(src, k - 1, k, w),
            out_letter,
            "Used out-letters: ak names no out-neighbour.",
        ),
        (
            used_in,
            letter(dst, 0, k, w),
            in_letter,
            "Used in-letters: b1 names no in-neighbour.",
        ),
    ] {
        m.register(
            used,
            0,
            Expr::mux(
                load.into(),
                decode(first, w, d),
                Expr::mux(
                    take.into(),
                    Expr::from(used).or(mark(taken, w, d, fault)),
                    used.into(),
                ),
            ),
            doc,
        );
    }
    m
}

fn handshake(params: &RouteGenParams) -> Module {
    let (k, w, lw) = (params.k(), params.letter_bits(), params.length_bits());
    let route_bits = (k as u32 + 2) * w;
    let mut m = Module::new(
        name(params, "handshake"),
        &[
            "the handshake: the edge after init shows the first route, each edge with next_route",
            "the next one, or done when there is none; every output registered.",
        ],
    );
    m.clocked();
    let init = m.input("init", 1, "start a new search");
    let next_route = m.input("next_route", 1, "the route on the outputs has been taken");
    let valid = m.input("valid", 1, "src and dst are different nodes");
    let found = m.input("found", 1, "the chooser has a further route");
    let next = m.input("next", route_bits, "that route");
    let next_len = m.input("next_len", lw, "its length");
    let take = m.output(
        "take",
        1,
        "the chooser's route goes on the outputs this edge",
    );
    let route_valid = m.output("route_valid", 1, "a route is on the outputs");
    let route = m.output("route", route_bits, "the route shown");
    let route_len = m.output("route_len", lw, "its length");
    let done = m.output("done", 1, "no further route");
    let error = m.output("error", 1, "src or dst is not a node, or they are equal");
    let first = m.internal(
        "first",
        1,
        "the last edge loaded valid words: the first route is asked for",
    );
    let want = m.internal("want", 1, "a route is asked for this cycle");
    m.register(
        first,
        0,
        Expr::from(init).and(valid.into()),
        "Set by the init edge of valid words.",
    );
    m.assign(
        want,
        Expr::from(init)
            .not()
            .and(Expr::from(first).or(Expr::from(route_valid).and(next_route.into()))),
        "After init, and when the route shown is taken; init overrides.",
    );
    m.assign(
        take,
        Expr::from(want).and(found.into()),
        "A route asked for and found.",
    );
    m.register(
        route_valid,
        0,
        Expr::mux(
            want.into(),
            found.into(),
            Expr::from(route_valid).and(Expr::from(init).not()),
        ),
        "Registered outputs: a route is shown from the edge that finds it until init or the edge that takes it.",
    );
    m.register(
        done,
        0,
        Expr::mux(
            init.into(),
            Expr::from(valid).not(),
            Expr::mux(want.into(), Expr::from(found).not(), done.into()),
        ),
        "Done at once for invalid words, else when a route is asked for and none is left.",
    );
    m.register(
        error,
        0,
        Expr::mux(init.into(), Expr::from(valid).not(), error.into()),
        "Whether the last init had invalid words.",
    );
    for (q, value, width, doc) in [
        (
            route,
            next,
            route_bits,
            "The route found, held until the next one.",
        ),
        (route_len, next_len, lw, "Its length."),
    ] {
        m.register(
            q,
            0,
            Expr::mux(
                init.into(),
                Expr::zero(width),
                Expr::mux(take.into(), value.into(), q.into()),
            ),
            doc,
        );
    }
    m
}

fn top(
    params: &RouteGenParams,
    check: &Module,
    overlaps: Option<&Module>,
    state: &Module,
    chooser: &Module,
    handshake: &Module,
) -> Module {
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
        params.top.clone(),
        &[
            &format!(
                "route generator for K({d},{k}), one route per clock: after init, gives the {d} node-disjoint"
            ),
            "routes from src to dst one at a time in the order of section 4 of the route-generator paper",
            "(Smit et al. 1991); next_route takes the one shown.",
            "The first route_valid (or done) comes 2 cycles after init, each further one the cycle after next_route.",
        ],
    );
    let clocking = m.clocked();
    let init = m.input("init", 1, "capture src and dst and start a new search");
    let next_route = m.input("next_route", 1, "take the route shown and search on");
    let src = m.input("src", kw, "source node, a1 in the most significant letter");
    let dst = m.input(
        "dst",
        kw,
        "destination node, b1 in the most significant letter",
    );
    let route_valid = m.output("route_valid", 1, "route and route_len hold a route");
    let route = m.output(
        "route",
        route_bits,
        "hops z1..zL, z1 most significant, unused letters zero",
    );
    let route_len = m.output("route_len", lw, "number of hops L");
    let done = m.output("done", 1, "no further route (stays high until init or rst)");
    let error = m.output(
        "error",
        1,
        "src or dst is not a node of K(d,k), or src equals dst",
    );
    let signal = |m: &mut Module, n: &str, width: u32, doc: &str| m.internal(n, width, doc);
    let valid = signal(&mut m, "valid", 1, "src and dst are different nodes");
    let overlap_in = (k > 1).then(|| {
        signal(
            &mut m,
            "overlap_in",
            k as u32 - 1,
            "overlaps of src and dst",
        )
    });
    let src_word = signal(&mut m, "src_word", kw, "search state: source word");
    let dst_word = signal(&mut m, "dst_word", kw, "search state: destination word");
    let overlap = (k > 1).then(|| {
        signal(
            &mut m,
            "overlap",
            k as u32 - 1,
            "search state: their overlaps",
        )
    });
    let used_out = signal(
        &mut m,
        "used_out",
        letters,
        "search state: used out-letters",
    );
    let used_in = signal(&mut m, "used_in", letters, "search state: used in-letters");
    let found = signal(&mut m, "found", 1, "chooser: a further route");
    let next = signal(&mut m, "next", route_bits, "chooser: its hops");
    let next_len = signal(&mut m, "next_len", lw, "chooser: its length");
    let out_letter = signal(&mut m, "out_letter", w, "chooser: its out-letter");
    let in_letter = signal(&mut m, "in_letter", w, "chooser: its in-letter");
    let take = signal(&mut m, "take", 1, "handshake: the route is taken this edge");
    let (clk, rst) = (Expr::from(clocking.clock), Expr::from(clocking.reset));
    m.instance(
        check,
        "u_word_check",
        &[
            ("src", src.into()),
            ("dst", dst.into()),
            ("valid", valid.into()),
        ],
        "Input check.",
    );
    if let (Some(overlaps), Some(overlap_in)) = (overlaps, overlap_in) {
        let tail_bits = (k as u32 - 1) * w;
        m.instance(
            overlaps,
            "u_overlaps",
            &[
                (
                    "tail",
                    Expr::Slice {
                        signal: src,
                        lo: 0,
                        width: tail_bits,
                    },
                ),
                (
                    "head",
                    Expr::Slice {
                        signal: dst,
                        lo: w,
                        width: tail_bits,
                    },
                ),
                ("overlap", overlap_in.into()),
            ],
            "The overlaps, compared while init loads the words.",
        );
    }
    let mut state_ports = vec![
        ("clk", clk.clone()),
        ("rst", rst.clone()),
        ("load", Expr::from(init)),
        ("src", src.into()),
        ("dst", dst.into()),
    ];
    state_ports.extend(overlap_in.map(|o| ("overlap_in", Expr::from(o))));
    state_ports.extend([
        ("take", take.into()),
        ("out_letter", out_letter.into()),
        ("in_letter", in_letter.into()),
        ("src_word", src_word.into()),
        ("dst_word", dst_word.into()),
    ]);
    state_ports.extend(overlap.map(|o| ("overlap", Expr::from(o))));
    state_ports.extend([("used_out", used_out.into()), ("used_in", used_in.into())]);
    m.instance(state, "u_search_state", &state_ports, "Search state.");
    let mut chooser_ports: Vec<(&str, Expr)> = overlap
        .map(|o| ("overlap", Expr::from(o)))
        .into_iter()
        .collect();
    chooser_ports.extend([
        ("src", src_word.into()),
        ("dst", dst_word.into()),
        ("used_out", used_out.into()),
        ("used_in", used_in.into()),
        ("found", found.into()),
        ("route", next.into()),
        ("route_len", next_len.into()),
        ("out_letter", out_letter.into()),
        ("in_letter", in_letter.into()),
    ]);
    m.instance(
        chooser,
        "u_chooser",
        &chooser_ports,
        "The next route, in one cycle.",
    );
    m.instance(
        handshake,
        "u_handshake",
        &[
            ("clk", clk),
            ("rst", rst),
            ("init", init.into()),
            ("next_route", next_route.into()),
            ("valid", valid.into()),
            ("found", found.into()),
            ("next", next.into()),
            ("next_len", next_len.into()),
            ("take", take.into()),
            ("route_valid", route_valid.into()),
            ("route", route.into()),
            ("route_len", route_len.into()),
            ("done", done.into()),
            ("error", error.into()),
        ],
        "Handshake and output registers.",
    );
    m
}
