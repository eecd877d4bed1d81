//! `kautzgen netsim sweep`: runs the network model over a grid and writes the table, the
//! CSV and the SVG chart of the results, with the loads at which first-attempt success
//! falls below 90% and 50% (the claim of the network-switch paper, Smit et al. 1991, that
//! collisions are rare; see docs/papers.md). The sweep takes every network option of
//! `netsim`; the grid is the product of its `--vary` lists ([`vary`]), by default
//! the Kautz graphs of `--graph`, times the fault counts 0 to d-1 unless a fault option is
//! given, times the rates; each point runs with `--seeds` seeds.
//!
//! In: the grid, an output directory. Out: `sweep.csv`, `sweep.md` and `sweep.svg` in the
//! directory (the table also on standard output). Its items are the grid's points
//! ([`Sweep`]): with `--shard I/N` it writes a part, which `kautzgen merge` joins
//! ([`crate::cli::shard`]). The sweep and its table and chart are the experiment's
//! ([`crate::experiments::network_sweep`]); this file reads the command line and writes them.

use super::shards::{rows, run_lines, write};
use crate::cli::bench::parse_graph;
use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::cli::shard::{self, ShardArg, Shardable};
use crate::experiments::driver::{Experiment, csv_text};
use crate::experiments::network_sweep::report::{chart, table};
use crate::experiments::network_sweep::{Grid, Row, SweepNetwork};
use crate::output::dir::OutputDir;
use crate::topologies::Param;
use std::path::PathBuf;
use vary::{Given, Line, Vary};

mod vary;

/// The Kautz graphs swept unless `--graph` or a topology option says otherwise.
const DEFAULT_GRAPHS: [&str; 3] = ["2,3", "3,4", "4,5"];

/// `--cycles` unless given.
const DEFAULT_CYCLES: u64 = 5000;

/// Run the network model over a grid of networks, traffic, faults and rates; write a
/// table, a CSV and a chart.
#[derive(Debug, clap::Args)]
#[command(
    allow_negative_numbers = true,
    after_help = "Examples:\n  \
kautzgen netsim sweep --out sweep\n  \
kautzgen netsim sweep --graph 2,3 --rates 0.001,0.01 --cycles 2000 --out small\n  \
kautzgen netsim sweep --topology torus --k 3 --n 2 --flow vct --rates 0.001,0.01 --out torus\n  \
kautzgen netsim sweep --topology torus --k 4 --n 2 --vary traffic=uniform,tornado --vary flow=nack,vct --vary message-bytes=4,16 --seeds 5 --warmup 1000 --out grid\n  \
kautzgen netsim sweep --graph 3,4 --vary 'message-bytes=4,64@0.1;16' --max-bytes 64 --random-faulty-links 2 --out mixed\n  \
kautzgen netsim sweep --shard 0/4 --out part-0.json   (and 1/4, 2/4, 3/4, then:)\n  \
kautzgen merge part-*.json --out sweep"
)]
pub struct Args {
    /// A Kautz graph, as D,K; repeat for several [default: 2,3 3,4 4,5 unless a topology
    /// option (--topology, --d, --k, ...) is given or varied]
    #[arg(long = "graph", value_name = "D,K")]
    graphs: Vec<String>,
    #[command(flatten)]
    network: Given,
    /// Sweep a network option (its name without the dashes) over values separated by
    /// commas, or by semicolons when one is there (for values holding commas); repeatable:
    /// the grid is the product of every list, times the rates. A fault option, given or
    /// varied, turns off the sweep of 0 to d-1 faulty nodes
    #[arg(long, value_name = "OPTION=V1,V2,...")]
    vary: Vec<Vary>,
    /// Injection rates (messages per node per cycle), comma-separated
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0.0005,0.001,0.002,0.003,0.005,0.01,0.02,0.05"
    )]
    rates: Vec<f64>,
    /// Injection cycles of every run
    #[arg(long, default_value_t = DEFAULT_CYCLES)]
    cycles: u64,
    /// Run every point with N seeds, --seed and the N-1 after it; the CSV has each
    /// figure's mean and its 95% confidence half-width
    #[arg(long, default_value_t = 1, value_name = "N")]
    seeds: u64,
    #[command(flatten)]
    shard: ShardArg,
    /// Directory for the results: created, or replaced whole if kautzgen wrote it; with
    /// --shard, the part file
    #[arg(long)]
    out: PathBuf,
    /// Write to --out even when kautzgen did not write it
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let shard = args.shard.shard()?;
    let out = args.out.clone();
    shard::execute(&job(args)?, shard, Some(&out))
}

/// The sweep of the command line, checked.
pub fn job(args: Args) -> anyhow::Result<Sweep> {
    if let Some(bad) = args.rates.iter().find(|r| !(**r > 0.0 && **r <= 1.0)) {
        return Err(input_error(anyhow::anyhow!(
            "rates must be above 0 and at most 1, got {bad}"
        )));
    }
    if args.seeds == 0 {
        return Err(input_error(anyhow::anyhow!(
            "--seeds must be at least 1, got 0"
        )));
    }
    Ok(Sweep {
        grid: grid(&args)?,
        out: args.out,
        force: args.force,
    })
}

/// A sweep: its grid, whose points are its items, and the directory of its results.
pub struct Sweep {
    grid: Grid,
    out: PathBuf,
    force: bool,
}

impl Shardable for Sweep {
    /// A point's CSV line.
    type Result = String;
    type Output = OutputDir;

    fn items(&self) -> u64 {
        self.grid.points().len() as u64
    }

    fn run(&self, positions: &[u64]) -> anyhow::Result<Vec<String>> {
        self.grid.check().map_err(input_error)?;
        run_lines(&self.grid, positions)
    }

    fn claim(&self) -> anyhow::Result<OutputDir> {
        Ok(OutputDir::staged(&self.out, self.force)?)
    }

    /// Writes the CSV, the table and the chart of the rows, and prints the table.
    fn finish(&self, out: OutputDir, lines: Vec<String>) -> anyhow::Result<()> {
        let rows: Vec<Row> = rows(&lines)?;
        let table = table(&self.grid, &rows);
        let svg =
            chart(&self.grid, &rows).map_err(|e| anyhow::anyhow!("cannot draw the chart: {e}"))?;
        write(
            out,
            &[
                ("sweep.csv", csv_text(&rows).as_bytes()),
                ("sweep.md", table.as_bytes()),
                ("sweep.svg", svg.as_bytes()),
            ],
        )?;
        print_stdout(&table)
    }
}

/// The grid of the command line: the networks of its lists, the rates, the seeds, and
/// whether it sweeps the fault counts.
fn grid(args: &Args) -> anyhow::Result<Grid> {
    let base = &args.network.0;
    let mut lists = vary::vary_lists(&args.vary)?;
    let varied = |gives: fn(&Line) -> bool| lists.iter().flatten().any(|(_, l)| gives(l));
    let topology = base.gives_topology() || varied(Line::gives_topology);
    let fault_sweep = !base.gives_faults() && !varied(Line::gives_faults);
    match (topology, args.graphs.is_empty()) {
        (true, false) => {
            return Err(input_error(anyhow::anyhow!(
                "--graph lists Kautz graphs; with --topology or its options the sweep runs the one network they name"
            )));
        }
        (false, _) => lists.insert(0, graphs(&args.graphs)?),
        (true, true) => {}
    }
    let mut networks = Vec::new();
    for network in vary::networks(base, &lists)? {
        let params = network.args.params(args.rates[0], args.cycles)?;
        let note = network.line.label_note();
        let mut spec = network.line.spec();
        if args.cycles != DEFAULT_CYCLES {
            spec += &format!(" --cycles {}", args.cycles);
        }
        if args.seeds != 1 {
            spec += &format!(" --seeds {}", args.seeds);
        }
        if networks.iter().any(|n: &SweepNetwork| n.spec == spec) {
            return Err(input_error(anyhow::anyhow!(
                "the grid has the network '{spec}' twice: a --vary repeats a value"
            )));
        }
        let label = match note.is_empty() {
            true => params.plan.name(),
            false => format!("{} ({note})", params.plan.name()),
        };
        networks.push(SweepNetwork {
            spec,
            label,
            params,
        });
    }
    Ok(Grid {
        networks,
        rates: args.rates.clone(),
        seeds: args.seeds,
        fault_sweep,
    })
}

/// The Kautz graphs of `--graph` (or the default ones) as a list of the grid.
fn graphs(texts: &[String]) -> anyhow::Result<Vec<(String, Line)>> {
    let texts: Vec<&str> = match texts.is_empty() {
        true => DEFAULT_GRAPHS.to_vec(),
        false => texts.iter().map(String::as_str).collect(),
    };
    let mut list = Vec::new();
    for text in texts {
        let graph = parse_graph(text)?;
        let mut line = Line::default();
        line.set(Param::D.name(), vec![graph.d().to_string()]);
        line.set(Param::K.name(), vec![graph.k().to_string()]);
        list.push((format!("--graph {text}"), line));
    }
    Ok(list)
}
