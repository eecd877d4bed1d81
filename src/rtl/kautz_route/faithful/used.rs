//! The used-letters registers of the faithful route generator: one bit per letter, for the
//! out-node letters and the in-node letters.

use super::super::{Fault, RouteGenParams, decode, name};
use crate::rtl::ir::{Expr, Module, SignalId, port_struct, ports};
use std::ops::Not;

port_struct!(
    pub(super) struct UsedLettersPorts { clk, rst, load, first, mark, query, used, all_used }
);

pub(super) fn used_letters(
    params: &RouteGenParams,
    fault: Option<Fault>,
) -> (Module, UsedLettersPorts) {
    let (w, d) = (params.letter_bits(), params.d());
    let letters = d as u32 + 1;
    let mut m = Module::new(
        name(params, "used_letters"),
        &[
            "used in-node or out-node register: one bit per letter 0..d, set when a route has used",
            "the neighbour that letter names, or when the letter names no neighbour.",
        ],
    );
    let clocking = m.clocked();
    let load = m.input("load", 1, "start a new search: only `first` is used");
    let first = m.input("first", w, "the letter that names no neighbour");
    let mark = m.input("mark", 1, "a route takes the queried letter");
    let query = m.input("query", letters, "the letter asked about, one-hot");
    let used = m.output("used", letters, "bit i: letter i used");
    let marks = m.internal("marks", letters, "the bits a mark sets");
    let all_used = m.output("all_used", 1, "every letter is used: no further route");
    let first_onehot = m.internal("first_onehot", letters, "first, decoded");
    m.assign(
        first_onehot,
        decode(first.into(), w, d),
        "Decoder for the loaded letter.",
    );
    m.assign(marks, marked(fault, query, letters), "The queried letter.");
    m.register(
        used,
        0,
        Expr::mux(
            load.into(),
            first_onehot.into(),
            Expr::mux(mark.into(), Expr::from(used).or(marks.into()), used.into()),
        ),
        "Load, or mark the queried letter.",
    );
    m.assign(all_used, Expr::from(used).all(), "All letters used.");
    let ports = ports!(
        m,
        UsedLettersPorts {
            clk = clocking.clock, rst = clocking.reset, load, first, mark, query, used, all_used,
        }
    );
    (m, ports)
}

/// The bits a route found sets in a used-letters register whose queried letter is the
/// one-hot `query` of `letters` bits: its own, except letter 0 under the used-bit-never-set
/// fault. The look-ahead free bits read the same.
pub(super) fn marked(fault: Option<Fault>, query: SignalId, letters: u32) -> Expr {
    match fault {
        Some(Fault::UsedBitNeverSet) => Expr::from(query).and(Expr::konst(letters, 1).not()),
        _ => Expr::from(query),
    }
}
