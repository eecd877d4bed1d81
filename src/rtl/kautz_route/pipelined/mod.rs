//! The pipelined route engine (`--arch pipelined`): `kautz_route_pipe`, which accepts a
//! (src, dst) pair every clock and hands out whole route sets in order, [`latency`]
//! clock edges later.
//!
//! In: the [`RouteGenParams`] of the route generator and an optional built-in [`Fault`].
//! Out: a [`Design`] of these blocks:
//! - **front**: the input registers, then the word check, the overlaps of the parallel
//!   design ([`super::search`]) and the initial used masks (`ak` out, `b1`
//!   in), registered: two stages.
//! - **route step** i (two modules, d instances each), cut in two registered halves so
//!   that a stage holds about half the logic of the parallel design's chooser:
//!   - **choose**: phase A's candidates against the masks the earlier steps left and its
//!     priority encoder (a one-hot pick), phases B and C's smallest free letters;
//!     registered with the pair.
//!   - **take**: from the registered choice, phase A's multiplexer and the phase
//!     multiplexer give route i (zero for invalid words), and its letters are marked in
//!     the masks for the steps after.
//! - **top**: the pipeline registers. Each pair's search state moves down with it as far
//!   as a later step reads it, and each route found moves down to the last stage, where
//!   route i sits in slot i of `out_routes`.
//!   A global stall: every register moves when `out_ready` is high or the last
//!   stage holds nothing, so a set held on the outputs is neither lost nor repeated, and
//!   `in_ready` is that same condition: high whenever `out_ready` is.
//!
//! The two halves are the parallel design's chooser with a register inside (the same
//! helpers of [`super::search`] build both), so the engine gives the golden
//! order ([`crate::routing::kautz::DisjointRoutes`]) by the same argument.

use super::search::{
    FirstFreePorts, OverlapsPorts, PhaseAIn, Phases, first_free, free_letters, mark, overlaps,
    phase_a_pick, phase_a_select, pick_phase,
};
use super::{Fault, RouteGenParams, WordCheckPorts, decode, letter, name, word_check};
use crate::rtl::ir::{Connections, Design, Expr, Module, Port, SignalId, Timing};
use std::collections::BTreeMap;
use std::ops::Not;

/// Default top module name of the engine.
pub const DEFAULT_TOP: &str = "kautz_route_pipe";

/// Clock edges from the edge that accepts a pair to the edge after which its set is on the
/// outputs, when nothing stalls: the two front stages and two stages per route (its
/// choice, then its marks).
pub fn latency(d: usize) -> usize {
    2 * d + 2
}

/// The pipelined engine, with `fault` built in if there is one.
pub(super) fn design(params: &RouteGenParams, fault: Option<Fault>) -> Design {
    let check = word_check(params);
    let overlaps = (params.k() > 1).then(|| overlaps(params, fault));
    let front = front(params, &check, overlaps.as_ref());
    let first_free = first_free(params);
    let choose = step_choose(params, &first_free, fault);
    let take = step_take(params, fault);
    let top = top(params, &front, &choose, &take);
    let mut modules = vec![check.0];
    modules.extend(overlaps.map(|(module, _)| module));
    modules.extend([front.0, first_free.0, choose.0, take.0, top]);
    Design {
        modules,
        params: BTreeMap::from([
            ("d".into(), params.d() as u64),
            ("k".into(), params.k() as u64),
            ("latency".into(), latency(params.d()) as u64),
        ]),
        summary: format!(
            "pipelined engine for the node-disjoint routes of the Kautz digraph K({},{}), a route set per clock",
            params.d(),
            params.k()
        ),
        timing: Timing::Synchronous,
    }
}

/// The search state that travels down the pipeline with each pair: its signals, or the
/// ports of a block that takes or gives it.
#[derive(Clone, Copy)]
struct StatePorts<T = SignalId> {
    valid: T,
    ok: T,
    src: T,
    dst: T,
    overlap: Option<T>,
    used_out: T,
    used_in: T,
}

impl StatePorts {
    /// The state's ports on `m`, each named `<field><suffix>`.
    fn declare(
        m: &mut Module,
        params: &RouteGenParams,
        suffix: &str,
        with_overlap: bool,
        port: fn(&mut Module, &str, u32, &str) -> SignalId,
    ) -> Self {
        let (k, d, w) = (params.k(), params.d(), params.letter_bits());
        let kw = k as u32 * w;
        let letters = d as u32 + 1;
        let mut p = |n: &str, width: u32, doc: &str| port(m, &format!("{n}{suffix}"), width, doc);
        StatePorts {
            valid: p("valid", 1, "a pair is in this stage"),
            ok: p("ok", 1, "its words are two different nodes"),
            src: p("src", kw, "its source word"),
            dst: p("dst", kw, "its destination word"),
            overlap: (k > 1 && with_overlap)
                .then(|| p("overlap", k as u32 - 1, "bit v-1: overlap v exists")),
            used_out: p("used_out", letters, "bit i: out-letter i used"),
            used_in: p("used_in", letters, "bit i: in-letter i used"),
        }
    }

    /// The ports of `m` these signals are.
    fn ports(&self, m: &Module) -> StatePorts<Port> {
        StatePorts {
            valid: m.port_of(self.valid),
            ok: m.port_of(self.ok),
            src: m.port_of(self.src),
            dst: m.port_of(self.dst),
            overlap: self.overlap.map(|id| m.port_of(id)),
            used_out: m.port_of(self.used_out),
            used_in: m.port_of(self.used_in),
        }
    }
}

impl StatePorts<Port> {
    /// Binds each port to the signal of the same field of `to`.
    fn bind<'a>(&self, connections: Connections<'a>, to: &StatePorts) -> Connections<'a> {
        connections
            .bind(&self.valid, to.valid)
            .bind(&self.ok, to.ok)
            .bind(&self.src, to.src)
            .bind(&self.dst, to.dst)
            .bind_opt(&self.overlap, to.overlap)
            .bind(&self.used_out, to.used_out)
            .bind(&self.used_in, to.used_in)
    }
}

/// `q` takes `next` on the edges where the pipeline advances.
fn hold(m: &mut Module, advance: SignalId, q: SignalId, next: Expr, doc: &str) {
    m.register(q, 0, Expr::mux(advance.into(), next, q.into()), doc);
}

/// The ports of [`front`].
struct FrontPorts {
    clk: Port,
    rst: Port,
    advance: Port,
    in_valid: Port,
    src: Port,
    dst: Port,
    out: StatePorts<Port>,
}

fn front(
    params: &RouteGenParams,
    (check, check_ports): &(Module, WordCheckPorts),
    overlaps: Option<&(Module, OverlapsPorts)>,
) -> (Module, FrontPorts) {
    let (k, d, w) = (params.k(), params.d(), params.letter_bits());
    let kw = k as u32 * w;
    let mut m = Module::new(
        name(params, "front"),
        &[
            "the front of the pipeline: the pair registered as it is accepted, then its word check,",
            "overlaps and initial used masks registered: two stages.",
        ],
    );
    let clocking = m.clocked();
    let advance = m.input("advance", 1, "the pipeline moves this edge");
    let in_valid = m.input("in_valid", 1, "a pair is offered");
    let src = m.input("src", kw, "its source word");
    let dst = m.input("dst", kw, "its destination word");
    let out = StatePorts::declare(&mut m, params, "_q", true, Module::output);
    let valid0 = m.internal("valid0", 1, "stage 0: a pair was accepted");
    let src0 = m.internal("src0", kw, "stage 0: its source word");
    let dst0 = m.internal("dst0", kw, "stage 0: its destination word");
    let ok = m.internal("ok", 1, "stage 0: the words are two different nodes");
    hold(
        &mut m,
        advance,
        valid0,
        in_valid.into(),
        "Stage 0: the pair as accepted; registered so that no logic hangs on the ports.",
    );
    hold(&mut m, advance, src0, src.into(), "");
    hold(&mut m, advance, dst0, dst.into(), "");
    let connections = Connections::of(check)
        .bind(&check_ports.src, src0)
        .bind(&check_ports.dst, dst0)
        .bind(&check_ports.valid, ok);
    m.instance("u_word_check", connections, "Input check.");
    if let (Some((overlaps, p)), Some(q)) = (overlaps, out.overlap) {
        let tail_bits = (k as u32 - 1) * w;
        let overlap = m.internal("overlap", k as u32 - 1, "stage 0: the overlaps");
        let tail = Expr::Slice {
            signal: src0,
            lo: 0,
            width: tail_bits,
        };
        let head = Expr::Slice {
            signal: dst0,
            lo: w,
            width: tail_bits,
        };
        let connections = Connections::of(overlaps)
            .bind(&p.tail, tail)
            .bind(&p.head, head)
            .bind(&p.overlap, overlap);
        m.instance("u_overlaps", connections, "Every overlap at once.");
        hold(&mut m, advance, q, overlap.into(), "Stage 1: the overlaps.");
    }
    hold(
        &mut m,
        advance,
        out.valid,
        valid0.into(),
        "Stage 1: the pair and its check.",
    );
    hold(&mut m, advance, out.ok, ok.into(), "");
    hold(&mut m, advance, out.src, src0.into(), "");
    hold(&mut m, advance, out.dst, dst0.into(), "");
    hold(
        &mut m,
        advance,
        out.used_out,
        decode(letter(src0, k - 1, k, w), w, d),
        "Used out-letters: ak names no out-neighbour.",
    );
    hold(
        &mut m,
        advance,
        out.used_in,
        decode(letter(dst0, 0, k, w), w, d),
        "Used in-letters: b1 names no in-neighbour.",
    );
    let ports = FrontPorts {
        clk: m.port_of(clocking.clock),
        rst: m.port_of(clocking.reset),
        advance: m.port_of(advance),
        in_valid: m.port_of(in_valid),
        src: m.port_of(src),
        dst: m.port_of(dst),
        out: out.ports(&m),
    };
    (m, ports)
}

/// A route step's choice, registered between its two halves: what every phase found over
/// the masks, in the fewest bits the second half needs; its signals, or the ports of a
/// half.
struct ChoicePorts<T = SignalId> {
    pick_a: T,
    found_a: T,
    found_b: T,
    letter_b: T,
    found_out: T,
    letter_out: T,
    found_in: T,
    letter_in: T,
}

impl ChoicePorts {
    /// The choice's ports on `m`, each named `<field><suffix>`.
    fn declare(
        m: &mut Module,
        params: &RouteGenParams,
        suffix: &str,
        port: fn(&mut Module, &str, u32, &str) -> SignalId,
    ) -> Self {
        let (k, w) = (params.k() as u32, params.letter_bits());
        let mut p = |n: &str, width: u32, doc: &str| port(m, &format!("{n}{suffix}"), width, doc);
        ChoicePorts {
            pick_a: p(
                "pick_a",
                k,
                "phase A: bit v, overlap v is the longest candidate",
            ),
            found_a: p("found_a", 1, "phase A: a candidate"),
            found_b: p("found_b", 1, "phase B: a letter free on both sides"),
            letter_b: p("letter_b", w, "phase B: the smallest"),
            found_out: p("found_out", 1, "phase C: a free out-letter"),
            letter_out: p("letter_out", w, "phase C: the smallest"),
            found_in: p("found_in", 1, "phase C: a free in-letter"),
            letter_in: p("letter_in", w, "phase C: the smallest"),
        }
    }

    /// The ports of `m` these signals are.
    fn ports(&self, m: &Module) -> ChoicePorts<Port> {
        let [
            pick_a,
            found_a,
            found_b,
            letter_b,
            found_out,
            letter_out,
            found_in,
            letter_in,
        ] = self.fields().map(|&id| m.port_of(id));
        ChoicePorts {
            pick_a,
            found_a,
            found_b,
            letter_b,
            found_out,
            letter_out,
            found_in,
            letter_in,
        }
    }
}

impl<T> ChoicePorts<T> {
    fn fields(&self) -> [&T; 8] {
        [
            &self.pick_a,
            &self.found_a,
            &self.found_b,
            &self.letter_b,
            &self.found_out,
            &self.letter_out,
            &self.found_in,
            &self.letter_in,
        ]
    }
}

impl ChoicePorts<Port> {
    /// Binds each port to the signal of the same field of `to`.
    fn bind<'a>(&self, connections: Connections<'a>, to: &ChoicePorts) -> Connections<'a> {
        let values = to.fields().map(|&id| id);
        connections.bind_all(self.fields().into_iter().zip(values))
    }
}

/// The first half of a route step: the parallel design's chooser up to its priority
/// encoders (phase A's candidates and one-hot pick, phases B and C's smallest free
/// letters), over the masks the earlier steps left.
/// The ports of [`step_choose`].
struct ChoosePorts {
    overlap: Option<Port>,
    src: Port,
    dst: Port,
    used_out: Port,
    used_in: Port,
    out: ChoicePorts<Port>,
}

fn step_choose(
    params: &RouteGenParams,
    first_free: &(Module, FirstFreePorts),
    fault: Option<Fault>,
) -> (Module, ChoosePorts) {
    let (k, d, w) = (params.k(), params.d(), params.letter_bits());
    let kw = k as u32 * w;
    let letters = d as u32 + 1;
    let mut m = Module::new(
        name(params, "route_choose"),
        &[
            "the first half of a route step: the chooser's candidates and priority encoders over the",
            "used masks (phase A's longest free overlap, one-hot; phases B and C's smallest free letters).",
        ],
    );
    let overlap = (k > 1).then(|| m.input("overlap", k as u32 - 1, "bit v-1: overlap v exists"));
    let src = m.input("src", kw, "source word");
    let dst = m.input("dst", kw, "destination word");
    let used_out = m.input("used_out", letters, "bit i: out-letter i used");
    let used_in = m.input("used_in", letters, "bit i: in-letter i used");
    let out = ChoicePorts::declare(&mut m, params, "", Module::output);
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
        out.found_a,
    );
    m.assign(out.pick_a, pick.into(), "Phase A's pick.");
    free_letters(
        &mut m,
        first_free,
        [used_out, used_in],
        letters,
        fault,
        [
            (out.found_b, out.letter_b),
            (out.found_out, out.letter_out),
            (out.found_in, out.letter_in),
        ],
    );
    let ports = ChoosePorts {
        overlap: overlap.map(|id| m.port_of(id)),
        src: m.port_of(src),
        dst: m.port_of(dst),
        used_out: m.port_of(used_out),
        used_in: m.port_of(used_in),
        out: out.ports(&m),
    };
    (m, ports)
}

/// The second half of a route step: from the registered choice, the parallel design's
/// phase A multiplexer and phase multiplexer give the route (zero for invalid words), and
/// its letters are marked for the steps after.
/// The ports of [`step_take`].
struct TakePorts {
    state: StatePorts<Port>,
    choice: ChoicePorts<Port>,
    route: Port,
    route_len: Port,
    used_out_next: Port,
    used_in_next: Port,
}

fn step_take(params: &RouteGenParams, fault: Option<Fault>) -> (Module, TakePorts) {
    let (k, d, w, lw) = (
        params.k(),
        params.d(),
        params.letter_bits(),
        params.length_bits(),
    );
    let letters = d as u32 + 1;
    let route_bits = (k as u32 + 2) * w;
    let mut m = Module::new(
        name(params, "route_take"),
        &[
            "the second half of a route step: the route the registered choice names, zero for invalid",
            "words, and the used masks with its letters marked for the steps after.",
        ],
    );
    let state = StatePorts::declare(&mut m, params, "", false, Module::input);
    let choice = ChoicePorts::declare(&mut m, params, "", Module::input);
    let route_q = m.output("route", route_bits, "the route, zero for invalid words");
    let len_q = m.output("route_len", lw, "its length, zero for invalid words");
    let used_out_q = m.output("used_out_next", letters, "used out-letters after it");
    let used_in_q = m.output("used_in_next", letters, "used in-letters after it");
    let signal = |m: &mut Module, n: &str, width: u32, doc: &str| m.internal(n, width, doc);
    let route_a = signal(&mut m, "route_a", route_bits, "phase A: its hops");
    let len_a = signal(&mut m, "len_a", lw, "phase A: its length");
    let out_a = signal(&mut m, "out_a", w, "phase A: its out-letter");
    let in_a = signal(&mut m, "in_a", w, "phase A: its in-letter");
    let found = signal(&mut m, "found", 1, "chooser: a route");
    let route = signal(&mut m, "next", route_bits, "chooser: its hops");
    let route_len = signal(&mut m, "next_len", lw, "chooser: its length");
    let out_letter = signal(&mut m, "out_letter", w, "chooser: its out-letter");
    let in_letter = signal(&mut m, "in_letter", w, "chooser: its in-letter");
    let shown = signal(&mut m, "shown", 1, "the route goes into the set");
    phase_a_select(
        &mut m,
        params,
        choice.pick_a,
        (state.src, state.dst),
        [route_a, len_a, out_a, in_a],
    );
    pick_phase(
        &mut m,
        params,
        state.dst,
        &Phases {
            found_a: choice.found_a,
            route_a,
            len_a,
            out_a,
            in_a,
            found_b: choice.found_b,
            letter_b: choice.letter_b,
            found_out: choice.found_out,
            letter_out: choice.letter_out,
            found_in: choice.found_in,
            letter_in: choice.letter_in,
        },
        [found, route, route_len, out_letter, in_letter],
    );
    m.assign(
        shown,
        Expr::from(state.ok)
            .and(found.into())
            .and(state.valid.into()),
        "Invalid words (and empty stages) give zero routes and lengths.",
    );
    m.assign(route_q, gate(shown, route, route_bits), "");
    m.assign(len_q, gate(shown, route_len, lw), "");
    m.assign(
        used_out_q,
        Expr::from(state.used_out).or(mark(out_letter, w, d, fault)),
        "The route's letters marked for the steps after.",
    );
    m.assign(
        used_in_q,
        Expr::from(state.used_in).or(mark(in_letter, w, d, fault)),
        "",
    );
    let ports = TakePorts {
        state: state.ports(&m),
        choice: choice.ports(&m),
        route: m.port_of(route_q),
        route_len: m.port_of(len_q),
        used_out_next: m.port_of(used_out_q),
        used_in_next: m.port_of(used_in_q),
    };
    (m, ports)
}

/// `value` when `cond`, else zero.
fn gate(cond: SignalId, value: SignalId, width: u32) -> Expr {
    Expr::mux(cond.into(), value.into(), Expr::zero(width))
}

/// The engine's own ports, and `advance`, high when every register moves.
struct Engine {
    in_valid: SignalId,
    src: SignalId,
    dst: SignalId,
    out_valid: SignalId,
    out_routes: SignalId,
    out_lens: SignalId,
    out_error: SignalId,
    advance: SignalId,
}

/// Widths the stages share: bits of a route, of its length, and letters per mark mask.
#[derive(Clone, Copy)]
struct Widths {
    route: u32,
    len: u32,
    letters: u32,
}

fn top(
    params: &RouteGenParams,
    (front, front_ports): &(Module, FrontPorts),
    (choose, choose_ports): &(Module, ChoosePorts),
    (take, take_ports): &(Module, TakePorts),
) -> Module {
    let d = params.d();
    let widths = Widths {
        route: (params.k() as u32 + 2) * params.letter_bits(),
        len: params.length_bits(),
        letters: d as u32 + 1,
    };
    let mut m = engine_module(params);
    let clocking = m.clocked();
    let e = engine_ports(&mut m, params, widths);
    let mut state = StatePorts::declare(&mut m, params, "_0", true, Module::internal);
    let p = front_ports;
    let connections = Connections::of(front)
        .bind(&p.clk, clocking.clock)
        .bind(&p.rst, clocking.reset)
        .bind(&p.advance, e.advance)
        .bind(&p.in_valid, e.in_valid)
        .bind(&p.src, e.src)
        .bind(&p.dst, e.dst);
    let connections = p.out.bind(connections, &state);
    m.instance("u_front", connections, "Input registers and checks.");
    // routes[i]: route i (and its length) as registered after the latest stage so far.
    let mut routes: Vec<(SignalId, SignalId)> = Vec::new();
    let mut last = None;
    for s in 0..d {
        let (mid, choice_q) =
            choose_step(&mut m, params, s, &state, (choose, choose_ports), e.advance);
        carry(&mut m, e.advance, widths, &mut routes, &format!("{s}h"));
        let step = take_step(&mut m, s, widths, &mid, &choice_q, (take, take_ports));
        let stage = s + 1;
        // Route s joins the routes that move down.
        routes.push((step.route, step.len));
        carry(&mut m, e.advance, widths, &mut routes, &stage.to_string());
        if stage == d {
            last = Some(last_stage(&mut m, stage, e.advance, &mid, &step));
            break;
        }
        state = next_state(&mut m, params, stage, e.advance, &mid, &step);
    }
    let (valid_q, error_q) = last.expect("d is at least 1");
    m.assign(e.out_valid, valid_q.into(), "The last stage's pair.");
    m.assign(
        e.out_routes,
        Expr::concat(routes.iter().rev().map(|r| Expr::from(r.0)).collect()),
        "Route 0 in the lowest slot.",
    );
    m.assign(
        e.out_lens,
        Expr::concat(routes.iter().rev().map(|r| Expr::from(r.1)).collect()),
        "",
    );
    m.assign(
        e.out_error,
        error_q.into(),
        "Low whenever out_valid is low.",
    );
    m
}

/// The engine's top module, with its description.
fn engine_module(params: &RouteGenParams) -> Module {
    let (k, d) = (params.k(), params.d());
    Module::new(
        params.top.clone(),
        &[
            &format!(
                "pipelined route engine for K({d},{k}): accepts a (src, dst) pair every clock and gives its {d} node-disjoint"
            ),
            &format!(
                "routes, in the order of section 4 of the route-generator paper (Smit et al. 1991), {} clock",
                latency(d)
            ),
            "edges later; out_ready low stalls it.",
        ],
    )
}

/// The engine's ports, and the stall logic that drives `advance` and `in_ready`.
fn engine_ports(m: &mut Module, params: &RouteGenParams, widths: Widths) -> Engine {
    let d = params.d() as u32;
    let kw = params.k() as u32 * params.letter_bits();
    let in_valid = m.input("in_valid", 1, "src and dst hold a pair");
    let in_ready = m.output(
        "in_ready",
        1,
        "the pair is accepted this edge if in_valid; high whenever out_ready is",
    );
    let src = m.input("src", kw, "source node, a1 in the most significant letter");
    let dst = m.input(
        "dst",
        kw,
        "destination node, b1 in the most significant letter",
    );
    let out_valid = m.output("out_valid", 1, "a route set is on the outputs");
    let out_ready = m.input("out_ready", 1, "the set shown is taken this edge");
    let out_routes = m.output(
        "out_routes",
        d * widths.route,
        "route i (golden order) in bits [(i+1)*(k+2)*W-1 : i*(k+2)*W], hops first most significant",
    );
    let out_lens = m.output(
        "out_lens",
        d * widths.len,
        "route i's length in bits [(i+1)*LW-1 : i*LW]",
    );
    let out_error = m.output(
        "out_error",
        1,
        "with out_valid: src or dst is not a node of K(d,k), or src equals dst; routes and lengths zero",
    );
    let advance = m.internal("advance", 1, "every register moves this edge");
    m.assign(
        advance,
        Expr::from(out_ready).or(Expr::from(out_valid).not()),
        "Stall only while a set waits on the outputs: nothing is lost or repeated.",
    );
    m.assign(
        in_ready,
        advance.into(),
        "A pair enters whenever all moves.",
    );
    Engine {
        in_valid,
        src,
        dst,
        out_valid,
        out_routes,
        out_lens,
        out_error,
        advance,
    }
}

/// Moves the routes found so far down with their pair, into registers named
/// `route<i>_<stage>` and `len<i>_<stage>`.
fn carry(
    m: &mut Module,
    advance: SignalId,
    widths: Widths,
    routes: &mut [(SignalId, SignalId)],
    stage: &str,
) {
    for (i, (route, len)) in routes.iter_mut().enumerate() {
        let route_q = m.internal(
            &format!("route{i}_{stage}"),
            widths.route,
            &format!("route {i}"),
        );
        let len_q = m.internal(
            &format!("len{i}_{stage}"),
            widths.len,
            &format!("route {i}'s length"),
        );
        hold(m, advance, route_q, Expr::from(*route), "");
        hold(m, advance, len_q, Expr::from(*len), "");
        (*route, *len) = (route_q, len_q);
    }
}

/// Route step `s`, first half: the choice over the masks of `state`, registered with the
/// pair in stage `<s>h`; the registered pair and choice.
fn choose_step(
    m: &mut Module,
    params: &RouteGenParams,
    s: usize,
    state: &StatePorts,
    (choose, p): (&Module, &ChoosePorts),
    advance: SignalId,
) -> (StatePorts, ChoicePorts) {
    let choice = ChoicePorts::declare(m, params, &format!("_{s}"), Module::internal);
    let connections = Connections::of(choose)
        .bind_opt(&p.overlap, state.overlap)
        .bind(&p.src, state.src)
        .bind(&p.dst, state.dst)
        .bind(&p.used_out, state.used_out)
        .bind(&p.used_in, state.used_in);
    m.instance(
        &format!("u_choose_{s}"),
        p.out.bind(connections, &choice),
        &format!("Route {s} of the set, first half: its choice."),
    );
    let half = format!("{s}h");
    // The overlaps only as far as a later step's first half reads them.
    let mid = StatePorts::declare(
        m,
        params,
        &format!("_{half}"),
        s + 1 < params.d(),
        Module::internal,
    );
    let choice_q = ChoicePorts::declare(m, params, &format!("_{half}"), Module::internal);
    hold(
        m,
        advance,
        mid.valid,
        state.valid.into(),
        "The pair and its choice move on.",
    );
    hold(m, advance, mid.ok, state.ok.into(), "");
    hold(m, advance, mid.src, state.src.into(), "");
    hold(m, advance, mid.dst, state.dst.into(), "");
    if let (Some(q), Some(value)) = (mid.overlap, state.overlap) {
        hold(m, advance, q, value.into(), "");
    }
    hold(m, advance, mid.used_out, state.used_out.into(), "");
    hold(m, advance, mid.used_in, state.used_in.into(), "");
    for (&q, &value) in choice_q.fields().into_iter().zip(choice.fields()) {
        hold(m, advance, q, value.into(), "");
    }
    (mid, choice_q)
}

/// What route step `s`'s second half computes: the route, its length and the marks.
struct Step {
    route: SignalId,
    len: SignalId,
    used_out: SignalId,
    used_in: SignalId,
}

/// Route step `s`, second half: the route and the marks from the registered pair `mid`
/// and its choice `choice_q`.
fn take_step(
    m: &mut Module,
    s: usize,
    widths: Widths,
    mid: &StatePorts,
    choice_q: &ChoicePorts,
    (take, p): (&Module, &TakePorts),
) -> Step {
    let mut signal = |n: &str, width: u32, doc: &str| m.internal(&format!("{n}_{s}"), width, doc);
    let step = Step {
        route: signal("step_route", widths.route, "route step: its route"),
        len: signal("step_len", widths.len, "route step: its length"),
        used_out: signal(
            "step_used_out",
            widths.letters,
            "route step: used out-letters",
        ),
        used_in: signal(
            "step_used_in",
            widths.letters,
            "route step: used in-letters",
        ),
    };
    // The second half reads no overlaps.
    let without_overlap = StatePorts {
        overlap: None,
        ..*mid
    };
    let connections = p.state.bind(Connections::of(take), &without_overlap);
    let connections = p
        .choice
        .bind(connections, choice_q)
        .bind(&p.route, step.route)
        .bind(&p.route_len, step.len)
        .bind(&p.used_out_next, step.used_out)
        .bind(&p.used_in_next, step.used_in);
    m.instance(
        &format!("u_take_{s}"),
        connections,
        &format!("Route {s} of the set, second half: the route and its marks."),
    );
    step
}

/// The last stage's `valid` and `error` registers. Every letter is used once d routes are
/// taken: the set is whole. The golden model says it always is; the check reads the last
/// marks, which nothing else needs, and makes an incomplete set an error rather than a
/// wrong answer.
fn last_stage(
    m: &mut Module,
    stage: usize,
    advance: SignalId,
    mid: &StatePorts,
    step: &Step,
) -> (SignalId, SignalId) {
    let whole = Expr::from(step.used_out).and(step.used_in.into()).all();
    let valid_q = m.internal(
        &format!("valid_{stage}"),
        1,
        "the last stage: a pair is here",
    );
    let error_q = m.internal(
        &format!("error_{stage}"),
        1,
        "the last stage: a pair is here and its words are bad or its set not whole",
    );
    hold(m, advance, valid_q, mid.valid.into(), "The pair moves on.");
    // Gated by valid like the routes, so that an empty stage shows all zeros.
    hold(
        m,
        advance,
        error_q,
        Expr::from(mid.valid).and(Expr::from(mid.ok).and(whole).not()),
        "",
    );
    (valid_q, error_q)
}

/// The pair registered in stage `stage` with the marks of the route just taken.
fn next_state(
    m: &mut Module,
    params: &RouteGenParams,
    stage: usize,
    advance: SignalId,
    mid: &StatePorts,
    step: &Step,
) -> StatePorts {
    let next = StatePorts::declare(m, params, &format!("_{stage}"), true, Module::internal);
    hold(
        m,
        advance,
        next.valid,
        mid.valid.into(),
        "The pair moves on.",
    );
    hold(m, advance, next.ok, mid.ok.into(), "");
    hold(m, advance, next.src, mid.src.into(), "");
    hold(m, advance, next.dst, mid.dst.into(), "");
    if let (Some(q), Some(value)) = (next.overlap, mid.overlap) {
        hold(m, advance, q, value.into(), "");
    }
    hold(m, advance, next.used_out, step.used_out.into(), "");
    hold(m, advance, next.used_in, step.used_in.into(), "");
    next
}
