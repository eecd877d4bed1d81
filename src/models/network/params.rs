//! What a network run is asked for ([`NetParams`]): the topology, the fabric's switches
//! and routing, the traffic, the faults and the run's length; and why a run cannot be as
//! asked ([`NetError`]). The checks that need no graph are here ([`check`]); those that do
//! are made where the network is built.

use super::faults::{FaultError, FaultSpec};
use super::memory::Estimate;
use super::plan::{MAX_NODES, Plan, PlanError};
use super::receive::{MAX_RX_BYTES, Receive};
use super::traffic::Traffic;
use crate::choice::Choice;
use crate::fabric::network::NetworkError;
use crate::fabric::switch::{Arbiter, Flow, MAX_BUFFER_WORDS, SwitchConfigError};
use crate::fabric::wiring::WiringError;
use crate::routing::torus::{Algorithm, Reading, RoutingError};
use crate::topology::torus::Torus;
use serde::Serialize;
use std::sync::Arc;
use thiserror::Error;

/// Flits each switch input holds under switch routing unless asked otherwise.
pub const DEFAULT_BUFFER_FLITS: u64 = 2;

/// Why a network cannot be simulated as asked.
/// `bytes` in GiB.
fn gib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1 << 30)
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum NetError {
    #[error(transparent)]
    Switch(#[from] SwitchConfigError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Wiring(#[from] WiringError),
    #[error(transparent)]
    Network(#[from] NetworkError),
    #[error(transparent)]
    Faults(#[from] FaultError),
    #[error(transparent)]
    Routing(#[from] RoutingError),
    #[error("{network} has {nodes} nodes; netsim numbers at most {MAX_NODES}")]
    TooLarge { network: String, nodes: usize },
    #[error(
        "{network} needs an estimated {need:.1} GiB ({nodes} nodes, {messages} messages made), more than the {have:.1} GiB it may take (the machine's memory, or --max-memory)",
        need = gib(estimate.bytes), nodes = estimate.nodes, messages = estimate.messages, have = gib(*limit)
    )]
    Memory {
        network: String,
        estimate: Estimate,
        limit: u64,
    },
    #[error("the {0} has {k}^{n} nodes; netsim holds at most {MAX_NODES}", k = .0.k(), n = .0.n())]
    CubeTooLarge(Torus),
    #[error("injection rate must be between 0 and 1, got {0}")]
    Rate(f64),
    #[error("hot-spot fraction must be between 0 and 1, got {0}")]
    HotFraction(f64),
    #[error("the fraction of long messages must be between 0 and 1, got {0}")]
    LongFraction(f64),
    #[error("bursts need on and off periods of at least 1 cycle on average, got {on},{off}")]
    BurstPeriods { on: u64, off: u64 },
    #[error(
        "at rate {rate} with bursts of {on} cycles on and {off} off a node would make {on_rate} messages a cycle while on: at most 1"
    )]
    BurstRate {
        rate: f64,
        on: u64,
        off: u64,
        on_rate: f64,
    },
    #[error("message bytes must be 1 to {max}, got {got}")]
    MessageBytes { got: String, max: u8 },
    #[error("max bytes must be 1 to 255, got {0}")]
    MaxBytes(u64),
    #[error("retry rounds must be at least 1, got 0")]
    RetryRounds,
    #[error(
        "--rx-bytes must hold a whole message of --max-bytes {max} and at most {MAX_RX_BYTES} bytes, got {got}"
    )]
    RxBytes { got: u64, max: u8 },
    #[error("--rx-ready is a probability between 0 and 1, got {0}")]
    RxReady(f64),
    #[error(
        "--flow {0} takes one round of attempts: a message sent again in a later round could be handed out twice (docs/flow-control.md)"
    )]
    RetryRoundsWithBuffers(&'static str),
    #[error(
        "--flow {0} needs round-robin switches: a fixed arbiter can keep a buffered worm waiting for ever (docs/flow-control.md)"
    )]
    FixedWithBuffers(&'static str),
    #[error(
        "--flow {flow}: the longest worm has {words} words, more than a switch's buffer holds ({MAX_BUFFER_WORDS} after its head)"
    )]
    WormTooLong { flow: &'static str, words: u64 },
    #[error(
        "--routing {algorithm}: switches that route have their own flow control and arbitration (a blocked worm waits, the oldest goes first), so {what} does not apply (docs/torus.md)"
    )]
    NotWithSwitchRouting {
        algorithm: &'static str,
        what: &'static str,
    },
    #[error(
        "--routing {algorithm} routes in the bidirectional torus (--topology torus --rings bi), not in {network}"
    )]
    NotATorus {
        algorithm: &'static str,
        network: String,
    },
    #[error("message flits must be 1 to 255, got {0}")]
    MessageFlits(u64),
    #[error("buffer flits must be 1 to 65535, got {0}")]
    BufferFlits(u64),
    #[error("a message from {src} to {dst}: {why}")]
    Message {
        src: String,
        dst: String,
        why: &'static str,
    },
}

/// Where a worm's way through the network comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Routing {
    /// The network-switch paper's: the source router writes a route into the worm's head,
    /// a byte for each switch to consume; a switch whose output is taken refuses the worm
    /// (or buffers it, under `--flow vct` and `saf`).
    #[default]
    Source,
    /// Each switch routes the header with one of the k-ary n-cube paper's routing
    /// functions, under `reading` (when the pair of dimensions is selected), and a header
    /// whose every allowed output is taken waits there: wormhole with backpressure, each
    /// switch input holding `buffer_flits` flits (docs/torus.md).
    Switch {
        algorithm: Algorithm,
        reading: Reading,
        buffer_flits: u64,
    },
}

/// A measured run (the BookSim convention, docs/network.md "Measurement"): `warmup`
/// cycles of traffic first, then the measurement window (`cycles`), whose messages alone
/// are counted; the sources keep making messages until every one of those has ended, at
/// most `drain_limit` cycles after the window, or the run is unstable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Measure {
    pub warmup: u64,
    pub drain_limit: u64,
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct NetParams {
    /// The topology: wiring, addresses, routes.
    pub plan: Arc<dyn Plan>,
    pub routing: Routing,
    pub arbiter: Arbiter,
    /// The switches' flow control; buffers hold the longest worm, and the routers then
    /// acknowledge what they receive ([`super::acked`]).
    pub flow: Flow,
    /// The router's message buffer, in bytes.
    pub max_bytes: u8,
    pub traffic: Traffic,
    /// Cycles during which processors make messages; the run then drains. Under a
    /// measurement, the window's length.
    pub cycles: u64,
    /// A measured run; none for one whose every message counts and whose sources stop
    /// after `cycles`.
    pub measure: Option<Measure>,
    pub seed: u64,
    pub faults: FaultSpec,
    /// Rounds of attempts (one per route) a processor makes before it gives a message up.
    pub retry_rounds: u32,
    /// A receive FIFO at every router, which refuses worms when full; none for the
    /// paper's router, whose processor takes every byte as it comes.
    pub receive: Option<Receive>,
}

impl NetParams {
    /// The cycles whose load and messages are measured, [start, end): the injection
    /// period, or under a measurement its window after the warm-up.
    pub fn window(&self) -> (u64, u64) {
        match self.measure {
            None => (0, self.cycles),
            Some(m) => (m.warmup, m.warmup + self.cycles),
        }
    }

    /// The plain run that benchmarks and sweeps make: uniform traffic of `bytes`-byte
    /// messages at `rate`, source routing, round-robin switches, the paper's router (one
    /// round of attempts), no faults.
    pub fn uniform(plan: Arc<dyn Plan>, rate: f64, bytes: u8, cycles: u64, seed: u64) -> Self {
        NetParams {
            plan,
            routing: Routing::Source,
            arbiter: Arbiter::RoundRobin,
            flow: Flow::Nack,
            max_bytes: bytes,
            traffic: Traffic::uniform(rate, bytes..=bytes),
            cycles,
            measure: None,
            seed,
            faults: FaultSpec::default(),
            retry_rounds: 1,
            receive: None,
        }
    }
}

/// Checks what does not need the graph built.
pub fn check(params: &NetParams) -> Result<(), NetError> {
    let t = &params.traffic;
    if !(0.0..=1.0).contains(&t.rate) {
        return Err(NetError::Rate(t.rate));
    }
    if !(0.0..=1.0).contains(&t.hot_fraction) {
        return Err(NetError::HotFraction(t.hot_fraction));
    }
    if let Some(p) = t.long_fraction.filter(|p| !(0.0..=1.0).contains(p)) {
        return Err(NetError::LongFraction(p));
    }
    if let Some(burst) = t.burst {
        let (on, off) = (burst.on, burst.off);
        if on == 0 || off == 0 {
            return Err(NetError::BurstPeriods { on, off });
        }
        let on_rate = burst.on_rate(t.rate);
        if on_rate > 1.0 {
            return Err(NetError::BurstRate {
                rate: t.rate,
                on,
                off,
                on_rate,
            });
        }
    }
    if params.max_bytes == 0 {
        return Err(NetError::MaxBytes(0));
    }
    let (lo, hi) = (*t.bytes.start(), *t.bytes.end());
    if lo == 0 || lo > hi || hi > params.max_bytes {
        let got = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}..{hi}")
        };
        return Err(NetError::MessageBytes {
            got,
            max: params.max_bytes,
        });
    }
    if params.retry_rounds == 0 {
        return Err(NetError::RetryRounds);
    }
    if let Some(receive) = params.receive {
        check_receive(receive, params.max_bytes)?;
    }
    match params.routing {
        Routing::Source => check_source_routing(params),
        Routing::Switch {
            algorithm,
            buffer_flits,
            ..
        } => check_switch_routing(params, algorithm, buffer_flits),
    }
}

/// A receive FIFO holds a whole message, and its processor's readiness is a probability.
fn check_receive(receive: Receive, max_bytes: u8) -> Result<(), NetError> {
    if !(u64::from(max_bytes)..=MAX_RX_BYTES).contains(&receive.bytes) {
        return Err(NetError::RxBytes {
            got: receive.bytes,
            max: max_bytes,
        });
    }
    if !(0.0..=1.0).contains(&receive.ready) {
        return Err(NetError::RxReady(receive.ready));
    }
    Ok(())
}

/// Buffered switches take one round of attempts and round-robin arbiters.
fn check_source_routing(params: &NetParams) -> Result<(), NetError> {
    if params.flow != Flow::Nack {
        if params.retry_rounds > 1 {
            return Err(NetError::RetryRoundsWithBuffers(params.flow.name()));
        }
        if params.arbiter == Arbiter::Fixed {
            return Err(NetError::FixedWithBuffers(params.flow.name()));
        }
    }
    Ok(())
}

/// Switches that route have their own flow control and arbitration, and refuse nothing.
fn check_switch_routing(
    params: &NetParams,
    algorithm: Algorithm,
    buffer_flits: u64,
) -> Result<(), NetError> {
    let not = |what| NetError::NotWithSwitchRouting {
        algorithm: algorithm.name(),
        what,
    };
    if params.flow != Flow::Nack {
        return Err(not("--flow"));
    }
    if params.arbiter != Arbiter::RoundRobin {
        return Err(not("--arbiter"));
    }
    if params.retry_rounds > 1 {
        return Err(not("--retry-rounds"));
    }
    if params.receive.is_some() {
        return Err(not("--rx-bytes"));
    }
    if !(1..=65535).contains(&buffer_flits) {
        return Err(NetError::BufferFlits(buffer_flits));
    }
    Ok(())
}
