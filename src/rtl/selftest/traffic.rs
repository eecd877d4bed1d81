//! The traffic generator and the checker of one node of the self-test top.
//!
//! The generator sends messages to destinations drawn by its LFSR, one at a time: a
//! random pause of 0 to 63 clocks, then a destination uniform among the other nodes, a
//! length uniform in 1..=max_bytes, and bytes from the LFSR, except the last, which is the
//! message's CRC-8 ([`super::linear`]) over the destination's address, the source's, and
//! the bytes before it. It waits for the router's verdict before the next message.
//!
//! The checker recomputes the CRC of every arriving message from its own address, the
//! source the router hands out (`rx_src`) and the bytes, and compares it with the last
//! byte; so a message that arrives at the wrong node, from a source it does not name,
//! with a byte changed, or cut short, is caught. A CRC of degree 8 catches every change
//! confined to 8 consecutive bits, so a message delivered to the wrong node (a different
//! destination address, the first bytes covered) is always caught.

use super::blocks::zext;
use super::linear::{crc8_header_map, crc8_step_map};
use crate::bits::{bits_for, ceil_log2};
use crate::rtl::ir::{Connections, Expr, Module, SignalId};

/// Bits of the generator's random pause between messages: 0 to 63 clocks.
pub const GAP_BITS: u32 = 6;

/// What the generator and the checker are built for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrafficShape {
    /// Nodes of the network, N (2 or more).
    pub nodes: usize,
    /// Every node's address word, by index, `address_bits` bits each.
    pub words: Vec<u64>,
    pub address_bits: u32,
    /// Routes per message, d: a delivered message took 1..=d attempts, a failed one d.
    pub routes: u64,
    /// Width of the router's `res_attempts`.
    pub attempt_bits: u32,
    /// The longest message, 1..=255 bytes.
    pub max_bytes: u64,
}

impl TrafficShape {
    /// Bits of a node's index.
    pub fn index_bits(&self) -> u32 {
        bits_for(self.nodes as u64)
    }
}

/// `value < bound`, compared one bit wider than `width` so that `bound` = 2^width fits.
fn below(value: Expr, width: u32, bound: u64) -> Expr {
    zext(value, width, width + 1).lt(Expr::konst(width + 1, bound))
}

fn slice(signal: SignalId, lo: u32, width: u32) -> Expr {
    Expr::Slice { signal, lo, width }
}

impl TrafficShape {
    /// Bits of the destination's draw: it picks one of the N-1 other nodes.
    fn pick_bits(&self) -> u32 {
        ceil_log2(self.nodes as u64 - 1)
    }

    /// Bits of the length's draw.
    fn length_bits(&self) -> u32 {
        ceil_log2(self.max_bytes)
    }

    /// The LFSR bits the generator draws from each clock: the destination, the length,
    /// the pause and the data byte, in that order from bit 0.
    pub fn random_bits(&self) -> u32 {
        self.pick_bits() + self.length_bits() + GAP_BITS + 8
    }
}

/// `<top>_traffic`: the generator of one node; its node, index and seed are inputs, so
/// that one module serves every node. `lfsr` shows [`TrafficShape::random_bits`] bits.
pub fn generator_module(top: &str, lfsr: &Module, shape: &TrafficShape) -> Module {
    let kw = shape.address_bits;
    let ib = shape.index_bits();
    let mut m = Module::new(
        format!("{top}_traffic"),
        &[
            "A node's traffic generator: after a random pause of 0 to 63 clocks, a message to a",
            "random other node of 1..max_bytes random bytes, the last the CRC-8 over the",
            "destination's and source's addresses and the bytes before it; then the verdict.",
        ],
    );
    let clocking = m.clocked();
    let seed = m.input("seed", 32, "this node's LFSR seed, not 0");
    let node = m.input("node", kw, "this node's address word");
    let self_index = m.input("self_index", ib, "this node's index");
    let pause = m.input("pause", 1, "start no new message");
    let tx_ready = m.input("tx_ready", 1, "the router takes a byte");
    let res_valid = m.input("res_valid", 1, "the router's verdict");
    let res_status = m.input("res_status", 2, "0 delivered, 1 failed, 2 refused");
    let res_attempts = m.input("res_attempts", shape.attempt_bits, "attempts made");
    let tx_valid = m.output("tx_valid", 1, "a byte is offered");
    let tx_data = m.output("tx_data", 8, "the byte offered");
    let tx_last = m.output("tx_last", 1, "the byte offered is the message's last");
    let tx_dst = m.output("tx_dst", kw, "the destination's address word");
    let sent = m.output("sent", 1, "one clock: a message was handed over whole");
    let delivered = m.output("delivered", 1, "one clock: a message was delivered");
    let failed = m.output("failed", 1, "one clock: a message failed on every route");
    let bad = m.output(
        "bad",
        1,
        "one clock: a verdict no working network gives (refused, or attempts out of range)",
    );

    let random = m.internal(
        "random",
        shape.random_bits(),
        "the LFSR's state, its low bits",
    );
    m.instance(
        "u_lfsr",
        Connections::of(lfsr)
            .bind(&lfsr.port_named("clk"), clocking.clock)
            .bind(&lfsr.port_named("rst"), clocking.reset)
            .bind(&lfsr.port_named("seed"), seed)
            .bind(&lfsr.port_named("value"), random),
        "Every draw comes from here.",
    );

    let states = m.states(
        2,
        &[
            ("GAP", "pausing before the next message"),
            ("SEND", "handing the message's bytes to the router"),
            ("WAIT", "waiting for the router's verdict"),
        ],
    );
    let (gap_state, send_state, wait_state) = (states[0], states[1], states[2]);
    let state = m.internal("state", 2, "GAP, SEND or WAIT");
    let gap = m.internal("gap", GAP_BITS, "clocks of pause left");
    let remaining = m.internal("remaining", 8, "bytes left to hand over, this one included");
    let crc = m.internal("crc", 8, "the CRC of the header and the bytes handed over");
    let dst = m.internal("dst", kw, "the destination's address word");

    let Draws {
        pick_ok,
        len_ok,
        dst_word,
        length,
        header,
    } = draws(&mut m, shape, random, (node, self_index));
    let (gap_lo, data_lo) = {
        let (pb, lb) = (shape.pick_bits(), shape.length_bits());
        (pb + lb, pb + lb + GAP_BITS)
    };

    let is = |s| Expr::from(state).eq(Expr::Named(s));
    let start = m.internal(
        "start",
        1,
        "a message starts: pause over and a draw in range",
    );
    m.assign(
        start,
        Expr::and_all([
            is(gap_state),
            Expr::from(gap).eq(Expr::zero(GAP_BITS)),
            !Expr::from(pause),
            pick_ok,
            len_ok,
        ]),
        "",
    );
    let take = m.internal("take", 1, "the router takes a byte");
    let last = m.internal("last", 1, "the byte offered is the last");
    m.assign(tx_valid, is(send_state), "");
    m.assign(take, Expr::from(tx_valid).and(tx_ready.into()), "");
    m.assign(last, Expr::from(remaining).eq(Expr::konst(8, 1)), "");
    m.assign(tx_last, last.into(), "");
    m.assign(
        tx_data,
        Expr::mux(last.into(), crc.into(), slice(random, data_lo, 8)),
        "random bytes, the CRC last",
    );
    m.assign(tx_dst, dst.into(), "");
    let handed = Expr::from(take).and(last.into());
    m.register(
        state,
        0,
        Expr::mux(
            start.into(),
            Expr::Named(send_state),
            Expr::mux(
                handed.clone(),
                Expr::Named(wait_state),
                Expr::mux(
                    is(wait_state).and(res_valid.into()),
                    Expr::Named(gap_state),
                    state.into(),
                ),
            ),
        ),
        "GAP -> SEND -> WAIT -> GAP",
    );
    m.register(
        gap,
        0,
        Expr::mux(
            res_valid.into(),
            slice(random, gap_lo, GAP_BITS),
            Expr::mux(
                Expr::from(gap).eq(Expr::zero(GAP_BITS)),
                gap.into(),
                Expr::from(gap) - Expr::konst(GAP_BITS, 1),
            ),
        ),
        "a random pause after each verdict",
    );
    m.register(
        remaining,
        0,
        Expr::mux(
            start.into(),
            length,
            Expr::mux(
                take.into(),
                Expr::from(remaining) - Expr::konst(8, 1),
                remaining.into(),
            ),
        ),
        "",
    );
    let step = crc8_step_map().expr(&[(crc, 8), (tx_data, 8)]);
    m.register(
        crc,
        0,
        Expr::mux(
            start.into(),
            header.into(),
            Expr::mux(take.into(), step, crc.into()),
        ),
        "from the header's CRC, over each byte handed over",
    );
    m.register(
        dst,
        0,
        Expr::mux(start.into(), dst_word.into(), dst.into()),
        "",
    );

    verdicts(
        &mut m,
        shape,
        (res_valid, res_status, res_attempts),
        (sent, handed),
        (delivered, failed, bad),
    );
    m
}

/// What a generator draws for its next message, from disjoint bits of the LFSR.
struct Draws {
    /// The destination's and the length's draws are in range (else no message starts).
    pick_ok: Expr,
    len_ok: Expr,
    /// The destination's address word, among the N-1 other nodes.
    dst_word: SignalId,
    /// The message's length, 1..max_bytes.
    length: Expr,
    /// The CRC of the destination's and this node's words.
    header: SignalId,
}

/// The draws of the generator in `m` from `random`: the destination among the others of
/// `node` (whose index is `self_index`), the length, and the header's CRC.
fn draws(
    m: &mut Module,
    shape: &TrafficShape,
    random: SignalId,
    (node, self_index): (SignalId, SignalId),
) -> Draws {
    let (kw, ib) = (shape.address_bits, shape.index_bits());
    // The draws, from disjoint bits of the LFSR: the destination among the N-1 others,
    // the length, the pause, and the data byte.
    let (pb, lb) = (shape.pick_bits(), shape.length_bits());
    let pick_ok = match pb {
        0 => Expr::bit(true),
        _ => below(slice(random, 0, pb), pb, shape.nodes as u64 - 1),
    };
    let len_ok = match lb {
        0 => Expr::bit(true),
        _ => below(slice(random, pb, lb), lb, shape.max_bytes),
    };
    let pick = m.internal("pick", ib, "the drawn destination among the others, 0..N-2");
    m.assign(
        pick,
        match pb {
            0 => Expr::zero(ib),
            _ => zext(slice(random, 0, pb), pb, ib),
        },
        "",
    );
    let dst_index = m.internal("dst_index", ib, "the drawn destination's index");
    let skip = Expr::mux(
        Expr::from(pick).lt(self_index.into()),
        Expr::zero(ib),
        Expr::konst(ib, 1),
    );
    m.assign(
        dst_index,
        Expr::from(pick) + skip,
        "the others, skipping this node",
    );
    let dst_word = m.internal("dst_word", kw, "the drawn destination's address word");
    let table = shape
        .words
        .iter()
        .enumerate()
        .map(|(v, &word)| (Expr::konst(ib, v as u64), Expr::konst(kw, word)))
        .collect();
    m.case(
        dst_word,
        dst_index,
        table,
        Expr::zero(kw),
        "every node's word by index",
    );
    let length = match lb {
        0 => Expr::konst(8, 1),
        _ => zext(slice(random, pb, lb), lb, 8) + Expr::konst(8, 1),
    };
    let header = m.internal(
        "header_crc",
        8,
        "the CRC of the drawn destination's and this node's words",
    );
    m.assign(
        header,
        crc8_header_map(kw).expr(&[(dst_word, kw), (node, kw)]),
        "",
    );

    Draws {
        pick_ok,
        len_ok,
        dst_word,
        length,
        header,
    }
}

/// The generator's outcome outputs in `m`, one clock after the event: `sent` when
/// `handed`, and after the router's verdict a delivery after 1..=d attempts, a failure
/// after d, and anything else as `bad`.
fn verdicts(
    m: &mut Module,
    shape: &TrafficShape,
    (res_valid, res_status, res_attempts): (SignalId, SignalId, SignalId),
    (sent, handed): (SignalId, Expr),
    (delivered, failed, bad): (SignalId, SignalId, SignalId),
) {
    let aw = shape.attempt_bits;
    let status_is = |v| Expr::from(res_status).eq(Expr::konst(2, v));
    let attempts = Expr::from(res_attempts);
    let in_range = Expr::from(res_attempts).ne(Expr::zero(aw)).and(below(
        attempts.clone(),
        aw,
        shape.routes + 1,
    ));
    let good_delivery = m.internal("good_delivery", 1, "delivered after 1..=d attempts");
    let good_failure = m.internal("good_failure", 1, "failed after d attempts");
    m.assign(good_delivery, status_is(0).and(in_range), "");
    m.assign(
        good_failure,
        status_is(1).and(zext(attempts, aw, aw + 1).eq(Expr::konst(aw + 1, shape.routes))),
        "",
    );
    m.register(sent, 0, handed, "");
    m.register(
        delivered,
        0,
        Expr::from(res_valid).and(good_delivery.into()),
        "",
    );
    m.register(
        failed,
        0,
        Expr::from(res_valid).and(good_failure.into()),
        "",
    );
    m.register(
        bad,
        0,
        Expr::from(res_valid).and(!Expr::from(good_delivery).or(good_failure.into())),
        "",
    );
}

/// `<top>_check`: the checker of one node; its address is an input.
pub fn checker_module(top: &str, shape: &TrafficShape) -> Module {
    let kw = shape.address_bits;
    let mut m = Module::new(
        format!("{top}_check"),
        &[
            "A node's checker: the CRC-8 over this node's address, the source's and every byte",
            "but the last must equal the last, and the bytes must number rx_len.",
        ],
    );
    m.clocked();
    let node = m.input("node", kw, "this node's address word");
    let rx_valid = m.input("rx_valid", 1, "a byte of an arriving message");
    let rx_data = m.input("rx_data", 8, "the byte");
    let rx_first = m.input("rx_first", 1, "the message's first byte");
    let rx_last = m.input("rx_last", 1, "the message's last byte");
    let rx_src = m.input("rx_src", kw, "the source's address word");
    let rx_len = m.input("rx_len", 8, "the message's length");
    let rx_error = m.input("rx_error", 1, "a worm ended early");
    let corrupt = m.output(
        "corrupt",
        1,
        "one clock: a message arrived corrupted, at the wrong node, or cut short",
    );
    let crc = m.internal("crc", 8, "the CRC so far");
    let count = m.internal("count", 8, "bytes so far");
    let crc_now = m.internal("crc_now", 8, "the CRC before this byte");
    let count_now = m.internal("count_now", 8, "bytes so far, this one included");
    let header = m.internal(
        "header_crc",
        8,
        "the CRC of this node's and the source's words",
    );
    m.assign(
        header,
        crc8_header_map(kw).expr(&[(node, kw), (rx_src, kw)]),
        "",
    );
    m.assign(
        crc_now,
        Expr::mux(rx_first.into(), header.into(), crc.into()),
        "",
    );
    m.assign(
        count_now,
        Expr::mux(
            rx_first.into(),
            Expr::konst(8, 1),
            Expr::from(count) + Expr::konst(8, 1),
        ),
        "",
    );
    let step = crc8_step_map().expr(&[(crc_now, 8), (rx_data, 8)]);
    m.register(crc, 0, Expr::mux(rx_valid.into(), step, crc.into()), "");
    m.register(
        count,
        0,
        Expr::mux(rx_valid.into(), count_now.into(), count.into()),
        "",
    );
    let wrong = Expr::from(rx_data)
        .ne(crc_now.into())
        .or(Expr::from(count_now).ne(rx_len.into()));
    m.register(
        corrupt,
        0,
        Expr::and_all([rx_valid.into(), rx_last.into(), wrong]).or(rx_error.into()),
        "checked at the last byte",
    );
    m
}
