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

use crate::cli::input_error;
use crate::cli::output::{Format, check_out, write_or_print};
use crate::cli::progress;
use crate::cli::shard::Job;
use crate::cli::shard::{self, ShardArg};
use crate::experiments::plot::histogram_svg;
use crate::network::net::{Net, NetParams};
use crate::network::plan::Plan;
use crate::network::replay::Replayed;
use crate::network::stats::SUMMARY_UNITS;
use crate::network::trace::trace_line;
use crate::output;
use anyhow::Context;
use envelope::{Config, Kind, envelope};
use options::NetworkArgs;
use placed::{NetraceNote, placed, traffic_file};
use std::path::{Path, PathBuf};
use std::time::Instant;

mod compare;
mod envelope;
mod fig4;
mod heatmap;
pub mod options;
mod placed;
mod saturate;
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
    network: NetworkArgs,
    /// Messages per healthy node per cycle, 0 to 1 [default with --traffic-file: 0]
    #[arg(long, required_unless_present = "traffic_file")]
    rate: Option<f64>,
    /// Cycles during which processors inject; the run then drains [default with
    /// --traffic-file: to its last message]
    #[arg(long, required_unless_present = "traffic_file")]
    cycles: Option<u64>,
    /// Replay the messages of FILE, one a line: CYCLE SOURCE DESTINATION BYTES, the nodes
    /// named as --topology names them; or the packets of a Netrace trace, its node i the
    /// node of index i; either may be bzip2-compressed (docs/network.md, "Traffic from a
    /// file")
    #[arg(long, value_name = "FILE")]
    traffic_file: Option<PathBuf>,
    /// Run the point with N seeds, --seed and the N-1 after it, and report each figure's
    /// mean and 95% confidence half-width
    #[arg(long, default_value_t = 1, value_name = "N")]
    seeds: u64,
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
    /// List every link's use in the window (words, utilisation, NACKs): `per_link` in the
    /// JSON, a table after the figures in text
    #[arg(long)]
    per_link: bool,
    /// Draw every link's utilisation and NACKs on the network, as `draw` lays it out, to
    /// FILE (.svg, or .dot for Graphviz's source); networks of up to 400 nodes
    #[arg(long, value_name = "FILE")]
    heatmap: Option<PathBuf>,
    /// Draw the histogram of the delivered messages' total latency (doubling buckets) to
    /// FILE, an SVG
    #[arg(long, value_name = "FILE")]
    histogram: Option<PathBuf>,
    #[command(flatten)]
    shard: ShardArg,
    /// Write the table or JSON to FILE instead of standard output; with --shard (of the
    /// runs of --seeds), the part
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// What a single run writes besides its figures, in which format, and where the figures go
/// (standard output without `out`).
#[derive(Debug, Clone, Copy)]
struct RunOutput<'a> {
    pub trace: Option<&'a Path>,
    pub per_link: bool,
    pub heatmap: Option<&'a Path>,
    pub histogram: Option<&'a Path>,
    pub format: Format,
    pub out: Option<&'a Path>,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    Sweep(sweep::Args),
    Saturate(saturate::Args),
    Compare(compare::Args),
    Torus(torus::Args),
}

/// The job of a shardable netsim command line (`netsim --seeds N`, N >= 2, and the
/// subcommands that are shardable); `None` for one that runs whole.
pub fn job(args: Args) -> anyhow::Result<Option<Box<dyn Job>>> {
    Ok(match args.command {
        Some(Command::Sweep(sweep)) => Some(Box::new(sweep::job(sweep)?)),
        Some(Command::Saturate(saturate)) => Some(Box::new(saturate::job(saturate)?)),
        Some(Command::Compare(compare)) => Some(Box::new(compare::job(compare)?)),
        Some(Command::Torus(torus)) => return torus::job(torus),
        None if args.seeds < 2 => None,
        None => Some(Box::new(seeds_job(&args, Point::of(&args)?)?)),
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Some(Command::Sweep(sweep)) => return sweep::run(sweep),
        Some(Command::Saturate(saturate)) => return saturate::run(saturate),
        Some(Command::Compare(compare)) => return compare::run(compare),
        Some(Command::Torus(torus)) => return torus::run(torus),
        None => {}
    }
    let shard = args.shard.shard()?;
    let point = Point::of(&args)?;
    match args.seeds {
        0 => Err(input_error(anyhow::anyhow!(
            "--seeds must be at least 1, got 0"
        ))),
        1 if shard.is_some() => Err(input_error(anyhow::anyhow!(
            "--shard splits the runs of --seeds: give --seeds 2 or more"
        ))),
        1 => {
            let output = RunOutput {
                trace: args.trace.as_deref(),
                per_link: args.per_link,
                heatmap: args.heatmap.as_deref(),
                histogram: args.histogram.as_deref(),
                format: args.format,
                out: args.out.as_deref(),
            };
            simulate(point.run(), output)
        }
        _ => shard::execute(&seeds_job(&args, point)?, shard, args.out.as_deref()),
    }
}

/// The runs of `--seeds` of `point`; an error if the command line asks for what only one
/// run shows.
fn seeds_job(args: &Args, point: Point) -> anyhow::Result<seeds::Seeds> {
    if args.trace.is_some() || args.per_link || args.heatmap.is_some() || args.histogram.is_some() {
        return Err(input_error(anyhow::anyhow!(
            "--trace, --per-link, --heatmap and --histogram show one run: give them without --seeds"
        )));
    }
    Ok(seeds::Seeds {
        point,
        count: args.seeds,
        format: args.format,
        out: args.out.clone(),
    })
}

/// The point of a netsim command line: its parameters, the messages placed by hand and
/// those of `--traffic-file`, the Netrace trace they came from, if they did, and its
/// configuration as the JSON reports it.
struct Point {
    params: NetParams,
    messages: Vec<(Option<String>, Replayed)>,
    netrace: Option<NetraceNote>,
    config: Config,
}

impl Point {
    /// The point of `args`, checked.
    fn of(args: &Args) -> anyhow::Result<Point> {
        let mut params = args
            .network
            .params(args.rate.unwrap_or(0.0), args.cycles.unwrap_or(0))?;
        let mut messages = placed(&args.messages, &params).map_err(input_error)?;
        let mut netrace = None;
        if let Some(path) = &args.traffic_file {
            let file = traffic_file(path, &params)?;
            if args.cycles.is_none() {
                params.cycles = file.messages.iter().map(|m| m.1.0 + 1).max().unwrap_or(0);
            }
            messages.extend(file.messages);
            netrace = file.netrace;
        }
        let config = Config {
            run: params.config(
                args.network.topology.kind.name(),
                &args.network.topology.command_line(),
            ),
            seeds: args.seeds,
            messages: args.messages.clone(),
            traffic_file: args.traffic_file.as_ref().map(|p| p.display().to_string()),
        };
        Ok(Point {
            params,
            messages,
            netrace,
            config,
        })
    }

    /// The point as a run to simulate.
    fn run(&self) -> Run<'_> {
        Run {
            params: &self.params,
            messages: &self.messages,
            netrace: self.netrace.as_ref(),
            config: &self.config,
        }
    }
}

/// One run to simulate: its parameters, the messages placed by hand (those from a file
/// named for their errors), the Netrace trace they came from, if they did, and its
/// configuration as the JSON reports it.
#[derive(Clone, Copy)]
struct Run<'a> {
    pub params: &'a NetParams,
    pub messages: &'a [(Option<String>, Replayed)],
    pub netrace: Option<&'a NetraceNote>,
    pub config: &'a Config,
}

/// The units of the numbers a single run's JSON has besides its summary's.
const RUN_UNITS: [(&str, &str); 2] = [("healthy_nodes", "nodes"), ("idle_nodes", "nodes")];

/// Simulates `run`, writes the trace and the heat map if asked, and prints the figures (or
/// writes them to `output.out`).
fn simulate(run: Run, output: RunOutput) -> anyhow::Result<()> {
    let started = Instant::now();
    let Run {
        params,
        messages,
        netrace,
        config,
    } = run;
    let RunOutput { trace, format, .. } = output;
    check_out(output.out)?;
    let heatmap = output
        .heatmap
        .map(|path| heatmap::Target::of(path, params.plan.as_ref()))
        .transpose()?;
    let mut net = placed_net(params, messages)?;
    if output.per_link || heatmap.is_some() {
        net.count_every_link();
    }
    let healthy = net.healthy().len();
    let idle = net.idle_nodes();
    let faulty_links = link_names(params.plan.as_ref(), &net.faults().links);
    let plan = net.plan().clone();
    let bar = progress::bar(params.cycles, "netsim", "cycles");
    let on_cycles = |t: u64| bar.set_position(t.min(params.cycles));
    let mut summary = match trace {
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
    if let Some(target) = heatmap {
        target.write(plan.as_ref(), &summary.per_link)?;
    }
    if let Some(path) = output.histogram {
        let buckets = summary
            .latency
            .as_ref()
            .map_or(Vec::new(), |l| l.histogram.clone());
        let title = format!("{}: latency of the delivered messages", plan.name());
        let svg = histogram_svg(&title, &[("total latency".to_string(), buckets)])
            .map_err(|e| anyhow::anyhow!("cannot draw the histogram: {e}"))?;
        output::file::write(path, svg.as_bytes())?;
    }
    if !output.per_link {
        summary.per_link.clear();
    }
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
            if let Some(netrace) = netrace {
                value["netrace"] = serde_json::to_value(netrace).context("trace as JSON")?;
            }
            {
                let kind = Kind::new("run", "", &SUMMARY_UNITS)
                    .with("", &RUN_UNITS)
                    .with("netrace.", &NetraceNote::UNITS);
                format!("{}\n", envelope(kind, config, value)?)
            }
        }
        Format::Text => {
            let mut text = table::table(params, (healthy, idle), &faulty_links, &summary);
            let at = text.find('\n').map_or(0, |i| i + 1);
            text.insert_str(at, &placed_lines(run));
            text
        }
    };
    write_or_print(output.out, &text)?;
    progress::wall_time("netsim", started);
    Ok(())
}

/// The lines under the table's title that say which messages were placed by hand, and
/// which Netrace trace they came from; none without them.
fn placed_lines(run: Run) -> String {
    let mut lines = String::new();
    if !run.messages.is_empty() {
        lines += &format!(
            "{} messages placed by hand (--message, --traffic-file) besides the traffic's\n",
            run.messages.len()
        );
    }
    if let Some(NetraceNote { header, to_self }) = run.netrace {
        lines += &format!(
            "Netrace trace {}: {} nodes, {} cycles, {} packets, {to_self} of them from a node \
             to itself not replayed\n",
            header.benchmark, header.nodes, header.cycles, header.packets
        );
    }
    lines
}

/// The network of `params` with `messages` scheduled, a message's error named by its
/// place (a file's line).
fn placed_net(params: &NetParams, messages: &[(Option<String>, Replayed)]) -> anyhow::Result<Net> {
    let mut net = Net::new(params).map_err(input_error)?;
    for (name, (cycle, src, dst, bytes)) in messages {
        net.schedule(*cycle, *src, *dst, *bytes)
            .map_err(|e| match name {
                Some(name) => input_error(anyhow::anyhow!("{name}: {e}")),
                None => input_error(e),
            })?;
    }
    Ok(net)
}

/// Faulty `links` (node, switch port) as `--faulty-link` names them: NODE:LETTER on K(d,k),
/// NODE:PORT on every other topology.
fn link_names(plan: &dyn Plan, links: &[(u32, usize)]) -> Vec<String> {
    links
        .iter()
        .map(|&(v, port)| plan.link_name(v as usize, port))
        .collect()
}
