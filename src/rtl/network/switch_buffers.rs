//! The input side of the switch with a buffer of one worm per input: virtual cut-through
//! (vct) and store-and-forward (saf), as the switch's cycle model steps them
//! (src/models/network/switch.rs, `step_buffered`; docs/flow-control.md). The outputs are
//! the bufferless switch's ([`super::switch`]); what changes is what feeds them.
//!
//! Per input i: a RAM of the worm's words after its head (type bit and data, the EOD last),
//! written at `cnt_i` as the link brings them; its state (`occ` holds a worm, `fill` the
//! EOD is not in yet, `launch` the worm holds an output, `bport_i` the output its head
//! asked for); and `sent_i`, the word going out. A whole worm that is not going out asks
//! for its output; a head asks for its own when its buffer is empty, under vct, or under
//! saf when the top bit of its data marks it not to be buffered (an acknowledgement; its
//! other bits name the port). A head not granted is taken in when its buffer is empty, it
//! is unmarked and its output exists and is not faulty, else refused with a NACK. The crossbar takes a launching input's word from its
//! RAM (read one cycle ahead), any other's from its link. A buffer's worm NACKed further on
//! is dropped; one sent to its EOD frees the buffer. A word that finds the RAM full empties
//! it and NACKs the sender.

use super::switch_parts::{
    Crossbar, InputVectors, OutputPorts, OutputState, SwitchIo, bit, gate, output_instance,
};
use crate::bits::bits_for;
use crate::fabric::switch::{Flow, SwitchConfig, SwitchFault};
use crate::rtl::ir::{Expr, Memory, Module, SignalId};

/// One input's buffer: its registers and its RAM's read word.
struct Buffer {
    port: SignalId,
    count: SignalId,
    sent: SignalId,
    read: SignalId,
}

/// The vectors of the buffers' state, input i at bit i.
struct BufferState {
    marked: SignalId,
    occ: SignalId,
    fill: SignalId,
    launch: SignalId,
    ready: SignalId,
    buffers: Vec<Buffer>,
}

/// The buffered switch's input side and its outputs, in `m` after its ports and
/// `inputs`' declarations.
pub(super) fn buffered_input_side(
    m: &mut Module,
    (c, fault): (&SwitchConfig, Option<SwitchFault>),
    io: &SwitchIo,
    inputs: &InputVectors,
    output: &(Module, OutputPorts),
) {
    let (p, w) = (c.ports() as u32, c.data_bits());
    let state = buffer_state(m, c, io, p);
    let crossbar = crossbar(m, io, inputs, &state, c.flow(), w);
    let outputs: Vec<OutputState> = (0..p)
        .map(|o| output_instance(m, output, io, &crossbar, o))
        .collect();
    let decisions = decisions(m, (c, fault), io, inputs, &state, &crossbar, &outputs);
    buffer_registers(m, c, io, inputs, &state, &decisions);
    link_registers(m, fault, io, inputs, &state, &decisions);
}

/// The buffers' registers and RAM read words, declared.
fn buffer_state(m: &mut Module, c: &SwitchConfig, io: &SwitchIo, p: u32) -> BufferState {
    let words = c.buffer_words() as u64;
    let marked = m.internal(
        "marked",
        p,
        "bit i: the top data bit of input i's word, which marks a head not to be buffered",
    );
    let w = c.data_bits();
    m.assign(
        marked,
        Expr::concat(
            (0..p as usize)
                .rev()
                .map(|i| Expr::Slice {
                    signal: io.ins[i].data,
                    lo: w - 1,
                    width: 1,
                })
                .collect(),
        ),
        "A head's mark: pass as a nosy worm.",
    );
    let occ = m.internal(
        "occ",
        p,
        "bit i: input i's buffer holds a worm, or part of one",
    );
    let fill = m.internal(
        "fill",
        p,
        "bit i: input i's buffer takes its link's words (the EOD is not in yet)",
    );
    let launch = m.internal(
        "launch",
        p,
        "bit i: input i's buffered worm holds an output",
    );
    let ready = m.internal(
        "ready",
        p,
        "bit i: input i's buffer holds a whole worm that is not going out",
    );
    let buffers = (0..p)
        .map(|i| Buffer {
            port: m.internal(
                &format!("bport{i}"),
                c.port_bits(),
                &format!("the output input {i}'s buffered head asked for"),
            ),
            count: m.internal(
                &format!("bcount{i}"),
                bits_for(words + 1),
                &format!("words in input {i}'s buffer"),
            ),
            sent: m.internal(
                &format!("bsent{i}"),
                Memory::address_width(words as u32),
                &format!("the word of input {i}'s buffer going out now"),
            ),
            read: m.internal(
                &format!("bread{i}"),
                c.data_bits() + 1,
                &format!("input {i}'s buffer word read: type bit, data"),
            ),
        })
        .collect();
    m.assign(
        ready,
        Expr::from(occ)
            .and(!Expr::from(fill))
            .and(!Expr::from(launch)),
        "A whole worm waits.",
    );
    BufferState {
        marked,
        occ,
        fill,
        launch,
        ready,
        buffers,
    }
}

/// The crossbar's words (a launching input's from its buffer, any other's from its link)
/// and the outputs' requests (whole buffered worms; heads, under vct, on inputs whose
/// buffer is empty).
fn crossbar(
    m: &mut Module,
    io: &SwitchIo,
    inputs: &InputVectors,
    state: &BufferState,
    flow: Flow,
    w: u32,
) -> Crossbar {
    let p = io.ins.len() as u32;
    let launching = |i: u32| bit(state.launch, i);
    let valid = m.internal("cx_valid", p, "the crossbar's valid bits, input i at bit i");
    m.assign(
        valid,
        Expr::from(state.launch).or(inputs.all_valid.into()),
        "A launching buffer always has a word; any other input its link's.",
    );
    let ctl = m.internal("cx_ctl", p, "the crossbar's type bits, input i at bit i");
    let ctls = (0..p).rev().map(|i| {
        let read = state.buffers[i as usize].read;
        Expr::mux(
            launching(i),
            Expr::Slice {
                signal: read,
                lo: w,
                width: 1,
            },
            bit(inputs.all_ctl, i),
        )
    });
    m.assign(
        ctl,
        Expr::concat(ctls.collect()),
        "The buffer's type bit while it launches, else the link's.",
    );
    let data = m.internal(
        "cx_data",
        p * w,
        "the crossbar's data, input i at bits i*W up",
    );
    let datas = (0..p).rev().map(|i| {
        let read = state.buffers[i as usize].read;
        Expr::mux(
            launching(i),
            Expr::Slice {
                signal: read,
                lo: 0,
                width: w,
            },
            Expr::Slice {
                signal: inputs.all_data,
                lo: i * w,
                width: w,
            },
        )
    });
    m.assign(
        data,
        Expr::concat(datas.collect()),
        "The buffer's data while it launches, else the link's.",
    );
    let requests = (0..p)
        .map(|o| {
            let wants = (0..p).rev().map(|i| {
                let buffer = &state.buffers[i as usize];
                let port_bits = m.sig(buffer.port).width;
                let whole = bit(state.ready, i).and(Expr::from(buffer.port).eq(Expr::konst(port_bits, o.into())));
                let head = bit(inputs.head, i)
                    .and(!bit(state.occ, i))
                    .and(head_port(io, i, w).eq(Expr::konst(w - 1, o.into())));
                match flow {
                    Flow::Vct => whole.or(head),
                    Flow::Saf | Flow::Nack => whole.or(head.and(bit(state.marked, i))),
                }
            });
            let doc = match flow {
                Flow::Vct => format!("Whole buffered worms for output {o}, and heads for it on inputs whose buffer is empty."),
                Flow::Saf | Flow::Nack => format!("Whole buffered worms for output {o}, and marked heads for it on inputs whose buffer is empty."),
            };
            (Expr::concat(wants.collect()), doc)
        })
        .collect();
    Crossbar {
        valid,
        ctl,
        data,
        requests,
    }
}

/// The port input `i`'s word names as a head: its data but the top bit (the mark).
fn head_port(io: &SwitchIo, i: u32, w: u32) -> Expr {
    Expr::Slice {
        signal: io.ins[i as usize].data,
        lo: 0,
        width: w - 1,
    }
}

/// What the input side decides in a cycle, each a vector with input i at bit i.
struct Decisions {
    granted: SignalId,
    /// The crossbar's word is an EOD.
    eod: SignalId,
    released: SignalId,
    accepted: SignalId,
    absorb: SignalId,
    refused: SignalId,
    cut: SignalId,
    overflow: SignalId,
    write: SignalId,
    fill_next: SignalId,
}

/// The outputs' verdicts on each input, and what becomes of each head and link word.
fn decisions(
    m: &mut Module,
    (c, fault): (&SwitchConfig, Option<SwitchFault>),
    io: &SwitchIo,
    inputs: &InputVectors,
    state: &BufferState,
    crossbar: &Crossbar,
    outputs: &[OutputState],
) -> Decisions {
    let (p, w) = (c.ports() as u32, c.data_bits());
    m.assign(
        inputs.forwarding,
        Expr::or_all(outputs.iter().map(|out| Expr::from(out.owner))),
        "An input forwards while it owns an output (from its link or its buffer).",
    );
    m.assign(
        inputs.head,
        Expr::and_all([!Expr::from(inputs.busy), inputs.all_valid.into(), inputs.all_ctl.into()]),
        "A control word on a link that is neither forwarding, dropping nor filling its buffer starts a worm.",
    );
    let granted = m.internal("granted", p, "bit i: input i is granted an output");
    m.assign(
        granted,
        Expr::or_all(outputs.iter().map(|out| Expr::from(out.grant))),
        "Granted by some output.",
    );
    m.assign(
        inputs.accepted,
        Expr::from(granted).and(!Expr::from(state.ready)),
        "A head granted, not a buffer.",
    );
    m.assign(
        inputs.nacked,
        Expr::or_all(
            outputs
                .iter()
                .map(|out| gate(out.nack.into(), out.owner.into(), p)),
        ),
        "A NACK on an output reaches the input that holds it.",
    );
    let eod = m.internal(
        "cx_eod",
        p,
        "bit i: input i's crossbar word is a control word",
    );
    m.assign(
        eod,
        Expr::from(crossbar.valid).and(crossbar.ctl.into()),
        "Inside a worm, its EOD.",
    );
    let released = m.internal(
        "released",
        p,
        "bit i: input i's output is released this cycle",
    );
    let release = match fault {
        Some(SwitchFault::OutputKeptAfterEod) => Expr::from(inputs.nacked),
        _ => Expr::from(inputs.nacked).or(eod.into()),
    };
    m.assign(
        released,
        Expr::from(inputs.forwarding).and(release),
        "By a NACK, or by its EOD.",
    );
    let port_ok = m.internal(
        "port_ok",
        p,
        "bit i: the head on input i names (in all but its mark) an output that is not faulty",
    );
    let oks = (0..p).rev().map(|i| {
        Expr::or_all((0..p).map(|o| {
            head_port(io, i, w)
                .eq(Expr::konst(w - 1, o.into()))
                .and(!bit(io.fault, o))
        }))
    });
    m.assign(
        port_ok,
        Expr::concat(oks.collect()),
        "Its route byte is an output, and that output is not faulty.",
    );
    let absorb = m.internal(
        "absorb",
        p,
        "bit i: input i's head is taken into its buffer",
    );
    m.assign(
        absorb,
        Expr::and_all([
            inputs.head.into(),
            !Expr::from(inputs.accepted),
            !Expr::from(state.occ),
            !Expr::from(state.marked),
            port_ok.into(),
        ]),
        "An unmarked head not granted, its buffer empty, its output there to wait for.",
    );
    let refused = m.internal("refused", p, "bit i: input i's head is refused");
    m.assign(
        refused,
        Expr::and_all([
            inputs.head.into(),
            !Expr::from(inputs.accepted),
            !Expr::from(absorb),
        ]),
        "Neither granted nor taken in.",
    );
    let cut = m.internal("cut", p, "bit i: input i's link worm is NACKed further on");
    m.assign(
        cut,
        Expr::and_all([
            inputs.nacked.into(),
            !Expr::from(eod),
            !Expr::from(state.launch),
        ]),
        "A NACK before the EOD of a worm from the link: it goes back to the sender.",
    );
    let arriving = Expr::from(state.fill).and(inputs.all_valid.into());
    let full = Expr::concat(
        (0..p)
            .rev()
            .map(|i| {
                let count = state.buffers[i as usize].count;
                let width = m.sig(count).width;
                Expr::from(count).eq(Expr::konst(width, c.buffer_words() as u64))
            })
            .collect(),
    );
    let overflow = m.internal(
        "overflow",
        p,
        "bit i: a word for input i's buffer finds it full",
    );
    m.assign(
        overflow,
        arriving.clone().and(full.clone()),
        "The worm is longer than the buffer.",
    );
    let write = m.internal(
        "write",
        p,
        "bit i: input i's link word goes into its buffer",
    );
    m.assign(
        write,
        arriving.and(!full),
        "A word of the worm filling the buffer.",
    );
    let eod_in = m.internal("eod_in", p, "bit i: the EOD goes into input i's buffer");
    m.assign(
        eod_in,
        Expr::from(write).and(inputs.all_ctl.into()),
        "The worm is whole.",
    );
    let fill_next = m.internal(
        "fill_next",
        p,
        "bit i: input i's buffer takes words next cycle",
    );
    m.assign(
        fill_next,
        Expr::from(absorb).or(Expr::and_all([
            state.fill.into(),
            !Expr::from(eod_in),
            !Expr::from(overflow),
        ])),
        "From the head taken in to its EOD, unless the buffer overflows.",
    );
    Decisions {
        granted,
        eod,
        released,
        accepted: inputs.accepted,
        absorb,
        refused,
        cut,
        overflow,
        write,
        fill_next,
    }
}

/// Each buffer's registers and RAM, and the vectors of their state.
fn buffer_registers(
    m: &mut Module,
    c: &SwitchConfig,
    io: &SwitchIo,
    inputs: &InputVectors,
    state: &BufferState,
    d: &Decisions,
) {
    let w = c.data_bits();
    let words = c.buffer_words() as u32;
    let gone = Expr::from(state.launch).and(Expr::from(inputs.nacked).or(d.eod.into()));
    m.register(
        state.occ,
        0,
        Expr::from(d.absorb).or(Expr::and_all([state.occ.into(), !Expr::from(d.overflow), !gone])),
        "Taken in with its head; emptied when its worm has gone to its EOD or is NACKed further on (dropped), or by an overflow.",
    );
    m.register(
        state.fill,
        0,
        d.fill_next.into(),
        "Filling until the EOD is in.",
    );
    m.register(
        state.launch,
        0,
        Expr::from(state.launch)
            .and(!Expr::from(d.released))
            .or(Expr::from(d.granted).and(state.ready.into())),
        "From the grant of a whole worm until its output is released.",
    );
    let address_bits = Memory::address_width(words);
    for (i, buffer) in state.buffers.iter().enumerate() {
        let b = i as u32;
        let link = io.ins[i];
        let count_bits = m.sig(buffer.count).width;
        let going_on = bit(state.launch, b).and(!bit(d.released, b));
        let next_sent = Expr::mux(
            going_on,
            Expr::from(buffer.sent) + Expr::konst(address_bits, 1),
            Expr::zero(address_bits),
        );
        m.register(
            buffer.sent,
            0,
            next_sent.clone(),
            &format!("Input {i}: one word further while its worm goes on, else 0."),
        );
        m.register(
            buffer.count,
            0,
            Expr::mux(
                bit(d.absorb, b),
                Expr::zero(count_bits),
                Expr::mux(
                    bit(d.write, b),
                    Expr::from(buffer.count) + Expr::konst(count_bits, 1),
                    buffer.count.into(),
                ),
            ),
            &format!("Input {i}: 0 with the head taken in, one up per word written."),
        );
        m.register(
            buffer.port,
            0,
            Expr::mux(
                bit(d.absorb, b),
                Expr::Slice {
                    signal: link.data,
                    lo: 0,
                    width: c.port_bits(),
                },
                buffer.port.into(),
            ),
            &format!("Input {i}: the output named by the head taken in."),
        );
        m.memory(
            Memory {
                name: format!("buffer{i}"),
                depth: words,
                width: w + 1,
                // No word is written in a reset cycle: the RAM is not reset, so its write
                // must not depend on registers the reset is still setting (unknown at
                // power-up in Verilog, zero in VHDL).
                write_enable: bit(d.write, b).and(!Expr::from(io.clocking.reset)),
                write_addr: Expr::Slice {
                    signal: buffer.count,
                    lo: 0,
                    width: address_bits,
                },
                write_data: Expr::concat(vec![link.ctl.into(), link.data.into()]),
                read_addr: next_sent,
                read_data: buffer.read,
            },
            &format!(
                "Input {i}'s buffer: word j of the worm after its head at address j, read one cycle ahead of the crossbar."
            ),
        );
    }
}

/// The link side's registers: `busy`, and the NACKs towards the senders.
fn link_registers(
    m: &mut Module,
    fault: Option<SwitchFault>,
    io: &SwitchIo,
    inputs: &InputVectors,
    state: &BufferState,
    d: &Decisions,
) {
    let p = io.ins.len() as u32;
    let linked_on = Expr::and_all([
        inputs.forwarding.into(),
        !Expr::from(state.launch),
        !Expr::from(d.released),
    ]);
    m.register(
        inputs.busy,
        0,
        Expr::or_all([
            d.accepted.into(),
            linked_on,
            d.refused.into(),
            d.cut.into(),
            d.overflow.into(),
            d.fill_next.into(),
        ]),
        "Busy next cycle after a head granted (forwarding) or refused (dropping the word still on the wire), while a link worm is not yet released, after a NACK or an overflow, and while the buffer fills.",
    );
    let back = Expr::from(d.cut).or(d.overflow.into());
    let nack_back = match fault {
        Some(SwitchFault::NackNotReturned) => Expr::from(d.refused).and(Expr::zero(p)).or(back),
        _ => Expr::from(d.refused).or(back),
    };
    let nack_all = m.internal("nack_all", p, "bit i: NACK to input i's sender next cycle");
    m.register(
        nack_all,
        0,
        nack_back,
        "NACK a refused head, an overflowing worm, and a link worm NACKed further on.",
    );
    for (i, link) in io.ins.iter().enumerate() {
        m.assign(
            link.nack,
            bit(nack_all, i as u32),
            &format!("Input {i}'s NACK."),
        );
    }
}
