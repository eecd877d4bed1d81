//! The look-ahead free bits of the faithful route generator: registers that hold, for the
//! letters each phase will test in the next cycle, whether they are still free in the used
//! letters as they will be after this clock.
//!
//! Without them a cycle decodes the letters tested, looks them up in the used letters and
//! only then decides `found`, the next state, the counters and the marks: the generator's
//! longest path. Here each bit is computed a cycle ahead from the same registers the
//! datapath updates (a letter tested next is one the counters or the shifts will bring,
//! and a used letter is one used now or marked by this cycle's route), so the control
//! reads them as registers. A bit is only exact in the states where the control reads it
//! (its phase and that phase's WAIT state), and in the cycle before they are entered; in
//! the others it holds or is recomputed before use.

use super::super::{Fault, RouteGenParams, name};
use super::used::marked;
use crate::rtl::ir::{Expr, Module, SignalId, port_struct, ports};
use std::ops::Not;

port_struct!(
    pub(super) struct AheadPorts {
        clk, rst, init, matched, phase_a, phase_b, phase_c, full, b_last, c_last, used_out,
        used_in, head, head_next, in_letter, in_next, b_onehot,
        c_onehot, load_out_free, load_in_free, free_a, free_b, free_c_out, free_c_in,
    }
);

/// The inputs, one-hot letter vectors and used masks of d+1 bits.
struct Inputs {
    init: SignalId,
    matched: SignalId,
    phase_a: SignalId,
    phase_b: SignalId,
    phase_c: SignalId,
    full: SignalId,
    b_last: SignalId,
    c_last: SignalId,
    used_out: SignalId,
    used_in: SignalId,
    head: SignalId,
    head_next: SignalId,
    in_letter: SignalId,
    in_next: SignalId,
    b_onehot: SignalId,
    c_onehot: SignalId,
    load_out_free: SignalId,
    load_in_free: SignalId,
}

impl Inputs {
    fn declare(m: &mut Module, letters: u32) -> Self {
        let mut vector = |name: &str, doc: &str| m.input(name, letters, doc);
        let used_out = vector("used_out", "used out-letters");
        let used_in = vector("used_in", "used in-letters");
        let head = vector("head", "phase A's out-letter, one-hot");
        let head_next = vector("head_next", "phase A's out-letter after a shift, one-hot");
        let in_letter = vector("in_letter", "phase A's in-letter a(p), one-hot");
        let in_next = vector("in_next", "phase A's in-letter after a shift, one-hot");
        let b_onehot = vector("b_onehot", "shift/increment part 1's letter, one-hot");
        let c_onehot = vector("c_onehot", "shift/increment part 2's letter, one-hot");
        Inputs {
            init: m.input("init", 1, "start a new search"),
            matched: m.input("matched", 1, "phase A: the overlap tested exists"),
            phase_a: m.input("phase_a", 1, "state PHASE_A"),
            phase_b: m.input("phase_b", 1, "state PHASE_B"),
            phase_c: m.input("phase_c", 1, "state PHASE_C"),
            full: m.input("full", 1, "phase A tests overlap 0: no shift"),
            b_last: m.input("b_last", 1, "part 1 at letter d"),
            c_last: m.input("c_last", 1, "part 2 at letter d"),
            used_out,
            used_in,
            head,
            head_next,
            in_letter,
            in_next,
            b_onehot,
            c_onehot,
            load_out_free: m.input(
                "load_out_free",
                1,
                "init: bk differs from ak, the out-letter init marks used",
            ),
            load_in_free: m.input(
                "load_in_free",
                1,
                "init: a1 differs from b1, the in-letter init marks used",
            ),
        }
    }
}

/// Whether the one-hot letter `letter` is set in `mask`.
fn lookup(mask: Expr, letter: Expr) -> Expr {
    mask.and(letter).any()
}

/// `onehot` moved up one letter: the counter after an increment.
fn next_letter(onehot: SignalId, letters: u32) -> Expr {
    Expr::concat(vec![
        Expr::Slice {
            signal: onehot,
            lo: 0,
            width: letters - 1,
        },
        Expr::Slice {
            signal: onehot,
            lo: letters - 1,
            width: 1,
        },
    ])
}

pub(super) fn ahead(params: &RouteGenParams, fault: Option<Fault>) -> (Module, AheadPorts) {
    let letters = params.d() as u32 + 1;
    let mut m = Module::new(
        name(params, "ahead"),
        &[
            "look-ahead free bits: whether the letters each phase tests next are free in the used",
            "letters after this clock, registered so that the control's tests are registers.",
        ],
    );
    let clocking = m.clocked();
    let i = Inputs::declare(&mut m, letters);
    let free_a = m.output("free_a", 1, "phase A: both letters of the overlap free");
    let free_b = m.output("free_b", 1, "phase B: the letter free on both sides");
    let free_c_out = m.output("free_c_out", 1, "phase C: the out-letter free");
    let free_c_in = m.output("free_c_in", 1, "phase C: the in-letter free");
    let reg = |id: SignalId| Expr::from(id);
    // Phase A's route, found now, marks its out-letter (head) and in-letter a(p).
    let found_a = reg(i.matched).and(free_a.into());
    let free_after_a = |x: Expr| {
        let marks_out = marked(fault, i.head, letters);
        let marks_in = marked(fault, i.in_letter, letters);
        Expr::and_all([
            lookup(reg(i.used_out), x.clone()).not(),
            lookup(reg(i.used_in), x.clone()).not(),
            found_a.clone().and(lookup(marks_out, x.clone())).not(),
            found_a.clone().and(lookup(marks_in, x)).not(),
        ])
    };
    let free_out_a = |x: Expr| {
        lookup(reg(i.used_out), x.clone()).not().and(
            found_a
                .clone()
                .and(lookup(marked(fault, i.head, letters), x))
                .not(),
        )
    };
    let free_in_a = |x: Expr| {
        lookup(reg(i.used_in), x.clone()).not().and(
            found_a
                .clone()
                .and(lookup(marked(fault, i.in_letter, letters), x))
                .not(),
        )
    };
    let step = |phase_a: Expr, phase_b: Expr, phase_c: Expr, held: SignalId| {
        Expr::mux(
            reg(i.phase_a),
            phase_a,
            Expr::mux(
                reg(i.phase_b),
                phase_b,
                Expr::mux(reg(i.phase_c), phase_c, held.into()),
            ),
        )
    };
    let a_next = free_out_a(Expr::mux(reg(i.full), reg(i.head), reg(i.head_next))).and(free_in_a(
        Expr::mux(reg(i.full), reg(i.in_letter), reg(i.in_next)),
    ));
    m.register(
        free_a,
        0,
        Expr::mux(
            reg(i.init),
            reg(i.load_out_free).and(i.load_in_free.into()),
            step(a_next, free_a.into(), free_a.into(), free_a),
        ),
        "Phase A tests the same letters at overlap 0, else the next shift's.",
    );
    let b_in_a = free_after_a(reg(i.b_onehot));
    // Phase B moves to the next letter, or (route found at d) tests d again, now used.
    let b_in_b = reg(i.b_last).not().and(
        lookup(
            reg(i.used_out).or(i.used_in.into()),
            next_letter(i.b_onehot, letters),
        )
        .not(),
    );
    m.register(
        free_b,
        0,
        Expr::mux(
            reg(i.init),
            free_b.into(),
            step(b_in_a, b_in_b, free_b.into(), free_b),
        ),
        "Phase B's letter, kept up to date in phase A, from which B starts.",
    );
    c_bits(&mut m, &i, (letters, fault), (free_c_out, free_c_in));
    let ports = ports!(
        m,
        AheadPorts {
            clk = clocking.clock, rst = clocking.reset, init = i.init,
            matched = i.matched, phase_a = i.phase_a, phase_b = i.phase_b,
            phase_c = i.phase_c, full = i.full, b_last = i.b_last, c_last = i.c_last,
            used_out = i.used_out, used_in = i.used_in, head = i.head, head_next = i.head_next,
            in_letter = i.in_letter, in_next = i.in_next, b_onehot = i.b_onehot,
            c_onehot = i.c_onehot, load_out_free = i.load_out_free,
            load_in_free = i.load_in_free, free_a, free_b, free_c_out, free_c_in,
        }
    );
    (m, ports)
}

/// Phase C's two bits. Phase B ends without a route, with part 1 cleared to letter 0 and
/// part 2 still at the out-letter phase C starts with (under the phase-b-skipped fault
/// phase A ends so, part 1 at the letter `init` cleared it to). In phase C a route found marks
/// both letters and moves part 2 on; an out-letter used moves part 2 on; an in-letter
/// used (the out-letter free) moves part 1 on.
fn c_bits(
    m: &mut Module,
    i: &Inputs,
    (letters, fault): (u32, Option<Fault>),
    (free_c_out, free_c_in): (SignalId, SignalId),
) {
    let reg = |id: SignalId| Expr::from(id);
    let (out_free, in_free) = (reg(free_c_out), reg(free_c_in));
    // The phase that hands over to phase C: A when the fault skips phase B.
    let before_c = match fault {
        Some(Fault::PhaseBSkipped) => i.phase_a,
        _ => i.phase_b,
    };
    let hold = |bit: SignalId, in_b: Expr, in_c: Expr| {
        Expr::mux(
            Expr::from(i.init).not().and(before_c.into()),
            in_b,
            Expr::mux(
                Expr::from(i.init).not().and(i.phase_c.into()),
                in_c,
                bit.into(),
            ),
        )
    };
    let out_next = lookup(reg(i.used_out), next_letter(i.c_onehot, letters)).not();
    m.register(
        free_c_out,
        0,
        hold(
            free_c_out,
            lookup(reg(i.used_out), reg(i.c_onehot)).not(),
            out_free
                .clone()
                .and(in_free.clone().not())
                .or(reg(i.c_last).not().and(out_next)),
        ),
        "The out-letter stays while its in-letter is searched, else the next is tested (at d nothing is left).",
    );
    let in_after = Expr::mux(
        out_free.clone().and(in_free.clone()),
        lookup(marked(fault, i.b_onehot, letters), reg(i.b_onehot)).not(),
        Expr::mux(
            out_free.not(),
            in_free,
            reg(i.b_last)
                .not()
                .and(lookup(reg(i.used_in), next_letter(i.b_onehot, letters)).not()),
        ),
    );
    m.register(
        free_c_in,
        0,
        hold(
            free_c_in,
            match fault {
                Some(Fault::PhaseBSkipped) => lookup(reg(i.used_in), reg(i.b_onehot)).not(),
                _ => Expr::Slice {
                    signal: i.used_in,
                    lo: 0,
                    width: 1,
                }
                .not(),
            },
            in_after,
        ),
        "Phase C starts at in-letter 0; a route marks the in-letter, a used one moves part 1 on.",
    );
}
