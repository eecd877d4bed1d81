//! The parallel route generator (`--arch parallel`): the ports, handshake and route order
//! of the generator of the route-generator paper (Smit et al. 1991; see docs/papers.md)
//! ([`super::faithful`]), one route per clock.
//!
//! In: the [`RouteGenParams`] of the faithful design and an optional built-in [`Fault`].
//! Out: a [`Design`] with the same top module and ports, of these blocks:
//! - **word check**: the faithful design's, unchanged.
//! - from [`super::search`]: **overlaps**: every overlap v = 1..k-1 of the source's tail and the destination's head
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

use super::TopPorts;
use super::search::{ChooserPorts, OverlapsPorts};
use super::search::{chooser, first_free, mark, overlaps, phase_a};
use super::{Fault, RouteGenParams, WordCheckPorts, decode, letter, name, word_check};
use crate::rtl::ir::{Connections, Design, Expr, Module, SignalId, Timing, port_struct, ports};
use std::collections::BTreeMap;
use std::ops::Not;

/// Cycles of work from `init` to `done`, waiting for `next_route` not counted: the `init`
/// edge and the edge that shows the first route (or `done` after invalid words).
pub const CYCLE_BOUND: usize = 2;

/// The parallel route generator, with `fault` built in if there is one.
pub(super) fn design(params: &RouteGenParams, fault: Option<Fault>) -> Design {
    let check = word_check(params);
    let overlaps = (params.k() > 1).then(|| overlaps(params, fault));
    let phase_a = phase_a(params);
    let first_free = first_free(params);
    let chooser = chooser(params, &phase_a, &first_free, fault);
    let state = search_state(params, fault);
    let handshake = handshake(params);
    let top = top(
        params,
        Blocks {
            check: &check,
            overlaps: overlaps.as_ref(),
            state: &state,
            chooser: &chooser,
            handshake: &handshake,
        },
    );
    let mut modules = vec![check.0];
    modules.extend(overlaps.map(|(module, _)| module));
    modules.extend([
        phase_a.0,
        first_free.0,
        chooser.0,
        state.0,
        handshake.0,
        top,
    ]);
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

port_struct!(
    struct SearchStatePorts {
        clk, rst, load, src, dst, overlap_in: ?, take, out_letter, in_letter, src_word,
        dst_word, overlap: ?, used_out, used_in,
    }
);

fn search_state(params: &RouteGenParams, fault: Option<Fault>) -> (Module, SearchStatePorts) {
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
    let clocking = m.clocked();
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
    let ports = ports!(
        m,
        SearchStatePorts {
            clk = clocking.clock, rst = clocking.reset, load, src, dst, overlap_in: ?, take,
            out_letter, in_letter, src_word, dst_word, overlap: ?, used_out, used_in,
        }
    );
    (m, ports)
}

port_struct!(
    struct HandshakePorts {
        clk, rst, init, next_route, valid, found, next, next_len, take, route_valid, route,
        route_len, done, error,
    }
);

fn handshake(params: &RouteGenParams) -> (Module, HandshakePorts) {
    let (k, w, lw) = (params.k(), params.letter_bits(), params.length_bits());
    let route_bits = (k as u32 + 2) * w;
    let mut m = Module::new(
        name(params, "handshake"),
        &[
            "the handshake: the edge after init shows the first route, each edge with next_route",
            "the next one, or done when there is none; every output registered.",
        ],
    );
    let clocking = m.clocked();
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
    let want = route_wanted(&mut m, init, next_route, valid, route_valid);
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
    let ports = ports!(
        m,
        HandshakePorts {
            clk = clocking.clock, rst = clocking.reset, init, next_route, valid, found, next,
            next_len, take, route_valid, route, route_len, done, error,
        }
    );
    (m, ports)
}

/// `want`, high in the cycles a route is asked for: after the `init` edge of valid words,
/// and when the route shown is taken.
fn route_wanted(
    m: &mut Module,
    init: SignalId,
    next_route: SignalId,
    valid: SignalId,
    route_valid: SignalId,
) -> SignalId {
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
    want
}

/// The blocks the top module instantiates, with their ports.
struct Blocks<'a> {
    check: &'a (Module, WordCheckPorts),
    overlaps: Option<&'a (Module, OverlapsPorts)>,
    state: &'a (Module, SearchStatePorts),
    chooser: &'a (Module, ChooserPorts),
    handshake: &'a (Module, HandshakePorts),
}

fn top(params: &RouteGenParams, blocks: Blocks) -> Module {
    let (k, d) = (params.k(), params.d());
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
    let io = TopPorts::declare(&mut m, params);
    let wires = Wires::declare(&mut m, params);
    let (check, p) = blocks.check;
    let connections = Connections::of(check)
        .bind(&p.src, io.src)
        .bind(&p.dst, io.dst)
        .bind(&p.valid, wires.valid);
    m.instance("u_word_check", connections, "Input check.");
    if let (Some(overlaps), Some(overlap_in)) = (blocks.overlaps, wires.overlap_in) {
        overlaps_instance(&mut m, params, &io, overlap_in, overlaps);
    }
    search_state_instance(&mut m, &io, &wires, blocks.state);
    chooser_instance(&mut m, &wires, blocks.chooser);
    handshake_instance(&mut m, &io, &wires, blocks.handshake);
    m
}

/// The wires between the top's blocks, named for the block that drives them.
struct Wires {
    valid: SignalId,
    overlap_in: Option<SignalId>,
    src_word: SignalId,
    dst_word: SignalId,
    overlap: Option<SignalId>,
    used_out: SignalId,
    used_in: SignalId,
    found: SignalId,
    next: SignalId,
    next_len: SignalId,
    out_letter: SignalId,
    in_letter: SignalId,
    take: SignalId,
}

impl Wires {
    fn declare(m: &mut Module, params: &RouteGenParams) -> Self {
        let (k, w) = (params.k(), params.letter_bits());
        let kw = k as u32 * w;
        let letters = params.d() as u32 + 1;
        Wires {
            valid: m.internal("valid", 1, "src and dst are different nodes"),
            overlap_in: (k > 1)
                .then(|| m.internal("overlap_in", k as u32 - 1, "overlaps of src and dst")),
            src_word: m.internal("src_word", kw, "search state: source word"),
            dst_word: m.internal("dst_word", kw, "search state: destination word"),
            overlap: (k > 1)
                .then(|| m.internal("overlap", k as u32 - 1, "search state: their overlaps")),
            used_out: m.internal("used_out", letters, "search state: used out-letters"),
            used_in: m.internal("used_in", letters, "search state: used in-letters"),
            found: m.internal("found", 1, "chooser: a further route"),
            next: m.internal("next", (k as u32 + 2) * w, "chooser: its hops"),
            next_len: m.internal("next_len", params.length_bits(), "chooser: its length"),
            out_letter: m.internal("out_letter", w, "chooser: its out-letter"),
            in_letter: m.internal("in_letter", w, "chooser: its in-letter"),
            take: m.internal("take", 1, "handshake: the route is taken this edge"),
        }
    }
}

/// The overlaps of the source's tail and the destination's head, compared as they load.
fn overlaps_instance(
    m: &mut Module,
    params: &RouteGenParams,
    io: &TopPorts,
    overlap_in: SignalId,
    (overlaps, p): &(Module, OverlapsPorts),
) {
    let (k, w) = (params.k(), params.letter_bits());
    let tail_bits = (k as u32 - 1) * w;
    let tail = Expr::Slice {
        signal: io.src,
        lo: 0,
        width: tail_bits,
    };
    let head = Expr::Slice {
        signal: io.dst,
        lo: w,
        width: tail_bits,
    };
    let connections = Connections::of(overlaps)
        .bind(&p.tail, tail)
        .bind(&p.head, head)
        .bind(&p.overlap, overlap_in);
    m.instance(
        "u_overlaps",
        connections,
        "The overlaps, compared while init loads the words.",
    );
}

fn search_state_instance(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (state, p): &(Module, SearchStatePorts),
) {
    let connections = Connections::of(state)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.load, io.init)
        .bind(&p.src, io.src)
        .bind(&p.dst, io.dst)
        .bind_opt(&p.overlap_in, wires.overlap_in)
        .bind(&p.take, wires.take)
        .bind(&p.out_letter, wires.out_letter)
        .bind(&p.in_letter, wires.in_letter)
        .bind(&p.src_word, wires.src_word)
        .bind(&p.dst_word, wires.dst_word)
        .bind_opt(&p.overlap, wires.overlap)
        .bind(&p.used_out, wires.used_out)
        .bind(&p.used_in, wires.used_in);
    m.instance("u_search_state", connections, "Search state.");
}

fn chooser_instance(m: &mut Module, wires: &Wires, (chooser, p): &(Module, ChooserPorts)) {
    let connections = Connections::of(chooser)
        .bind_opt(&p.overlap, wires.overlap)
        .bind(&p.src, wires.src_word)
        .bind(&p.dst, wires.dst_word)
        .bind(&p.used_out, wires.used_out)
        .bind(&p.used_in, wires.used_in)
        .bind(&p.found, wires.found)
        .bind(&p.route, wires.next)
        .bind(&p.route_len, wires.next_len)
        .bind(&p.out_letter, wires.out_letter)
        .bind(&p.in_letter, wires.in_letter);
    m.instance("u_chooser", connections, "The next route, in one cycle.");
}

fn handshake_instance(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (handshake, p): &(Module, HandshakePorts),
) {
    let connections = Connections::of(handshake)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.init, io.init)
        .bind(&p.next_route, io.next_route)
        .bind(&p.valid, wires.valid)
        .bind(&p.found, wires.found)
        .bind(&p.next, wires.next)
        .bind(&p.next_len, wires.next_len)
        .bind(&p.take, wires.take)
        .bind(&p.route_valid, io.route_valid)
        .bind(&p.route, io.route)
        .bind(&p.route_len, io.route_len)
        .bind(&p.done, io.done)
        .bind(&p.error, io.error);
    m.instance(
        "u_handshake",
        connections,
        "Handshake and output registers.",
    );
}
