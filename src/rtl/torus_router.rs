//! Per-node routing-function units of the k-ary n-cube (as in Demaine and Srinivas's k-ary
//! n-cube paper; see docs/papers.md): e-cube, double e-cube, west-first on the 2-D torus and
//! direction-first e-cube, each computing exactly what [`Router::step`] computes, for every
//! input in its domain.
//!
//! In: [`TorusRouterParams`] (k, n, algorithm, registered or not, top name). Out: a
//! [`Design`] of these blocks, each its own module:
//! - **ring** (one instance per dimension): compares the node's digit with the
//!   destination's. E-cube family: the dimension is incorrect, and which way round is
//!   e-cube's. Torus family: incorrect, the mesh way, whether a wraparound saves hops (and,
//!   for west-first, how many).
//! - **dims**: the lowest incorrect dimension, one-hot, and for double e-cube and
//!   direction-first the second dimension of step 1 of the paper's algorithm.
//! - **arbiter**: the first candidate port, in preference order, that the mask leaves free.
//! - **core**: the candidates of the algorithm, the port number and the updated header.
//! - with `registered`, a **top** around the core that registers every output (latency 1).
//!
//! Dimensions and ports travel as one-hot vectors (bit d for dimension d, bit p for port
//! p), so selecting "the X dimension's property" is an AND-OR and needs no indexing.
//! Ring distances need no arithmetic modulo k: e-cube's rule compares the mesh distance
//! |t - s| with k/2, and a wraparound's saving depends on the destination digit alone,
//! because it starts from digit 0 or k-1. docs/torus-router.md states ports and encodings.

use crate::bits::ceil_log2;
use crate::choice::Choice;
use crate::choice::choice;
use crate::routing::torus::{Algorithm, Router, RoutingError};
use crate::rtl::ir::{
    Connections, Design, Direction, Expr, Module, SignalId, SignalKind, Timing, port_struct, ports,
};
use crate::topology::torus::Torus;
use std::collections::BTreeMap;

/// Default top module name.
pub const DEFAULT_TOP: &str = "torus_router";

/// What to build: the routing function of `router` (its cube and algorithm), combinational
/// or with registered outputs, and the name of the top module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TorusRouterParams {
    pub router: Router,
    pub registered: bool,
    pub top: String,
    /// A deliberate fault built in, to see verification fail.
    pub fault: Option<TorusFault>,
}

choice! {
    /// A deliberate fault of the unit, built in to show that verification catches it.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum TorusFault {
        MaskDirectionsSwapped = "mask-directions-swapped":
            "The arbiter reads each dimension's two mask bits the wrong way round (+ for -, - \
            for +): a message may leave by a faulty link, or wait beside a free one",
    }
}

impl TorusRouterParams {
    /// Checks the cube (2 <= k <= 65536, 1 <= n <= 32) and that the algorithm runs on it
    /// (west-first: n = 2; double e-cube and direction-first: n >= 2).
    pub fn new(
        k: u64,
        n: u64,
        algorithm: Algorithm,
        registered: bool,
        top: &str,
    ) -> Result<Self, RoutingError> {
        let torus = Torus::new(k, n)?;
        Ok(TorusRouterParams {
            router: Router::new(torus, algorithm)?,
            registered,
            top: top.to_string(),
            fault: None,
        })
    }

    /// These parameters with `fault` built in (or none).
    pub fn with_fault(self, fault: Option<TorusFault>) -> Self {
        TorusRouterParams { fault, ..self }
    }

    pub fn k(&self) -> u32 {
        self.router.torus().k()
    }

    pub fn n(&self) -> usize {
        self.router.torus().n()
    }

    pub fn algorithm(&self) -> Algorithm {
        self.router.algorithm()
    }

    /// Bits per address digit, ⌈log2 k⌉, as in [`crate::routing::torus::HeaderLayout`].
    pub fn digit_bits(&self) -> u32 {
        ceil_log2(self.k() as u64)
    }

    /// Bits of the header fields x and y, ⌈log2 n⌉; 0 for n = 1, where the unit has no x
    /// and y ports (only e-cube runs there, and it never reads them).
    pub fn dim_bits(&self) -> u32 {
        ceil_log2(self.n() as u64)
    }

    /// Bits of `out_port`: enough for the network ports 0..2n-1 and the eject port 2n.
    pub fn port_bits(&self) -> u32 {
        ceil_log2(2 * self.n() as u64 + 1)
    }

    /// Clock edges from inputs to outputs: 1 with registered outputs, else 0.
    pub fn latency(&self) -> u32 {
        u32::from(self.registered)
    }

    fn family(&self) -> Family {
        match self.algorithm() {
            Algorithm::ECube | Algorithm::DoubleECube => Family::ECube,
            Algorithm::WestFirst | Algorithm::DirectionFirst => Family::Torus,
        }
    }

    /// Whether the unit computes the pair (i, j) of step 1 and so reads y.
    fn pairs(&self) -> bool {
        matches!(
            self.algorithm(),
            Algorithm::DoubleECube | Algorithm::DirectionFirst
        )
    }
}

/// The two kinds of decision logic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// One candidate: the shorter way round the lowest incorrect dimension.
    ECube,
    /// Up to four candidates in the torus of two dimensions X and Y.
    Torus,
}

/// The whole unit.
pub fn design(params: &TorusRouterParams) -> Design {
    let ring = ring(params);
    let arbiter = arbiter(params);
    // West-first's torus is fixed (dimensions 0 and 1): it selects no dimension.
    let dims = (params.algorithm() != Algorithm::WestFirst).then(|| dims(params));
    let core_name = if params.registered {
        name(params, "core")
    } else {
        params.top.clone()
    };
    let core = core(params, &ring, dims.as_ref(), &arbiter, core_name);
    let top = params.registered.then(|| registered_top(params, &core));
    let mut modules = vec![ring];
    modules.extend(dims.map(|(dims, _)| dims));
    modules.push(arbiter.0);
    modules.push(core);
    modules.extend(top);
    Design {
        modules,
        params: BTreeMap::from([
            ("k".into(), params.k() as u64),
            ("n".into(), params.n() as u64),
            ("registered".into(), u64::from(params.registered)),
        ]),
        summary: format!(
            "{} routing-function unit of the {}{}",
            params.algorithm().name(),
            params.router.torus(),
            if params.registered {
                ", outputs registered"
            } else {
                ", combinational"
            }
        ),
        timing: Timing::Synchronous,
    }
}

fn name(params: &TorusRouterParams, block: &str) -> String {
    format!("{}_{block}", params.top)
}

/// Bit `i` of `signal`.
fn bit(signal: SignalId, i: usize) -> Expr {
    Expr::Slice {
        signal,
        lo: i as u32,
        width: 1,
    }
}

/// A vector with one bit per network port, bit p = `port(p)`.
fn per_port(n: usize, port: impl Fn(usize) -> Expr) -> Expr {
    Expr::concat((0..2 * n).rev().map(port).collect())
}

/// A vector with one bit per dimension, bit d = `dim(d)`.
fn per_dim(n: usize, dim: impl Fn(usize) -> Expr) -> Expr {
    Expr::concat((0..n).rev().map(dim).collect())
}

/// The index of the set bit of one-hot `hot` (`len` bits) in `width` bits; 0 if none is
/// set. Written as an OR of `hot[i] ? i : 0` over every i, including i = 0, whose term is
/// constant zero: so every bit of `hot` is read, as the unused-signal checks demand, and
/// synthesis removes that term.
fn encode(hot: SignalId, len: usize, width: u32) -> Expr {
    Expr::or_all(
        (0..len).map(|i| Expr::mux(bit(hot, i), Expr::konst(width, i as u64), Expr::zero(width))),
    )
}

fn ring(params: &TorusRouterParams) -> Module {
    let (k, w) = (params.k() as u64, params.digit_bits());
    let mut m = Module::new(
        name(params, "ring"),
        &[
            "one dimension's ring: compares this node's digit with the destination's and says which",
            "moves in this dimension bring the message closer.",
        ],
    );
    let here = m.input("here", w, "this node's digit in the ring's dimension");
    let there = m.input("there", w, "the destination's digit in the same dimension");
    let wrong = m.output("wrong", 1, "the digits differ: the dimension is incorrect");
    m.assign(
        wrong,
        Expr::from(here).ne(there.into()),
        "A dimension is incorrect while its digits differ.",
    );
    let digits = Digits { here, there, w, k };
    match params.family() {
        Family::ECube => ecube_ring_way(&mut m, digits),
        Family::Torus => torus_ring_ways(&mut m, digits, params.algorithm()),
    }
    m
}

/// The ring's inputs, their width and the ring's size.
#[derive(Clone, Copy)]
struct Digits {
    here: SignalId,
    there: SignalId,
    w: u32,
    k: u64,
}

/// E-cube's ring output `plus`: its way round the ring.
fn ecube_ring_way(m: &mut Module, Digits { here, there, w, k }: Digits) {
    let grows = Expr::from(here).lt(there.into());
    let half = Expr::konst(w, k / 2);
    let plus = m.output(
        "plus",
        1,
        "e-cube's way is +: the shorter way round, on a tie (distance k/2) the mesh way",
    );
    if k == 2 {
        m.assign(
            plus,
            grows,
            "A ring of two has one link each way: the mesh way is the only way.",
        );
    } else {
        let grow = m.internal("grow", 1, "the destination digit is larger");
        let dist = m.internal(
            "dist",
            w,
            "mesh distance |there - here|, the hops without the wraparound link",
        );
        m.assign(grow, grows, "Which way the mesh distance runs.");
        m.assign(
            dist,
            Expr::mux(
                grow.into(),
                Expr::from(there) - here.into(),
                Expr::from(here) - there.into(),
            ),
            "The mesh distance, never negative.",
        );
        // Going the mesh way is shorter (or tied) iff the mesh distance is at most
        // k/2; the mesh way is + iff the digit grows.
        m.assign(
            plus,
            Expr::from(grow).xor(half.lt(dist.into())),
            "The mesh way unless the mesh distance exceeds k/2, then the other way.",
        );
    }
}

/// The torus algorithms' ring outputs: `grow` and `wrap`, and for west-first `saving`.
fn torus_ring_ways(m: &mut Module, Digits { here, there, w, k }: Digits, algorithm: Algorithm) {
    let grows = Expr::from(here).lt(there.into());
    let half = Expr::konst(w, k / 2);
    let grow = m.output(
        "grow",
        1,
        "the destination digit is larger: the mesh way (no wraparound) is +",
    );
    let wrap = m.output(
        "wrap",
        1,
        "the wraparound link, the opposite way to the mesh way, is strictly shorter",
    );
    m.assign(grow, grows, "The mesh way is + iff the digit must grow.");
    if k == 2 {
        m.assign(
            wrap,
            Expr::bit(false),
            "A ring of two has no wraparound links.",
        );
    } else {
        // From k-1 going + to t costs 1 + t hops against k-1-t the mesh way: it
        // saves iff 2t + 2 < k, i.e. t < (k-1)/2 rounded down. From 0 going - to
        // t costs k - t against t: it saves iff t > k/2 rounded down.
        let top_digit = Expr::from(here).eq(Expr::konst(w, k - 1));
        let bottom_digit = Expr::from(here).eq(Expr::zero(w));
        m.assign(
            wrap,
            top_digit
                .and(Expr::from(there).lt(Expr::konst(w, (k - 1) / 2)))
                .or(bottom_digit.and(half.lt(there.into()))),
            "A wraparound saves hops only from digit k-1 (going +) or 0 (going -).",
        );
    }
    if algorithm == Algorithm::WestFirst {
        let saving = m.output(
            "saving",
            w,
            "hops the wraparound saves over the mesh way; meaningful only when wrap",
        );
        let twice = Expr::from(there) + there.into();
        // The true values, k - 2 - 2t and 2t - k, lie in 0..k, so arithmetic modulo
        // 2^w gives them exactly.
        m.assign(
            saving,
            Expr::mux(
                Expr::from(here).eq(Expr::zero(w)),
                twice.clone() - Expr::konst(w, k % (1 << w)),
                Expr::konst(w, k - 2) - twice,
            ),
            "From 0 (going -) the wrap saves 2t - k hops, from k-1 (going +) k - 2 - 2t.",
        );
    }
}

port_struct!(
    /// The dims block's ports; `y` and `second` only for the pair algorithms.
    struct DimsPorts { wrong, first, y: ?, second: ? }
);

fn dims(params: &TorusRouterParams) -> (Module, DimsPorts) {
    let n = params.n();
    let mut m = Module::new(
        name(params, "dims"),
        &[
            "the dimensions to route in: the lowest incorrect one, and for the pair algorithms the",
            "second of step 1 (the next incorrect one; with none, y unless it is the first, else the",
            "dimension below the first, mod n).",
        ],
    );
    let wrong = m.input("wrong", n as u32, "bit d: dimension d is incorrect");
    let first = m.output(
        "first",
        n as u32,
        "the lowest incorrect dimension, one-hot; zero at the destination",
    );
    m.assign(
        first,
        Expr::from(wrong).and(Expr::zero(n as u32) - wrong.into()),
        "x & -x keeps the lowest set bit.",
    );
    if !params.pairs() {
        let (y, second) = (None, None);
        let ports = ports!(m, DimsPorts { wrong, first, y: ?, second: ? });
        return (m, ports);
    }
    let d = params.dim_bits();
    let y = m.input(
        "y",
        d,
        "the header's y: the second dimension of the last pair",
    );
    let second = m.output(
        "second",
        n as u32,
        "the pair's second dimension, one-hot; zero at the destination",
    );
    let rest = m.internal("rest", n as u32, "incorrect dimensions above the lowest");
    let rest_lowest = m.internal(
        "rest_lowest",
        n as u32,
        "the second lowest incorrect dimension, one-hot, or zero",
    );
    let y_hot = m.internal("y_hot", n as u32, "y as a one-hot dimension");
    let clash = m.internal("clash", 1, "y is the lowest incorrect dimension");
    let below = m.internal(
        "below",
        n as u32,
        "the dimension below the lowest incorrect one, mod n, one-hot",
    );
    m.assign(
        rest,
        Expr::from(wrong).and(!Expr::from(first)),
        "Drop the lowest incorrect dimension.",
    );
    m.assign(
        rest_lowest,
        Expr::from(rest).and(Expr::zero(n as u32) - rest.into()),
        "x & -x keeps the lowest set bit.",
    );
    m.assign(
        y_hot,
        per_dim(n, |i| Expr::from(y).eq(Expr::konst(d, i as u64))),
        "Decode y.",
    );
    m.assign(
        clash,
        Expr::from(y_hot).and(first.into()).any(),
        "Whether y names the lowest incorrect dimension.",
    );
    m.assign(
        below,
        Expr::concat(vec![
            bit(first, 0),
            Expr::Slice {
                signal: first,
                lo: 1,
                width: n as u32 - 1,
            },
        ]),
        "Rotate the lowest incorrect dimension down by one, 0 wrapping to n-1.",
    );
    m.assign(
        second,
        Expr::mux(
            Expr::from(rest).any(),
            rest_lowest.into(),
            Expr::mux(clash.into(), below.into(), y_hot.into()),
        ),
        "Step 1: the next incorrect dimension, else y, else the dimension below the first.",
    );
    let (y, second) = (Some(y), Some(second));
    let ports = ports!(m, DimsPorts { wrong, first, y: ?, second: ? });
    (m, ports)
}

/// Number of candidate ports the algorithm lists, in preference order.
fn candidate_count(params: &TorusRouterParams) -> usize {
    match params.family() {
        Family::ECube => 1,
        Family::Torus => 4,
    }
}

port_struct!(
    struct ArbiterPorts { mask, candidates: [], grant }
);

fn arbiter(params: &TorusRouterParams) -> (Module, ArbiterPorts) {
    let ports = 2 * params.n() as u32;
    let count = candidate_count(params);
    let mut m = Module::new(
        name(params, "arbiter"),
        &[
            "the arbiter: the first candidate port, in preference order, that the mask leaves free.",
            "Each candidate is one port, one-hot, or zero when the algorithm does not offer it.",
        ],
    );
    let mask = m.input("mask", ports, "bit p: output port p is faulty or busy");
    let candidates: Vec<SignalId> = (0..count)
        .map(|i| {
            m.input(
                &format!("cand_{i}"),
                ports,
                &format!(
                    "candidate {i} in preference order (0 is most preferred), one-hot or zero"
                ),
            )
        })
        .collect();
    let grant = m.output(
        "grant",
        ports,
        "the port taken, one-hot; zero when every candidate is masked or absent",
    );
    let free: Vec<SignalId> = (0..count)
        .map(|i| {
            let free = m.internal(
                &format!("free_{i}"),
                ports,
                &format!("candidate {i} if its port is free, else zero"),
            );
            let busy = match params.fault {
                Some(TorusFault::MaskDirectionsSwapped) => {
                    per_port(params.n(), |p| bit(mask, p ^ 1))
                }
                None => Expr::from(mask),
            };
            m.assign(
                free,
                Expr::from(candidates[i]).and(!busy),
                &format!("Candidate {i} survives only on a free port."),
            );
            free
        })
        .collect();
    let pick = free
        .iter()
        .rev()
        .fold(Expr::zero(ports), |later, &candidate| {
            Expr::mux(Expr::from(candidate).any(), candidate.into(), later)
        });
    m.assign(grant, pick, "The most preferred surviving candidate.");
    let ports = ports!(
        m,
        ArbiterPorts {
            mask,
            candidates: [],
            grant
        }
    );
    (m, ports)
}

/// The signals the core shares between its parts.
struct CoreIo {
    dst: SignalId,
    f: SignalId,
    x: Option<SignalId>,
    y: Option<SignalId>,
    mask: SignalId,
    out_port: SignalId,
    blocked: SignalId,
    dst_out: SignalId,
    f_out: SignalId,
    x_out: Option<SignalId>,
    y_out: Option<SignalId>,
}

/// One router's routing function: the rings that compare each dimension's digits, the
/// family's candidates and the arbiter that picks the first free one.
fn core(
    params: &TorusRouterParams,
    ring: &Module,
    dims: Option<&(Module, DimsPorts)>,
    (arbiter, arbiter_ports): &(Module, ArbiterPorts),
    module_name: String,
) -> Module {
    let mut m = Module::new(
        module_name,
        &[
            &format!(
                "{} routing function of the {} (Demaine and Srinivas's k-ary n-cube paper):",
                params.algorithm().name(),
                params.router.torus()
            ),
            "one router's decision for one message, combinational: the output port (or eject, or",
            "blocked) and the header to send with it.",
        ],
    );
    let (current, io) = core_io(&mut m, params);
    let per_dim_signals = ring_instances(&mut m, params, ring, current, io.dst);
    let decided = decision(&mut m, params, &io, &per_dim_signals);
    let candidates = match params.family() {
        Family::ECube => ecube_core(params, &mut m, &io, dims, &per_dim_signals, &decided),
        Family::Torus => torus_core(params, &mut m, &io, dims, &per_dim_signals, &decided),
    };
    let connections = Connections::of(arbiter)
        .bind(&arbiter_ports.mask, io.mask)
        .bind_all(arbiter_ports.candidates.iter().zip(candidates))
        .bind(&arbiter_ports.grant, decided.grant);
    m.instance(
        "u_arbiter",
        connections,
        "The first candidate whose port is free.",
    );
    m
}

/// The core's ports: `current`, and the rest as the parts share them.
fn core_io(m: &mut Module, params: &TorusRouterParams) -> (SignalId, CoreIo) {
    let (n, w, d) = (params.n(), params.digit_bits(), params.dim_bits());
    let nw = n as u32 * w;
    let current = m.input(
        "current",
        nw,
        "this node's address, digit d in bits d*w..d*w+w-1 (x0 lowest)",
    );
    let dst = m.input(
        "dst",
        nw,
        "the header's destination, digit d in bits d*w..d*w+w-1",
    );
    let f = m.input("f", 1, "the header's f: west used in the current torus");
    let (x, y) = if d > 0 {
        (
            Some(m.input("x", d, "the header's x: X dimension of the last torus")),
            Some(m.input("y", d, "the header's y: Y dimension of the last torus")),
        )
    } else {
        (None, None)
    };
    let mask = m.input(
        "mask",
        2 * n as u32,
        "bit p: output port p is faulty or busy",
    );
    let out_port = m.output(
        "out_port",
        params.port_bits(),
        "port taken: 2d is +d, 2d+1 is -d, 2n ejects (delivered); 0 when blocked",
    );
    let blocked = m.output(
        "blocked",
        1,
        "every port the algorithm allows here is masked: the message waits",
    );
    let dst_out = m.output("dst_out", nw, "the header's destination, unchanged");
    let f_out = m.output("f_out", 1, "the header's f to send");
    let (x_out, y_out) = if d > 0 {
        (
            Some(m.output("x_out", d, "the header's x to send")),
            Some(m.output("y_out", d, "the header's y to send")),
        )
    } else {
        (None, None)
    };
    let io = CoreIo {
        dst,
        f,
        x,
        y,
        mask,
        out_port,
        blocked,
        dst_out,
        f_out,
        x_out,
        y_out,
    };
    (current, io)
}

/// One ring instance per dimension, comparing the digits of `current` and `dst`. Returns
/// the rings' outputs: `[o][dim]` is ring output o of dimension dim.
fn ring_instances(
    m: &mut Module,
    params: &TorusRouterParams,
    ring: &Module,
    current: SignalId,
    dst: SignalId,
) -> Vec<Vec<SignalId>> {
    let (n, w) = (params.n(), params.digit_bits());
    let ring_outputs: &[(&str, u32)] = match (params.family(), params.algorithm()) {
        (Family::ECube, _) => &[("wrong", 1), ("plus", 1)],
        (Family::Torus, Algorithm::WestFirst) => {
            &[("wrong", 1), ("grow", 1), ("wrap", 1), ("saving", w)]
        }
        (Family::Torus, _) => &[("wrong", 1), ("grow", 1), ("wrap", 1)],
    };
    let per_dim_signals: Vec<Vec<SignalId>> = ring_outputs
        .iter()
        .map(|&(output, width)| {
            (0..n)
                .map(|dim| {
                    m.internal(
                        &format!("{output}_{dim}"),
                        width,
                        &format!("ring {dim}: {}", ring_doc(ring, output)),
                    )
                })
                .collect()
        })
        .collect();
    for dim in 0..n {
        let digit = |signal| Expr::Slice {
            signal,
            lo: dim as u32 * w,
            width: w,
        };
        let mut connections = Connections::of(ring)
            .bind(&ring.port_named("here"), digit(current))
            .bind(&ring.port_named("there"), digit(dst));
        for (&(output, _), signals) in ring_outputs.iter().zip(&per_dim_signals) {
            connections.add(&ring.port_named(output), signals[dim]);
        }
        m.instance(
            &format!("u_ring_{dim}"),
            connections,
            &format!("Dimension {dim}: its digits compared."),
        );
    }
    per_dim_signals
}

/// The signals of the decision every family shares.
struct Decision {
    /// Bit d: dimension d is incorrect.
    wrong: SignalId,
    /// The message leaves on a network port.
    forward: SignalId,
    /// The arbiter's port, one-hot, which the arbiter drives.
    grant: SignalId,
}

/// What every family decides alike: delivered or the granted port, blocked, the
/// destination passed on.
fn decision(
    m: &mut Module,
    params: &TorusRouterParams,
    io: &CoreIo,
    per_dim_signals: &[Vec<SignalId>],
) -> Decision {
    let n = params.n();
    let wrong = m.internal("wrong", n as u32, "bit d: dimension d is incorrect");
    m.assign(
        wrong,
        per_dim(n, |dim| per_dim_signals[0][dim].into()),
        "Gather the rings' wrong bits.",
    );
    let arrived = m.internal(
        "arrived",
        1,
        "every digit is correct: this is the destination",
    );
    m.assign(
        arrived,
        !Expr::from(wrong).any(),
        "Deliver when no dimension is incorrect.",
    );
    let grant = m.internal(
        "grant",
        2 * n as u32,
        "the arbiter's port, one-hot; zero when delivered or blocked",
    );
    let forward = m.internal("forward", 1, "the message leaves on a network port");
    m.assign(
        forward,
        Expr::from(grant).any(),
        "Any granted port forwards.",
    );
    m.assign(
        io.out_port,
        Expr::mux(
            arrived.into(),
            Expr::konst(params.port_bits(), 2 * n as u64),
            encode(grant, 2 * n, params.port_bits()),
        ),
        "Eject at the destination, else the granted port's number.",
    );
    m.assign(
        io.blocked,
        !Expr::from(arrived).or(forward.into()),
        "Blocked: not at the destination and no candidate port free.",
    );
    m.assign(
        io.dst_out,
        io.dst.into(),
        "No algorithm changes the destination.",
    );
    Decision {
        wrong,
        forward,
        grant,
    }
}

/// The doc string of `port` of `module`, to describe the signals that carry it.
fn ring_doc<'a>(module: &'a Module, port: &str) -> &'a str {
    module
        .ports()
        .find(|(_, signal)| signal.name == port)
        .map(|(_, signal)| signal.doc.as_str())
        .unwrap_or_default()
}

/// E-cube and double e-cube: one candidate, e-cube's way round the lowest incorrect
/// dimension; double e-cube writes the pair into x and y when it forwards.
fn ecube_core(
    params: &TorusRouterParams,
    m: &mut Module,
    io: &CoreIo,
    dims: Option<&(Module, DimsPorts)>,
    rings: &[Vec<SignalId>],
    decided: &Decision,
) -> Vec<SignalId> {
    let Decision { wrong, forward, .. } = *decided;
    let (n, d) = (params.n(), params.dim_bits());
    let (dims, dims_ports) = dims.expect("e-cube selects its dimension in the dims block");
    let plus = &rings[1];
    let first = m.internal("first", n as u32, "the lowest incorrect dimension, one-hot");
    let second = params.pairs().then(|| {
        m.internal(
            "second",
            n as u32,
            "the pair's second dimension (step 1), one-hot",
        )
    });
    let connections = Connections::of(dims)
        .bind(&dims_ports.wrong, wrong)
        .bind(&dims_ports.first, first)
        .bind_opt(&dims_ports.y, second.and(io.y))
        .bind_opt(&dims_ports.second, second);
    m.instance(
        "u_dims",
        connections,
        "Which dimension to correct (and, for double e-cube, the pair).",
    );
    let cand = m.internal(
        "cand",
        2 * n as u32,
        "e-cube's port, one-hot; zero at the destination",
    );
    m.assign(
        cand,
        per_port(n, |p| {
            let way = Expr::from(plus[p / 2]);
            let way = if p % 2 == 0 { way } else { !way };
            bit(first, p / 2).and(way)
        }),
        "The lowest incorrect dimension, e-cube's way round.",
    );
    m.assign(
        io.f_out,
        io.f.into(),
        "E-cube and double e-cube never write f.",
    );
    match (second, io.x, io.y, io.x_out, io.y_out) {
        (Some(second), Some(x), Some(y), Some(x_out), Some(y_out)) => {
            m.assign(
                x_out,
                Expr::mux(forward.into(), encode(first, n, d), x.into()),
                "A hop taken records the pair's first dimension as x.",
            );
            m.assign(
                y_out,
                Expr::mux(forward.into(), encode(second, n, d), y.into()),
                "A hop taken records the pair's second dimension as y.",
            );
        }
        (None, Some(x), Some(y), Some(x_out), Some(y_out)) => {
            m.assign(x_out, x.into(), "E-cube passes x through.");
            m.assign(y_out, y.into(), "E-cube passes y through.");
        }
        _ => {}
    }
    vec![cand]
}

/// The header's fields the torus algorithms read and write: every one present, for they
/// need n >= 2.
struct TorusHeader {
    x: SignalId,
    y: SignalId,
    x_out: SignalId,
    y_out: SignalId,
}

impl TorusHeader {
    fn of(io: &CoreIo) -> Self {
        match (io.x, io.y, io.x_out, io.y_out) {
            (Some(x), Some(y), Some(x_out), Some(y_out)) => TorusHeader { x, y, x_out, y_out },
            _ => unreachable!("the torus algorithms need n >= 2, so the header has x and y"),
        }
    }
}

/// The torus this router routes in: its dimensions X and Y, one-hot and encoded, and
/// whether this is the message's first hop in it.
struct TorusPair {
    x_hot: SignalId,
    y_hot: SignalId,
    pair_x: SignalId,
    pair_y: SignalId,
    first_hop: SignalId,
}

/// West-first and direction-first: routing in the torus of dimensions X and Y (fixed 0
/// and 1 for west-first, the pair of step 1 for direction-first).
fn torus_core(
    params: &TorusRouterParams,
    m: &mut Module,
    io: &CoreIo,
    dims: Option<&(Module, DimsPorts)>,
    rings: &[Vec<SignalId>],
    decided: &Decision,
) -> Vec<SignalId> {
    let Decision {
        wrong,
        forward,
        grant,
    } = *decided;
    let n = params.n();
    let header = TorusHeader::of(io);
    let gather = |m: &mut Module, signals: &[SignalId], name: &str, doc: &str| {
        let vector = m.internal(name, n as u32, doc);
        m.assign(
            vector,
            per_dim(n, |dim| signals[dim].into()),
            &format!("Gather the rings' {} bits.", name.trim_end_matches('s')),
        );
        vector
    };
    let grows = gather(m, &rings[1], "grows", "bit d: dimension d's mesh way is +");
    let wraps = gather(
        m,
        &rings[2],
        "wraps",
        "bit d: dimension d's wraparound link saves hops",
    );
    let pair = torus_pair(params, m, dims, wrong, &header);
    let [x_wrap_port, x_mesh_port, y_wrap_port, y_mesh_port] =
        torus_ways(m, n, &pair, wrong, grows, wraps);
    let candidates = if params.algorithm() == Algorithm::WestFirst {
        let (wrap_a, wrap_b) = bigger_saving_first(m, n, &rings[3], x_wrap_port, y_wrap_port);
        vec![wrap_a, wrap_b, x_mesh_port, y_mesh_port]
    } else {
        vec![x_wrap_port, x_mesh_port, y_wrap_port, y_mesh_port]
    };
    torus_header_out(m, n, io, &header, &pair, grant, forward);
    candidates
}

/// The torus's dimensions (from step 1's `dims` for direction-first, 0 and 1 for
/// west-first), and whether the header's pair says the message is new to it.
fn torus_pair(
    params: &TorusRouterParams,
    m: &mut Module,
    dims: Option<&(Module, DimsPorts)>,
    wrong: SignalId,
    header: &TorusHeader,
) -> TorusPair {
    let (n, d) = (params.n(), params.dim_bits());
    let nn = n as u32;
    let x_hot = m.internal("x_hot", nn, "the torus's X dimension, one-hot");
    let y_hot = m.internal("y_hot", nn, "the torus's Y dimension, one-hot");
    match dims {
        Some((dims, dims_ports)) => m.instance(
            "u_dims",
            Connections::of(dims)
                .bind(&dims_ports.wrong, wrong)
                .bind_opt(&dims_ports.y, Some(header.y))
                .bind(&dims_ports.first, x_hot)
                .bind_opt(&dims_ports.second, Some(y_hot)),
            "Step 1: the pair (i, j) of the two lowest incorrect dimensions is the torus.",
        ),
        None => {
            m.assign(
                x_hot,
                Expr::konst(nn, 1),
                "West-first routes in the torus of dimensions 0 (X) and 1 (Y).",
            );
            m.assign(y_hot, Expr::konst(nn, 2), "Y is dimension 1.");
        }
    }
    let pair_x = m.internal("pair_x", d, "X's number, written into x on a hop");
    let pair_y = m.internal("pair_y", d, "Y's number, written into y on a hop");
    m.assign(pair_x, encode(x_hot, n, d), "Encode X.");
    m.assign(pair_y, encode(y_hot, n, d), "Encode Y.");
    let first_hop = m.internal(
        "first_hop",
        1,
        "the header's (x, y) is not this torus: the first hop in it, the only one that may wrap",
    );
    m.assign(
        first_hop,
        Expr::from(header.x)
            .ne(pair_x.into())
            .or(Expr::from(header.y).ne(pair_y.into())),
        "A router recognises a new torus by the header's pair differing from its own.",
    );
    TorusPair {
        x_hot,
        y_hot,
        pair_x,
        pair_y,
        first_hop,
    }
}

/// The ports each of X's and Y's ways offers: X's wraparound, X's mesh way, Y's
/// wraparound, Y's mesh way (one-hot, or zero when not offered).
fn torus_ways(
    m: &mut Module,
    n: usize,
    pair: &TorusPair,
    wrong: SignalId,
    grows: SignalId,
    wraps: SignalId,
) -> [SignalId; 4] {
    let (x_hot, y_hot) = (pair.x_hot, pair.y_hot);
    let x_wrong = select_dim(m, x_hot, wrong, "x_wrong", "X is incorrect");
    let y_wrong = select_dim(m, y_hot, wrong, "y_wrong", "Y is incorrect");
    let x_grow = select_dim(m, x_hot, grows, "x_grow", "X's mesh way is +");
    let y_grow = select_dim(m, y_hot, grows, "y_grow", "Y's mesh way is +");
    let x_wrap = select_dim(m, x_hot, wraps, "x_wrap", "X's wraparound saves hops");
    let y_wrap = select_dim(m, y_hot, wraps, "y_wrap", "Y's wraparound saves hops");
    let y_move = m.internal(
        "y_move",
        1,
        "Y may move: it is incorrect and no west hop is pending",
    );
    m.assign(
        y_move,
        Expr::from(y_wrong).and(!(Expr::from(x_wrong).and(!Expr::from(x_grow)))),
        "West first: while the destination lies west (X must go -), Y waits.",
    );
    let first_hop = pair.first_hop;
    [
        way_port(
            m,
            n,
            x_hot,
            Expr::from(x_wrong).and(first_hop.into()).and(x_wrap.into()),
            !Expr::from(x_grow),
            "x_wrap_port",
            "X's wraparound",
        ),
        way_port(
            m,
            n,
            x_hot,
            x_wrong.into(),
            x_grow.into(),
            "x_mesh_port",
            "X's mesh way",
        ),
        way_port(
            m,
            n,
            y_hot,
            Expr::from(y_move).and(first_hop.into()).and(y_wrap.into()),
            !Expr::from(y_grow),
            "y_wrap_port",
            "Y's wraparound",
        ),
        way_port(
            m,
            n,
            y_hot,
            y_move.into(),
            y_grow.into(),
            "y_mesh_port",
            "Y's mesh way",
        ),
    ]
}

/// `name`: bit `hot` (one-hot over the dimensions) of `of`.
fn select_dim(m: &mut Module, hot: SignalId, of: SignalId, name: &str, doc: &str) -> SignalId {
    let s = m.internal(name, 1, doc);
    m.assign(
        s,
        Expr::from(hot).and(of.into()).any(),
        &format!("Select {name} by the one-hot dimension."),
    );
    s
}

/// The port of one way of dimension `hot`: offered when `allowed`, + when `plus`.
fn way_port(
    m: &mut Module,
    n: usize,
    hot: SignalId,
    allowed: Expr,
    plus: Expr,
    name: &str,
    doc: &str,
) -> SignalId {
    let offered = m.internal(&format!("{name}_ok"), 1, &format!("{doc} is offered"));
    m.assign(offered, allowed, &format!("When {doc} is a candidate."));
    let port = m.internal(name, 2 * n as u32, &format!("{doc}, one-hot, or zero"));
    let go_plus = m.internal(&format!("{name}_plus"), 1, &format!("{doc} is +"));
    m.assign(go_plus, plus, &format!("The direction of {doc}."));
    m.assign(
        port,
        per_port(n, |p| {
            let dir = if p % 2 == 0 {
                Expr::from(go_plus)
            } else {
                !Expr::from(go_plus)
            };
            bit(hot, p / 2).and(offered.into()).and(dir)
        }),
        &format!("The port of {doc}."),
    );
    port
}

/// West-first's wraparounds in order of the hops they save (`savings`, X's and Y's), X's
/// first on a tie.
fn bigger_saving_first(
    m: &mut Module,
    n: usize,
    savings: &[SignalId],
    x_wrap_port: SignalId,
    y_wrap_port: SignalId,
) -> (SignalId, SignalId) {
    let ports = 2 * n as u32;
    let y_first = m.internal(
        "y_first",
        1,
        "Y's wraparound saves more hops than X's: it goes first",
    );
    m.assign(
        y_first,
        Expr::from(savings[0]).lt(savings[1].into()),
        "The wraparound saving most hops first, X on a tie.",
    );
    let wrap_a = m.internal("wrap_first", ports, "the preferred wraparound port");
    let wrap_b = m.internal("wrap_second", ports, "the other wraparound port");
    m.assign(
        wrap_a,
        Expr::mux(y_first.into(), y_wrap_port.into(), x_wrap_port.into()),
        "West-first's only wrapping hop is the route's first: take the bigger saving.",
    );
    m.assign(
        wrap_b,
        Expr::mux(y_first.into(), x_wrap_port.into(), y_wrap_port.into()),
        "The other wraparound next.",
    );
    (wrap_a, wrap_b)
}

/// The header to send: f (steps 2 and 4 of the paper), and the torus's pair as x and y
/// when a hop is taken.
fn torus_header_out(
    m: &mut Module,
    n: usize,
    io: &CoreIo,
    header: &TorusHeader,
    pair: &TorusPair,
    grant: SignalId,
    forward: SignalId,
) {
    let west_taken = m.internal("west_taken", 1, "the hop taken is west, -X");
    m.assign(
        west_taken,
        per_port(n, |p| {
            if p % 2 == 1 {
                bit(pair.x_hot, p / 2).and(bit(grant, p))
            } else {
                Expr::bit(false)
            }
        })
        .any(),
        "Step 4 of the paper: f records a hop on -X.",
    );
    m.assign(
        io.f_out,
        Expr::mux(
            forward.into(),
            Expr::from(io.f)
                .and(!Expr::from(pair.first_hop))
                .or(west_taken.into()),
            io.f.into(),
        ),
        "A hop taken resets f in a new torus (step 2) and sets it going west (step 4).",
    );
    m.assign(
        header.x_out,
        Expr::mux(forward.into(), pair.pair_x.into(), header.x.into()),
        "A hop taken records the torus's X.",
    );
    m.assign(
        header.y_out,
        Expr::mux(forward.into(), pair.pair_y.into(), header.y.into()),
        "A hop taken records the torus's Y.",
    );
}

/// The core with every output registered: the same ports plus `clk` and `rst`.
fn registered_top(params: &TorusRouterParams, core: &Module) -> Module {
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!(
                "{} routing function of the {} (Demaine and Srinivas's k-ary n-cube paper)",
                params.algorithm().name(),
                params.router.torus()
            ),
            "with registered outputs: the decision for the inputs of one clock edge appears after",
            "that edge (latency 1).",
            "Reset: blocked = 1 and every other output 0, so no message moves.",
        ],
    );
    m.clocked();
    let mut connections = Connections::of(core);
    let mut outputs = Vec::new();
    for (handle, port) in core.port_handles() {
        match port.kind {
            SignalKind::Port(Direction::Input) => {
                let input = m.input(&port.name, port.width, &port.doc);
                connections.add(&handle, input);
            }
            _ => outputs.push((handle, port)),
        }
    }
    for (handle, port) in outputs {
        let output = m.output(&port.name, port.width, &port.doc);
        let next = m.internal(
            &format!("{}_next", port.name),
            port.width,
            &format!("the core's {}, registered into {}", port.name, port.name),
        );
        connections.add(&handle, next);
        let reset = u64::from(port.name == "blocked");
        m.register(
            output,
            reset,
            next.into(),
            &format!("Register {}.", port.name),
        );
    }
    m.instance("u_core", connections, "The combinational decision.");
    m
}
