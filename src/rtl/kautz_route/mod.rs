//! The route generators of the route-generator paper (Smit, Havinga, Jansen, de Boer and
//! Molenkamp, "On hardware for generating routes in Kautz digraphs", Euromicro 1991; see
//! docs/papers.md): the d node-disjoint routes between two nodes of any K(d,k), one per
//! request, in exactly the order of [`crate::routing::kautz::DisjointRoutes`].
//!
//! Three microarchitectures ([`Arch`]), one file each: [`faithful`] (the paper's, one
//! overlap or letter per clock), [`parallel`] (a route per clock, same ports) and
//! [`pipelined`] (whole route sets streamed); [`search`] holds the combinational blocks the
//! last two share. This file holds what all three share: the parameters, the faults, the
//! word check, letter helpers and the dispatch [`design_with_fault`].

pub mod faithful;
pub mod parallel;
pub mod pipelined;
pub mod search;

use crate::bits::bits_for;
use crate::choice::choice;
use crate::rtl::ir::{Clocking, Design, Expr, Module, SignalId, port_struct, ports};
use crate::topology::kautz::{Kautz, KautzError, Letter};

/// The size of a route generator: the graph, the name of its top module and its
/// microarchitecture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteGenParams {
    pub graph: Kautz,
    pub top: String,
    pub arch: Arch,
}

choice! {
    /// How the route generator is built: the first two have the same ports and handshake;
    /// the pipelined engine streams whole route sets through ports of its own.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub enum Arch {
        #[default]
        Faithful = "faithful":
            "The route-generator paper's design (Smit et al. 1991): one overlap or letter \
            tested per clock",
        Parallel = "parallel": "Every overlap and letter at once: a route per clock",
        Pipelined = "pipelined":
            "`kautz_route_pipe`: a pair accepted every clock, its whole set a fixed number of \
            clock edges later",
    }
}

impl Arch {
    /// The top module's name when none is given.
    pub fn default_top(self) -> &'static str {
        match self {
            Arch::Faithful | Arch::Parallel => DEFAULT_TOP,
            Arch::Pipelined => pipelined::DEFAULT_TOP,
        }
    }
}

/// Default top module name.
pub const DEFAULT_TOP: &str = "kautz_route_gen";

impl RouteGenParams {
    pub fn new(d: u64, k: u64, top: &str) -> Result<Self, KautzError> {
        Ok(RouteGenParams {
            graph: Kautz::new(d, k)?,
            top: top.to_string(),
            arch: Arch::Faithful,
        })
    }

    /// The same route generator built as `arch`.
    pub fn with_arch(self, arch: Arch) -> Self {
        RouteGenParams { arch, ..self }
    }

    pub fn d(&self) -> usize {
        self.graph.d()
    }

    pub fn k(&self) -> usize {
        self.graph.k()
    }

    /// W: bits per letter, enough for `0..=d`.
    pub fn letter_bits(&self) -> u32 {
        bits_for(self.d() as u64 + 1)
    }

    /// LW: bits of `route_len`, enough for `0..=k+2`.
    pub fn length_bits(&self) -> u32 {
        bits_for(self.k() as u64 + 3)
    }
}

/// Letter `i` (0-based, a1 = 0) of a k-letter word in the most significant letters first.
fn letter(word: SignalId, i: usize, k: usize, w: u32) -> Expr {
    Expr::Slice {
        signal: word,
        lo: (k - 1 - i) as u32 * w,
        width: w,
    }
}

/// A word as the ports of every Kautz unit carry it: `w` bits a letter (the low `w` bits of
/// each), a1 in the most significant; at most 64 bits in all.
pub fn pack_word(letters: &[Letter], w: u32) -> u64 {
    let mask = (1u64 << w) - 1;
    letters
        .iter()
        .fold(0, |acc, &l| acc << w | (u64::from(l) & mask))
}

/// The `k` letters of a word packed as [`pack_word`] packs it.
pub fn unpack_word(bits: u64, k: usize, w: u32) -> Vec<Letter> {
    (0..k)
        .rev()
        .map(|i| (bits >> (i as u32 * w) & ((1 << w) - 1)) as Letter)
        .collect()
}

choice! {
    /// A deliberate fault, built in to show that verification catches a broken design.
    /// Each applies to both architectures.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Fault {
        FlippedComparator = "flipped-comparator":
            "Every match unit (parallel: every overlap's letter comparison) compares with `!=` \
            instead of `==`",
        UsedBitNeverSet = "used-bit-never-set":
            "Letter 0 is never marked used when a route takes it",
        PhaseBSkipped = "phase-b-skipped":
            "Phase A is followed directly by phase C (parallel: no phase B route is ever \
            chosen)",
    }
}

/// The whole route generator.
pub fn design(params: &RouteGenParams) -> Design {
    design_with_fault(params, None)
}

/// The route generator of `params.arch`, with `fault` built in if there is one.
pub fn design_with_fault(params: &RouteGenParams, fault: Option<Fault>) -> Design {
    match params.arch {
        Arch::Faithful => faithful::design(params, fault),
        Arch::Parallel => parallel::design(params, fault),
        Arch::Pipelined => pipelined::design(params, fault),
    }
}

port_struct!(
    /// The ports of a faithful or parallel top, which share them: what a user of the route
    /// generator binds.
    pub struct RouteGenPorts {
        clk, rst, init, next_route, src, dst, route_valid, route, route_len, done, error,
    }
);

impl RouteGenPorts {
    /// The ports of `top`, the top of a faithful or parallel [`design`]; panics on a port
    /// it lacks, which only a pipelined top does.
    pub fn of(top: &Module) -> Self {
        let port = |name| top.port_named(name);
        RouteGenPorts {
            clk: port("clk"),
            rst: port("rst"),
            init: port("init"),
            next_route: port("next_route"),
            src: port("src"),
            dst: port("dst"),
            route_valid: port("route_valid"),
            route: port("route"),
            route_len: port("route_len"),
            done: port("done"),
            error: port("error"),
        }
    }
}

/// The ports of a faithful or parallel top, which share them (see [`RouteGenPorts`]).
pub(super) struct TopPorts {
    pub(super) clocking: Clocking,
    pub(super) init: SignalId,
    pub(super) next_route: SignalId,
    pub(super) src: SignalId,
    pub(super) dst: SignalId,
    pub(super) route_valid: SignalId,
    pub(super) route: SignalId,
    pub(super) route_len: SignalId,
    pub(super) done: SignalId,
    pub(super) error: SignalId,
}

impl TopPorts {
    pub(super) fn declare(m: &mut Module, params: &RouteGenParams) -> Self {
        let (k, w) = (params.k() as u32, params.letter_bits());
        TopPorts {
            clocking: m.clocked(),
            init: m.input("init", 1, "capture src and dst and start a new search"),
            next_route: m.input("next_route", 1, "take the route shown and search on"),
            src: m.input(
                "src",
                k * w,
                "source node, a1 in the most significant letter",
            ),
            dst: m.input(
                "dst",
                k * w,
                "destination node, b1 in the most significant letter",
            ),
            route_valid: m.output("route_valid", 1, "route and route_len hold a route"),
            route: m.output(
                "route",
                (k + 2) * w,
                "hops z1..zL, z1 most significant, unused letters zero",
            ),
            route_len: m.output("route_len", params.length_bits(), "number of hops L"),
            done: m.output("done", 1, "no further route (stays high until init or rst)"),
            error: m.output(
                "error",
                1,
                "src or dst is not a node of K(d,k), or src equals dst",
            ),
        }
    }
}

fn name(params: &RouteGenParams, block: &str) -> String {
    format!("{}_{block}", params.top)
}

/// One bit per letter, bit i set when `x == i`.
fn decode(x: Expr, w: u32, d: usize) -> Expr {
    Expr::concat(
        (0..=d)
            .rev()
            .map(|i| x.clone().eq(Expr::konst(w, i as u64)))
            .collect(),
    )
}

port_struct!(
    /// The ports of [`word_check`].
    struct WordCheckPorts { src, dst, valid }
);

/// The tests that make a word of k W-bit letters a node of K(d,k): every letter at most d,
/// no two equal neighbours.
fn word_terms(params: &RouteGenParams, word: SignalId) -> Vec<Expr> {
    let (k, w, d) = (params.k(), params.letter_bits(), params.d() as u64);
    let mut terms = Vec::new();
    // When d+1 is a power of two every W-bit value is a letter: nothing to compare.
    if d + 1 < 1 << w {
        terms.extend((0..k).map(|i| letter(word, i, k, w).lt(Expr::konst(w, d + 1))));
    }
    terms.extend((1..k).map(|i| letter(word, i - 1, k, w).ne(letter(word, i, k, w))));
    terms
}

fn word_check(params: &RouteGenParams) -> (Module, WordCheckPorts) {
    let kw = params.k() as u32 * params.letter_bits();
    let mut m = Module::new(
        name(params, "word_check"),
        &[
            "checks that src and dst are two different nodes of K(d,k): letters 0..d, no two equal neighbours.",
        ],
    );
    let src = m.input("src", kw, "source word");
    let dst = m.input("dst", kw, "destination word");
    let valid = m.output("valid", 1, "both are nodes and they differ");
    let mut good: Vec<Expr> = [src, dst]
        .into_iter()
        .flat_map(|word| word_terms(params, word))
        .collect();
    good.push(Expr::from(src).ne(dst.into()));
    m.assign(
        valid,
        Expr::and_all(good),
        "Every letter in range, neighbours differ, src differs from dst.",
    );
    let ports = ports!(m, WordCheckPorts { src, dst, valid });
    (m, ports)
}
