//! The pipelined route engine (`--arch pipelined`): `kautz_route_pipe`, which accepts a
//! (src, dst) pair every clock and hands out whole route sets in order, [`latency`]
//! clock edges later.
//!
//! In: the [`RouteGenParams`] of the route generator and an optional built-in [`Fault`].
//! Out: a [`Design`] of these blocks:
//! - **front** (`front.rs`): the input registers, then everything of the search that
//!   depends on the pair alone, in two registered stages: three stages.
//! - **route step** i (`step.rs`), cut in two registered halves of a few LUT levels each:
//!   - **choose**: phase A's pick among the overlaps still alive, phases B and C's
//!     smallest free letters (all one-hot) and the phase that takes route i.
//!   - **route** and **marks**: from the registered choice, route i (zero for invalid
//!     words) and, for the steps after, the masks with its letters marked and the
//!     overlaps they block struck.
//! - **top**: the pipeline registers. Each pair's state (`state.rs`) moves down with it as
//!   far as a later step reads it, and each route found moves down to the last stage,
//!   where route i sits in slot i of `out_routes`.
//!   A global stall: every register moves when `out_ready` is high or the last
//!   stage holds nothing, so a set held on the outputs is neither lost nor repeated, and
//!   `in_ready` is that same condition: high whenever `out_ready` is.
//!
//! A step is the parallel design's chooser ([`super::search`]) with a register inside,
//! phase A's letter tests done once in the front: the engine gives the golden order
//! ([`crate::routing::kautz::DisjointRoutes`]) by the same argument.

mod front;
mod state;
mod step;

use super::search::overlaps;
use super::{Fault, RouteGenParams};
use crate::rtl::ir::{Connections, Design, Expr, Module, SignalId, Timing};
use front::{FrontPorts, front};
use state::{Carry, Choice, State};
use std::collections::BTreeMap;
use std::ops::Not;
use step::{ChoosePorts, MarksPorts, RoutePorts, WholePorts, choose, marks, route, whole};

/// Default top module name of the engine.
pub const DEFAULT_TOP: &str = "kautz_route_pipe";

/// Clock edges from the edge that accepts a pair to the edge after which its set is on the
/// outputs, when nothing stalls: the three front stages and two stages per route (its
/// choice, then its route and marks).
pub fn latency(d: usize) -> usize {
    2 * d + 3
}

/// The blocks the top wires together.
struct Blocks {
    front: (Module, FrontPorts),
    choose: (Module, ChoosePorts),
    route: (Module, RoutePorts),
    marks: (Module, MarksPorts),
    whole: (Module, WholePorts),
}

/// The pipelined engine, with `fault` built in if there is one.
pub(super) fn design(params: &RouteGenParams, fault: Option<Fault>) -> Design {
    let overlaps = (params.k() > 1).then(|| overlaps(params, fault));
    let blocks = Blocks {
        front: front(params, overlaps.as_ref(), into_step(0, params.d()), fault),
        choose: choose(params, fault),
        route: route(params),
        marks: marks(params, fault),
        whole: whole(params, fault),
    };
    let top = top(params, &blocks);
    let mut modules: Vec<Module> = overlaps.map(|(module, _)| module).into_iter().collect();
    let Blocks {
        front,
        choose,
        route,
        marks,
        whole,
    } = blocks;
    // Only K(d,k) with d > 1 has a step with marks after it.
    let marks = (params.d() > 1).then_some(marks.0);
    modules.extend([front.0, choose.0, route.0].into_iter().chain(marks));
    modules.extend([whole.0, top]);
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

/// What the state into route step `s` of `d` carries: the blocks only when the step has
/// marks, which only the steps after the last do not.
fn into_step(s: usize, d: usize) -> Carry {
    match s + 1 < d {
        true => Carry::Blocks,
        false => Carry::Search,
    }
}

/// `q` takes `next` on the edges where the pipeline advances.
fn hold(m: &mut Module, advance: SignalId, q: SignalId, next: Expr, doc: &str) {
    m.register(q, 0, Expr::mux(advance.into(), next, q.into()), doc);
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

/// Widths the stages share: bits of a route and of its length.
#[derive(Clone, Copy)]
struct Widths {
    route: u32,
    len: u32,
}

fn top(params: &RouteGenParams, blocks: &Blocks) -> Module {
    let d = params.d();
    let widths = Widths {
        route: (params.k() as u32 + 2) * params.letter_bits(),
        len: params.length_bits(),
    };
    let mut m = engine_module(params);
    let clocking = m.clocked();
    let e = engine_ports(&mut m, params, widths);
    let mut state = State::declare(&mut m, params, "_0", into_step(0, d), Module::internal);
    let (front, p) = &blocks.front;
    let connections = Connections::of(front)
        .bind(&p.clk, clocking.clock)
        .bind(&p.rst, clocking.reset)
        .bind(&p.advance, e.advance)
        .bind(&p.in_valid, e.in_valid)
        .bind(&p.src, e.src)
        .bind(&p.dst, e.dst);
    let connections = p.out.bind(connections, &state);
    m.instance(
        "u_front",
        connections,
        "Input registers and the search's start.",
    );
    // routes[i]: route i (and its length) as registered after the latest stage so far.
    let mut routes: Vec<(SignalId, SignalId)> = Vec::new();
    let mut last = None;
    for s in 0..d {
        let (mid, choice_q) = choose_step(&mut m, params, s, &state, blocks, e.advance);
        carry(&mut m, e.advance, widths, &mut routes, &format!("{s}h"));
        routes.push(take_step(&mut m, s, widths, &mid, &choice_q, &blocks.route));
        let stage = s + 1;
        carry(&mut m, e.advance, widths, &mut routes, &stage.to_string());
        if stage == d {
            last = Some(last_stage(&mut m, stage, e.advance, &mid, &state, blocks));
            break;
        }
        state = next_state(&mut m, params, s, e.advance, &mid, &choice_q, &blocks.marks);
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

/// Route step `s`, first half: the choice over the search of `state`, registered with the
/// pair in stage `<s>h`; the registered pair and choice.
fn choose_step(
    m: &mut Module,
    params: &RouteGenParams,
    s: usize,
    state: &State,
    blocks: &Blocks,
    advance: SignalId,
) -> (State, Choice) {
    let (choose, p) = &blocks.choose;
    let search = state.search.expect("a step's state has its search");
    let choice = Choice::declare(m, params, &format!("_{s}"), Module::internal);
    let connections = Connections::of(choose)
        .bind(&p.live, state.live)
        .bind(&p.alive, search.alive)
        .bind(&p.used_out, search.used_out)
        .bind(&p.used_in, search.used_in);
    m.instance(
        &format!("u_choose_{s}"),
        p.out.bind(connections, &choice),
        &format!("Route {s} of the set, first half: its choice."),
    );
    let half = format!("_{s}h");
    // The search only as far as a later step reads it.
    let carry = match s + 1 < params.d() {
        true => Carry::Blocks,
        false => Carry::Pair,
    };
    let mid = State::declare(m, params, &half, carry, Module::internal);
    let choice_q = Choice::declare(m, params, &half, Module::internal);
    let mut doc = "The pair and its choice move on.";
    for (&q, &value) in mid.fields().into_iter().zip(state.fields()) {
        hold(m, advance, q, value.into(), doc);
        doc = "";
    }
    for (&q, &value) in choice_q.fields().into_iter().zip(choice.fields()) {
        hold(m, advance, q, value.into(), "");
    }
    (mid, choice_q)
}

/// Route step `s`, second half: its route and length from the registered pair `mid` and
/// its choice `choice_q`.
fn take_step(
    m: &mut Module,
    s: usize,
    widths: Widths,
    mid: &State,
    choice_q: &Choice,
    (take, p): &(Module, RoutePorts),
) -> (SignalId, SignalId) {
    let route = m.internal(
        &format!("step_route_{s}"),
        widths.route,
        "route step: its route",
    );
    let len = m.internal(
        &format!("step_len_{s}"),
        widths.len,
        "route step: its length",
    );
    let connections = Connections::of(take)
        .bind(&p.dst, mid.dst)
        .bind(&p.route, route)
        .bind(&p.route_len, len);
    m.instance(
        &format!("u_take_{s}"),
        p.choice.bind(connections, choice_q),
        &format!("Route {s} of the set, second half: the route."),
    );
    (route, len)
}

/// Route step `s`, second half beside the route: the pair registered in stage `s+1` with
/// the search the step leaves.
fn next_state(
    m: &mut Module,
    params: &RouteGenParams,
    s: usize,
    advance: SignalId,
    mid: &State,
    choice_q: &Choice,
    (marks, p): &(Module, MarksPorts),
) -> State {
    let stage = s + 1;
    let search = mid.search.expect("the search moves on to the next step");
    let blocks = search.blocks.expect("the marks read the blocks");
    let pb = p.search.blocks.as_ref().expect("the marks' blocks");
    let letters = params.d() as u32 + 1;
    let mut signal = |n: &str, width: u32, doc: &str| m.internal(&format!("{n}_{s}"), width, doc);
    let alive = signal(
        "step_alive",
        params.k() as u32,
        "route step: overlaps alive",
    );
    let used_out = signal("step_used_out", letters, "route step: used out-letters");
    let used_in = signal("step_used_in", letters, "route step: used in-letters");
    let connections = Connections::of(marks)
        .bind(&p.search.alive, search.alive)
        .bind(&p.search.used_out, search.used_out)
        .bind(&p.search.used_in, search.used_in)
        .bind(&pb.conf, blocks.conf)
        .bind(&pb.outs, blocks.outs)
        .bind(&pb.ins, blocks.ins)
        .bind(&p.alive_next, alive)
        .bind(&p.used_out_next, used_out)
        .bind(&p.used_in_next, used_in);
    m.instance(
        &format!("u_marks_{s}"),
        p.choice.bind(connections, choice_q),
        &format!("Route {s} of the set, second half: its marks."),
    );
    let carry = into_step(stage, params.d());
    let next = State::declare(m, params, &format!("_{stage}"), carry, Module::internal);
    let after = State {
        search: Some(state::Search {
            alive,
            used_out,
            used_in,
            blocks: search.blocks,
        }),
        ..*mid
    };
    let mut doc = "The pair moves on with the search the step leaves.";
    for (&q, &value) in next.fields().into_iter().zip(after.fields()) {
        hold(m, advance, q, value.into(), doc);
        doc = "";
    }
    next
}

/// The last stage's `valid` and `error` registers. Every letter is used once d routes are
/// taken: the set is whole. The golden model says it always is; the check ([`whole`], over
/// the masks the last step starts from, registered in its first half) makes an incomplete
/// set an error rather than a wrong answer.
fn last_stage(
    m: &mut Module,
    stage: usize,
    advance: SignalId,
    mid: &State,
    state: &State,
    blocks: &Blocks,
) -> (SignalId, SignalId) {
    let (whole, p) = &blocks.whole;
    let search = state.search.expect("the last step's state has its search");
    let s = stage - 1;
    let whole_now = m.internal(&format!("whole_{s}"), 1, "the last step completes the set");
    let whole_q = m.internal(&format!("whole_{s}h"), 1, "the last step completes the set");
    let connections = Connections::of(whole)
        .bind(&p.used_out, search.used_out)
        .bind(&p.used_in, search.used_in)
        .bind(&p.whole, whole_now);
    m.instance("u_whole", connections, "Whether the set will be whole.");
    hold(
        m,
        advance,
        whole_q,
        whole_now.into(),
        "Registered with the last choice.",
    );
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
        Expr::from(mid.valid).and(Expr::from(mid.live).and(whole_q.into()).not()),
        "",
    );
    (valid_q, error_q)
}
