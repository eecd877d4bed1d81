//! The options of `netsim` that make a network and its traffic, shared by every command
//! that simulates one (a run, `--seeds`, `saturate`, `compare`, `sweep`): the topology,
//! the routing and flow control, the traffic but its rate, the faults, the measurement and
//! the seed, each checked when the run's parameters are made.

use crate::choice::Choice;
use crate::cli::input_error;
use crate::fabric::switch::{Arbiter, Flow};
use crate::network::net::{FaultSpec, Measure, NetParams, Routing};
use crate::network::params::DEFAULT_BUFFER_FLITS;
use crate::network::plan::Plan;
use crate::network::receive::Receive;
use crate::network::traffic::{Burst, Pattern, Traffic};
use crate::routing::torus::{Algorithm, Reading};
use crate::units::choice_arg::choice;
use crate::units::topology_args::TopologyArgs;

/// The options that name faults (long names): a sweep given one does not sweep its own
/// fault counts.
pub const FAULT_OPTIONS: [&str; 4] = [
    "random-faulty-nodes",
    "random-faulty-links",
    "faulty-node",
    "faulty-link",
];

/// A network, its traffic but the rate, its faults and how a run of it is measured.
#[derive(Debug, Clone, clap::Args)]
pub struct NetworkArgs {
    #[command(flatten)]
    pub topology: TopologyArgs,
    /// Measure: W cycles of traffic first, then --cycles whose messages alone are counted
    /// while the sources go on making messages until those have ended (docs/network.md,
    /// "Measurement")
    #[arg(long, value_name = "W")]
    pub warmup: Option<u64>,
    /// With --warmup: the most cycles after the window for its messages to end before the
    /// run is reported unstable [default: warm-up plus window]
    #[arg(long, value_name = "D", requires = "warmup")]
    pub drain_limit: Option<u64>,
    /// Seed of the traffic, the faults drawn and the messages' bytes
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Destinations: uniform, a fixed permutation, a hot spot, or a pattern of the field
    /// (docs/network.md, "Traffic patterns")
    #[arg(long, value_parser = choice::<Pattern>(), default_value = Pattern::Uniform.name())]
    pub traffic: Pattern,
    /// Hot spot: the fraction of messages sent to the hot node
    #[arg(long, default_value_t = 0.2, value_name = "F")]
    pub hot_fraction: f64,
    /// Data bytes per message: N; LO..HI drawn uniformly; or SHORT,LONG@P, LONG bytes with
    /// probability P and SHORT otherwise
    #[arg(long, default_value = "16", value_name = "N|LO..HI|SHORT,LONG@P")]
    pub message_bytes: String,
    /// On-off injection: on periods of ON cycles and off periods of OFF cycles on average;
    /// a node makes messages only while on, at rate R(ON+OFF)/ON, so that its average is
    /// --rate R
    #[arg(long, value_name = "ON,OFF")]
    pub burst: Option<String>,
    /// The router's message buffer in bytes (1 to 255)
    #[arg(long, default_value_t = 16)]
    pub max_bytes: u64,
    /// Faulty nodes drawn by the seed
    #[arg(long, default_value_t = 0, value_name = "F")]
    pub random_faulty_nodes: u64,
    /// Faulty links drawn by the seed, after the faulty nodes, among the links not named
    #[arg(long, default_value_t = 0, value_name = "F")]
    pub random_faulty_links: u64,
    /// A faulty node, named as --topology names it (repeatable)
    #[arg(long = "faulty-node", value_name = "NODE")]
    pub faulty_nodes: Vec<String>,
    /// A faulty link: the out-link of NODE by LETTER on K(d,k), by switch PORT (1 to d)
    /// on every other topology (repeatable)
    #[arg(long = "faulty-link", value_name = "NODE:LETTER|PORT")]
    pub faulty_links: Vec<String>,
    /// Rounds of attempts, one per route, before a message is given up; rounds after the
    /// first start after a random delay of 1 to 64 cycles
    #[arg(long, default_value_t = 1, value_name = "R")]
    pub retry_rounds: u32,
    /// A receive FIFO of N bytes between every router and its processor: a switch refuses
    /// a worm for its router (NACK) while the FIFO could not take a whole message of
    /// --max-bytes (docs/network.md, "Receive backpressure") [default: none, the paper's
    /// router, whose processor takes every byte as it comes]
    #[arg(long, value_name = "N")]
    pub rx_bytes: Option<u64>,
    /// With --rx-bytes: the probability that a processor takes a byte from its FIFO in a
    /// cycle (an AXI4-Stream sink's tready)
    #[arg(long, value_name = "P", requires = "rx_bytes", default_value_t = 1.0)]
    pub rx_ready: f64,
    /// Output arbitration of the switches
    #[arg(long, value_parser = choice::<Arbiter>(), default_value = Arbiter::RoundRobin.name())]
    pub arbiter: Arbiter,
    /// The switches' flow control (docs/flow-control.md): with vct and saf, buffers hold
    /// the longest worm and the routers acknowledge every message
    #[arg(long, value_parser = choice::<Flow>(), default_value = Flow::Nack.name())]
    pub flow: Flow,
    /// Switches route each header with this algorithm of the k-ary n-cube paper, and a
    /// blocked header waits (wormhole with backpressure), instead of following the source's
    /// route; the bidirectional torus only (docs/torus.md)
    #[arg(long, value_parser = choice::<Algorithm>(), value_name = "ALGO")]
    pub routing: Option<Algorithm>,
    /// With --routing: flits each switch input holds (a message of N bytes is N flits)
    #[arg(long, value_name = "B")]
    pub buffer_flits: Option<u64>,
    /// With --routing double-e-cube or direction-first: when a worm selects its pair of
    /// dimensions [default: reselect]
    #[arg(long, value_parser = choice::<Reading>())]
    pub reading: Option<Reading>,
}

impl NetworkArgs {
    /// The options `words` give (`--d 2 --k 3 --flow vct`), parsed as `netsim` parses
    /// them; clap's error in one line.
    pub fn parse_words(words: impl IntoIterator<Item = String>) -> anyhow::Result<NetworkArgs> {
        #[derive(clap::Parser)]
        #[command(no_binary_name = true, allow_negative_numbers = true)]
        struct Network {
            #[command(flatten)]
            network: NetworkArgs,
        }
        match <Network as clap::Parser>::try_parse_from(words) {
            Ok(parsed) => Ok(parsed.network),
            Err(e) => {
                let text = e.render().to_string();
                let first = text.lines().next().unwrap_or_default();
                Err(anyhow::anyhow!("{}", first.trim_start_matches("error: ")))
            }
        }
    }

    /// The run's parameters at `rate` for `cycles`, every option checked.
    pub fn params(&self, rate: f64, cycles: u64) -> anyhow::Result<NetParams> {
        let args = self;
        let built = args.topology.build().map_err(input_error)?;
        let plan = built.plan().map_err(input_error)?;
        let (bytes, long_fraction) = parse_bytes(&args.message_bytes).map_err(input_error)?;
        let burst = args
            .burst
            .as_deref()
            .map(parse_burst)
            .transpose()
            .map_err(input_error)?;
        let faults = fault_spec(args, plan.as_ref()).map_err(input_error)?;
        let switch_only = [
            ("--buffer-flits", args.buffer_flits.is_some()),
            ("--reading", args.reading.is_some()),
        ];
        let routing = match args.routing {
            None => match switch_only.iter().find(|(_, given)| *given) {
                Some((option, _)) => {
                    return Err(input_error(anyhow::anyhow!(
                        "{option} applies to switches that route (--routing) only"
                    )));
                }
                None => Routing::Source,
            },
            Some(algorithm) => Routing::Switch {
                algorithm,
                reading: args.reading.unwrap_or_default(),
                buffer_flits: args.buffer_flits.unwrap_or(DEFAULT_BUFFER_FLITS),
            },
        };
        let max_bytes = u8::try_from(args.max_bytes)
            .ok()
            .filter(|&m| m > 0)
            .ok_or_else(|| {
                input_error(anyhow::anyhow!(
                    "max bytes must be 1 to 255, got {}",
                    args.max_bytes
                ))
            })?;
        Ok(NetParams {
            plan,
            routing,
            arbiter: args.arbiter,
            flow: args.flow,
            max_bytes,
            traffic: Traffic {
                pattern: args.traffic,
                rate,
                bytes,
                long_fraction,
                hot_fraction: args.hot_fraction,
                burst,
            },
            cycles,
            measure: args.warmup.map(|warmup| Measure {
                warmup,
                drain_limit: args.drain_limit.unwrap_or(warmup + cycles),
            }),
            seed: args.seed,
            faults,
            retry_rounds: args.retry_rounds,
            receive: args.rx_bytes.map(|bytes| Receive {
                bytes,
                ready: args.rx_ready,
            }),
        })
    }
}

/// The faults named on the command line, in `plan`'s names.
fn fault_spec(args: &NetworkArgs, plan: &dyn Plan) -> anyhow::Result<FaultSpec> {
    let mut faults = FaultSpec {
        random_nodes: args.random_faulty_nodes,
        random_links: args.random_faulty_links,
        ..FaultSpec::default()
    };
    for node in &args.faulty_nodes {
        faults.nodes.push(plan.parse_node(node)?);
    }
    let kind = plan.link_label();
    for link in &args.faulty_links {
        let (node, label) = link.rsplit_once(':').ok_or_else(|| {
            anyhow::anyhow!("faulty link '{link}' is not NODE:{}", kind.to_uppercase())
        })?;
        let node = plan.parse_node(node)?;
        let label: u64 = label
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("faulty link '{link}': '{label}' is not a {kind}"))?;
        faults.links.push((node, label));
    }
    Ok(faults)
}

/// `N`, `LO..HI` or `SHORT,LONG@P` (each length 1 to 255): the range of lengths, and for
/// the last the fraction of long messages.
fn parse_bytes(text: &str) -> anyhow::Result<(std::ops::RangeInclusive<u8>, Option<f64>)> {
    let bad = || {
        anyhow::anyhow!(
            "message bytes '{text}' is not N, LO..HI or SHORT,LONG@P with 1 <= LO <= HI <= 255 and 0 <= P <= 1"
        )
    };
    let number = |s: &str| {
        s.trim()
            .parse::<u8>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(bad)
    };
    if let Some((lengths, p)) = text.split_once('@') {
        let (short, long) = lengths.split_once(',').ok_or_else(bad)?;
        let (short, long) = (number(short)?, number(long)?);
        let p: f64 = p.trim().parse().map_err(|_| bad())?;
        if short > long {
            return Err(bad());
        }
        return Ok((short..=long, Some(p)));
    }
    let (lo, hi) = text.split_once("..").unwrap_or((text, text));
    let (lo, hi) = (number(lo)?, number(hi)?);
    if lo > hi {
        return Err(bad());
    }
    Ok((lo..=hi, None))
}

/// `ON,OFF`: the mean on and off periods of bursty injection, in cycles.
fn parse_burst(text: &str) -> anyhow::Result<Burst> {
    let (on, off) = text
        .split_once(',')
        .and_then(|(on, off)| Some((on.trim().parse().ok()?, off.trim().parse().ok()?)))
        .ok_or_else(|| anyhow::anyhow!("--burst '{text}' is not ON,OFF, two numbers of cycles"))?;
    Ok(Burst { on, off })
}
