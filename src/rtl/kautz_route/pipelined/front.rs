//! The front of the pipelined engine: the pair registered as it is accepted (stage 0), then
//! everything of its search that depends on the pair alone, in two registered stages of a
//! few LUT levels each: the word check in parts, the overlaps that are candidates against
//! the initial masks and each overlap's letters one-hot (stage 1), then `live` and which
//! overlaps block which (stage 2). The route steps then compare no letter, only read
//! these bits.

use super::super::search::{OverlapsPorts, marked_slice};
use super::super::{Fault, RouteGenParams, decode, letter, name, word_terms};
use super::hold;
use super::state::{Carry, State};
use crate::rtl::const_arith::bit;
use crate::rtl::ir::{Connections, Expr, Module, Port, SignalId};
use std::ops::Not;

/// The ports of [`front`].
pub(super) struct FrontPorts {
    pub clk: Port,
    pub rst: Port,
    pub advance: Port,
    pub in_valid: Port,
    pub src: Port,
    pub dst: Port,
    pub out: State<Port>,
}

pub(super) fn front(
    params: &RouteGenParams,
    overlaps: Option<&(Module, OverlapsPorts)>,
    carry: Carry,
    fault: Option<Fault>,
) -> (Module, FrontPorts) {
    let kw = params.k() as u32 * params.letter_bits();
    let mut m = Module::new(
        name(params, "front"),
        &[
            "the front of the pipeline: the pair registered as it is accepted, then its word check,",
            "overlaps, their letters and the initial used masks, then which overlaps block which: three stages.",
        ],
    );
    let clocking = m.clocked();
    let advance = m.input("advance", 1, "the pipeline moves this edge");
    let in_valid = m.input("in_valid", 1, "a pair is offered");
    let src = m.input("src", kw, "its source word");
    let dst = m.input("dst", kw, "its destination word");
    let out = State::declare(&mut m, params, "_q", carry, Module::output);
    let valid0 = m.internal("valid0", 1, "stage 0: a pair was accepted");
    let src0 = m.internal("src0", kw, "stage 0: its source word");
    let dst0 = m.internal("dst0", kw, "stage 0: its destination word");
    hold(
        &mut m,
        advance,
        valid0,
        in_valid.into(),
        "Stage 0: the pair as accepted; registered so that no logic hangs on the ports.",
    );
    hold(&mut m, advance, src0, src.into(), "");
    hold(&mut m, advance, dst0, dst.into(), "");
    let overlap = overlaps.map(|o| overlap_bits(&mut m, params, o, (src0, dst0)));
    let with_blocks = carry == Carry::Blocks;
    let stage1 = letters(&mut m, params, advance, (src0, dst0, overlap), with_blocks);
    hold(
        &mut m,
        advance,
        stage1.valid,
        valid0.into(),
        "Stage 1: the pair and its check.",
    );
    hold(&mut m, advance, stage1.dst, dst0.into(), "");
    word_check(&mut m, params, advance, (src0, dst0), &stage1);
    hold(
        &mut m,
        advance,
        out.valid,
        stage1.valid.into(),
        "Stage 2: the pair, live when its words are good.",
    );
    hold(
        &mut m,
        advance,
        out.live,
        Expr::and_all([
            stage1.valid.into(),
            stage1
                .good
                .map_or(Expr::bit(true), |good| Expr::from(good).all()),
            Expr::from(stage1.same).all().not(),
        ]),
        "",
    );
    hold(&mut m, advance, out.dst, stage1.dst.into(), "");
    search(&mut m, params, advance, &stage1, &out, fault);
    let ports = FrontPorts {
        clk: m.port_of(clocking.clock),
        rst: m.port_of(clocking.reset),
        advance: m.port_of(advance),
        in_valid: m.port_of(in_valid),
        src: m.port_of(src),
        dst: m.port_of(dst),
        out: out.map(|&id| m.port_of(id)),
    };
    (m, ports)
}

/// The tests that make src and dst nodes, ANDed two by two: each a few LUT levels.
fn good_terms(params: &RouteGenParams, (src0, dst0): (SignalId, SignalId)) -> Vec<Expr> {
    let terms: Vec<Expr> = [src0, dst0]
        .into_iter()
        .flat_map(|word| word_terms(params, word))
        .collect();
    terms
        .chunks(2)
        .map(|pair| Expr::and_all(pair.iter().cloned()))
        .collect()
}

/// Stage 1's word check in parts, each a few LUT levels: the words' letter tests two by
/// two, and the letters the words share; stage 2 ANDs them.
fn word_check(
    m: &mut Module,
    params: &RouteGenParams,
    advance: SignalId,
    (src0, dst0): (SignalId, SignalId),
    stage1: &Stage1,
) {
    let (k, w) = (params.k(), params.letter_bits());
    if let Some(good) = stage1.good {
        hold(
            m,
            advance,
            good,
            Expr::concat(good_terms(params, (src0, dst0))),
            "The word check in parts: the words' letter tests two by two,",
        );
    }
    let same = (0..k)
        .map(|i| letter(src0, i, k, w).eq(letter(dst0, i, k, w)))
        .collect();
    hold(
        m,
        advance,
        stage1.same,
        Expr::concat(same),
        "and each letter of src against dst's: src differs unless all are the same.",
    );
}

/// The overlaps of the stage-0 words, bit v-1 for overlap v.
fn overlap_bits(
    m: &mut Module,
    params: &RouteGenParams,
    (overlaps, p): &(Module, OverlapsPorts),
    (src0, dst0): (SignalId, SignalId),
) -> SignalId {
    let (k, w) = (params.k() as u32, params.letter_bits());
    let overlap = m.internal("overlap", k - 1, "stage 0: the overlaps");
    let connections = Connections::of(overlaps)
        .bind(
            &p.tail,
            Expr::Slice {
                signal: src0,
                lo: 0,
                width: (k - 1) * w,
            },
        )
        .bind(
            &p.head,
            Expr::Slice {
                signal: dst0,
                lo: w,
                width: (k - 1) * w,
            },
        )
        .bind(&p.overlap, overlap);
    m.instance("u_overlaps", connections, "Every overlap at once.");
    overlap
}

/// Stage 1: the pair, its check, and what stage 2 needs of its letters.
struct Stage1 {
    valid: SignalId,
    /// Each bit: two of the tests that make the words nodes (none when no word can fail).
    good: Option<SignalId>,
    /// Bit i: letter i of the words is the same.
    same: SignalId,
    dst: SignalId,
    /// Bit v: overlap v exists and its letters are not the initially used ak and b1.
    free: SignalId,
    /// Each overlap's letters, one-hot (out, in), when the blocks are needed.
    letters: Option<(SignalId, SignalId)>,
    used_out: SignalId,
    used_in: SignalId,
}

/// Stage 1's registers from the stage-0 words and overlaps: each overlap's letters
/// one-hot, the initial masks and the overlaps that are candidates against them.
fn letters(
    m: &mut Module,
    params: &RouteGenParams,
    advance: SignalId,
    (src0, dst0, overlap): (SignalId, SignalId, Option<SignalId>),
    with_blocks: bool,
) -> Stage1 {
    let (k, d, w) = (params.k(), params.d(), params.letter_bits());
    let (kw, letters) = (k as u32 * w, d as u32 + 1);
    let tests = good_terms(params, (src0, dst0)).len() as u32;
    let mut signal = |n: &str, width: u32, doc: &str| m.internal(n, width, doc);
    let q = Stage1 {
        valid: signal("valid1", 1, "stage 1: a pair"),
        good: (tests > 0).then(|| signal("good1", tests, "stage 1: each bit, two tests passed")),
        same: signal(
            "same1",
            k as u32,
            "stage 1: bit i, the words' letter i is the same",
        ),
        dst: signal("dst1", kw, "stage 1: its destination word"),
        free: signal(
            "free1",
            k as u32,
            "stage 1: bit v, overlap v is a candidate",
        ),
        letters: with_blocks.then(|| {
            let width = k as u32 * letters;
            (
                signal("outs1", width, "stage 1: overlap v's out-letter b(v+1)"),
                signal("ins1", width, "stage 1: overlap v's in-letter a(k-v)"),
            )
        }),
        used_out: signal("used_out1", letters, "stage 1: used out-letters"),
        used_in: signal("used_in1", letters, "stage 1: used in-letters"),
    };
    if let Some((outs, ins)) = q.letters {
        // Overlap 0 in the lowest slot.
        let one_hot = |word, index: fn(usize, usize) -> usize| {
            Expr::concat(
                (0..k)
                    .rev()
                    .map(|v| decode(letter(word, index(v, k), k, w), w, d))
                    .collect(),
            )
        };
        hold(
            m,
            advance,
            outs,
            one_hot(dst0, |v, _| v),
            "Each overlap's letters, one-hot.",
        );
        hold(m, advance, ins, one_hot(src0, |v, k| k - 1 - v), "");
    }
    let (ak, b1) = (letter(src0, k - 1, k, w), letter(dst0, 0, k, w));
    hold(
        m,
        advance,
        q.used_out,
        decode(ak.clone(), w, d),
        "Used out-letters: ak names no out-neighbour.",
    );
    hold(
        m,
        advance,
        q.used_in,
        decode(b1.clone(), w, d),
        "Used in-letters: b1 names no in-neighbour.",
    );
    let free = (0..k).rev().map(|v| {
        let exists = match (v, overlap) {
            (0, _) | (_, None) => Expr::bit(true),
            (_, Some(overlap)) => bit(overlap, v as u32 - 1),
        };
        exists
            .and(letter(dst0, v, k, w).ne(ak.clone()))
            .and(letter(src0, k - 1 - v, k, w).ne(b1.clone()))
    });
    hold(
        m,
        advance,
        q.free,
        Expr::concat(free.collect()),
        "Overlap v is a candidate when it exists and its letters b(v+1) and a(k-v) are free.",
    );
    q
}

/// Stage 2's search state from stage 1: which overlaps block which (when a step's marks
/// read it); the rest moves on.
fn search(
    m: &mut Module,
    params: &RouteGenParams,
    advance: SignalId,
    stage1: &Stage1,
    out: &State,
    fault: Option<Fault>,
) {
    let (k, letters) = (params.k(), params.d() as u32 + 1);
    let q = out.search.as_ref().expect("the front gives the search");
    for (q, value) in [
        (q.alive, stage1.free),
        (q.used_out, stage1.used_out),
        (q.used_in, stage1.used_in),
    ] {
        hold(m, advance, q, value.into(), "");
    }
    let (Some(b), Some((outs, ins))) = (q.blocks, stage1.letters) else {
        return;
    };
    let slot = |v: usize| v as u32 * letters;
    // Overlap p's route marks its letters (as the marks mark them, fault included); overlap
    // v is blocked when either of its letters is among them.
    let blocks = |p: usize, v: usize| {
        let meets = |s: SignalId| {
            marked_slice(s, slot(p), letters, fault)
                .and(Expr::Slice {
                    signal: s,
                    lo: slot(v),
                    width: letters,
                })
                .any()
        };
        meets(outs).or(meets(ins))
    };
    let conf = (0..k)
        .rev()
        .flat_map(|p| (0..k).rev().map(move |v| (p, v)))
        .map(|(p, v)| blocks(p, v));
    hold(
        m,
        advance,
        b.conf,
        Expr::concat(conf.collect()),
        "Which overlaps block which.",
    );
    hold(m, advance, b.outs, outs.into(), "");
    hold(m, advance, b.ins, ins.into(), "");
}
