//! The router behind buffered switches (`--flow vct|saf`): acknowledged delivery, as the
//! network model's router steps it under it (src/models/network/router.rs, `clock_acked`;
//! src/models/network/acked.rs; docs/flow-control.md, "In a network"). The ports are the
//! router's of [`super::router`]; what it does with them:
//!
//! - **loader and tables**: the message's bytes go into the buffer as before; its
//!   destination is kept, and its sequence number is read from the table of the next
//!   number per destination (`nseq`, its valid bits reset) and written back one up when
//!   its first attempt starts (a refused message takes no number, as in the model);
//! - **sender**: one job at a time, the held message's attempt or the ACK at the front of
//!   the queue of four; a job looks its route up (the route source keeps one pair: the
//!   route after the one taken is ready B cycles after it, any other is reached by `init`
//!   and a `next_route` every B cycles) and sends its worm, the data worm with its
//!   sequence number after its count, the ACK with its route bytes marked not to be
//!   buffered, count 0 and the number it acknowledges;
//! - **outcome**: an attempt sent whole waits for its ACK until its bound; the ACK ends the
//!   message (`res_valid`), a NACK or the bound moves it to its next route, and none left
//!   fails it;
//! - **receiver**: an arriving data worm is handed out unless its number is the one last
//!   handed out from its source (`acc`, with valid bits), and owes an ACK from its EOD; an
//!   arriving ACK that names the held message's destination and number is its ACK.
//!
//! Every output is a register. The buffer, the worm's words and the received bytes go as
//! in [`super::router`]; the worm here carries two more words, and the receiver two more
//! states.

use super::router_parts::{
    Buffer, Io, Sizes, buffer, control_in, hand_out, low_byte, nacked, port, shift_in_address,
    shift_letter, slice, still_loading,
};
use crate::bits::bits_for;
use crate::network::acked::{ACK_QUEUE, ACK_ROUNDS};
use crate::rtl::const_arith::extend;
use crate::rtl::ir::{Connections, ConstId, Expr, Memory, Module, SignalId};
use crate::rtl::kautz_route::RouteGenPorts;

/// Bits of a sequence number.
const SEQ: u32 = 16;

/// The router's top under acknowledged delivery, in `m` after its ports `io` (of sizes
/// `s`), with `route_gen` (the route generator or table) beside it and a source waiting
/// `timeout` cycles for an ACK.
pub(super) fn module(
    mut m: Module,
    (s, io): (&Sizes, &Io),
    route_gen: &Module,
    timeout: u64,
) -> Module {
    let (s, io) = (*s, *io);
    let r = Regs::declare(&mut m, &s, timeout);
    let loader = loader(&mut m, &io, &r);
    let buf = buffer(&mut m, &s, &io, (loader.first, loader.more));
    let source = route_source(&mut m, &s, &io, route_gen);
    let rx = receiver(&mut m, &s, &io, &r);
    let (flow, queue) = sender(
        &mut m,
        &s,
        &io,
        &r,
        &loader,
        &source,
        &rx,
        (buf.over, timeout),
    );
    worm(&mut m, &s, &io, &r, &flow, &source, (&buf, &queue));
    sequence_tables(&mut m, &s, &io, &r, &flow);
    ack_queue(&mut m, &r, &queue, &rx);
    m
}

/// The registers, declared first so that every block can read them.
struct Regs {
    /// A message is held, from its first byte to its outcome.
    held: SignalId,
    loading: SignalId,
    /// Its destination, sequence number, route index, attempts recorded, phase.
    hdst: SignalId,
    hseq: SignalId,
    load_seq: SignalId,
    d_att: SignalId,
    n_att: SignalId,
    dphase: SignalId,
    dphases: [ConstId; 4],
    /// Its ACK has come; its next route exists (latched as its worm ends); its timeout.
    acked: SignalId,
    d_more: SignalId,
    tmo: SignalId,
    /// The sender: its job (idle, data, ACK) and phase (lookup, ready, send); the last
    /// job was an ACK.
    job: SignalId,
    jobs: [ConstId; 3],
    jph: SignalId,
    jphs: [ConstId; 3],
    after_ack: SignalId,
    /// The route source: the pair and route index it shows next, valid; its timer; the
    /// routes still to step past before the one wanted.
    ctx_ok: SignalId,
    ctx_dst: SignalId,
    ctx_idx: SignalId,
    timer: SignalId,
    skip: SignalId,
    /// The ACK queue: per place its address, number, route index and round; its length.
    q_addr: Vec<SignalId>,
    q_seq: Vec<SignalId>,
    q_route: Vec<SignalId>,
    q_round: Vec<SignalId>,
    qn: SignalId,
    /// The worm on the link: an ACK's, its number and byte count, its position, route.
    w_ack: SignalId,
    w_seq: SignalId,
    w_n: SignalId,
    pos: SignalId,
    hops: SignalId,
    prev: Option<SignalId>,
    hop_count: SignalId,
    srcw: SignalId,
    byte_index: SignalId,
}

impl Regs {
    fn declare(m: &mut Module, s: &Sizes, timeout: u64) -> Self {
        let Sizes {
            w,
            kw,
            rw,
            lw,
            pw,
            tw,
            aw,
            ..
        } = *s;
        let dphases = m.states(
            2,
            &[
                ("D_NONE", "no message, or one being refused"),
                ("D_WAITING", "its next attempt waits for the sender"),
                ("D_ACTIVE", "an attempt is the sender's job"),
                ("D_PARKED", "its worm went out whole: waiting for its ACK"),
            ],
        );
        let jobs = m.states(
            2,
            &[
                ("J_IDLE", "the sender has no job"),
                ("J_DATA", "an attempt of the held message"),
                ("J_ACK", "an attempt of the ACK at the queue's front"),
            ],
        );
        let jphs = m.states(
            2,
            &[
                ("J_LOOKUP", "the job's route is looked up"),
                (
                    "J_READY",
                    "its route taken, the message's last byte still to come",
                ),
                ("J_SEND", "its worm is on the link"),
            ],
        );
        let q = |m: &mut Module, name: &str, width: u32, doc: &str| -> Vec<SignalId> {
            (0..ACK_QUEUE)
                .map(|i| m.internal(&format!("{name}{i}"), width, &format!("{doc}, place {i}")))
                .collect()
        };
        let q_addr = q(m, "q_addr", kw, "the ACK's destination");
        let q_seq = q(m, "q_seq", SEQ, "the number it acknowledges");
        let q_route = q(m, "q_route", w, "the route of its next attempt");
        let q_round = q(m, "q_round", 3, "the round of its routes");
        Regs {
            held: m.internal("held", 1, "a message is held"),
            loading: m.internal("loading", 1, "its bytes are still coming"),
            hdst: m.internal("hdst", kw, "the held message's destination"),
            hseq: m.internal("hseq", SEQ, "its sequence number"),
            load_seq: m.internal("load_seq", 1, "the cycle after its first byte"),
            d_att: m.internal("d_att", w, "its route index"),
            n_att: m.internal("n_att", w, "its attempts recorded"),
            dphase: m.internal("dphase", 2, "where the held message is"),
            dphases: [dphases[0], dphases[1], dphases[2], dphases[3]],
            acked: m.internal("acked", 1, "its ACK has come"),
            d_more: m.internal("d_more", 1, "a route follows its last one sent"),
            tmo: m.internal("tmo", bits_for(timeout), "cycles left for its ACK"),
            job: m.internal("job", 2, "the sender's job"),
            jobs: [jobs[0], jobs[1], jobs[2]],
            jph: m.internal("jph", 2, "the job's phase"),
            jphs: [jphs[0], jphs[1], jphs[2]],
            after_ack: m.internal("after_ack", 1, "the last job was an ACK"),
            ctx_ok: m.internal("ctx_ok", 1, "the route source's next route is known"),
            ctx_dst: m.internal("ctx_dst", kw, "its destination"),
            ctx_idx: m.internal("ctx_idx", w, "its index"),
            timer: m.internal("timer", tw, "cycles until the route source's next route"),
            skip: m.internal("skip", w, "routes to step past before the one wanted"),
            q_addr,
            q_seq,
            q_route,
            q_round,
            qn: m.internal("qn", 3, "ACKs held"),
            w_ack: m.internal("w_ack", 1, "the worm is an ACK"),
            w_seq: m.internal("w_seq", SEQ, "the worm's sequence number"),
            w_n: m.internal("w_n", 8, "the worm's byte count"),
            pos: m.internal("pos", pw, "the index in the worm of the word on the link"),
            hops: m.internal("hops", rw, "the route, the next hop first"),
            prev: (!s.hops_are_ports).then(|| {
                m.internal(
                    "prev",
                    w,
                    "the last letter of the node the next hop leaves from",
                )
            }),
            hop_count: m.internal("hop_count", lw, "L of the route taken"),
            srcw: m.internal(
                "srcw",
                kw,
                "this node's word, shifted one unit per word sent",
            ),
            byte_index: m.internal("byte_index", aw, "the next data byte to send"),
        }
    }

    fn dphase_is(&self, i: usize) -> Expr {
        Expr::from(self.dphase).eq(self.dphases[i].into())
    }

    fn job_is(&self, i: usize) -> Expr {
        Expr::from(self.job).eq(self.jobs[i].into())
    }

    fn jph_is(&self, i: usize) -> Expr {
        Expr::from(self.jph).eq(self.jphs[i].into())
    }
}

const D_NONE: usize = 0;
const D_WAITING: usize = 1;
const D_ACTIVE: usize = 2;
const D_PARKED: usize = 3;
const J_IDLE: usize = 0;
const J_DATA: usize = 1;
const J_ACK: usize = 2;
const P_LOOKUP: usize = 0;
const P_READY: usize = 1;
const P_SEND: usize = 2;

/// The byte handshake.
struct Loader {
    take: SignalId,
    first: SignalId,
    more: SignalId,
    still_loading: SignalId,
}

fn loader(m: &mut Module, io: &Io, r: &Regs) -> Loader {
    let take = m.internal("take", 1, "a byte is taken this cycle");
    m.assign(
        take,
        Expr::from(io.tx_valid).and(io.tx_ready.into()),
        "Valid and ready.",
    );
    let first = m.internal("first", 1, "the message's first byte is taken (cycle a)");
    m.assign(
        first,
        Expr::from(take).and(!Expr::from(r.held)),
        "Taken with no message held.",
    );
    let more = m.internal("more", 1, "a later byte is taken");
    m.assign(
        more,
        Expr::from(take).and(r.held.into()),
        "Taken while held.",
    );
    let still_loading = still_loading(m, (first, take, io.tx_last), r.loading);
    Loader {
        take,
        first,
        more,
        still_loading,
    }
}

/// The route source's pulses and outputs.
struct RouteGen {
    valid: SignalId,
    init: SignalId,
    next_route: SignalId,
    dst: SignalId,
    route: SignalId,
    len: SignalId,
    done: SignalId,
    error: SignalId,
}

fn route_source(m: &mut Module, s: &Sizes, io: &Io, route_gen: &Module) -> RouteGen {
    let Sizes { kw, lw, rw, .. } = *s;
    let g = RouteGen {
        valid: m.internal("gen_valid", 1, "route source: a route is shown"),
        init: m.internal("gen_init", 1, "start the route source on a pair"),
        next_route: m.internal("gen_next", 1, "step the route source to its next route"),
        dst: m.internal("gen_dst", kw, "the destination the route source starts on"),
        route: m.internal("gen_route", rw, "route source: hops z1..zL, z1 first"),
        len: m.internal("gen_len", lw, "route source: L"),
        done: m.internal("gen_done", 1, "route source: no further route"),
        error: m.internal(
            "gen_error",
            1,
            "route source: the destination is not a node",
        ),
    };
    let valid = g.valid;
    let p = RouteGenPorts::of(route_gen);
    let connections = Connections::of(route_gen)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.init, g.init)
        .bind(&p.next_route, g.next_route)
        .bind(&p.src, io.node)
        .bind(&p.dst, g.dst)
        .bind(&p.route_valid, valid)
        .bind(&p.route, g.route)
        .bind(&p.route_len, g.len)
        .bind(&p.done, g.done)
        .bind(&p.error, g.error);
    m.instance(
        "u_route_source",
        connections,
        "The route source, shared by the held message's attempts and the ACKs.",
    );
    g
}

/// What the receiver decides in a cycle.
struct Rx {
    /// The worm's sequence number is whole this cycle: an ACK that is the held message's,
    /// and a data worm's EOD that owes an ACK (with its source and number).
    ack_match: SignalId,
    ack_due: SignalId,
    rx_acc: SignalId,
    rx_seq: SignalId,
}

/// The receiver: as the bufferless network's, with the sequence number after the count;
/// byte count 0 is an ACK.
fn receiver(m: &mut Module, s: &Sizes, io: &Io, r: &Regs) -> Rx {
    let Sizes { k, kw, dw, .. } = *s;
    let states = m.states(
        3,
        &[
            ("R_IDLE", "between worms: a control word is a head"),
            ("R_SRC", "taking the source's address"),
            ("R_LEN", "the next word is the byte count n"),
            (
                "R_SEQ_HI",
                "the next word is the sequence number's high byte",
            ),
            ("R_SEQ_LO", "the next word is its low byte"),
            ("R_DATA", "taking the n data bytes"),
            ("R_SKIP", "up to the EOD"),
        ],
    );
    let st = m.internal("rx_state", 3, "the receiver's place in an arriving worm");
    let is = |i: usize| Expr::from(st).eq(states[i].into());
    let rx_count = m.internal("rx_count", 8, "address units or data bytes taken so far");
    let rx_acc = m.internal("rx_acc", kw, "the source's address, units shifted in");
    let rx_n = m.internal("rx_n", 8, "the arriving worm's byte count");
    let rx_hi = m.internal("rx_hi", 8, "its sequence number's high byte");
    let rx_seq = m.internal("rx_seq", SEQ, "its sequence number, whole");
    let owe = m.internal("owe", 1, "the arriving data worm owes an ACK at its EOD");
    let control = control_in(io);
    let plain = Expr::from(io.arr_valid).and(!Expr::from(io.arr_ctl));
    let data = low_byte(io.arr_data, dw);
    let head_in = control.clone().and(is(0));
    let early = control
        .clone()
        .and(Expr::or_all([is(1), is(2), is(3), is(4), is(5)]));
    let next = Expr::from(rx_count) + Expr::konst(8, 1);
    let src_done = plain
        .clone()
        .and(is(1))
        .and(next.clone().eq(Expr::konst(8, k.into())));
    let len_in = plain.clone().and(is(2));
    let hi_in = plain.clone().and(is(3));
    let lo_in = m.internal("lo_in", 1, "the sequence number's low byte arrives");
    m.assign(lo_in, plain.clone().and(is(4)), "Word n + 2.");
    let seq = Expr::concat(vec![rx_hi.into(), data.clone()]);
    let is_ack = Expr::from(rx_n).eq(Expr::zero(8));
    let acc = m.internal(
        "acc_read",
        SEQ,
        "the number last handed out from the source",
    );
    let acc_ok = m.internal("acc_ok", 1, "a number was handed out from the source");
    let dup = m.internal("dup", 1, "the data worm is a copy of one handed out");
    m.assign(
        dup,
        Expr::from(acc_ok).and(Expr::from(acc).eq(seq.clone())),
        "Its number is the source's last.",
    );
    let ack_match = m.internal("ack_match", 1, "the held message's ACK arrives");
    m.assign(
        ack_match,
        Expr::and_all([
            lo_in.into(),
            is_ack.clone(),
            r.held.into(),
            !r.dphase_is(D_NONE),
            Expr::from(r.hdst).eq(rx_acc.into()),
            Expr::from(r.hseq).eq(seq.clone()),
        ]),
        "Count 0, from its destination, with its number.",
    );
    let fresh = m.internal(
        "fresh",
        1,
        "a data worm not handed out before: its bytes follow",
    );
    m.assign(
        fresh,
        Expr::from(lo_in).and(!is_ack.clone()).and(!Expr::from(dup)),
        "A new number from its source.",
    );
    let data_in = plain.clone().and(is(5));
    let last_in = data_in.clone().and(next.clone().eq(rx_n.into()));
    let ack_due = m.internal("ack_due", 1, "a data worm's EOD: an ACK is owed");
    m.assign(
        ack_due,
        control.clone().and(is(6)).and(owe.into()),
        "The EOD of a data worm.",
    );
    let after_head = if k == 1 { states[2] } else { states[1] };
    m.register(
        st,
        0,
        Expr::mux(
            head_in.clone(),
            after_head.into(),
            Expr::mux(
                early.clone(),
                states[0].into(),
                Expr::mux(
                    src_done.clone(),
                    states[2].into(),
                    Expr::mux(
                        len_in.clone(),
                        states[3].into(),
                        Expr::mux(
                            hi_in.clone(),
                            states[4].into(),
                            Expr::mux(
                                lo_in.into(),
                                Expr::mux(fresh.into(), states[5].into(), states[6].into()),
                                Expr::mux(
                                    last_in.clone(),
                                    states[6].into(),
                                    Expr::mux(is(6).and(control.clone()), states[0].into(), st.into()),
                                ),
                            ),
                        ),
                    ),
                ),
            ),
        ),
        "Head, the address, n, the number's two bytes, n bytes when new, then skip to the EOD; an early control word ends it.",
    );
    m.register(
        owe,
        0,
        Expr::mux(
            Expr::from(lo_in).and(!is_ack),
            Expr::bit(true),
            Expr::mux(
                early.clone().or(ack_due.into()),
                Expr::bit(false),
                owe.into(),
            ),
        ),
        "From a data worm's number to its EOD.",
    );
    m.register(
        rx_count,
        0,
        Expr::mux(
            head_in.clone(),
            Expr::konst(8, 1),
            Expr::mux(
                fresh.into(),
                Expr::zero(8),
                Expr::mux(
                    plain.clone().and(is(1)).or(data_in.clone()),
                    next,
                    rx_count.into(),
                ),
            ),
        ),
        "Address units from the head on, bytes from the number on.",
    );
    let unit_in = head_in.clone().or(plain.and(is(1)));
    shift_in_address(
        m,
        s,
        io,
        (rx_acc, unit_in),
        "Each unit shifted in at the bottom.",
    );
    m.register(rx_n, 0, Expr::mux(len_in, data.clone(), rx_n.into()), "n.");
    m.register(
        rx_hi,
        0,
        Expr::mux(hi_in, data.clone(), rx_hi.into()),
        "The high byte.",
    );
    m.register(
        rx_seq,
        0,
        Expr::mux(lo_in.into(), seq, rx_seq.into()),
        "The number.",
    );
    hand_out(
        m,
        (kw, dw, io),
        (data_in, rx_count, last_in),
        (rx_acc, rx_n),
        (early, "A worm that ended before its bytes."),
    );
    accepted_table(m, s, io, fresh, (rx_acc, rx_hi), (acc, acc_ok));
    Rx {
        ack_match,
        ack_due,
        rx_acc,
        rx_seq,
    }
}

/// The number last handed out from each source: a RAM read at the arriving worm's source
/// (registered, long before its number is whole), its valid bits in registers.
fn accepted_table(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    fresh: SignalId,
    (rx_acc, rx_hi): (SignalId, SignalId),
    (acc, acc_ok): (SignalId, SignalId),
) {
    let kw = s.kw;
    let entries = 1u32 << kw;
    let seq = Expr::concat(vec![rx_hi.into(), low_byte(io.arr_data, s.dw)]);
    m.memory(
        Memory {
            name: "acc".to_string(),
            depth: entries,
            width: SEQ,
            write_enable: Expr::from(fresh).and(!Expr::from(io.clocking.reset)),
            write_addr: rx_acc.into(),
            write_data: seq,
            read_addr: rx_acc.into(),
            read_data: acc,
        },
        "The number last handed out from each source, by its address.",
    );
    let valid = m.internal(
        "acc_valid",
        entries,
        "bit i: a number was handed out from source i",
    );
    m.register(
        valid,
        0,
        Expr::from(valid).or(Expr::mux(
            fresh.into(),
            one_hot(rx_acc, kw, entries),
            Expr::zero(entries),
        )),
        "Set with the first number handed out from each source.",
    );
    m.assign(
        acc_ok,
        select_bit(valid, rx_acc, kw, entries),
        "The source's bit.",
    );
}

/// The `entries`-bit vector with only the bit `index` (of `bits` bits) set.
fn one_hot(index: SignalId, bits: u32, entries: u32) -> Expr {
    Expr::concat(
        (0..entries)
            .rev()
            .map(|i| Expr::from(index).eq(Expr::konst(bits, i.into())))
            .collect(),
    )
}

/// Bit `index` (of `bits` bits) of the `entries`-bit `vector`.
fn select_bit(vector: SignalId, index: SignalId, bits: u32, entries: u32) -> Expr {
    Expr::or_all((0..entries).map(|i| {
        Expr::from(index)
            .eq(Expr::konst(bits, i.into()))
            .and(slice(vector, i, 1))
    }))
}

/// The sender's decisions in a cycle, which the worm, the queue and the outcome follow.
struct Flow {
    /// A route is taken (and `next_route` asserted); it is an ACK's.
    take: SignalId,
    /// The head goes on the link next cycle; it is an ACK's.
    start_send: SignalId,
    start_ack: SignalId,
    /// A word follows the one on the link; the word after it is the worm's EOD.
    more_words: SignalId,
    next: SignalId,
    at_next_eod: SignalId,
    /// The message's first byte is loaded.
    first_byte: SignalId,
}

/// The worm on the link: where it is, and whether it ends now.
struct Position {
    next: SignalId,
    at_eod: SignalId,
    eod_pos: SignalId,
}

fn position(m: &mut Module, s: &Sizes, r: &Regs) -> Position {
    let Sizes { k, lw, pw, .. } = *s;
    let next = m.internal(
        "next",
        pw,
        "the index of the word after the one on the link",
    );
    m.assign(
        next,
        Expr::from(r.pos) + Expr::konst(pw, 1),
        "One word per cycle.",
    );
    let lx = extend(r.hop_count.into(), lw, pw);
    let nx = extend(r.w_n.into(), 8, pw);
    let natural = lx.clone() + Expr::konst(pw, u64::from(k) + 5) + nx;
    let padded = lx.clone() + lx.clone() + lx + Expr::konst(pw, 1);
    let eod_pos = m.internal("eod_pos", pw, "len - 1 = max(L+k+n+6, 3(L+1)-1) - 1");
    m.assign(
        eod_pos,
        Expr::mux(natural.clone().lt(padded.clone()), padded, natural),
        "The sequence number's two words included; padded to hear every NACK.",
    );
    let at_eod = m.internal("at_eod", 1, "the word on the link is the EOD");
    m.assign(
        at_eod,
        Expr::from(r.pos).eq(eod_pos.into()),
        "The EOD is on the link.",
    );
    Position {
        next,
        at_eod,
        eod_pos,
    }
}

/// The sender: the job's progress, the held message's outcome, the next job.
#[allow(clippy::too_many_arguments)]
fn sender(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    r: &Regs,
    loader: &Loader,
    g: &RouteGen,
    rx: &Rx,
    limits: (SignalId, u64),
) -> (Flow, QueueMid) {
    let Sizes { d, w, tw, .. } = *s;
    let pos = position(m, s, r);
    let nack = nacked(io);
    let sending = r.jph_is(P_SEND).and(!r.job_is(J_IDLE));
    let ended = m.internal("ended", 1, "the job's worm ends: NACKed, or its EOD sent");
    m.assign(
        ended,
        sending.clone().and(nack.clone().or(pos.at_eod.into())),
        "A NACK or the EOD.",
    );
    let more_words = m.internal("more_words", 1, "a word follows the one on the link");
    m.assign(
        more_words,
        sending
            .clone()
            .and(!nack.clone())
            .and(!Expr::from(pos.at_eod)),
        "Sending, no NACK, not at the EOD.",
    );
    let data_job = r.job_is(J_DATA);
    let ack_job = r.job_is(J_ACK);
    let d_nack = Expr::from(ended).and(data_job.clone()).and(nack.clone());
    let d_eod = Expr::from(ended).and(data_job.clone()).and(!nack.clone());
    let a_nack = Expr::from(ended).and(ack_job.clone()).and(nack.clone());
    let a_eod = Expr::from(ended).and(ack_job.clone()).and(!nack);
    // Whether a route follows: K(d,k) gives d, a table says so with `done`.
    let after = |index: Expr| match s.hops_are_ports {
        false => (index + Expr::konst(w, 1)).ne(Expr::konst(w, d)),
        true => !Expr::from(g.done),
    };
    let more_now = m.internal(
        "more_now",
        1,
        "a route follows the held message's current one",
    );
    m.assign(more_now, after(r.d_att.into()), "Its next route exists.");
    let timeout = m.internal("timeout", 1, "the held message's ACK has not come in time");
    m.assign(
        timeout,
        r.dphase_is(D_PARKED)
            .and(Expr::from(r.tmo).eq(Expr::zero(m.sig(r.tmo).width))),
        "Parked, and its bound has run out.",
    );
    let next_route_exists = Expr::mux(d_nack.clone(), more_now.into(), r.d_more.into());
    let exhausted = m.internal("exhausted", 1, "the held message's last route has ended");
    m.assign(
        exhausted,
        d_nack
            .clone()
            .or(timeout.into())
            .and(!next_route_exists.clone()),
        "A NACK or a timeout of its last route.",
    );
    let retried = d_nack.clone().or(timeout.into()).and(next_route_exists);
    let dph_mid = m.internal(
        "dph_mid",
        2,
        "where the held message is after this cycle's step",
    );
    m.assign(
        dph_mid,
        Expr::mux(
            Expr::from(loader.first).or(retried),
            r.dphases[D_WAITING].into(),
            Expr::mux(
                d_eod.clone(),
                r.dphases[D_PARKED].into(),
                Expr::mux(exhausted.into(), r.dphases[D_NONE].into(), r.dphase.into()),
            ),
        ),
        "A new message and a NACKed or timed-out attempt wait; a whole worm parks.",
    );
    // The lookup of a job under way.
    let tick0 = Expr::from(r.timer).eq(Expr::zero(tw));
    let skip0 = Expr::from(r.skip).eq(Expr::zero(w));
    let in_lookup = r.jph_is(P_LOOKUP).and(!r.job_is(J_IDLE));
    let take_cont = in_lookup.clone().and(tick0.clone()).and(skip0.clone());
    let step = m.internal("step", 1, "the route source steps past a route not wanted");
    m.assign(
        step,
        in_lookup.and(tick0.clone()).and(!skip0),
        "Re-started on a pair, it walks to the route wanted.",
    );
    let last_byte_now = Expr::from(loader.take).and(io.tx_last.into());
    let sending_data = data_job.clone().and(
        sending
            .clone()
            .and(!Expr::from(ended))
            .or(take_cont.clone().and(!Expr::from(loader.still_loading)))
            .or(r.jph_is(P_READY).and(last_byte_now.clone())),
    );
    let acked_now = Expr::from(r.acked).or(rx.ack_match.into());
    let delivered = m.internal("delivered", 1, "verdict: the held message's ACK has come");
    m.assign(
        delivered,
        acked_now.and(r.held.into()).and(!sending_data),
        "Its ACK, and no worm of it going out.",
    );
    outcome_and_next(
        m,
        s,
        io,
        r,
        loader,
        g,
        rx,
        limits,
        Step {
            pos,
            ended,
            more_words,
            d_nack,
            d_eod,
            a_nack,
            a_eod,
            take_cont,
            step,
            tick0,
            exhausted,
            timeout,
            dph_mid,
            delivered,
            more_now,
            last_byte_now,
        },
    )
}

/// What the step of a cycle decided, for the outcome and the next job.
struct Step {
    pos: Position,
    ended: SignalId,
    more_words: SignalId,
    d_nack: Expr,
    d_eod: Expr,
    a_nack: Expr,
    a_eod: Expr,
    take_cont: Expr,
    step: SignalId,
    tick0: Expr,
    exhausted: SignalId,
    timeout: SignalId,
    dph_mid: SignalId,
    delivered: SignalId,
    more_now: SignalId,
    last_byte_now: Expr,
}

/// The ACK queue after this cycle's front leaves or moves to its next route, before a new
/// ACK joins it.
struct QueueMid {
    addr: Vec<SignalId>,
    seq: Vec<SignalId>,
    route: Vec<SignalId>,
    round: Vec<SignalId>,
    qn: SignalId,
}

/// The queue after the front's attempt: popped when its worm went whole or its last round
/// ended, moved to its next route (and round) after a NACK.
fn queue_mid(m: &mut Module, s: &Sizes, r: &Regs, g: &RouteGen, st: &Step) -> QueueMid {
    let Sizes { d, w, .. } = *s;
    let wrap = match s.hops_are_ports {
        false => (Expr::from(r.q_route[0]) + Expr::konst(w, 1)).eq(Expr::konst(w, d)),
        true => Expr::from(g.done),
    };
    let last_round = Expr::from(r.q_round[0]).eq(Expr::konst(3, ACK_ROUNDS as u64 - 1));
    let pop = m.internal("pop", 1, "the ACK at the front leaves the queue");
    m.assign(
        pop,
        st.a_eod
            .clone()
            .or(st.a_nack.clone().and(wrap.clone()).and(last_round)),
        "Sent whole, or NACKed on the last route of its last round.",
    );
    let retry = st.a_nack.clone().and(!Expr::from(pop));
    let mid = |m: &mut Module, regs: &[SignalId], name: &str, width: u32, front: Option<Expr>| {
        (0..ACK_QUEUE)
            .map(|i| {
                let sig = m.internal(
                    &format!("{name}{i}_mid"),
                    width,
                    "after the front's attempt",
                );
                let after = regs.get(i + 1).map_or(Expr::zero(width), |&x| x.into());
                let here = match (&front, i) {
                    (Some(front), 0) => Expr::mux(retry.clone(), front.clone(), regs[0].into()),
                    _ => regs[i].into(),
                };
                m.assign(
                    sig,
                    Expr::mux(pop.into(), after, here),
                    "Shifted up when the front leaves.",
                );
                sig
            })
            .collect::<Vec<_>>()
    };
    let next_route = Expr::mux(
        wrap.clone(),
        Expr::zero(w),
        Expr::from(r.q_route[0]) + Expr::konst(w, 1),
    );
    let next_round = Expr::mux(
        wrap,
        Expr::from(r.q_round[0]) + Expr::konst(3, 1),
        r.q_round[0].into(),
    );
    let addr = mid(m, &r.q_addr, "qa", s.kw, None);
    let seq = mid(m, &r.q_seq, "qs", SEQ, None);
    let route = mid(m, &r.q_route, "qr", w, Some(next_route));
    let round = mid(m, &r.q_round, "qo", 3, Some(next_round));
    let qn = m.internal("qn_mid", 3, "ACKs held after the front's attempt");
    m.assign(
        qn,
        Expr::from(r.qn) - extend(pop.into(), 1, 3),
        "One fewer when it leaves.",
    );
    QueueMid {
        addr,
        seq,
        route,
        round,
        qn,
    }
}

/// The sender's next job: an ACK first, but not twice in a row while the message waits.
struct Choice {
    /// The held message's lookup is given up: its ACK came first.
    cancel: Expr,
    sel_ack: SignalId,
    sel_data: SignalId,
    /// The job's destination and route index, and whether the route source shows it next.
    to: SignalId,
    idx: SignalId,
    cont: SignalId,
    d_att_next: SignalId,
    failed: SignalId,
}

/// What starts this cycle and how the held message ends.
struct Start {
    init: Expr,
    take: SignalId,
    start_ack: SignalId,
    start_send: SignalId,
    refuse_now: Expr,
    refused: SignalId,
    verdict: SignalId,
}

/// The held message's outcome, and the sender's next job and its lookup.
#[allow(clippy::too_many_arguments)]
fn outcome_and_next(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    r: &Regs,
    loader: &Loader,
    g: &RouteGen,
    rx: &Rx,
    (over, timeout): (SignalId, u64),
    st: Step,
) -> (Flow, QueueMid) {
    let q = queue_mid(m, s, r, g, &st);
    let c = choose(m, s, io, r, loader, &st, &q);
    let start = start_and_verdict(m, r, loader, g, &st, &c, over);
    lookup_registers(m, s, r, g, &st, &c, &start);
    job_registers(m, r, &st, &c, &start);
    let n_att_next = message_registers(m, s, io, r, loader, rx, &st, &c, &start);
    outputs(m, s, io, r, &st, (&c, &start), (n_att_next, timeout));
    let next = st.pos.next;
    let at_next_eod = m.internal(
        "at_next_eod",
        1,
        "the word after the one on the link is the EOD",
    );
    m.assign(
        at_next_eod,
        Expr::from(next).eq(st.pos.eod_pos.into()),
        "The EOD comes next.",
    );
    let flow = Flow {
        take: start.take,
        start_send: start.start_send,
        start_ack: start.start_ack,
        more_words: st.more_words,
        next,
        at_next_eod,
        first_byte: loader.first,
    };
    (flow, q)
}

/// The next job, from the queue after this cycle's ACK attempt and the held message after
/// this cycle's step.
fn choose(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    r: &Regs,
    loader: &Loader,
    st: &Step,
    q: &QueueMid,
) -> Choice {
    let Sizes { w, kw, .. } = *s;
    let data_job = r.job_is(J_DATA);
    let cancel = Expr::from(st.delivered)
        .and(data_job.clone())
        .and(!Expr::from(st.ended));
    let job_mid_idle = Expr::from(st.ended).or(cancel.clone()).or(r.job_is(J_IDLE));
    let failed = m.internal(
        "failed",
        1,
        "verdict: the held message's last route has ended",
    );
    m.assign(
        failed,
        Expr::from(st.exhausted).and(!Expr::from(st.delivered)),
        "No ACK, no route left.",
    );
    let verdict_early = Expr::from(st.delivered).or(failed.into());
    let waiting = Expr::from(st.dph_mid)
        .eq(r.dphases[D_WAITING].into())
        .and(!verdict_early);
    let free = m.internal("free", 1, "the sender has no job after this cycle's step");
    // A job given up as refused leaves the sender free in the same cycle; it is rare
    // enough not to take a job then.
    m.assign(
        free,
        job_mid_idle,
        "Its worm ended, its lookup was given up, or it had none.",
    );
    let queued = Expr::from(q.qn).ne(Expr::zero(3));
    let sel_ack = m.internal("sel_ack", 1, "the ACK at the front becomes the job");
    m.assign(
        sel_ack,
        Expr::and_all([
            free.into(),
            queued,
            !waiting.clone().and(r.after_ack.into()),
        ]),
        "Free, an ACK held, and not a second ACK while the message waits.",
    );
    let sel_data = m.internal(
        "sel_data",
        1,
        "the held message's next attempt becomes the job",
    );
    m.assign(
        sel_data,
        Expr::and_all([free.into(), !Expr::from(sel_ack), waiting]),
        "Free, and the message waits.",
    );
    let d_att_next = m.internal(
        "d_att_next",
        w,
        "the held message's route index after this cycle",
    );
    m.assign(
        d_att_next,
        Expr::mux(
            loader.first.into(),
            Expr::zero(w),
            Expr::mux(
                st.d_nack.clone().or(st.timeout.into()),
                Expr::from(r.d_att) + Expr::konst(w, 1),
                r.d_att.into(),
            ),
        ),
        "0 with a new message, one up per NACK or timeout.",
    );
    let data_to = Expr::mux(loader.first.into(), io.tx_dst.into(), r.hdst.into());
    let to = m.internal("to", kw, "the destination of the job taken now");
    m.assign(
        to,
        Expr::mux(sel_ack.into(), q.addr[0].into(), data_to),
        "The ACK's, or the message's.",
    );
    let idx = m.internal("idx", w, "the route index of the job taken now");
    m.assign(
        idx,
        Expr::mux(sel_ack.into(), q.route[0].into(), d_att_next.into()),
        "Its next route.",
    );
    let cont = m.internal("cont", 1, "the route source shows the route wanted next");
    m.assign(
        cont,
        Expr::and_all([
            r.ctx_ok.into(),
            !cancel.clone(),
            Expr::from(r.ctx_dst).eq(to.into()),
            Expr::from(r.ctx_idx).eq(idx.into()),
        ]),
        "Its pair, and the route after the one taken last.",
    );
    Choice {
        cancel,
        sel_ack,
        sel_data,
        to,
        idx,
        cont,
        d_att_next,
        failed,
    }
}

/// The route taken now, the head that goes out next cycle, and the held message's verdict.
fn start_and_verdict(
    m: &mut Module,
    r: &Regs,
    loader: &Loader,
    g: &RouteGen,
    st: &Step,
    c: &Choice,
    over: SignalId,
) -> Start {
    let Choice {
        sel_ack,
        sel_data,
        cont,
        failed,
        ..
    } = *c;
    let data_job = r.job_is(J_DATA);
    let ack_job = r.job_is(J_ACK);
    let sel = Expr::from(sel_ack).or(sel_data.into());
    let refusing = m.internal(
        "refusing",
        1,
        "the held message is refused once its bytes are in",
    );
    let init = sel.clone().and(!Expr::from(cont));
    let take_sel = sel.clone().and(cont.into()).and(st.tick0.clone());
    let take = m.internal(
        "take_route",
        1,
        "a route is taken (and next_route asserted)",
    );
    m.assign(
        take,
        st.take_cont.clone().or(take_sel.clone()),
        "When it is ready.",
    );
    let taking_ack = st
        .take_cont
        .clone()
        .and(ack_job.clone())
        .or(take_sel.and(sel_ack.into()));
    let taking_data = Expr::from(take).and(!taking_ack.clone());
    let bad = Expr::or_all([g.error.into(), !Expr::from(g.valid), g.done.into()]);
    let ready_now = r
        .jph_is(P_READY)
        .and(data_job)
        .and(st.last_byte_now.clone());
    let start_data = taking_data
        .clone()
        .and(!Expr::from(loader.still_loading))
        .and(!bad.clone())
        .or(ready_now);
    let refuse_now = taking_data
        .clone()
        .and(bad)
        .or(start_data.clone().and(over.into()));
    let start_ack = m.internal("start_ack", 1, "an ACK's head goes on the link next cycle");
    m.assign(
        start_ack,
        Expr::from(take).and(taking_ack),
        "An ACK starts as its route is taken.",
    );
    let start_send = m.internal("start_send", 1, "a head goes on the link next cycle");
    m.assign(
        start_send,
        Expr::from(start_ack).or(start_data.and(!refuse_now.clone())),
        "An ACK's at its route; a message's at its route or its last byte, whichever later.",
    );
    let refused = m.internal(
        "refused",
        1,
        "verdict: refused (no route, or too many bytes)",
    );
    m.assign(
        refused,
        refuse_now
            .clone()
            .or(refusing.into())
            .and(!Expr::from(loader.still_loading)),
        "Once its last byte is in.",
    );
    m.register(
        refusing,
        0,
        Expr::from(refusing)
            .or(refuse_now.clone())
            .and(!Expr::from(refused)),
        "From the refusal to the last byte.",
    );
    let verdict = m.internal("verdict", 1, "the held message ends this cycle");
    m.assign(
        verdict,
        Expr::or_all([st.delivered.into(), failed.into(), refused.into()]),
        "Any outcome.",
    );
    Start {
        init,
        take,
        start_ack,
        start_send,
        refuse_now,
        refused,
        verdict,
    }
}

/// The route source's registers: its timer, the routes to step past, its pair and index.
fn lookup_registers(
    m: &mut Module,
    s: &Sizes,
    r: &Regs,
    g: &RouteGen,
    st: &Step,
    c: &Choice,
    start: &Start,
) {
    let Sizes { w, tw, b, .. } = *s;
    let (init, take, to, idx, cancel) = (
        start.init.clone(),
        start.take,
        c.to,
        c.idx,
        c.cancel.clone(),
    );
    let next_route = Expr::from(take).or(st.step.into());
    m.assign(
        g.init,
        init.clone(),
        "The route source starts on the job's pair.",
    );
    m.assign(
        g.next_route,
        next_route.clone(),
        "A route taken, or one stepped past.",
    );
    m.assign(g.dst, to.into(), "The job's destination.");
    m.register(
        r.timer,
        0,
        Expr::mux(
            init.clone().or(next_route.clone()),
            Expr::konst(tw, b - 1),
            Expr::mux(
                st.tick0.clone(),
                Expr::zero(tw),
                Expr::from(r.timer) - Expr::konst(tw, 1),
            ),
        ),
        "B cycles from init or next_route to the route source's next route.",
    );
    m.register(
        r.skip,
        0,
        Expr::mux(
            init.clone(),
            idx.into(),
            Expr::mux(
                st.step.into(),
                Expr::from(r.skip) - Expr::konst(w, 1),
                r.skip.into(),
            ),
        ),
        "The routes before the one wanted, from init.",
    );
    m.register(
        r.ctx_ok,
        0,
        init.clone().or(Expr::from(r.ctx_ok).and(!cancel.clone())),
        "Known from init; forgotten when a lookup is given up.",
    );
    m.register(
        r.ctx_dst,
        0,
        Expr::mux(init.clone(), to.into(), r.ctx_dst.into()),
        "The pair.",
    );
    m.register(
        r.ctx_idx,
        0,
        Expr::mux(
            init,
            Expr::zero(w),
            Expr::mux(
                next_route,
                Expr::from(r.ctx_idx) + Expr::konst(w, 1),
                r.ctx_idx.into(),
            ),
        ),
        "0 from init, one up per next_route.",
    );
}

/// The sender's job and phase, and whether its last job was an ACK.
fn job_registers(m: &mut Module, r: &Regs, st: &Step, c: &Choice, start: &Start) {
    let (sel_ack, sel_data, cancel) = (c.sel_ack, c.sel_data, c.cancel.clone());
    let (start_send, take, refuse_now) = (start.start_send, start.take, start.refuse_now.clone());
    let sel = Expr::from(sel_ack).or(sel_data.into());
    let job_idle_after = Expr::from(st.ended)
        .or(cancel)
        .or(refuse_now.clone())
        .or(r.job_is(J_IDLE));
    m.register(
        r.job,
        0,
        Expr::mux(
            sel_ack.into(),
            r.jobs[J_ACK].into(),
            Expr::mux(
                sel_data.into(),
                r.jobs[J_DATA].into(),
                Expr::mux(job_idle_after, r.jobs[J_IDLE].into(), r.job.into()),
            ),
        ),
        "The job taken, or the one under way until its worm ends.",
    );
    m.register(
        r.jph,
        0,
        Expr::mux(
            start_send.into(),
            r.jphs[P_SEND].into(),
            Expr::mux(
                take.into(),
                r.jphs[P_READY].into(),
                Expr::mux(sel, r.jphs[P_LOOKUP].into(), r.jph.into()),
            ),
        ),
        "Lookup, then the route taken (waiting for the last byte), then the worm.",
    );
    m.register(
        r.after_ack,
        0,
        Expr::mux(
            sel_ack.into(),
            Expr::bit(true),
            Expr::mux(sel_data.into(), Expr::bit(false), r.after_ack.into()),
        ),
        "Whether the last job taken was an ACK.",
    );
}

/// The held message's registers: attempts, route index, phase, ACK, the handshake.
#[allow(clippy::too_many_arguments)]
fn message_registers(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    r: &Regs,
    loader: &Loader,
    rx: &Rx,
    st: &Step,
    c: &Choice,
    start: &Start,
) -> SignalId {
    let w = s.w;
    let (sel_data, d_att_next) = (c.sel_data, c.d_att_next);
    let (verdict, refuse_now) = (start.verdict, start.refuse_now.clone());
    let parked_record =
        Expr::from(st.delivered).and(Expr::from(st.dph_mid).eq(r.dphases[D_PARKED].into()));
    let n_att_next = m.internal("n_att_next", w, "the attempts recorded after this cycle");
    m.assign(
        n_att_next,
        Expr::mux(
            loader.first.into(),
            Expr::zero(w),
            Expr::from(r.n_att)
                + extend(
                    Expr::or_all([st.d_nack.clone(), st.timeout.into(), parked_record]),
                    1,
                    w,
                ),
        ),
        "One per NACK, timeout, or ACK of a parked attempt.",
    );
    m.register(r.n_att, 0, n_att_next.into(), "The attempts recorded.");
    m.register(r.d_att, 0, d_att_next.into(), "The route index.");
    m.register(
        r.dphase,
        0,
        Expr::mux(
            Expr::from(verdict).or(refuse_now),
            r.dphases[D_NONE].into(),
            Expr::mux(
                sel_data.into(),
                r.dphases[D_ACTIVE].into(),
                st.dph_mid.into(),
            ),
        ),
        "Where the held message is.",
    );
    m.register(
        r.acked,
        0,
        Expr::from(r.acked)
            .or(rx.ack_match.into())
            .and(!Expr::from(verdict)),
        "From its ACK to its verdict.",
    );
    m.register(
        r.d_more,
        0,
        Expr::mux(
            st.d_nack.clone().or(st.d_eod.clone()),
            st.more_now.into(),
            r.d_more.into(),
        ),
        "Latched as its worm ends, while the route source holds its pair.",
    );
    let held_next = Expr::from(r.held)
        .or(loader.first.into())
        .and(!Expr::from(verdict));
    m.register(
        r.held,
        0,
        held_next.clone(),
        "From the first byte to the verdict.",
    );
    m.register(
        io.tx_ready,
        1,
        (!held_next).or(loader.still_loading.into()),
        "Ready while no message is held and while its bytes come.",
    );
    n_att_next
}

/// The outcome's ports and the attempt's timeout.
fn outputs(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    r: &Regs,
    st: &Step,
    (c, start): (&Choice, &Start),
    (n_att_next, timeout): (SignalId, u64),
) {
    let w = s.w;
    let (failed, refused, verdict) = (c.failed, start.refused, start.verdict);
    let res_status = Expr::mux(
        failed.into(),
        Expr::konst(2, 1),
        Expr::mux(refused.into(), Expr::konst(2, 2), Expr::zero(2)),
    );
    m.register(
        io.res_valid,
        0,
        verdict.into(),
        "The outcome, the cycle after it.",
    );
    m.register(io.res_status, 0, res_status, "1 failed, 2 refused, else 0.");
    m.register(
        io.res_attempts,
        0,
        Expr::mux(
            Expr::from(st.delivered).or(failed.into()),
            n_att_next.into(),
            Expr::zero(w),
        ),
        "The attempts of a delivered or failed message.",
    );
    let tw_out = m.sig(r.tmo).width;
    m.register(
        r.tmo,
        0,
        Expr::mux(
            st.d_eod.clone(),
            Expr::konst(tw_out, timeout - 1),
            Expr::mux(
                r.dphase_is(D_PARKED)
                    .and(Expr::from(r.tmo).ne(Expr::zero(tw_out))),
                Expr::from(r.tmo) - Expr::konst(tw_out, 1),
                r.tmo.into(),
            ),
        ),
        "The attempt's bound from its EOD, counted down while it waits for its ACK.",
    );
}

/// The worm on the link, word by word: the head's port, the route bytes (marked on an
/// ACK), the destination's 0 (marked), this node's address, the count, the sequence
/// number's two bytes, the data bytes from the buffer, padding and the EOD.
fn worm(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    r: &Regs,
    f: &Flow,
    g: &RouteGen,
    (buf, q): (&Buffer, &QueueMid),
) {
    let Sizes {
        k,
        w,
        uw,
        kw,
        rw,
        lw,
        pw,
        aw,
        dw,
        ..
    } = *s;
    // The switches' mark of a head not to be buffered: the word's top bit (0x80 in a byte).
    let mark = 1 << (dw - 1);
    let marked = |ack: Expr| Expr::mux(ack, Expr::konst(dw, mark), Expr::zero(dw));
    m.register(
        r.w_ack,
        0,
        Expr::mux(f.start_send.into(), f.start_ack.into(), r.w_ack.into()),
        "Set with an ACK's head.",
    );
    m.register(
        r.w_seq,
        0,
        Expr::mux(
            f.start_send.into(),
            Expr::mux(f.start_ack.into(), q.seq[0].into(), r.hseq.into()),
            r.w_seq.into(),
        ),
        "The number the worm carries: the ACK's, or the held message's.",
    );
    m.assign(
        r.w_n,
        Expr::mux(r.w_ack.into(), Expr::zero(8), buf.count.into()),
        "0 for an ACK, n for the message (its count is whole once its head has gone).",
    );
    let route_in = m.internal("route_in", rw, "the route of the head sent next");
    m.assign(
        route_in,
        Expr::mux(f.take.into(), g.route.into(), r.hops.into()),
        "The route source's when taken now, else the copy.",
    );
    let lx = extend(r.hop_count.into(), lw, pw);
    let nx = extend(r.w_n.into(), 8, pw);
    let next = Expr::from(f.next);
    let at = |offset: u64| lx.clone() + Expr::konst(pw, offset);
    let is_hop = next.clone().lt(lx.clone());
    let is_zero = next.clone().eq(lx.clone());
    let is_src = next.clone().lt(at(u64::from(k) + 1));
    let is_len = next.clone().eq(at(u64::from(k) + 1));
    let is_hi = next.clone().eq(at(u64::from(k) + 2));
    let is_lo = next.clone().eq(at(u64::from(k) + 3));
    let in_data = !next.clone().lt(at(u64::from(k) + 4));
    let is_data = next.lt(at(u64::from(k) + 4) + nx);
    let hop_port =
        port(slice(r.hops, rw - w, w), r.prev.map(Expr::from), w, dw).or(marked(r.w_ack.into()));
    let word = m.internal("word", dw, "the data of the next word");
    m.assign(
        word,
        Expr::mux(
            is_hop.clone(),
            hop_port,
            Expr::mux(
                is_zero.clone(),
                marked(r.w_ack.into()),
                Expr::mux(
                    is_src.clone(),
                    extend(slice(r.srcw, kw - uw, uw), uw, dw),
                    Expr::mux(
                        is_len,
                        extend(r.w_n.into(), 8, dw),
                        Expr::mux(
                            is_hi,
                            extend(slice(r.w_seq, 8, 8), 8, dw),
                            Expr::mux(
                                is_lo,
                                extend(slice(r.w_seq, 0, 8), 8, dw),
                                Expr::mux(is_data.clone(), buf.read_data.into(), Expr::zero(dw)),
                            ),
                        ),
                    ),
                ),
            ),
        ),
        "Route bytes, the 0, the address, n, the number, the bytes, padding and the EOD's 0.",
    );
    let more = Expr::from(f.more_words);
    m.register(
        io.net_valid,
        0,
        Expr::from(f.start_send).or(more.clone()),
        "A head, then the worm's words until its EOD or a NACK.",
    );
    m.register(
        io.net_ctl,
        0,
        Expr::from(f.start_send).or(more.clone().and(f.at_next_eod.into())),
        "The head and the EOD are control words.",
    );
    let first_hop = slice(route_in, rw - w, w);
    let node_last = (!s.hops_are_ports).then(|| slice(io.node, 0, w));
    m.register(
        io.net_data,
        0,
        Expr::mux(
            f.start_send.into(),
            port(first_hop.clone(), node_last, w, dw).or(marked(f.start_ack.into())),
            Expr::mux(more.clone(), word.into(), Expr::zero(dw)),
        ),
        "The head: the port of z1 here (marked on an ACK); then the worm's words.",
    );
    m.register(
        r.pos,
        0,
        Expr::mux(
            f.start_send.into(),
            Expr::zero(pw),
            Expr::mux(more.clone(), f.next.into(), r.pos.into()),
        ),
        "0 with the head, one up per word.",
    );
    let hop_word = more.clone().and(is_hop);
    m.register(
        r.hops,
        0,
        Expr::mux(
            f.start_send.into(),
            shift_letter(route_in, rw, w),
            Expr::mux(
                f.take.into(),
                g.route.into(),
                Expr::mux(hop_word.clone(), shift_letter(r.hops, rw, w), r.hops.into()),
            ),
        ),
        "The route copied when taken; past z1 with the head, one hop further per route byte.",
    );
    if let Some(prev) = r.prev {
        m.register(
            prev,
            0,
            Expr::mux(
                f.start_send.into(),
                first_hop,
                Expr::mux(hop_word, slice(r.hops, rw - w, w), prev.into()),
            ),
            "z_i after route byte i-1 (z1 with the head).",
        );
    }
    m.register(
        r.hop_count,
        0,
        Expr::mux(f.take.into(), g.len.into(), r.hop_count.into()),
        "L of the route taken.",
    );
    let src_word = more
        .clone()
        .and(!is_zero.clone().or(Expr::from(f.next).lt(lx.clone())))
        .and(is_src.clone());
    m.register(
        r.srcw,
        0,
        Expr::mux(
            f.start_send.into(),
            io.node.into(),
            Expr::mux(src_word, shift_letter(r.srcw, kw, uw), r.srcw.into()),
        ),
        "This node's address with the head, one unit further per address word.",
    );
    let data_word = m.internal("data_word", 1, "a data byte is sent next cycle");
    m.assign(
        data_word,
        Expr::and_all([more, in_data, is_data]),
        "The next word is a data byte.",
    );
    m.register(
        r.byte_index,
        0,
        Expr::mux(
            f.start_send.into(),
            Expr::zero(aw),
            Expr::mux(
                data_word.into(),
                Expr::from(r.byte_index) + Expr::konst(aw, 1),
                r.byte_index.into(),
            ),
        ),
        "0 with the head, one up per data byte sent.",
    );
    m.assign(
        buf.read_addr,
        Expr::from(r.byte_index) + extend(data_word.into(), 1, aw),
        "One ahead: the byte read now is the one sent next cycle.",
    );
}

/// The sequence numbers per destination: read with the message's first byte, taken the
/// cycle after (0 for a destination never sent to) and written back one up.
fn sequence_tables(m: &mut Module, s: &Sizes, io: &Io, r: &Regs, flow: &Flow) {
    let kw = s.kw;
    let entries = 1u32 << kw;
    let read = m.internal(
        "nseq_read",
        SEQ,
        "the next number towards the destination read",
    );
    let valid = m.internal(
        "nseq_valid",
        entries,
        "bit i: a message went to destination i",
    );
    let seq_now = m.internal(
        "seq_now",
        SEQ,
        "the held message's number, in the cycle after a",
    );
    m.assign(
        seq_now,
        Expr::mux(
            select_bit(valid, r.hdst, kw, entries),
            read.into(),
            Expr::zero(SEQ),
        ),
        "0 towards a destination never sent to.",
    );
    let numbered = m.internal(
        "numbered",
        1,
        "the held message's first attempt starts: its number is taken",
    );
    let first_route = Expr::from(r.d_att).eq(Expr::zero(m.sig(r.d_att).width));
    m.assign(
        numbered,
        Expr::from(flow.start_send)
            .and(!Expr::from(flow.start_ack))
            .and(first_route),
        "A data head, of route 0.",
    );
    m.memory(
        Memory {
            name: "nseq".to_string(),
            depth: entries,
            width: SEQ,
            write_enable: Expr::from(numbered).and(!Expr::from(io.clocking.reset)),
            write_addr: r.hdst.into(),
            write_data: Expr::from(r.hseq) + Expr::konst(SEQ, 1),
            read_addr: io.tx_dst.into(),
            read_data: read,
        },
        "The next sequence number towards each destination.",
    );
    m.register(
        valid,
        0,
        Expr::from(valid).or(Expr::mux(
            numbered.into(),
            one_hot(r.hdst, kw, entries),
            Expr::zero(entries),
        )),
        "Set with the first message numbered towards each destination.",
    );
    m.register(
        r.load_seq,
        0,
        flow.first_byte.into(),
        "The cycle after the first byte.",
    );
    m.register(
        r.hdst,
        0,
        Expr::mux(flow.first_byte.into(), io.tx_dst.into(), r.hdst.into()),
        "Taken with the first byte.",
    );
    m.register(
        r.hseq,
        0,
        Expr::mux(r.load_seq.into(), seq_now.into(), r.hseq.into()),
        "Its number.",
    );
}

/// The queue of ACKs owed: a data worm's EOD adds one behind the others, unless four are
/// held.
fn ack_queue(m: &mut Module, r: &Regs, q: &QueueMid, rx: &Rx) {
    let full = Expr::from(q.qn).eq(Expr::konst(3, ACK_QUEUE as u64));
    let push = m.internal("push", 1, "an ACK joins the queue");
    m.assign(
        push,
        Expr::from(rx.ack_due).and(!full),
        "Owed, and a place free.",
    );
    for i in 0..ACK_QUEUE {
        let here = Expr::from(push).and(Expr::from(q.qn).eq(Expr::konst(3, i as u64)));
        let set = |m: &mut Module, reg: SignalId, new: Expr, mid: SignalId, doc: &str| {
            m.register(reg, 0, Expr::mux(here.clone(), new, mid.into()), doc);
        };
        set(
            m,
            r.q_addr[i],
            rx.rx_acc.into(),
            q.addr[i],
            "The ACK's destination: the data worm's source.",
        );
        set(
            m,
            r.q_seq[i],
            rx.rx_seq.into(),
            q.seq[i],
            "The number it acknowledges.",
        );
        set(
            m,
            r.q_route[i],
            Expr::zero(m.sig(r.q_route[i]).width),
            q.route[i],
            "Its first route first.",
        );
        set(
            m,
            r.q_round[i],
            Expr::zero(3),
            q.round[i],
            "Its first round.",
        );
    }
    m.register(
        r.qn,
        0,
        Expr::from(q.qn) + extend(push.into(), 1, 3),
        "ACKs held.",
    );
}
