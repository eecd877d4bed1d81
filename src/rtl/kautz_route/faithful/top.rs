//! The top module of the faithful route generator: its blocks and the wires between them.

use super::super::{RouteGenParams, TopPorts, WordCheckPorts, decode, letter};
use super::ahead::AheadPorts;
use super::control::ControlPorts;
use super::cycle_bound;
use super::match_block::MatchBlockPorts;
use super::shift::{ShiftBlockPorts, ShiftIncPorts};
use super::used::UsedLettersPorts;
use crate::rtl::ir::{Connections, Expr, Module, SignalId};

/// The blocks the top module instantiates, with their ports.
pub(super) struct Blocks<'a> {
    pub(super) block: &'a (Module, MatchBlockPorts),
    pub(super) shift: &'a (Module, ShiftBlockPorts),
    pub(super) counter: &'a (Module, ShiftIncPorts),
    pub(super) used: &'a (Module, UsedLettersPorts),
    pub(super) ahead: &'a (Module, AheadPorts),
    pub(super) check: &'a (Module, WordCheckPorts),
    pub(super) control: &'a (Module, ControlPorts),
}

pub(super) fn top(params: &RouteGenParams, blocks: Blocks) -> Module {
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
    let wires = Wires::declare(&mut m, params.letter_bits(), d as u32 + 1);
    let (check, p) = blocks.check;
    let connections = Connections::of(check)
        .bind(&p.src, io.src)
        .bind(&p.dst, io.dst)
        .bind(&p.valid, wires.valid);
    m.instance("u_word_check", connections, "Input check.");
    match_block_instance(&mut m, &io, &wires, blocks.block);
    shift_block_instance(&mut m, params, &io, &wires, blocks.shift);
    part_instances(&mut m, &io, &wires, blocks.counter);
    candidate_letters(&mut m, params, &wires);
    used_letters_instances(&mut m, params, &io, &wires, blocks.used);
    ahead_instance(&mut m, params, &io, &wires, blocks.ahead);
    control_instance(&mut m, &io, &wires, blocks.control);
    m
}

/// The wires between the top's blocks, named for the block that drives them.
struct Wires {
    valid: SignalId,
    matched: SignalId,
    in_letter: SignalId,
    in_next: SignalId,
    shifted_out: SignalId,
    full: SignalId,
    head: SignalId,
    letter_b: SignalId,
    letter_c: SignalId,
    b_onehot: SignalId,
    c_onehot: SignalId,
    b_last: SignalId,
    c_last: SignalId,
    head_onehot: SignalId,
    in_onehot: SignalId,
    out_query: SignalId,
    in_query: SignalId,
    used_out: SignalId,
    used_in: SignalId,
    all_out_used: SignalId,
    all_in_used: SignalId,
    free_a: SignalId,
    free_b: SignalId,
    free_c_out: SignalId,
    free_c_in: SignalId,
    load: SignalId,
    shift_en: SignalId,
    found: SignalId,
    phase_a: SignalId,
    phase_b: SignalId,
    phase_c: SignalId,
    inc_b: SignalId,
    clear_b: SignalId,
    inc_c: SignalId,
}

impl Wires {
    fn declare(m: &mut Module, w: u32, letters: u32) -> Self {
        let mut wire = |name: &str, width: u32, doc: &str| m.internal(name, width, doc);
        Wires {
            valid: wire("valid", 1, "src and dst are different nodes"),
            matched: wire("matched", 1, "match block: overlap found"),
            in_letter: wire(
                "in_letter",
                w,
                "match block: in-letter of the phase A route",
            ),
            in_next: wire(
                "in_next",
                w,
                "match block: the in-letter after the next shift",
            ),
            shifted_out: wire(
                "shifted_out",
                w,
                "match block: letter leaving the last unit",
            ),
            full: wire("full", 1, "match block: all units off"),
            head: wire("head", w, "shift block: out-letter of the phase A route"),
            letter_b: wire("letter_b", w, "part 1 letter"),
            letter_c: wire("letter_c", w, "part 2 letter"),
            b_onehot: wire("b_onehot", letters, "part 1 letter, one-hot"),
            c_onehot: wire("c_onehot", letters, "part 2 letter, one-hot"),
            b_last: wire("b_last", 1, "part 1 at letter d"),
            c_last: wire("c_last", 1, "part 2 at letter d"),
            head_onehot: wire("head_onehot", letters, "head, one-hot"),
            in_onehot: wire("in_onehot", letters, "in_letter, one-hot"),
            out_query: wire(
                "out_query",
                letters,
                "out-letter of the candidate route, one-hot",
            ),
            in_query: wire(
                "in_query",
                letters,
                "in-letter of the candidate route, one-hot",
            ),
            used_out: wire("used_out", letters, "used out-letters"),
            used_in: wire("used_in", letters, "used in-letters"),
            all_out_used: wire("all_out_used", 1, "all out-letters used"),
            all_in_used: wire(
                "all_in_used",
                1,
                "all in-letters used (equal in number to the out-letters)",
            ),
            free_a: wire("free_a", 1, "look-ahead: phase A's letters free"),
            free_b: wire("free_b", 1, "look-ahead: phase B's letter free"),
            free_c_out: wire("free_c_out", 1, "look-ahead: phase C's out-letter free"),
            free_c_in: wire("free_c_in", 1, "look-ahead: phase C's in-letter free"),
            load: wire("load", 1, "control: load"),
            shift_en: wire("shift_en", 1, "control: shift"),
            found: wire("found", 1, "control: route found"),
            phase_a: wire("phase_a", 1, "control: phase A"),
            phase_b: wire("phase_b", 1, "control: phase B"),
            phase_c: wire("phase_c", 1, "control: phase C"),
            inc_b: wire("inc_b", 1, "control: advance part 1"),
            clear_b: wire("clear_b", 1, "control: restart part 1"),
            inc_c: wire("inc_c", 1, "control: advance part 2"),
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
        .bind(&p.in_next, wires.in_next)
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
    for (label, clear, inc, letter_q, onehot, last, doc) in [
        (
            "u_part_1",
            wires.clear_b,
            wires.inc_b,
            wires.letter_b,
            wires.b_onehot,
            wires.b_last,
            "Shift/increment part 1: phase B letter, phase C in-letter.",
        ),
        (
            "u_part_2",
            wires.load,
            wires.inc_c,
            wires.letter_c,
            wires.c_onehot,
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
            .bind(&p.onehot, onehot)
            .bind(&p.last, last);
        m.instance(label, connections, doc);
    }
}

/// The out- and in-letter of the candidate route, one-hot, which a route found marks used.
fn candidate_letters(m: &mut Module, params: &RouteGenParams, wires: &Wires) {
    let (w, d) = (params.letter_bits(), params.d());
    m.assign(
        wires.head_onehot,
        decode(wires.head.into(), w, d),
        "Decoder for phase A's out-letter.",
    );
    m.assign(
        wires.in_onehot,
        decode(wires.in_letter.into(), w, d),
        "Decoder for phase A's in-letter.",
    );
    m.assign(
        wires.out_query,
        Expr::mux(
            wires.phase_c.into(),
            wires.c_onehot.into(),
            Expr::mux(
                wires.phase_b.into(),
                wires.b_onehot.into(),
                wires.head_onehot.into(),
            ),
        ),
        "The out-letter of the candidate: phase A's first hop, part 1 in B, part 2 in C.",
    );
    m.assign(
        wires.in_query,
        Expr::mux(
            Expr::from(wires.phase_b).or(wires.phase_c.into()),
            wires.b_onehot.into(),
            wires.in_onehot.into(),
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
    for (label, first, query, mask, all, doc) in [
        (
            "u_used_out",
            letter(io.src, k - 1, k, w),
            wires.out_query,
            wires.used_out,
            wires.all_out_used,
            "Used out-nodes; ak names no out-neighbour.",
        ),
        (
            "u_used_in",
            letter(io.dst, 0, k, w),
            wires.in_query,
            wires.used_in,
            wires.all_in_used,
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
            .bind(&p.used, mask)
            .bind(&p.all_used, all);
        m.instance(label, connections, doc);
    }
}

fn ahead_instance(
    m: &mut Module,
    params: &RouteGenParams,
    io: &TopPorts,
    wires: &Wires,
    (ahead, p): &(Module, AheadPorts),
) {
    let (k, w, d) = (params.k(), params.letter_bits(), params.d());
    let src = |i: usize| letter(io.src, i, k, w);
    let dst = |i: usize| letter(io.dst, i, k, w);
    let connections = Connections::of(ahead)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.init, io.init)
        .bind(&p.matched, wires.matched)
        .bind(&p.phase_a, wires.phase_a)
        .bind(&p.phase_b, wires.phase_b)
        .bind(&p.phase_c, wires.phase_c)
        .bind(&p.full, wires.full)
        .bind(&p.b_last, wires.b_last)
        .bind(&p.c_last, wires.c_last)
        .bind(&p.used_out, wires.used_out)
        .bind(&p.used_in, wires.used_in)
        .bind(&p.head, wires.head_onehot)
        .bind(&p.head_next, decode(wires.shifted_out.into(), w, d))
        .bind(&p.in_letter, wires.in_onehot)
        .bind(&p.in_next, decode(wires.in_next.into(), w, d))
        .bind(&p.b_onehot, wires.b_onehot)
        .bind(&p.c_onehot, wires.c_onehot)
        .bind(&p.load_out_free, src(k - 1).ne(dst(k - 1)))
        .bind(&p.load_in_free, src(0).ne(dst(0)));
    m.instance(
        "u_ahead",
        connections
            .bind(&p.free_a, wires.free_a)
            .bind(&p.free_b, wires.free_b)
            .bind(&p.free_c_out, wires.free_c_out)
            .bind(&p.free_c_in, wires.free_c_in),
        "Look-ahead free bits: the used-letter tests of the next cycle, registered.",
    );
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
        .bind(&p.free_a, wires.free_a)
        .bind(&p.free_b, wires.free_b)
        .bind(&p.free_c_out, wires.free_c_out)
        .bind(&p.free_c_in, wires.free_c_in)
        .bind(&p.b_last, wires.b_last)
        .bind(&p.c_last, wires.c_last)
        .bind(
            &p.all_used,
            Expr::from(wires.all_out_used).and(wires.all_in_used.into()),
        )
        .bind(&p.load, wires.load)
        .bind(&p.shift, wires.shift_en)
        .bind(&p.found, wires.found)
        .bind(&p.phase_a, wires.phase_a)
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
