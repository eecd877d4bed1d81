//! The bufferless switch's per-input head decision: each input decides from the route
//! bytes of all heads, the outputs' availability and their arbiters' priorities whether
//! its own head is accepted, and the grants follow from that, instead of each output
//! arbitrating its requests and each input ORing the grants (docs/switch.md, "Head
//! decision"). The result is the same in every cycle; the NACK registers' logic is
//! shallower, for it no longer waits for the per-output arbitration and an OR over the
//! outputs. With the registered head decode the route bytes come decoded (one-hot over
//! the outputs) from registers instead of being compared here.

use super::switch_parts::{InputVectors, Offer, SwitchIo, bit};
use super::switch_registered::Decode;
use crate::rtl::ir::{Expr, Module, SignalId};

/// Assigns `inputs.accepted` and every output's `grants[o]` from the heads and the
/// outputs' `offers`; the route bytes are the inputs' words, or `decode`'s registers.
pub(super) fn decide_heads(
    m: &mut Module,
    io: &SwitchIo,
    (inputs, decode): (&InputVectors, Option<&Decode>),
    offers: &[Offer],
    grants: &[SignalId],
    w: u32,
) {
    let p = io.ins.len() as u32;
    let route = match decode {
        None => Route::Bytes(RouteBytes::of(io, w)),
        Some(decode) => Route::Decoded(decode.names.clone()),
    };
    let routed = m.internal(
        "routed",
        p,
        "bit i: input i has a head whose route byte may name an output (its high bits are zero)",
    );
    m.assign(
        routed,
        Expr::concat((0..p).rev().map(|i| route.routed(inputs, i)).collect()),
        route.routed_doc(),
    );
    for (o, f) in offers.iter().enumerate() {
        m.assign(
            f.asked,
            Expr::or_all((0..p).map(|i| bit(routed, i).and(route.names(i, o as u32)))),
            &format!("Some head asks for output {o}."),
        );
    }
    let offered = m.internal(
        "offered",
        p,
        "bit i: the output input i's head asks for is available",
    );
    m.assign(
        offered,
        Expr::concat(
            (0..p)
                .rev()
                .map(|i| {
                    bit(routed, i).and(Expr::or_all(
                        offers
                            .iter()
                            .enumerate()
                            .map(|(o, f)| route.names(i, o as u32).and(f.available.into())),
                    ))
                })
                .collect(),
        ),
        "The head asks for an output that is free and not faulty.",
    );
    // One signal per input: the whole vector in one line is too long for Verilator at d = 15.
    let beaten: Vec<Expr> = (0..p)
        .map(|i| {
            let beaten = m.internal(
                &format!("beaten{i}"),
                1,
                &format!("another head asks for input {i}'s output and comes first in its arbiter"),
            );
            m.assign(
                beaten,
                Expr::or_all((0..p).filter(|&j| j != i).map(|j| {
                    bit(routed, j)
                        .and(route.same(j, i))
                        .and(beats(&route, offers, j, i))
                })),
                "A rival for the same output that the output's arbiter puts before this input.",
            );
            Expr::from(beaten)
        })
        .collect();
    m.assign(
        inputs.accepted,
        Expr::from(offered).and(!Expr::concat(beaten.into_iter().rev().collect())),
        "Accepted: its output is available and no rival comes first there.",
    );
    for (o, &grant) in grants.iter().enumerate() {
        let o = o as u32;
        m.assign(
            grant,
            Expr::concat(
                (0..p)
                    .rev()
                    .map(|i| route.names(i, o).and(bit(inputs.accepted, i)))
                    .collect(),
            ),
            &format!("Output {o} goes to the accepted head that asks for it."),
        );
    }
}

/// Whether input `j` comes before input `i` at the output `i` asks for: the arbiter takes
/// the first request among the inputs its priority puts first, else the first of all, so
/// `j` wins if only it is put first, or both or neither are and `j < i`.
fn beats(route: &Route, offers: &[Offer], j: u32, i: u32) -> Expr {
    Expr::or_all(offers.iter().enumerate().map(|(o, f)| {
        let (first_j, first_i) = (bit(f.priority, j), bit(f.priority, i));
        let wins = if j < i {
            first_j.or(!first_i)
        } else {
            first_j.and(!first_i)
        };
        route.names(i, o as u32).and(wins)
    }))
}

/// The heads' route bytes: the inputs' words, compared here, or decoded a cycle before
/// into registers (per output o, bit i: input i's names o).
enum Route {
    Bytes(RouteBytes),
    Decoded(Vec<SignalId>),
}

impl Route {
    /// Input `i` has a head whose route byte may name an output.
    fn routed(&self, inputs: &InputVectors, i: u32) -> Expr {
        match self {
            Route::Bytes(bytes) => bit(inputs.head, i).and(bytes.high_zero(i)),
            Route::Decoded(names) => {
                (!bit(inputs.busy, i)).and(Expr::or_all(names.iter().map(|&n| bit(n, i))))
            }
        }
    }

    fn routed_doc(&self) -> &'static str {
        match self {
            Route::Bytes(_) => {
                "A head with a route byte below 2^b: its low b bits name the output it asks for."
            }
            Route::Decoded(_) => "A head whose registered route byte names an output.",
        }
    }

    /// Input `i`'s route byte names output `o`.
    fn names(&self, i: u32, o: u32) -> Expr {
        match self {
            Route::Bytes(bytes) => bytes.names(i, o),
            Route::Decoded(names) => bit(names[o as usize], i),
        }
    }

    /// Inputs `j` and `i` name the same output (with the bytes: have the same low bits).
    fn same(&self, j: u32, i: u32) -> Expr {
        match self {
            Route::Bytes(bytes) => bytes.same(j, i),
            Route::Decoded(names) => Expr::or_all(names.iter().map(|&n| bit(n, j).and(bit(n, i)))),
        }
    }
}

/// The inputs' route bytes, split into the low `b` bits that name an output and the rest.
struct RouteBytes {
    data: Vec<SignalId>,
    low_bits: u32,
    w: u32,
}

impl RouteBytes {
    fn of(io: &SwitchIo, w: u32) -> Self {
        let last = io.ins.len() as u32 - 1;
        let low_bits = (u32::BITS - last.leading_zeros()).clamp(1, w);
        RouteBytes {
            data: io.ins.iter().map(|l| l.data).collect(),
            low_bits,
            w,
        }
    }

    fn low(&self, i: u32) -> Expr {
        Expr::Slice {
            signal: self.data[i as usize],
            lo: 0,
            width: self.low_bits,
        }
    }

    /// Input `i`'s route byte has no bits set above the low ones.
    fn high_zero(&self, i: u32) -> Expr {
        if self.low_bits == self.w {
            return Expr::bit(true);
        }
        let high = Expr::Slice {
            signal: self.data[i as usize],
            lo: self.low_bits,
            width: self.w - self.low_bits,
        };
        high.eq(Expr::zero(self.w - self.low_bits))
    }

    /// Input `i`'s low bits name output `o`.
    fn names(&self, i: u32, o: u32) -> Expr {
        self.low(i).eq(Expr::konst(self.low_bits, o as u64))
    }

    /// Inputs `j` and `i` have the same low bits.
    fn same(&self, j: u32, i: u32) -> Expr {
        self.low(j).eq(self.low(i))
    }
}
