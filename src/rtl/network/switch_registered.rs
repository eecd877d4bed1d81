//! The bufferless switch's registered head decode (docs/switch.md, "Registered head
//! decode"): every input word is registered, and beside it, for a control word, the output
//! its route byte names (one-hot over the outputs, none for a byte that names no output).
//! The head is decided in the next cycle from those registers, so the route byte's
//! comparison is off the decision's path; a word takes two cycles per hop.
//!
//! What changes against the same-cycle input side: a refused or cut worm whose EOD is not
//! yet on its link has two more words on the wire, which the input drops (`tail`), and one
//! whose EOD is on the link gets no NACK (its sender has let go of the link).

use super::switch_parts::{InputVectors, Link, bit, side_by_side};
use crate::fabric::switch::SwitchFault;
use crate::rtl::ir::{Expr, Module, SignalId};

/// The registered decode's signals that the decision and the input registers read.
pub(super) struct Decode {
    /// Per output o: bit i, last cycle's word on input i was a control word naming o.
    pub(super) names: Vec<SignalId>,
    /// Bit i: the word on input link i this cycle is a control word (the EOD of the worm
    /// coming in, when the input register holds one of its other words).
    pub(super) control_on_link: SignalId,
}

/// The decoded route bytes' registers, and the control words on the links.
pub(super) fn decode(m: &mut Module, ins: &[Link], p: u32, w: u32) -> Decode {
    let control_on_link = m.internal(
        "control_on_link",
        p,
        "bit i: the word on input link i this cycle is a control word",
    );
    m.assign(
        control_on_link,
        side_by_side(ins, |l| l.valid).and(side_by_side(ins, |l| l.ctl)),
        "A valid control word on the link: a head, or the EOD of a worm coming in.",
    );
    let names = (0..p)
        .map(|o| {
            let names = m.internal(
                &format!("names{o}"),
                p,
                &format!("bit i: last cycle's word on input i was a control word naming output {o}"),
            );
            let wants = (0..p).rev().map(|i| {
                let link = &ins[i as usize];
                bit(control_on_link, i).and(Expr::from(link.data).eq(Expr::konst(w, o as u64)))
            });
            m.register(
                names,
                0,
                Expr::concat(wants.collect()),
                &format!("The route byte compared with {o} over the whole word, a cycle before the decision."),
            );
            names
        })
        .collect();
    Decode {
        names,
        control_on_link,
    }
}

/// Output `o`'s requests with the per-output decision: the decoded heads naming it.
pub(super) fn requests(inputs: &InputVectors, decode: &Decode, o: u32) -> (Expr, String) {
    (
        Expr::from(decode.names[o as usize]).and(!Expr::from(inputs.busy)),
        format!("Heads whose registered route byte names output {o}."),
    )
}

/// The registered input side's registers: `busy`, `tail` (the second word still to drop)
/// and the NACKs towards the senders.
pub(super) fn input_registers(
    m: &mut Module,
    fault: Option<SwitchFault>,
    (inputs, decode): (&InputVectors, &Decode),
    ins: &[Link],
    p: u32,
) {
    let eod = Expr::from(inputs.all_valid).and(inputs.all_ctl.into());
    let refused = Expr::from(inputs.head).and(!Expr::from(inputs.accepted));
    let cut = Expr::from(inputs.nacked).and(!eod.clone());
    let coming = !Expr::from(decode.control_on_link);
    let released = match fault {
        Some(SwitchFault::OutputKeptAfterEod) => Expr::from(inputs.nacked),
        _ => Expr::from(inputs.nacked).or(eod),
    };
    let still_forwarding = Expr::from(inputs.forwarding).and(!released);
    let tail = m.internal(
        "tail",
        p,
        "bit i: input i drops the word in its register next cycle too",
    );
    // A granted head is forwarding or cut in the cycle after, so busy after that either
    // way: `tail` can follow every head, and need not wait for the decision.
    m.register(
        tail,
        0,
        Expr::from(inputs.head).or(cut.clone()).and(coming.clone()),
        "A refused or cut worm whose EOD is not on the link yet: its sender sends one more word before it sees the NACK.",
    );
    m.register(
        inputs.busy,
        0,
        Expr::or_all([inputs.head.into(), still_forwarding, cut.clone(), tail.into()]),
        "Busy next cycle after a head (granted: forwarding; refused: dropping), while not yet released, after a NACK, and for the second word behind a refused or cut worm.",
    );
    let nack_back = match fault {
        Some(SwitchFault::NackNotReturned) => refused.and(Expr::zero(p)).or(cut),
        _ => refused.or(cut),
    };
    let nack_all = m.internal("nack_all", p, "bit i: NACK to input i's sender next cycle");
    m.register(
        nack_all,
        0,
        nack_back.and(coming),
        "NACK a refused head, and pass a NACK back, while the worm is still coming in: not once its EOD is on the link or in the input register (its sender has let go).",
    );
    for (i, link) in ins.iter().enumerate() {
        m.assign(
            link.nack,
            bit(nack_all, i as u32),
            &format!("Input {i}'s NACK."),
        );
    }
}
