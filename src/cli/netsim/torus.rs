//! `kautzgen netsim torus`: the short form of `netsim --topology torus --routing ALGO`, in
//! the k-ary n-cube paper's terms (Demaine and Srinivas; see docs/papers.md): the
//! bidirectional k-ary n-cube whose switches route, under uniform traffic of fixed-length
//! worms, faulty links named in the cube's port names, and messages placed at cycle 0. It
//! runs on the shared network engine and prints what `netsim` prints, with the cycle of
//! waiting worms on deadlock (docs/torus.md).
//!
//! In: the cube, the algorithm, the traffic, the faults, the run's length and seed. Out: a
//! table or one JSON object on standard output, and with `--trace` one JSON line per
//! message in a file.

use super::envelope::Config;
use crate::choice::Choice;
use crate::cli::input_error;
use crate::cli::output::Format;
use crate::cli::shard::Job;
use crate::network::cube_run::{CubeRun, DEFAULT_MESSAGE_FLITS};
use crate::network::params::DEFAULT_BUFFER_FLITS;
use crate::routing::torus::{Algorithm, Reading};
use crate::topology::torus::{Node, Rings, Torus};
use crate::units::choice_arg::choice;
use std::path::PathBuf;

/// Simulate a k-ary n-cube with wormhole flow control, flit by flit.
#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    long_about = "Simulates the k-ary n-cube of Demaine and Srinivas, \"A novel routing algorithm \
for k-ary n-cube interconnection networks\", with wormhole flow control and no \
virtual channels: a worm holds every channel (link and the input buffer behind it) from its \
header to its tail; each switch routes a header with the golden routing function among its \
free, healthy outputs, and a blocked header waits in place. Nodes make messages for --cycles \
cycles, then the network drains. A cycle in which worms are in flight and no flit moves is a \
deadlock: the run stops and prints the worms waiting on each other (docs/torus.md). \
It is the short form of netsim --topology torus --k K --n N --routing ALGO --message-bytes L \
--max-bytes L, on the same engine, with the same output.",
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
    /// When double-e-cube and direction-first select their pair of dimensions
    #[arg(long, value_parser = choice::<Reading>(), default_value = Reading::Reselect.name())]
    reading: Reading,
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
    /// Write one JSON line per message to FILE
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    Fig4(super::fig4::Args),
}

/// The job of `netsim torus fig4`, the only shardable command here.
pub fn job(args: Args) -> anyhow::Result<Option<Box<dyn Job>>> {
    match args.command {
        Some(Command::Fig4(fig4)) => Ok(Some(Box::new(super::fig4::job(fig4)?))),
        None => Ok(None),
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(Command::Fig4(fig4)) = args.command {
        return super::fig4::run(fig4);
    }
    let (run, messages) = cube_run(&args)?;
    let params = run.params().map_err(input_error)?;
    // The run's parameters are checked: the flits fit a byte.
    let flits = run.message_flits as u8;
    let messages: Vec<_> = messages
        .iter()
        .map(|(src, dst)| {
            let (s, d) = (run.cube.index_of(src) as u32, run.cube.index_of(dst) as u32);
            (None, (0, s, d, flits))
        })
        .collect();
    let config = Config {
        run: params.config("torus", &cube_options(run.cube)),
        seeds: 1,
        messages: args.messages.clone(),
        traffic_file: None,
    };
    let run = super::Run {
        params: &params,
        messages: &messages,
        netrace: None,
        config: &config,
    };
    let output = super::RunOutput {
        trace: args.trace.as_deref(),
        per_link: false,
        heatmap: None,
        histogram: None,
        format: args.format,
        out: None,
    };
    super::simulate(run, output)
}

/// The options of `netsim --topology torus` that make `cube`, bidirectional as here.
fn cube_options(cube: Torus) -> String {
    format!(
        "--topology torus --k {} --n {} --rings {}",
        cube.k(),
        cube.n(),
        Rings::Bidirectional.name()
    )
}

/// The run and its placed messages from the command line, every name checked.
fn cube_run(args: &Args) -> anyhow::Result<(CubeRun, Vec<(Node, Node)>)> {
    let required = "clap makes --k, --n, --algo, --rate and --cycles required without a subcommand";
    let cube = Torus::new(args.k.expect(required), args.n.expect(required)).map_err(input_error)?;
    let mut faulty_links = Vec::new();
    for text in &args.faulty_links {
        let link = cube.parse_link(text).map_err(input_error)?;
        if faulty_links.contains(&link) {
            return Err(input_error(anyhow::anyhow!(
                "faulty link {link} is given twice"
            )));
        }
        faulty_links.push(link);
    }
    let mut messages = Vec::new();
    for text in &args.messages {
        let (src, dst) = text.split_once(':').ok_or_else(|| {
            input_error(anyhow::anyhow!(
                "message '{text}' is not SRC:DST, e.g. 0,0:0,2"
            ))
        })?;
        let src = cube.parse_node(src).map_err(input_error)?;
        let dst = cube.parse_node(dst).map_err(input_error)?;
        messages.push((src, dst));
    }
    let run = CubeRun {
        cube,
        algorithm: args.algo.expect(required),
        reading: args.reading,
        rate: args.rate.expect(required),
        cycles: args.cycles.expect(required),
        seed: args.seed,
        message_flits: args.message_flits,
        buffer_flits: args.buffer_flits,
        faulty_links,
        random_faulty_links: args.random_faulty_links,
    };
    Ok((run, messages))
}
