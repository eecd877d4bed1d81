//! The faithful route generator (`--arch faithful`): the microarchitecture of section 4 of
//! the route-generator paper (Smit et al. 1991; see [`super`]), one overlap or letter
//! tested per clock.
//!
//! In: (d, k) and a top name. Out: a [`Design`] of these blocks, each its own module:
//! - **match unit** (k of them in the **match block**, [`match_block`]): the registers
//!   `src_part` and `dst_part` and a comparator that the `off` bit switches off. At each
//!   shift the destination letters and the `off` front move one unit to the right, so after
//!   p shifts the chain tests whether the last k-p letters of the source are the first k-p
//!   of the destination: overlap v = k-p, from k-1 down to 0, one per clock.
//! - **shift block** ([`shift`]): the letters leaving the last match unit, prepended one
//!   per shift, are the hops of the phase A route `b(v+1)..bk`; after k shifts it holds
//!   `b1..bk`. It assembles the route of each phase and holds it on the `route` output.
//! - **shift/increment parts** ([`shift`]): one-hot letter counters. Part 1 counts the
//!   inserted letter of phase B, then the in-letter of phase C; part 2 counts the
//!   out-letter of phase C.
//! - **used letters** (out and in, [`used`]): one bit per letter, loaded with the letter
//!   that names no neighbour (`ak` for out, `b1` for in), marked by every route taken.
//! - **look-ahead** ([`ahead`]): the used-letter tests of the next cycle, registered.
//! - **word check**: whether `src` and `dst` are distinct nodes of K(d,k).
//! - **control** ([`control`]): the state machine that walks phases A, B and C and the
//!   handshake.
//!
//! The design is retimed so that every test the control reads in a cycle (the overlap,
//! the free letters) is a register computed the cycle before; the ports behave cycle for
//! cycle as the paper's one-cycle tests did.
//!
//! Cycle budget, from `init` to `done` without the cycles that wait for `next_route`:
//! one to load, at most k in phase A (plus one after a route found at overlap 0), at most
//! d+1 in phase B (plus one after a route found at the last letter), at most 2(d+1) in
//! phase C: at most [`cycle_bound`] = k + 3(d+1) + 4 in all.
//!
//! [`super::parallel`] builds the same ports one route per clock.

mod ahead;
mod control;
mod match_block;
mod shift;
mod top;
mod used;

use super::{Fault, RouteGenParams, word_check};
use crate::rtl::ir::{Design, Timing};
use std::collections::BTreeMap;

/// The most cycles the generator works from `init` to `done`, waiting not counted; also
/// the most cycles from `init` or `next_route` to the next `route_valid` or `done`.
pub fn cycle_bound(d: usize, k: usize) -> usize {
    k + 3 * (d + 1) + 4
}

/// The route generator of the route-generator paper (Smit et al. 1991).
pub(super) fn design(params: &RouteGenParams, fault: Option<Fault>) -> Design {
    let unit = match_block::match_unit(params, fault);
    let block = match_block::match_block(params, &unit);
    let shift = shift::shift_block(params);
    let counter = shift::shift_inc(params);
    let used = used::used_letters(params, fault);
    let ahead = ahead::ahead(params, fault);
    let check = word_check(params);
    let control = control::control(params, fault);
    let top = top::top(
        params,
        top::Blocks {
            block: &block,
            shift: &shift,
            counter: &counter,
            used: &used,
            ahead: &ahead,
            check: &check,
            control: &control,
        },
    );
    Design {
        modules: vec![
            unit.0, block.0, shift.0, counter.0, used.0, ahead.0, check.0, control.0, top,
        ],
        params: BTreeMap::from([
            ("d".into(), params.d() as u64),
            ("k".into(), params.k() as u64),
        ]),
        summary: format!(
            "route generator for the node-disjoint routes of the Kautz digraph K({},{})",
            params.d(),
            params.k()
        ),
        timing: Timing::Synchronous,
    }
}
