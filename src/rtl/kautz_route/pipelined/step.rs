//! The blocks of a route step of the pipelined engine, each a few LUT levels deep, and the
//! last stage's check:
//! - **choose** (first half): phase A's pick, the longest overlap still alive, one-hot;
//!   phases B and C's smallest free letters, one-hot; which phase takes the route.
//! - **route** and **marks** (second half, side by side): from the registered choice, the
//!   route and its length; the masks with its letters marked, and the overlaps its letters
//!   block struck from the alive ones, for the steps after.
//! - **whole**: whether the last step completes the masks.
//!
//! Phase A reads no letter: the front found, for every pair of overlaps, whether the route
//! of one uses a letter of the other, so striking what a pick blocks keeps `alive` equal
//! to the candidates of the parallel design's chooser over the used masks.

use super::super::search::{free_both, marked_slice};
use super::super::{Fault, RouteGenParams, name};
use super::state::{Choice, FREE_LETTERS, Search};
use crate::rtl::const_arith::bit;
use crate::rtl::ir::{Expr, Module, Port, SignalId};
use std::ops::Not;

/// `then` when `cond`, else zero: one term of an AND-OR multiplexer.
fn gate(cond: Expr, then: Expr, width: u32) -> Expr {
    Expr::mux(cond, then, Expr::zero(width))
}

/// Bits `lo..lo+width` of `signal`.
fn slice(signal: SignalId, lo: u32, width: u32) -> Expr {
    Expr::Slice { signal, lo, width }
}

/// The smallest letter set in `free` (of `letters` bits), one-hot; zero when none is.
fn first_set(free: SignalId, letters: u32) -> Expr {
    let bits = (0..letters).rev().map(|i| match i {
        0 => bit(free, 0),
        _ => bit(free, i).and(slice(free, 0, i).any().not()),
    });
    Expr::concat(bits.collect())
}

/// Whether phase B and whether phase C takes the route of a registered choice. Phase C
/// needs a free letter on each side, and before route i at most i+1 letters of each side
/// are used (the start's one and one a route), so each side has one: C needs no test of
/// its own.
fn phase_b_c(choice: &Choice) -> [Expr; 2] {
    let no_a = Expr::from(choice.no_a);
    [
        no_a.clone().and(choice.found_b.into()),
        no_a.and(Expr::from(choice.found_b).not()),
    ]
}

/// The ports of [`choose`].
pub(super) struct ChoosePorts {
    pub live: Port,
    pub alive: Port,
    pub used_out: Port,
    pub used_in: Port,
    pub out: Choice<Port>,
}

pub(super) fn choose(params: &RouteGenParams, fault: Option<Fault>) -> (Module, ChoosePorts) {
    let (k, letters) = (params.k() as u32, params.d() as u32 + 1);
    let mut m = Module::new(
        name(params, "route_choose"),
        &[
            "the first half of a route step: phase A's longest alive overlap and phases B and C's",
            "smallest free letters, one-hot, and the phase that takes the route.",
        ],
    );
    let live = m.input("live", 1, "the pair has routes");
    let alive = m.input("alive", k, "bit v: overlap v is a candidate");
    let used_out = m.input("used_out", letters, "bit i: out-letter i used");
    let used_in = m.input("used_in", letters, "bit i: in-letter i used");
    let out = Choice::declare(&mut m, params, "", Module::output);
    let picks = (0..k).rev().map(|v| {
        let longer = slice(alive, v + 1, k - 1 - v);
        let pick = Expr::from(live).and(bit(alive, v));
        match v + 1 == k {
            true => pick,
            false => pick.and(longer.any().not()),
        }
    });
    m.assign(
        out.pick,
        Expr::concat(picks.collect()),
        "Phase A: the alive overlap with no longer alive one above it.",
    );
    let masks = [
        free_both(used_out, used_in, letters, fault),
        Expr::from(used_out).not(),
        Expr::from(used_in).not(),
    ];
    let mut free_b = None;
    for ((n, doc), (mask, onehot)) in FREE_LETTERS.iter().zip(masks.into_iter().zip(out.onehots)) {
        let free = m.internal(&format!("free_{n}"), letters, doc);
        m.assign(free, mask, "");
        m.assign(onehot, first_set(free, letters), "Its smallest, one-hot.");
        free_b.get_or_insert(free);
    }
    m.assign(
        out.found_b,
        Expr::from(free_b.expect("phase B's letters")).any(),
        "",
    );
    m.assign(
        out.no_a,
        Expr::from(live).and(Expr::from(alive).any().not()),
        "Phases B and C when phase A has no candidate.",
    );
    let ports = ChoosePorts {
        live: m.port_of(live),
        alive: m.port_of(alive),
        used_out: m.port_of(used_out),
        used_in: m.port_of(used_in),
        out: out.map(|&id| m.port_of(id)),
    };
    (m, ports)
}

/// The ports of [`route`].
pub(super) struct RoutePorts {
    pub dst: Port,
    pub choice: Choice<Port>,
    pub route: Port,
    pub route_len: Port,
}

pub(super) fn route(params: &RouteGenParams) -> (Module, RoutePorts) {
    let (k, d, w, lw) = (
        params.k() as u32,
        params.d() as u32,
        params.letter_bits(),
        params.length_bits(),
    );
    let route_bits = (k + 2) * w;
    let mut m = Module::new(
        name(params, "route_take"),
        &[
            "the route a registered choice names and its length; zero when it names none (the pair",
            "has no further route or is not live).",
        ],
    );
    let dst = m.input("dst", k * w, "destination word");
    let choice = Choice::declare(&mut m, params, "", Module::input);
    let route = m.output("route", route_bits, "its hops, first most significant");
    let route_len = m.output("route_len", lw, "its length");
    let [letter_b, letter_out, letter_in] = FREE_LETTERS
        .map(|(n, doc)| m.internal(&format!("letter_{n}"), w, &format!("{doc}, its number")));
    for (letter, onehot) in [letter_b, letter_out, letter_in]
        .into_iter()
        .zip(choice.onehots)
    {
        // Letter 0's term is zero; it is kept so that every bit of the choice is read.
        let terms = (0..=d).map(|i| gate(bit(onehot, i), Expr::konst(w, i.into()), w));
        m.assign(
            letter,
            Expr::or_all(terms),
            "Each one-hot letter as a number.",
        );
    }
    let pick = |v: u32| bit(choice.pick, v);
    let [sel_b, sel_c] = phase_b_c(&choice);
    let phase_a = (0..k).map(|v| {
        let hops = Expr::concat(vec![slice(dst, 0, (k - v) * w), Expr::zero((v + 2) * w)]);
        gate(pick(v), hops, route_bits)
    });
    let phase_b = Expr::concat(vec![letter_b.into(), dst.into(), Expr::zero(w)]);
    let phase_c = Expr::concat(vec![letter_out.into(), letter_in.into(), dst.into()]);
    m.assign(
        route,
        Expr::or_all(phase_a.chain([
            gate(sel_b.clone(), phase_b, route_bits),
            gate(sel_c.clone(), phase_c, route_bits),
        ])),
        "Overlap v's hops b(v+1)..bk (A), c b1..bk (B), c c' b1..bk (C): an AND-OR multiplexer.",
    );
    let lengths = (0..k).map(|v| gate(pick(v), Expr::konst(lw, (k - v).into()), lw));
    m.assign(
        route_len,
        Expr::or_all(lengths.chain([
            gate(sel_b, Expr::konst(lw, (k + 1).into()), lw),
            gate(sel_c, Expr::konst(lw, (k + 2).into()), lw),
        ])),
        "",
    );
    let ports = RoutePorts {
        dst: m.port_of(dst),
        choice: choice.map(|&id| m.port_of(id)),
        route: m.port_of(route),
        route_len: m.port_of(route_len),
    };
    (m, ports)
}

/// The ports of [`marks`]: the search before the step and after it.
pub(super) struct MarksPorts {
    pub search: Search<Port>,
    pub choice: Choice<Port>,
    pub alive_next: Port,
    pub used_out_next: Port,
    pub used_in_next: Port,
}

pub(super) fn marks(params: &RouteGenParams, fault: Option<Fault>) -> (Module, MarksPorts) {
    let (k, letters) = (params.k() as u32, params.d() as u32 + 1);
    let mut m = Module::new(
        name(params, "route_marks"),
        &[
            "the second half of a route step beside the route: the registered choice's letters",
            "marked used and the overlaps they block struck, for the steps after.",
        ],
    );
    let search = Search::declare(&mut m, params, "", true, Module::input);
    let blocks = search.blocks.expect("declared with its blocks");
    let choice = Choice::declare(&mut m, params, "", Module::input);
    let alive_next = m.output("alive_next", k, "the overlaps still candidates after it");
    let used_out_next = m.output("used_out_next", letters, "used out-letters after it");
    let used_in_next = m.output("used_in_next", letters, "used in-letters after it");
    let [_, onehot_out, onehot_in] = choice.onehots;
    let pick = |v: u32| bit(choice.pick, v);
    let [sel_b, sel_c] = phase_b_c(&choice);
    let phases = |overlaps: SignalId, onehot_c: SignalId| {
        let a = (0..k).map(|v| gate(pick(v), slice(overlaps, v * letters, letters), letters));
        Expr::or_all(a.chain([
            gate(sel_b.clone(), choice.onehots[0].into(), letters),
            gate(sel_c.clone(), onehot_c.into(), letters),
        ]))
    };
    for (n, overlaps, onehot_c, used, next) in [
        (
            "out",
            blocks.outs,
            onehot_out,
            search.used_out,
            used_out_next,
        ),
        ("in", blocks.ins, onehot_in, search.used_in, used_in_next),
    ] {
        let mark = m.internal(&format!("mark_{n}"), letters, "the route's letter, one-hot");
        m.assign(
            mark,
            phases(overlaps, onehot_c),
            "The picked overlap's, B's or C's.",
        );
        m.assign(
            next,
            Expr::from(used).or(marked_slice(mark, 0, letters, fault)),
            "",
        );
    }
    let blocked = (0..k).map(|p| gate(pick(p), slice(blocks.conf, p * k, k), k));
    m.assign(
        alive_next,
        Expr::from(search.alive).and(Expr::or_all(blocked).not()),
        "A pick blocks the overlaps that share a letter with it, itself included.",
    );
    let ports = MarksPorts {
        search: search.map(|&id| m.port_of(id)),
        choice: choice.map(|&id| m.port_of(id)),
        alive_next: m.port_of(alive_next),
        used_out_next: m.port_of(used_out_next),
        used_in_next: m.port_of(used_in_next),
    };
    (m, ports)
}

/// The ports of [`whole`].
pub(super) struct WholePorts {
    pub used_out: Port,
    pub used_in: Port,
    pub whole: Port,
}

/// Whether the last route step leaves every letter used. The chooser takes only free
/// letters and each step marks one of each side, so before the last step at least one
/// letter of each side is free; the set is whole when exactly one is and the last step's
/// mark sets it: its smallest free letter, marked as the marks mark it (fault included).
pub(super) fn whole(params: &RouteGenParams, fault: Option<Fault>) -> (Module, WholePorts) {
    let letters = params.d() as u32 + 1;
    let mut m = Module::new(
        name(params, "whole"),
        &[
            "whether the last route step, marking one letter of each side, leaves every letter used.",
        ],
    );
    let used_out = m.input("used_out", letters, "bit i: out-letter i used");
    let used_in = m.input("used_in", letters, "bit i: in-letter i used");
    let whole = m.output("whole", 1, "the set will be whole");
    let mut sides = Vec::new();
    for (n, used) in [("out", used_out), ("in", used_in)] {
        let free = m.internal(&format!("free_{n}"), letters, "the free letters");
        let first = m.internal(&format!("first_{n}"), letters, "the smallest, one-hot");
        m.assign(free, Expr::from(used).not(), "");
        m.assign(first, first_set(free, letters), "");
        sides.push(
            Expr::from(used)
                .or(marked_slice(first, 0, letters, fault))
                .all(),
        );
    }
    m.assign(
        whole,
        Expr::and_all(sides),
        "Each side full once its smallest free letter is marked.",
    );
    let ports = WholePorts {
        used_out: m.port_of(used_out),
        used_in: m.port_of(used_in),
        whole: m.port_of(whole),
    };
    (m, ports)
}
