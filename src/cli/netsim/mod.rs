//! The `netsim` subcommand: runs the golden model of a whole network (switches, routers
//! with their route generators or route tables, processors) as the network-switch paper
//! (Smit et al. 1991; see docs/papers.md) builds it, on any topology of the registry
//! (`--topology`, docs/topologies.md), under a chosen traffic and faults, and prints what
//! it measured (docs/network.md). With `--routing` the switches of the bidirectional torus
//! route instead, with the k-ary n-cube paper's algorithms, on the same engine
//! (docs/torus.md); `netsim torus` is the short form of such a run.
//!
//! In: the topology, the routing, the traffic, the faults, the run's length and seed. Out:
//! a table or one JSON object on standard output, and with `--trace` one JSON line per
//! message in a file.
//!
//! Its subcommands are files of this folder: `netsim sweep` ([`sweep`]), `netsim torus`
//! ([`torus`]) and its `fig4` ([`fig4`]), which share the shards of a sweep ([`shards`]);
//! so are the table it prints ([`table`]) and the repeated runs of `--seeds` ([`seeds`]).

use crate::choice::Choice;
use crate::cli::input_error;
use crate::cli::output::{Format, print_stdout};
use crate::cli::progress;
use crate::fabric::switch::{Arbiter, Flow};
use crate::network::net::{FaultSpec, Measure, Net, NetParams, Routing};
use crate::network::params::DEFAULT_BUFFER_FLITS;
use crate::network::plan::Plan;
use crate::network::replay::{Replayed, read_trace};
use crate::network::trace::trace_line;
use crate::network::traffic::{Burst, Pattern, Traffic};
use crate::output;
use crate::routing::torus::{Algorithm, Reading};
use crate::units::choice_arg::choice;
use crate::units::topology_args::TopologyArgs;
use anyhow::Context;
use std::path::{Path, PathBuf};

mod fig4;
mod seeds;
mod shards;
mod sweep;
mod table;
mod torus;

/// Simulate a whole network of switches, message by message, cycle by cycle.
#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    allow_negative_numbers = true,
    long_about = "Simulates a network as Smit, Havinga and Jansen build it in \"On the design of a \
dynamic reconfigurable network switch\" (1991): at every node a network switch, a \
router and a processor that makes messages. On K(d,k) the router holds a route generator; \
on every other topology a route table (docs/topologies.md). A message goes over the \
first of its routes; on NACK the router tries the next; after the last NACK the \
processor is told it failed. The model is cycle-exact with the generated RTL \
(docs/network.md).\n\n\
Processors inject for --cycles cycles, then the network drains until nothing is in flight.",
    after_help = "Examples:\n  \
kautzgen netsim --d 2 --k 3 --rate 0.01 --cycles 10000 --seed 1\n  \
kautzgen netsim --d 4 --k 5 --rate 0.002 --cycles 5000 --seed 7 --random-faulty-nodes 3 --format json\n  \
kautzgen netsim --d 2 --k 3 --rate 0.02 --cycles 2000 --seed 1 --faulty-node 010 --trace trace.jsonl\n  \
kautzgen netsim --topology torus --k 4 --n 2 --rate 0.01 --cycles 10000 --faulty-link 1,2:3\n  \
kautzgen netsim --topology torus --k 8 --n 2 --routing direction-first --message-bytes 4 --rate 0.02 --cycles 1000"
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    topology: TopologyArgs,
    /// Messages per healthy node per cycle, 0 to 1 [default with --traffic-file: 0]
    #[arg(long, required_unless_present = "traffic_file")]
    rate: Option<f64>,
    /// Cycles during which processors inject; the run then drains [default with
    /// --traffic-file: to its last message]
    #[arg(long, required_unless_present = "traffic_file")]
    cycles: Option<u64>,
    /// Measure: W cycles of traffic first, then --cycles whose messages alone are counted
    /// while the sources go on making messages until those have ended (docs/network.md,
    /// "Measurement")
    #[arg(long, value_name = "W")]
    warmup: Option<u64>,
    /// With --warmup: the most cycles after the window for its messages to end before the
    /// run is reported unstable [default: warm-up plus window]
    #[arg(long, value_name = "D", requires = "warmup")]
    drain_limit: Option<u64>,
    /// Replay the messages of FILE, one a line: CYCLE SOURCE DESTINATION BYTES, the nodes
    /// named as --topology names them (docs/network.md, "Traffic from a file")
    #[arg(long, value_name = "FILE")]
    traffic_file: Option<PathBuf>,
    /// Seed of the traffic, the faults drawn and the messages' bytes
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run the point with N seeds, --seed and the N-1 after it, and report each figure's
    /// mean and 95% confidence half-width
    #[arg(long, default_value_t = 1, value_name = "N")]
    seeds: u64,
    /// Destinations: uniform, a fixed permutation, a hot spot, or a pattern of the field
    /// (docs/network.md, "Traffic patterns")
    #[arg(long, value_parser = choice::<Pattern>(), default_value = Pattern::Uniform.name())]
    traffic: Pattern,
    /// Hot spot: the fraction of messages sent to the hot node
    #[arg(long, default_value_t = 0.2, value_name = "F")]
    hot_fraction: f64,
    /// Data bytes per message: N; LO..HI drawn uniformly; or SHORT,LONG@P, LONG bytes with
    /// probability P and SHORT otherwise
    #[arg(long, default_value = "16", value_name = "N|LO..HI|SHORT,LONG@P")]
    message_bytes: String,
    /// On-off injection: on periods of ON cycles and off periods of OFF cycles on average;
    /// a node makes messages only while on, at rate R(ON+OFF)/ON, so that its average is
    /// --rate R
    #[arg(long, value_name = "ON,OFF")]
    burst: Option<String>,
    /// The router's message buffer in bytes (1 to 255)
    #[arg(long, default_value_t = 16)]
    max_bytes: u64,
    /// Faulty nodes drawn by the seed
    #[arg(long, default_value_t = 0, value_name = "F")]
    random_faulty_nodes: u64,
    /// Faulty links drawn by the seed, after the faulty nodes, among the links not named
    #[arg(long, default_value_t = 0, value_name = "F")]
    random_faulty_links: u64,
    /// A faulty node, named as --topology names it (repeatable)
    #[arg(long = "faulty-node", value_name = "NODE")]
    faulty_nodes: Vec<String>,
    /// A faulty link: the out-link of NODE by LETTER on K(d,k), by switch PORT (1 to d)
    /// on every other topology (repeatable)
    #[arg(long = "faulty-link", value_name = "NODE:LETTER|PORT")]
    faulty_links: Vec<String>,
    /// Rounds of attempts, one per route, before a message is given up; rounds after the
    /// first start after a random delay of 1 to 64 cycles
    #[arg(long, default_value_t = 1, value_name = "R")]
    retry_rounds: u32,
    /// Output arbitration of the switches
    #[arg(long, value_parser = choice::<Arbiter>(), default_value = Arbiter::RoundRobin.name())]
    arbiter: Arbiter,
    /// The switches' flow control (docs/flow-control.md): with vct and saf, buffers hold
    /// the longest worm and the routers acknowledge every message
    #[arg(long, value_parser = choice::<Flow>(), default_value = Flow::Nack.name())]
    flow: Flow,
    /// Switches route each header with this algorithm of the k-ary n-cube paper, and a
    /// blocked header waits (wormhole with backpressure), instead of following the source's
    /// route; the bidirectional torus only (docs/torus.md)
    #[arg(long, value_parser = choice::<Algorithm>(), value_name = "ALGO")]
    routing: Option<Algorithm>,
    /// With --routing: flits each switch input holds (a message of N bytes is N flits)
    #[arg(long, value_name = "B")]
    buffer_flits: Option<u64>,
    /// With --routing double-e-cube or direction-first: when a worm selects its pair of
    /// dimensions [default: reselect]
    #[arg(long, value_parser = choice::<Reading>())]
    reading: Option<Reading>,
    /// A message made at cycle 0, before the traffic's, of --message-bytes bytes
    /// (repeatable)
    #[arg(long = "message", value_name = "SRC:DST")]
    messages: Vec<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write one JSON line per message to FILE
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    Sweep(sweep::Args),
    Torus(torus::Args),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Some(Command::Sweep(sweep)) => return sweep::run(sweep),
        Some(Command::Torus(torus)) => return torus::run(torus),
        None => {}
    }
    let mut params = params(&args)?;
    let mut messages = placed(&args.messages, &params).map_err(input_error)?;
    if let Some(path) = &args.traffic_file {
        let replayed = replayed(path, &params)?;
        if args.cycles.is_none() {
            params.cycles = replayed.iter().map(|m| m.1.0 + 1).max().unwrap_or(0);
        }
        messages.extend(replayed);
    }
    match args.seeds {
        0 => Err(input_error(anyhow::anyhow!(
            "--seeds must be at least 1, got 0"
        ))),
        1 => simulate(&params, &messages, args.trace.as_deref(), args.format),
        _ if args.trace.is_some() => Err(input_error(anyhow::anyhow!(
            "--trace writes one run's messages: give it without --seeds"
        ))),
        count => seeds::run(&params, &messages, count, args.format),
    }
}

/// The messages of the trace at `path` on `params`'s network, with their lines.
fn replayed(path: &Path, params: &NetParams) -> anyhow::Result<Vec<(Option<String>, Replayed)>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| input_error(anyhow::anyhow!("cannot read {}: {e}", path.display())))?;
    let messages = read_trace(&text, params.plan.as_ref())
        .map_err(|e| input_error(anyhow::anyhow!("{}: {e}", path.display())))?;
    Ok(messages
        .into_iter()
        .map(|(line, m)| (Some(format!("{}: line {line}", path.display())), m))
        .collect())
}

/// Runs `params` with `messages` placed by hand (those from a file named by their line, for
/// their errors), writes the trace if asked, and prints the figures.
pub(super) fn simulate(
    params: &NetParams,
    messages: &[(Option<String>, Replayed)],
    trace: Option<&Path>,
    format: Format,
) -> anyhow::Result<()> {
    let mut net = Net::new(params).map_err(input_error)?;
    for (name, (cycle, src, dst, bytes)) in messages {
        net.schedule(*cycle, *src, *dst, *bytes)
            .map_err(|e| match name {
                Some(name) => input_error(anyhow::anyhow!("{name}: {e}")),
                None => input_error(e),
            })?;
    }
    let healthy = net.healthy().len();
    let idle = net.idle_nodes();
    let faulty_links = link_names(params.plan.as_ref(), &net.faults().links);
    let plan = net.plan().clone();
    let bar = progress::bar(params.cycles, "netsim", "cycles");
    let on_cycles = |t: u64| bar.set_position(t.min(params.cycles));
    let summary = match trace {
        None => net.run_observed(|_| {}, on_cycles),
        Some(path) => output::file::write_with(path, |out| {
            let mut failure = Ok(());
            let summary = net.run_observed(
                |finished| {
                    if failure.is_ok() {
                        failure = writeln!(out, "{}", trace_line(plan.as_ref(), finished));
                    }
                },
                on_cycles,
            );
            failure.map(|()| summary)
        })?,
    };
    bar.finish_and_clear();
    if let Some(violation) = summary.flow.as_ref().and_then(|f| f.violation()) {
        anyhow::bail!(
            "the network model broke acknowledged delivery: {violation} (docs/flow-control.md)"
        );
    }
    let text = match format {
        Format::Json => {
            let mut value = serde_json::to_value(&summary).context("summary as JSON")?;
            value["healthy_nodes"] = healthy.into();
            if idle > 0 {
                value["idle_nodes"] = idle.into();
            }
            if !faulty_links.is_empty() {
                value["faulty_links"] = faulty_links.into();
            }
            format!("{value}\n")
        }
        Format::Text => {
            let mut text = table::table(params, (healthy, idle), &faulty_links, &summary);
            if !messages.is_empty() {
                let at = text.find('\n').map_or(0, |i| i + 1);
                let placed = format!(
                    "{} messages placed by hand (--message, --traffic-file) besides the traffic's\n",
                    messages.len()
                );
                text.insert_str(at, &placed);
            }
            text
        }
    };
    print_stdout(&text)
}

/// Faulty `links` (node, switch port) as `--faulty-link` names them: NODE:LETTER on K(d,k),
/// NODE:PORT on every other topology.
fn link_names(plan: &dyn Plan, links: &[(u32, usize)]) -> Vec<String> {
    links
        .iter()
        .map(|&(v, port)| plan.link_name(v as usize, port))
        .collect()
}

/// The messages of `--message SRC:DST`, made at cycle 0 with the message bytes, which must
/// then be one number.
fn placed(texts: &[String], params: &NetParams) -> anyhow::Result<Vec<(Option<String>, Replayed)>> {
    let bytes = &params.traffic.bytes;
    if !texts.is_empty() && bytes.start() != bytes.end() {
        anyhow::bail!("--message needs --message-bytes N, one length, not a range");
    }
    let plan = params.plan.as_ref();
    texts
        .iter()
        .map(|text| {
            let (src, dst) = text
                .rsplit_once(':')
                .ok_or_else(|| anyhow::anyhow!("message '{text}' is not SRC:DST"))?;
            let (src, dst) = (plan.parse_node(src)?, plan.parse_node(dst)?);
            let message = (0, src as u32, dst as u32, *bytes.start());
            Ok((None, message))
        })
        .collect()
}

/// The run's parameters from the command line, every one checked.
fn params(args: &Args) -> anyhow::Result<NetParams> {
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
            rate: args.rate.unwrap_or(0.0),
            bytes,
            long_fraction,
            hot_fraction: args.hot_fraction,
            burst,
        },
        cycles: args.cycles.unwrap_or(0),
        measure: args.warmup.map(|warmup| Measure {
            warmup,
            drain_limit: args
                .drain_limit
                .unwrap_or(warmup + args.cycles.unwrap_or(0)),
        }),
        seed: args.seed,
        faults,
        retry_rounds: args.retry_rounds,
    })
}

/// The faults named on the command line, in `plan`'s names.
fn fault_spec(args: &Args, plan: &dyn Plan) -> anyhow::Result<FaultSpec> {
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
