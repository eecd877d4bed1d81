//! What travels down the pipelined engine between its registers: each pair's [`State`]
//! (the pair, and its search while a route step still reads it) and a route step's
//! [`Choice`], registered between the step's two halves. Each is a set of signals, or the
//! ports of a block that takes or gives it, declared, bound and registered field by field.

use super::super::RouteGenParams;
use crate::rtl::ir::{Connections, Module, Port, SignalId};

/// How a block declares a field: [`Module::input`], [`Module::output`] or
/// [`Module::internal`].
pub(super) type Declare = fn(&mut Module, &str, u32, &str) -> SignalId;

/// The search state of a pair: what the route steps read and update.
#[derive(Clone, Copy)]
pub(super) struct Search<T = SignalId> {
    /// Bit v: overlap v exists and neither of its letters is used yet.
    pub alive: T,
    pub used_out: T,
    pub used_in: T,
    /// What only the marks of a step read: none for the last step.
    pub blocks: Option<Blocks<T>>,
}

/// Which overlaps block which, and the letters a pick marks.
#[derive(Clone, Copy)]
pub(super) struct Blocks<T = SignalId> {
    /// Bits p*k..p*k+k-1, bit v: the letters of overlap p's route block overlap v.
    pub conf: T,
    /// Bits v*(d+1)..: overlap v's out-letter b(v+1), one-hot.
    pub outs: T,
    /// Bits v*(d+1)..: overlap v's in-letter a(k-v), one-hot.
    pub ins: T,
}

/// How much of the state a stage carries: each as far as a later block reads it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Carry {
    /// The pair alone (after the last step's first half).
    Pair,
    /// The pair and the search without its blocks (into the last step).
    Search,
    /// Everything (into a step whose marks a later step reads).
    Blocks,
}

/// A pair in a stage: valid, `live` (valid and its words two different nodes: it has
/// routes), its destination word (the routes' hops) and, up to the last route step's first
/// half, its search.
#[derive(Clone, Copy)]
pub(super) struct State<T = SignalId> {
    pub valid: T,
    pub live: T,
    pub dst: T,
    pub search: Option<Search<T>>,
}

impl State {
    /// The state's fields on `m`, each named `<field><suffix>`, as much as `carry` says.
    pub fn declare(
        m: &mut Module,
        params: &RouteGenParams,
        suffix: &str,
        carry: Carry,
        port: Declare,
    ) -> Self {
        let kw = params.k() as u32 * params.letter_bits();
        let mut p = |n: &str, width: u32, doc: &str| port(m, &format!("{n}{suffix}"), width, doc);
        State {
            valid: p("valid", 1, "a pair is in this stage"),
            live: p("live", 1, "valid, and its words are two different nodes"),
            dst: p("dst", kw, "its destination word"),
            search: (carry != Carry::Pair)
                .then(|| Search::declare(m, params, suffix, carry == Carry::Blocks, port)),
        }
    }
}

impl Search {
    /// The search's fields on `m`, each named `<field><suffix>`; the blocks only
    /// `with_blocks`.
    pub fn declare(
        m: &mut Module,
        params: &RouteGenParams,
        suffix: &str,
        with_blocks: bool,
        port: Declare,
    ) -> Self {
        let (k, d) = (params.k() as u32, params.d() as u32);
        let mut p = |n: &str, width: u32, doc: &str| port(m, &format!("{n}{suffix}"), width, doc);
        Search {
            alive: p("alive", k, "bit v: overlap v exists, its letters unused"),
            used_out: p("used_out", d + 1, "bit i: out-letter i used"),
            used_in: p("used_in", d + 1, "bit i: in-letter i used"),
            blocks: with_blocks.then(|| Blocks {
                conf: p(
                    "conf",
                    k * k,
                    "bit p*k+v: overlap p's letters block overlap v",
                ),
                outs: p(
                    "outs",
                    k * (d + 1),
                    "overlap v's out-letter, one-hot, at v*(d+1)",
                ),
                ins: p(
                    "ins",
                    k * (d + 1),
                    "overlap v's in-letter, one-hot, at v*(d+1)",
                ),
            }),
        }
    }
}

impl<T> Search<T> {
    /// The same search with each field mapped by `f`.
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> Search<U> {
        Search {
            alive: f(&self.alive),
            used_out: f(&self.used_out),
            used_in: f(&self.used_in),
            blocks: self.blocks.as_ref().map(|b| Blocks {
                conf: f(&b.conf),
                outs: f(&b.outs),
                ins: f(&b.ins),
            }),
        }
    }
}

impl<T> State<T> {
    /// Every field present, the pair first.
    pub fn fields(&self) -> Vec<&T> {
        let mut fields = vec![&self.valid, &self.live, &self.dst];
        if let Some(s) = &self.search {
            fields.extend([&s.alive, &s.used_out, &s.used_in]);
            if let Some(b) = &s.blocks {
                fields.extend([&b.conf, &b.outs, &b.ins]);
            }
        }
        fields
    }

    /// The same state with each field mapped by `f`.
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> State<U> {
        State {
            valid: f(&self.valid),
            live: f(&self.live),
            dst: f(&self.dst),
            search: self.search.as_ref().map(|s| s.map(&f)),
        }
    }
}

impl State<Port> {
    /// Binds each port to the signal of the same field of `to`.
    pub fn bind<'a>(&self, connections: Connections<'a>, to: &State) -> Connections<'a> {
        let values = to.fields().into_iter().copied();
        connections.bind_all(self.fields().into_iter().zip(values))
    }
}

/// A route step's choice over the masks, registered between its halves: `pick` (phase A)
/// or `no_a` (B, when `found_b`, else C) or neither, for a pair that is not live; the
/// letters of phases B and C are each the smallest free one, one-hot, in the order B,
/// C out, C in. The second half tells B from C, a gate that would deepen the first.
pub(super) struct Choice<T = SignalId> {
    pub pick: T,
    pub no_a: T,
    pub found_b: T,
    pub onehots: [T; 3],
}

/// The letters of phases B and C: names and what each is.
pub(super) const FREE_LETTERS: [(&str, &str); 3] = [
    ("b", "phase B: the smallest letter free on both sides"),
    ("out", "phase C: the smallest free out-letter"),
    ("in", "phase C: the smallest free in-letter"),
];

impl Choice {
    /// The choice's fields on `m`, each named `<field><suffix>`.
    pub fn declare(m: &mut Module, params: &RouteGenParams, suffix: &str, port: Declare) -> Self {
        let (k, d) = (params.k() as u32, params.d() as u32);
        let mut p = |n: &str, width: u32, doc: &str| port(m, &format!("{n}{suffix}"), width, doc);
        Choice {
            pick: p("pick", k, "bit v: phase A takes overlap v"),
            no_a: p(
                "no_a",
                1,
                "live, and phase A has no candidate: B or C takes the route",
            ),
            found_b: p("found_b", 1, "phase B has a letter"),
            onehots: FREE_LETTERS.map(|(n, doc)| p(&format!("onehot_{n}"), d + 1, doc)),
        }
    }
}

impl Choice<Port> {
    /// Binds each port to the signal of the same field of `to`.
    pub fn bind<'a>(&self, connections: Connections<'a>, to: &Choice) -> Connections<'a> {
        let values = to.fields().into_iter().copied();
        connections.bind_all(self.fields().into_iter().zip(values))
    }
}

impl<T> Choice<T> {
    pub fn fields(&self) -> Vec<&T> {
        let mut fields = vec![&self.pick, &self.no_a, &self.found_b];
        fields.extend(&self.onehots);
        fields
    }

    /// The same choice with each field mapped by `f`.
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> Choice<U> {
        Choice {
            pick: f(&self.pick),
            no_a: f(&self.no_a),
            found_b: f(&self.found_b),
            onehots: self.onehots.each_ref().map(f),
        }
    }
}
