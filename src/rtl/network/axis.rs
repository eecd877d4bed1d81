//! The AXI4-Stream processor side of a node (`--interface axis`; docs/network.md,
//! "AXI4-Stream interface"): the block `<top>_axis` between a router's processor ports and
//! three streams named and handshaken as ARM's AMBA AXI4-Stream specification (IHI 0051)
//! says, with the receive FIFO of [`crate::network::receive`] and its refusal.
//!
//! - **transmit slave** `s_axis_*` (tdata, tvalid, tready, tlast, tdest): a message's bytes,
//!   tdest the destination's node index, taken with its first byte and looked up in a table
//!   of the nodes' addresses (an index that is no node becomes this node's own address,
//!   which the router refuses). The router holds a message whole before it sends it, so
//!   beats may come with gaps. A first byte waits while a status beat is not yet taken, so
//!   that no outcome is lost.
//! - **status master** `m_axis_status_*` (tdata, tvalid, tready): one beat per message,
//!   tdata = attempts << 2 | status (0 delivered, 1 failed, 2 refused), one cycle after the
//!   router's `res_valid`.
//! - **receive master** `m_axis_*` (tdata, tvalid, tready, tlast, tid): the arriving
//!   messages' bytes from the FIFO, tid the source's node index, tlast on each message's
//!   last byte.
//! - `refuse`, to the switch's output-0 fault bit: the FIFO could not take a whole message.
//!
//! The FIFO is a RAM of `rx_bytes` entries of {tid, tlast, tdata} with the counts of
//! [`crate::network::receive::RxFifo`], register for register: `count`, `pending`,
//! `in_worm` and `wrote`; its read address runs one entry ahead while the sink takes one,
//! so that `m_axis_tdata` shows the oldest entry in every cycle `m_axis_tvalid` is high.

use crate::bits::bits_for;
use crate::choice::choice;
use crate::network::receive::MAX_RX_BYTES;
use crate::rtl::const_arith::extend;
use crate::rtl::ir::{Expr, Memory, Module, SignalId};
use thiserror::Error;

use super::router::RouterParams;
use super::router_parts::slice;

choice! {
    /// A node's processor side.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum Interface {
        #[default]
        Plain = "plain":
            "The router's own ports: tx_*, res_* and rx_* (the processor takes every byte as it comes)",
        Axis = "axis":
            "AXI4-Stream: a transmit slave s_axis_*, a receive master m_axis_* behind a FIFO \
            of --rx-bytes (a switch refuses worms while it could not take a whole message), \
            and a status master m_axis_status_*",
    }
}

/// Widest data word of an AXI4-Stream node: a FIFO entry holds a word, tlast and tid in
/// one RAM word of at most 64 bits.
pub const MAX_AXIS_DATA_BITS: u32 = 32;

/// Why an AXI4-Stream processor side is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AxisError {
    #[error(
        "--rx-bytes must hold a whole message of --max-bytes {max} and at most {MAX_RX_BYTES} bytes, got {got}"
    )]
    RxBytes { got: u64, max: u64 },
    #[error(
        "--interface axis takes --data-bits of at most {MAX_AXIS_DATA_BITS}: its receive FIFO keeps a word, tlast and tid in one RAM word of at most 64 bits, got {0}"
    )]
    DataBits(u32),
}

/// Checks a receive FIFO of `rx_bytes` for messages of `max_bytes` words of `data_bits`.
pub fn check(max_bytes: u64, data_bits: u32, rx_bytes: u64) -> Result<(), AxisError> {
    if !(max_bytes..=MAX_RX_BYTES).contains(&rx_bytes) {
        return Err(AxisError::RxBytes {
            got: rx_bytes,
            max: max_bytes,
        });
    }
    if data_bits > MAX_AXIS_DATA_BITS {
        return Err(AxisError::DataBits(data_bits));
    }
    Ok(())
}

/// What the block needs: the nodes' addresses by index (as the router's `node`, `tx_dst`
/// and `rx_src` carry them, `address_bits` wide), the FIFO's entries, the routers' largest
/// message and the width of `res_attempts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AxisParams {
    pub addresses: Vec<u64>,
    pub address_bits: u32,
    pub rx_bytes: u64,
    pub max_bytes: u8,
    /// Bits of a data word (tdata, the router's tx_data and rx_data): 8 to 32.
    pub data_bits: u32,
    pub attempts_bits: u32,
}

impl AxisParams {
    /// The block in front of the router of `router` (its top module `router_top`), with a
    /// FIFO of `rx_bytes`: every node's address of its topology, by index.
    pub fn of(router: &RouterParams, router_top: &Module, rx_bytes: u64) -> Self {
        let plan = router.plan();
        let attempts_bits = router_top
            .ports()
            .find(|(_, s)| s.name == "res_attempts")
            .map_or(0, |(_, s)| s.width);
        AxisParams {
            addresses: (0..plan.node_count())
                .map(|v| router.address_word(&plan.address(v)))
                .collect(),
            address_bits: router.address_bits(),
            rx_bytes,
            max_bytes: router.max_bytes,
            data_bits: router.data_bits,
            attempts_bits,
        }
    }

    /// Bits of a node index (tdest, tid).
    pub fn index_bits(&self) -> u32 {
        bits_for(self.addresses.len() as u64)
    }

    /// Bits of the FIFO's counts and of their sum with a whole message (up to `rx_bytes`
    /// plus two messages), at least the 8-bit `pending`'s and one more.
    fn count_bits(&self) -> u32 {
        bits_for(self.rx_bytes + 2 * u64::from(self.max_bytes) + 1).max(9)
    }
}

/// The router's processor ports the block drives or reads, by the router's names.
pub const ROUTER_SIDE: [&str; 13] = [
    "tx_valid",
    "tx_ready",
    "tx_data",
    "tx_last",
    "tx_dst",
    "res_valid",
    "res_status",
    "res_attempts",
    "rx_valid",
    "rx_data",
    "rx_first",
    "rx_last",
    "rx_len",
];

/// The block, named `name`.
pub fn module(name: &str, p: &AxisParams) -> Module {
    let mut m = Module::new(
        name,
        &[
            "A node's processor side as AXI4-Stream (ARM IHI 0051): transmit slave, receive master and status master.",
            "The receive FIFO refuses worms (refuse, to the switch's output-0 fault bit) while it could not take a whole message.",
        ],
    );
    let clocking = m.clocked();
    let node = m.input("node", p.address_bits, "this node's address");
    let slave = transmit(&mut m, p, node);
    let (held, status_tready) = status(&mut m, p);
    let slot_free = (!Expr::from(held)).or(status_tready.into());
    let ready = Expr::from(slave.tx_ready).and(Expr::from(slave.in_message).or(slot_free));
    m.assign(
        slave.tready,
        ready.clone(),
        "A first byte waits while a status beat is held and not taken: the message's outcome would need the slot.",
    );
    m.assign(
        slave.tx_valid,
        Expr::from(slave.tvalid).and(ready),
        "Offered to the router only when taken.",
    );
    receive(&mut m, p, clocking.reset);
    m
}

/// The transmit slave's signals whose logic needs the status master's.
struct Slave {
    tvalid: SignalId,
    tready: SignalId,
    tx_valid: SignalId,
    tx_ready: SignalId,
    in_message: SignalId,
}

/// The transmit slave: s_axis to the router's tx ports, but for `s_axis_tready` and
/// `tx_valid`, which wait for the status master's slot.
fn transmit(m: &mut Module, p: &AxisParams, node: SignalId) -> Slave {
    let iw = p.index_bits();
    let dw = p.data_bits;
    let tdata = m.input("s_axis_tdata", dw, "transmit: a message word");
    let tvalid = m.input("s_axis_tvalid", 1, "transmit: a byte is offered");
    let tready = m.output("s_axis_tready", 1, "transmit: the byte is taken");
    let tlast = m.input("s_axis_tlast", 1, "transmit: the message's last byte");
    let tdest = m.input("s_axis_tdest", iw, "transmit: the destination's node index");
    let tx_valid = m.output("tx_valid", 1, "to the router: a byte");
    let tx_ready = m.input("tx_ready", 1, "from the router: it takes a byte");
    let tx_data = m.output("tx_data", dw, "to the router: the word");
    let tx_last = m.output("tx_last", 1, "to the router: the message's last byte");
    let tx_dst = m.output(
        "tx_dst",
        p.address_bits,
        "to the router: the destination's address",
    );
    let in_message = m.internal(
        "in_message",
        1,
        "a message's first byte is taken, not its last",
    );
    m.assign(tx_data, tdata.into(), "The byte.");
    m.assign(tx_last, tlast.into(), "The last byte.");
    let taken = Expr::from(tvalid).and(tready.into());
    m.register(
        in_message,
        0,
        Expr::mux(taken, !Expr::from(tlast), in_message.into()),
        "Set by a byte that is not the last, cleared by the last.",
    );
    let arms = p
        .addresses
        .iter()
        .enumerate()
        .map(|(v, &address)| {
            (
                Expr::konst(iw, v as u64),
                Expr::konst(p.address_bits, address),
            )
        })
        .collect();
    m.case(
        tx_dst,
        tdest,
        arms,
        node.into(),
        "Node index to address; no node: this node's own, which the router refuses.",
    );
    Slave {
        tvalid,
        tready,
        tx_valid,
        tx_ready,
        in_message,
    }
}

/// The status master: one beat per outcome, held until taken; returns the slot's `held`
/// and its `tready`.
fn status(m: &mut Module, p: &AxisParams) -> (SignalId, SignalId) {
    let res_valid = m.input("res_valid", 1, "from the router: an outcome");
    let res_status = m.input(
        "res_status",
        2,
        "from the router: 0 delivered, 1 failed, 2 refused",
    );
    let res_attempts = m.input(
        "res_attempts",
        p.attempts_bits,
        "from the router: attempts made",
    );
    let tvalid = m.output("m_axis_status_tvalid", 1, "status: a message's outcome");
    let tready = m.input("m_axis_status_tready", 1, "status: the outcome is taken");
    let held = m.internal("status_held", 1, "the status master holds a beat");
    let tdata = m.output(
        "m_axis_status_tdata",
        8,
        "status: attempts << 2 | status (0 delivered, 1 failed, 2 refused)",
    );
    let taken = Expr::from(held).and(tready.into());
    m.register(
        held,
        0,
        Expr::from(res_valid).or(Expr::from(held).and(!taken)),
        "Loaded by an outcome, emptied when taken.",
    );
    let beat = Expr::concat(vec![
        extend(res_attempts.into(), p.attempts_bits, 6),
        res_status.into(),
    ]);
    let data = m.internal("status_data", 8, "the held outcome");
    m.register(
        data,
        0,
        Expr::mux(res_valid.into(), beat, data.into()),
        "The outcome, kept until the next.",
    );
    m.assign(tvalid, held.into(), "Held beat.");
    m.assign(tdata, data.into(), "Held beat's data.");
    (held, tready)
}

/// The receive FIFO and its master, and the refusal.
fn receive(m: &mut Module, p: &AxisParams, reset: SignalId) {
    let (iw, aw, cb) = (p.index_bits(), p.address_bits, p.count_bits());
    let rx_valid = m.input(
        "rx_valid",
        1,
        "from the router: a byte of an arriving message",
    );
    let dw = p.data_bits;
    let rx_data = m.input("rx_data", dw, "from the router: the word");
    let rx_first = m.input("rx_first", 1, "from the router: the message's first byte");
    let rx_last = m.input("rx_last", 1, "from the router: the message's last byte");
    let rx_len = m.input(
        "rx_len",
        8,
        "from the router: the message's length, with every byte",
    );
    let rx_src = m.input("rx_src", aw, "from the router: the source's address");
    let arr_valid = m.input("arr_valid", 1, "the switch's output 0: a word");
    let arr_ctl = m.input("arr_ctl", 1, "the switch's output 0: a head or an EOD");
    let tdata = m.output("m_axis_tdata", dw, "receive: a message word");
    let tvalid = m.output("m_axis_tvalid", 1, "receive: a byte is offered");
    let tready = m.input("m_axis_tready", 1, "receive: the byte is taken");
    let tlast = m.output("m_axis_tlast", 1, "receive: the message's last byte");
    let tid = m.output("m_axis_tid", iw, "receive: the source's node index");
    let refuse = m.output(
        "refuse",
        1,
        "to the switch's output-0 fault bit: the FIFO could not take a whole message",
    );
    let count = m.internal("count", cb, "bytes written and not yet taken");
    let pending = m.internal("pending", 8, "bytes promised to the arriving worm");
    let in_worm = m.internal("in_worm", 1, "between an arriving worm's head and its EOD");
    let wrote = m.internal(
        "wrote",
        1,
        "a byte was written at the last edge: not yet readable",
    );
    let max = Expr::konst(8, u64::from(p.max_bytes));
    let total =
        extend(count.into(), cb, cb) + extend(pending.into(), 8, cb) + extend(max.clone(), 8, cb);
    m.assign(
        refuse,
        Expr::konst(cb, p.rx_bytes).lt(total),
        "count + pending + max_bytes > rx_bytes: no room for a whole message.",
    );
    let visible = Expr::from(count) - extend(wrote.into(), 1, cb);
    m.assign(
        tvalid,
        visible.ne(Expr::zero(cb)),
        "An entry written before the last edge.",
    );
    let pop = Expr::from(tvalid).and(tready.into());
    m.register(
        count,
        0,
        Expr::from(count) + extend(rx_valid.into(), 1, cb) - extend(pop.clone(), 1, cb),
        "One in per byte handed out, one out per byte taken.",
    );
    m.register(wrote, 0, rx_valid.into(), "The entry written at this edge.");
    let control = Expr::from(arr_valid).and(arr_ctl.into());
    m.register(
        in_worm,
        0,
        Expr::from(in_worm).xor(control.clone()),
        "A head opens a worm, its EOD closes it.",
    );
    let left = m.internal(
        "left",
        8,
        "bytes of the message not yet written, this one included",
    );
    m.assign(
        left,
        Expr::mux(rx_first.into(), rx_len.into(), pending.into()),
        "The first byte brings the length.",
    );
    let less_one = Expr::mux(
        Expr::from(rx_valid).and(Expr::from(left).ne(Expr::zero(8))),
        Expr::from(left) - Expr::konst(8, 1),
        pending.into(),
    );
    m.register(
        pending,
        0,
        Expr::mux(
            control,
            Expr::mux(in_worm.into(), Expr::zero(8), max),
            less_one,
        ),
        "A head promises a whole message, its first byte the message's length, each byte \
        written keeps one, the EOD frees the rest.",
    );
    fifo_ram(
        m,
        p,
        (rx_valid, rx_data, rx_last, rx_src),
        (pop, reset),
        (tdata, tlast, tid),
    );
}

/// The FIFO's RAM and pointers: entries {tid, tlast, tdata} written as the router hands
/// bytes out, read one ahead while the sink takes one.
fn fifo_ram(
    m: &mut Module,
    p: &AxisParams,
    (rx_valid, rx_data, rx_last, rx_src): (SignalId, SignalId, SignalId, SignalId),
    (pop, reset): (Expr, SignalId),
    (tdata, tlast, tid): (SignalId, SignalId, SignalId),
) {
    let iw = p.index_bits();
    let depth = p.rx_bytes.max(2) as u32;
    let pw = Memory::address_width(depth);
    let src_index = m.internal("src_index", iw, "the source's node index");
    let arms = p
        .addresses
        .iter()
        .enumerate()
        .map(|(v, &address)| {
            (
                Expr::konst(p.address_bits, address),
                Expr::konst(iw, v as u64),
            )
        })
        .collect();
    m.case(
        src_index,
        rx_src,
        arms,
        Expr::zero(iw),
        "Address to node index.",
    );
    let wr_ptr = m.internal("wr_ptr", pw, "the next entry to write");
    let rd_ptr = m.internal("rd_ptr", pw, "the oldest entry");
    let next = |ptr: SignalId| {
        Expr::mux(
            Expr::from(ptr).eq(Expr::konst(pw, p.rx_bytes - 1)),
            Expr::zero(pw),
            Expr::from(ptr) + Expr::konst(pw, 1),
        )
    };
    m.register(
        wr_ptr,
        0,
        Expr::mux(rx_valid.into(), next(wr_ptr), wr_ptr.into()),
        "On past each entry written.",
    );
    m.register(
        rd_ptr,
        0,
        Expr::mux(pop.clone(), next(rd_ptr), rd_ptr.into()),
        "On past each entry taken.",
    );
    let read_addr = m.internal("read_addr", pw, "the entry on the stream at the next edge");
    m.assign(
        read_addr,
        Expr::mux(pop, next(rd_ptr), rd_ptr.into()),
        "One ahead while one is taken.",
    );
    let dw = p.data_bits;
    let width = iw + 1 + dw;
    let read_data = m.internal("fifo_read", width, "the RAM's registered read");
    m.memory(
        Memory {
            name: "rx_fifo".to_string(),
            depth,
            width,
            // No entry is written in a reset cycle (the router's registers are still being
            // set then), as the router's own buffer.
            write_enable: Expr::from(rx_valid).and(!Expr::from(reset)),
            write_addr: wr_ptr.into(),
            write_data: Expr::concat(vec![src_index.into(), rx_last.into(), rx_data.into()]),
            read_addr: read_addr.into(),
            read_data,
        },
        "The receive FIFO.",
    );
    m.assign(tdata, slice(read_data, 0, dw), "The oldest entry's word.");
    m.assign(tlast, slice(read_data, dw, 1), "Its last-word flag.");
    m.assign(tid, slice(read_data, dw + 1, iw), "Its source.");
}
