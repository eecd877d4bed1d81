//! `kautzgen netsim torus`: runs the wormhole model of a k-ary n-cube (as in Demaine and
//! Srinivas's k-ary n-cube paper; see docs/papers.md) under uniform traffic, faulty links and
//! messages placed at cycle 0, and prints what it measured, with the cycle of waiting worms
//! on deadlock (docs/torus.md).
//!
//! In: the cube, the algorithm, the traffic, the faults, the run's length and seed. Out: a
//! table or one JSON object on standard output.

use crate::choice::Choice;
use crate::cli::input_error;
use crate::cli::output::{Format, print_stdout};
use crate::network::torus_net::{
    DEFAULT_BUFFER_FLITS, DEFAULT_MESSAGE_FLITS, TorusNet, TorusParams, TorusSummary,
};
use crate::routing::torus::Algorithm;
use crate::topology::torus::Torus;
use crate::units::choice_arg::choice;
use anyhow::Context;

/// Simulate a k-ary n-cube with wormhole flow control, flit by flit.
#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    long_about = "Simulates the k-ary n-cube of Demaine and Srinivas, \"A novel routing algorithm \
for k-ary n-cube interconnection networks\", with wormhole flow control and no \
virtual channels: a worm holds every channel (link and the input buffer behind it) from its \
header to its tail; each router routes a header with the golden routing function among its \
free, healthy outputs, and a blocked header waits in place. Nodes make messages for --cycles \
cycles, then the network drains. A cycle in which worms are in flight and no flit moves is a \
deadlock: the run stops and prints the worms waiting on each other (docs/torus.md).",
    after_help = "Examples:\n  \
kautzgen netsim torus --k 8 --n 2 --algo direction-first --rate 0.02 --cycles 1000 --seed 1\n  \
kautzgen netsim torus --k 2 --n 6 --algo e-cube --rate 0.2 --cycles 30 --random-faulty-links 2 --format json\n  \
kautzgen netsim torus --k 5 --n 2 --algo e-cube --rate 0 --cycles 0 --message 0,0:0,2 \
--message 0,1:0,3 --message 0,2:0,4 --message 0,3:0,0 --message 0,4:0,1\n  \
kautzgen netsim torus fig4 --out fig4"
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Nodes per ring (k >= 2; k = 2 is the hypercube)
    #[arg(long, required = true)]
    k: Option<u64>,
    /// Number of dimensions (n >= 1; n = 2 for west-first, n >= 2 for double e-cube and
    /// direction-first)
    #[arg(long, required = true)]
    n: Option<u64>,
    /// Routing algorithm: e-cube, double-e-cube, west-first or direction-first
    #[arg(long, required = true, value_parser = choice::<Algorithm>())]
    algo: Option<Algorithm>,
    /// Messages per node per cycle, 0 to 1
    #[arg(long, required = true)]
    rate: Option<f64>,
    /// Cycles during which nodes make messages; the run then drains
    #[arg(long, required = true)]
    cycles: Option<u64>,
    /// Seed of the traffic and the faulty links drawn
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A faulty output link NODE:PORT, e.g. 1,0:+0 (repeatable)
    #[arg(long = "faulty-link", value_name = "NODE:PORT")]
    faulty_links: Vec<String>,
    /// Faulty links drawn by the seed among the others
    #[arg(long, default_value_t = 0, value_name = "F")]
    random_faulty_links: u64,
    /// Flits per message, header included (1 to 255)
    #[arg(long, default_value_t = DEFAULT_MESSAGE_FLITS, value_name = "L")]
    message_flits: u64,
    /// Flits the input buffer of each channel holds
    #[arg(long, default_value_t = DEFAULT_BUFFER_FLITS, value_name = "B")]
    buffer_flits: u64,
    /// A message made at cycle 0 before the traffic's, e.g. 0,0:0,2 (repeatable)
    #[arg(long = "message", value_name = "SRC:DST")]
    messages: Vec<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    Fig4(super::fig4::Args),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(Command::Fig4(fig4)) = args.command {
        return super::fig4::run(fig4);
    }
    let params = params(&args)?;
    let summary = TorusNet::new(&params).map_err(input_error)?.run();
    let text = match args.format {
        Format::Json => {
            let mut value = serde_json::to_value(&summary).context("summary as JSON")?;
            value["nodes"] = params.torus.node_count().into();
            format!("{value}\n")
        }
        Format::Text => table(&params, &summary),
    };
    print_stdout(&text)
}

/// The run's parameters from the command line, every one checked.
fn params(args: &Args) -> anyhow::Result<TorusParams> {
    let required = "clap makes --k, --n, --algo, --rate and --cycles required without a subcommand";
    let torus =
        Torus::new(args.k.expect(required), args.n.expect(required)).map_err(input_error)?;
    let faulty_links = args
        .faulty_links
        .iter()
        .map(|text| torus.parse_link(text).map_err(input_error))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut messages = Vec::new();
    for text in &args.messages {
        let (src, dst) = text.split_once(':').ok_or_else(|| {
            input_error(anyhow::anyhow!(
                "message '{text}' is not SRC:DST, e.g. 0,0:0,2"
            ))
        })?;
        let src = torus.parse_node(src).map_err(input_error)?;
        let dst = torus.parse_node(dst).map_err(input_error)?;
        messages.push((src, dst));
    }
    Ok(TorusParams {
        torus,
        algorithm: args.algo.expect(required),
        rate: args.rate.expect(required),
        cycles: args.cycles.expect(required),
        seed: args.seed,
        message_flits: args.message_flits,
        buffer_flits: args.buffer_flits,
        faulty_links,
        random_faults: args.random_faulty_links,
        messages,
    })
}

/// The figures as an aligned table under a line that names the run, then the deadlock.
fn table(params: &TorusParams, s: &TorusSummary) -> String {
    let mut text = format!(
        "{} {}: uniform traffic at rate {} for {} cycles, {} flits a message, {}-flit buffers, seed {}\n",
        params.torus,
        params.algorithm.name(),
        params.rate,
        params.cycles,
        params.message_flits,
        params.buffer_flits,
        params.seed
    );
    if !s.faulty_links.is_empty() {
        text += &format!("faulty links: {}\n", s.faulty_links.join(" "));
    }
    let optional =
        |x: Option<f64>, unit: &str| x.map_or("-".to_string(), |x| format!("{x:.2}{unit}"));
    let rows = [
        ("injected", s.injected.to_string()),
        ("delivered", s.delivered.to_string()),
        ("dropped", s.dropped.to_string()),
        ("in flight", s.in_flight.to_string()),
        ("queued", s.queued.to_string()),
        ("mean latency", optional(s.mean_latency, " cycles")),
        (
            "p99 latency",
            s.p99_latency
                .map_or("-".to_string(), |x| format!("{x} cycles")),
        ),
        ("mean hops", optional(s.mean_hops, "")),
        ("mean extra hops", optional(s.mean_extra_hops, "")),
        (
            "throughput",
            format!("{:.4} flits/node/cycle", s.throughput),
        ),
        (
            "deadlock",
            if s.deadlock { "yes" } else { "no" }.to_string(),
        ),
        ("cycles run", s.cycles.to_string()),
    ];
    for (name, value) in rows {
        text.push_str(&format!("{name:<16} {value}\n"));
    }
    if s.deadlock {
        text += "worms waiting on each other:\n";
        for w in &s.wait_cycle {
            let holds = if w.holds.is_empty() {
                "nothing (at its source)".to_string()
            } else {
                w.holds.join(" ")
            };
            text += &format!(
                "  worm {} ({} -> {}) at {} holds {holds} wants {} held by worm {}\n",
                w.worm, w.src, w.dst, w.node, w.wants, w.held_by
            );
        }
    }
    text
}
