//! What both routers of the network-switch paper's network are built from: the router of
//! the paper's bufferless network ([`super::router`]) and the router under acknowledged
//! delivery behind buffered switches ([`super::router_acked`]). Their widths and ports,
//! the message buffer and its loader rule, and the expression helpers both use.

use crate::rtl::const_arith::extend;
use crate::rtl::ir::{Clocking, Expr, Memory, Module, SignalId};

/// Bits `lo .. lo+width` of `signal`.
pub(super) fn slice(signal: SignalId, lo: u32, width: u32) -> Expr {
    Expr::Slice { signal, lo, width }
}

/// The low byte of `signal`, a link word of `dw` bits: where a control word (a count, a
/// sequence number's byte) carries its value, the rest 0.
pub(super) fn low_byte(signal: SignalId, dw: u32) -> Expr {
    match dw {
        8 => Expr::from(signal),
        _ => slice(signal, 0, 8),
    }
}

/// `signal` (of `width` bits, letters of `w` bits) shifted up by one letter, zero-filled.
pub(super) fn shift_letter(signal: SignalId, width: u32, w: u32) -> Expr {
    if width == w {
        Expr::zero(w)
    } else {
        Expr::concat(vec![slice(signal, 0, width - w), Expr::zero(w)])
    }
}

/// The router's widths, from its parameters.
#[derive(Clone, Copy)]
pub(super) struct Sizes {
    pub(super) d: u64,
    /// Bits of a link word, and of the processor's data words.
    pub(super) dw: u32,
    /// Units of a node's address: a word's letters, an index's bytes.
    pub(super) k: u32,
    /// Bits of a hop (a letter, or a table's port) and of a route's length.
    pub(super) w: u32,
    pub(super) lw: u32,
    /// Bits of an address unit (a letter, or a byte).
    pub(super) uw: u32,
    /// Bits of a node's address and of a route.
    pub(super) kw: u32,
    pub(super) rw: u32,
    /// The route's hops are ports (a table's), not letters to turn into ports.
    pub(super) hops_are_ports: bool,
    /// `max_bytes`, the buffer's words and its address bits.
    pub(super) max: u64,
    pub(super) depth: u32,
    pub(super) aw: u32,
    /// B, the route generator's cycle bound, and the bits of the timer that counts it.
    pub(super) b: u64,
    pub(super) tw: u32,
    /// Bits of a position in the worm.
    pub(super) pw: u32,
}

/// The router's ports: the processor's side (tx, res, rx), the node's word, and the
/// switch's input 0 (net) and output 0 (arr).
#[derive(Clone, Copy)]
pub(super) struct Io {
    pub(super) clocking: Clocking,
    pub(super) tx_valid: SignalId,
    pub(super) tx_ready: SignalId,
    pub(super) tx_data: SignalId,
    pub(super) tx_last: SignalId,
    pub(super) tx_dst: SignalId,
    pub(super) res_valid: SignalId,
    pub(super) res_status: SignalId,
    pub(super) res_attempts: SignalId,
    pub(super) rx_valid: SignalId,
    pub(super) rx_data: SignalId,
    pub(super) rx_first: SignalId,
    pub(super) rx_last: SignalId,
    pub(super) rx_src: SignalId,
    pub(super) rx_len: SignalId,
    pub(super) rx_error: SignalId,
    pub(super) node: SignalId,
    pub(super) net_valid: SignalId,
    pub(super) net_ctl: SignalId,
    pub(super) net_data: SignalId,
    pub(super) net_nack: SignalId,
    pub(super) arr_valid: SignalId,
    pub(super) arr_ctl: SignalId,
    pub(super) arr_data: SignalId,
}

/// The message buffer and its byte count.
#[derive(Clone, Copy)]
pub(super) struct Buffer {
    pub(super) count: SignalId,
    pub(super) over: SignalId,
    pub(super) read_data: SignalId,
    pub(super) read_addr: SignalId,
}

/// The sender is NACKed: the worm on the link was refused.
pub(super) fn nacked(io: &Io) -> Expr {
    Expr::from(io.net_nack)
}

/// A control word arrives from the switch.
pub(super) fn control_in(io: &Io) -> Expr {
    Expr::from(io.arr_valid).and(io.arr_ctl.into())
}

/// Port of the out-link by letter `a` (`w` bits) at a node whose last letter is `last`, as
/// a link word of `dw` bits; a table's hop `a` is its port already (no `last`).
pub(super) fn port(a: Expr, last: Option<Expr>, w: u32, dw: u32) -> Expr {
    match last {
        Some(last) => {
            let up = extend(a.clone().lt(last), 1, dw);
            extend(a, w, dw) + up
        }
        None => extend(a, w, dw),
    }
}

/// `still_loading` (bytes come after this cycle), from the first byte taken to the one with
/// `tx_last`, and the register `loading` that holds it.
pub(super) fn still_loading(
    m: &mut Module,
    (first, take, tx_last): (SignalId, SignalId, SignalId),
    loading: SignalId,
) -> SignalId {
    let still_loading = m.internal(
        "still_loading",
        1,
        "bytes still come after this cycle: the last is not yet taken",
    );
    m.assign(
        still_loading,
        Expr::from(first)
            .or(loading.into())
            .and(!Expr::from(take).and(tx_last.into())),
        "From the first byte until the one with tx_last.",
    );
    m.register(
        loading,
        0,
        still_loading.into(),
        "Loading until the last byte.",
    );
    still_loading
}

/// Loader: the message buffer, its byte count and whether the message is too long.
pub(super) fn buffer(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    (first, more): (SignalId, SignalId),
) -> Buffer {
    let Sizes {
        max, depth, aw, dw, ..
    } = *s;
    let Io {
        clocking, tx_data, ..
    } = *io;
    let count = m.internal(
        "count",
        8,
        "bytes taken, n (stops at max_bytes: a longer message is refused)",
    );
    let full = m.internal("full", 1, "the buffer holds max_bytes bytes");
    m.assign(
        full,
        Expr::from(count).eq(Expr::konst(8, max)),
        "max_bytes bytes taken.",
    );
    m.register(
        count,
        0,
        Expr::mux(
            first.into(),
            Expr::konst(8, 1),
            Expr::mux(
                Expr::from(more).and(!Expr::from(full)),
                Expr::from(count) + Expr::konst(8, 1),
                count.into(),
            ),
        ),
        "Counts the bytes up to max_bytes.",
    );
    let too_long = m.internal("too_long", 1, "a byte beyond max_bytes was taken");
    m.register(
        too_long,
        0,
        Expr::mux(
            first.into(),
            Expr::bit(false),
            Expr::from(too_long).or(Expr::from(more).and(full.into())),
        ),
        "Set by a byte that finds the buffer full; cleared by the next message.",
    );
    let over = m.internal(
        "over",
        1,
        "the message has more than max_bytes bytes, this cycle's included",
    );
    m.assign(
        over,
        Expr::from(too_long).or(Expr::from(more).and(full.into())),
        "Too long so far.",
    );
    let read_data = m.internal(
        "read_data",
        dw,
        "the buffer's word at read_addr, registered",
    );
    let read_addr = m.internal(
        "read_addr",
        aw,
        "the byte read this cycle, in read_data next cycle",
    );
    let write_addr = Expr::mux(first.into(), Expr::zero(aw), slice(count, 0, aw));
    m.memory(
        Memory {
            name: "message_buffer".to_string(),
            depth,
            width: dw,
            // No byte is taken in a reset cycle: the RAM is not reset, so its write must not
            // depend on registers the reset is still setting (at power-up they are unknown
            // in Verilog and zero in VHDL, and the two could write different words).
            write_enable: Expr::from(first)
                .or(Expr::from(more).and(!Expr::from(full)))
                .and(!Expr::from(clocking.reset)),
            write_addr,
            write_data: tx_data.into(),
            read_addr: read_addr.into(),
            read_data,
        },
        &format!(
            "The message buffer: {depth} words of {dw} bits, word j written at address j as it is taken (words beyond max_bytes are dropped), read one word ahead of the link."
        ),
    );
    Buffer {
        count,
        over,
        read_data,
        read_addr,
    }
}

/// The arriving message's address, one unit (a letter, or a byte: the low `uw` bits of
/// the word) shifted in at the bottom of `rx_acc` in each cycle of `unit_in`.
pub(super) fn shift_in_address(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    (rx_acc, unit_in): (SignalId, Expr),
    doc: &str,
) {
    let Sizes { k, uw, kw, .. } = *s;
    m.register(
        rx_acc,
        0,
        Expr::mux(
            unit_in,
            if k == 1 {
                slice(io.arr_data, 0, uw)
            } else {
                Expr::concat(vec![slice(rx_acc, 0, kw - uw), slice(io.arr_data, 0, uw)])
            },
            rx_acc.into(),
        ),
        doc,
    );
}

/// The receiver's ports to the processor, registered: each byte of `data_in` (the first
/// when `rx_count` is 0, the last with `last_in`) with its source `rx_acc` and count
/// `rx_n`, and `error` (with its description).
pub(super) fn hand_out(
    m: &mut Module,
    (kw, dw, io): (u32, u32, &Io),
    (data_in, rx_count, last_in): (Expr, SignalId, Expr),
    (rx_acc, rx_n): (SignalId, SignalId),
    (error, error_doc): (Expr, &str),
) {
    m.register(
        io.rx_valid,
        0,
        data_in.clone(),
        "A byte, one cycle after it arrived.",
    );
    let gated = |value: Expr, width: u32| Expr::mux(data_in.clone(), value, Expr::zero(width));
    m.register(
        io.rx_data,
        0,
        gated(io.arr_data.into(), dw),
        "The data word.",
    );
    m.register(
        io.rx_first,
        0,
        data_in.clone().and(Expr::from(rx_count).eq(Expr::zero(8))),
        "Byte 1.",
    );
    m.register(io.rx_last, 0, last_in, "Byte n: the message has arrived.");
    m.register(io.rx_src, 0, gated(rx_acc.into(), kw), "Its source word.");
    m.register(io.rx_len, 0, gated(rx_n.into(), 8), "Its byte count.");
    m.register(io.rx_error, 0, error, error_doc);
}
