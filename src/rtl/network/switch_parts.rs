//! What the switch's two input sides share (the bufferless one in [`super::switch`], the
//! buffered one in [`super::switch_buffers`]): the output module's ports, the links, the
//! input side's vectors, what feeds the outputs, and the instance of an output.

use crate::rtl::ir::{Clocking, Connections, Expr, Module, SignalId, port_struct};

/// `value` if `bit`, else zero (`width` bits): one AND gate per bit.
pub(super) fn gate(bit: Expr, value: Expr, width: u32) -> Expr {
    Expr::mux(bit, value, Expr::zero(width))
}

/// Bit `i` of `signal`.
pub(super) fn bit(signal: SignalId, i: u32) -> Expr {
    Expr::Slice {
        signal,
        lo: i,
        width: 1,
    }
}

port_struct!(
    pub(super) struct OutputPorts {
        clk, rst, req: ?, available: ?, priority: ?, asked: ?, fault, nack, in_valid, in_ctl, in_data, grant, owner, out_valid, out_ctl,
        out_data,
    }
);

/// One link of the switch: its word (valid bit, type bit, data) one way, its NACK the other.
#[derive(Clone, Copy)]
pub(super) struct Link {
    pub(super) valid: SignalId,
    pub(super) ctl: SignalId,
    pub(super) data: SignalId,
    pub(super) nack: SignalId,
}

/// The switch module's ports: clock and reset, the fault bits, every input and output link.
pub(super) struct SwitchIo {
    pub(super) clocking: Clocking,
    pub(super) fault: SignalId,
    pub(super) ins: Vec<Link>,
    pub(super) outs: Vec<Link>,
}

/// The input side's vectors, input i at bit i (at bits i*W up for the data).
pub(super) struct InputVectors {
    pub(super) all_valid: SignalId,
    pub(super) all_ctl: SignalId,
    pub(super) all_data: SignalId,
    pub(super) busy: SignalId,
    pub(super) forwarding: SignalId,
    pub(super) head: SignalId,
    pub(super) accepted: SignalId,
    pub(super) nacked: SignalId,
}

/// What an output instance tells the input side: its grants, its owner, the NACK from
/// its receiver, and with the per-input head decision what it offers.
pub(super) struct OutputState {
    pub(super) grant: SignalId,
    pub(super) owner: SignalId,
    pub(super) nack: SignalId,
    pub(super) offer: Option<Offer>,
}

/// Per-input head decision: an output's offer to the input side, which drives its grant.
#[derive(Clone, Copy)]
pub(super) struct Offer {
    /// Free and not faulty: may take a new worm.
    pub(super) available: SignalId,
    /// The inputs its arbiter puts first.
    pub(super) priority: SignalId,
    /// Some head asks for it, granted or not.
    pub(super) asked: SignalId,
}

/// What feeds the outputs: the crossbar's words (valid bits, type bits, data, input i at
/// bit i), and each output's requests with what they are.
pub(super) struct Crossbar {
    pub(super) valid: SignalId,
    pub(super) ctl: SignalId,
    pub(super) data: SignalId,
    /// Output o's requests, bit i for input i, and the line that says what they are; none
    /// with the per-input head decision, which grants in the input side.
    pub(super) requests: Vec<(Expr, String)>,
}

/// One part of a link (its valid bit, type bit or data).
type LinkPart = fn(&Link) -> SignalId;

/// Input i's parts of every link side by side, input i at bit i (the first part of a
/// concatenation is the most significant).
pub(super) fn side_by_side(ins: &[Link], part: LinkPart) -> Expr {
    Expr::concat(ins.iter().rev().map(|l| part(l).into()).collect())
}

/// Every input's link as one vector (with the registered head decode, last cycle's words,
/// from the input registers), and the vectors of the input side's state.
pub(super) fn input_vectors(
    m: &mut Module,
    ins: &[Link],
    (p, w): (u32, u32),
    registered: bool,
) -> InputVectors {
    let all_valid = m.internal("all_valid", p, "valid bits of the inputs, input i at bit i");
    let all_ctl = m.internal("all_ctl", p, "type bits of the inputs, input i at bit i");
    let all_data = m.internal(
        "all_data",
        p * w,
        "data of the inputs, input i at bits i*W up",
    );
    let parts: [(SignalId, LinkPart, &str); 3] = [
        (all_valid, |l| l.valid, "valid bits"),
        (all_ctl, |l| l.ctl, "type bits"),
        (all_data, |l| l.data, "data"),
    ];
    for (signal, part, what) in parts {
        match registered {
            false => m.assign(
                signal,
                side_by_side(ins, part),
                &format!("The inputs' {what} side by side."),
            ),
            true => m.register(
                signal,
                0,
                side_by_side(ins, part),
                &format!("Input registers: the inputs' {what} of last cycle, decided in this one."),
            ),
        }
    }
    let busy = m.internal(
        "busy",
        p,
        "bit i: input i forwards a worm or drops a word this cycle; its control words are no heads",
    );
    let forwarding = m.internal("forwarding", p, "bit i: input i holds an output");
    let head = m.internal("head", p, "bit i: the word on input i is a head");
    let accepted = m.internal("accepted", p, "bit i: input i's head is granted an output");
    let nacked = m.internal(
        "nacked",
        p,
        "bit i: the output that input i holds is NACKed this cycle",
    );
    InputVectors {
        all_valid,
        all_ctl,
        all_data,
        busy,
        forwarding,
        head,
        accepted,
        nacked,
    }
}

/// Output `o`'s requests (`crossbar.requests[o]`) and its instance, fed by the crossbar.
pub(super) fn output_instance(
    m: &mut Module,
    (output, op): &(Module, OutputPorts),
    io: &SwitchIo,
    crossbar: &Crossbar,
    o: u32,
) -> OutputState {
    let p = io.ins.len() as u32;
    let req = crossbar.requests.get(o as usize).map(|(wants, doc)| {
        let req = m.internal(
            &format!("req{o}"),
            p,
            &format!("bit i: the head on input i asks for output {o}"),
        );
        m.assign(req, wants.clone(), doc);
        req
    });
    let offer = req.is_none().then(|| Offer {
        available: m.internal(
            &format!("available{o}"),
            1,
            &format!("output {o} may take a new worm"),
        ),
        priority: m.internal(
            &format!("priority{o}"),
            p,
            &format!("the inputs output {o}'s arbiter puts first"),
        ),
        asked: m.internal(
            &format!("asked{o}"),
            1,
            &format!("some head asks for output {o}"),
        ),
    });
    let grant = m.internal(
        &format!("grant{o}"),
        p,
        &format!("bit i: output {o} is granted to input i this cycle"),
    );
    let owner = m.internal(
        &format!("owner{o}"),
        p,
        &format!("bit i: input i holds output {o}"),
    );
    let link = io.outs[o as usize];
    let connections = Connections::of(output)
        .bind(&op.clk, io.clocking.clock)
        .bind(&op.rst, io.clocking.reset)
        .bind_opt(&op.req, req)
        .bind_opt(&op.available, offer.map(|f| f.available))
        .bind_opt(&op.priority, offer.map(|f| f.priority))
        .bind_opt(&op.asked, offer.map(|f| f.asked))
        .bind(&op.fault, bit(io.fault, o))
        .bind(&op.nack, link.nack)
        .bind(&op.in_valid, crossbar.valid)
        .bind(&op.in_ctl, crossbar.ctl)
        .bind(&op.in_data, crossbar.data)
        .bind(&op.grant, grant)
        .bind(&op.owner, owner)
        .bind(&op.out_valid, link.valid)
        .bind(&op.out_ctl, link.ctl)
        .bind(&op.out_data, link.data);
    m.instance(&format!("output{o}"), connections, &format!("Output {o}."));
    OutputState {
        grant,
        owner,
        nack: link.nack,
        offer,
    }
}
