//! `kautzgen netsim sweep`: runs the network model over a grid of networks (Kautz graphs by
//! default, or one network of any topology and flow control), fault counts and injection
//! rates, and writes the table, the CSV and the SVG chart of the results, with the loads at
//! which first-attempt success falls below 90% and 50% (the claim of the network-switch
//! paper, Smit et al. 1991, that collisions are rare; see docs/papers.md).
//!
//! In: the grid, a shard of it, an output directory. Out: `sweep.csv`, `sweep.md` and
//! `sweep.svg` in the directory (the table also on standard output); with `--shard I/N`
//! only `sweep-I-of-N.csv`, which `--merge` later gathers into the three ([`super::shards`]).
//! The sweep and its table and chart are the experiment's
//! ([`crate::experiments::network_sweep`]); this file reads the command line and writes them.

use super::shards::{SweepOut, gather, parse_shard, run_shard};
use crate::choice::Choice;
use crate::cli::bench::parse_graph;
use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::experiments::driver::csv_text;
use crate::experiments::network_sweep::report::{chart, table};
use crate::experiments::network_sweep::{Grid, Row, SweepNetwork};
use crate::fabric::switch::Flow;
use crate::sim::vectors::Shard;
use crate::topologies::{self, Given};
use crate::units::choice_arg::choice;
use crate::units::topology_args::TopologyArgs;
use std::path::PathBuf;

/// The Kautz graphs swept unless `--graph` or a topology says otherwise.
const DEFAULT_GRAPHS: [&str; 3] = ["2,3", "3,4", "4,5"];

/// Run the network model over a grid of rates and fault counts; write a table and a chart.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
kautzgen netsim sweep --out sweep\n  \
kautzgen netsim sweep --graph 2,3 --rates 0.001,0.01 --cycles 2000 --out small\n  \
kautzgen netsim sweep --topology torus --k 3 --n 2 --flow vct --rates 0.001,0.01 --out torus\n  \
kautzgen netsim sweep --shard 0/4 --out sweep   (and 1/4, 2/4, 3/4, then:)\n  \
kautzgen netsim sweep --merge 4 --out sweep")]
pub struct Args {
    /// A Kautz graph, as D,K; repeat for several [default: 2,3 3,4 4,5 unless --topology
    /// or its options name one network]
    #[arg(long = "graph", value_name = "D,K")]
    graphs: Vec<String>,
    #[command(flatten)]
    topology: TopologyArgs,
    /// The switches' flow control (docs/flow-control.md), in every run
    #[arg(long, value_parser = choice::<Flow>(), default_value = Flow::Nack.name())]
    flow: Flow,
    /// Injection rates (messages per node per cycle), comma-separated
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0.0005,0.001,0.002,0.003,0.005,0.01,0.02,0.05"
    )]
    rates: Vec<f64>,
    /// Injection cycles of every run
    #[arg(long, default_value_t = 5000)]
    cycles: u64,
    /// Seed of every run (traffic and faulty nodes)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Data bytes of every message (1 to 255)
    #[arg(long, default_value_t = 16)]
    message_bytes: u8,
    /// Run only shard I of N of the grid's points and write sweep-I-of-N.csv
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Do not run: gather sweep-*-of-N.csv of N shards into the table and the chart
    #[arg(long, value_name = "N", conflicts_with = "shard")]
    merge: Option<u64>,
    /// Directory for the results: created, or replaced whole if kautzgen wrote it (a shard
    /// or a merge adds its files to it instead)
    #[arg(long)]
    out: PathBuf,
    /// Write to --out even when kautzgen did not write it
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(bad) = args.rates.iter().find(|r| !(**r > 0.0 && **r <= 1.0)) {
        return Err(input_error(anyhow::anyhow!(
            "rates must be above 0 and at most 1, got {bad}"
        )));
    }
    if args.message_bytes == 0 {
        return Err(input_error(anyhow::anyhow!(
            "message bytes must be 1 to 255, got 0"
        )));
    }
    let grid = Grid {
        networks: networks(&args)?,
        rates: args.rates.clone(),
        cycles: args.cycles,
        seed: args.seed,
        bytes: args.message_bytes,
    };
    let shard = parse_shard(args.shard.as_deref())?;
    let out = SweepOut::open(&args.out, args.force, shard, args.merge.is_some())?;
    if let Some(count) = args.merge {
        let rows: Vec<Row> = gather(out.dir(), "sweep", count)?;
        return finish(out, &grid, sorted(&grid, rows)?);
    }
    grid.check().map_err(input_error)?;
    let rows = run_shard(&grid, shard)?;
    match shard == Shard::WHOLE {
        true => finish(out, &grid, rows),
        false => out.write_shard("sweep", shard, &rows),
    }
}

/// The networks to sweep: the one `--topology` and its options name, or the Kautz graphs
/// of `--graph`.
fn networks(args: &Args) -> anyhow::Result<Vec<SweepNetwork>> {
    let default_topology =
        args.topology.kind.name() == "kautz" && args.topology.given == Given::default();
    let topologies = if default_topology {
        let graphs: Vec<&str> = match args.graphs.is_empty() {
            true => DEFAULT_GRAPHS.to_vec(),
            false => args.graphs.iter().map(String::as_str).collect(),
        };
        let kautz = topologies::named("kautz").expect("the registry has kautz");
        graphs
            .into_iter()
            .map(|text| {
                let graph = parse_graph(text)?;
                let given = Given {
                    d: Some(graph.d() as u64),
                    k: Some(graph.k() as u64),
                    ..Given::default()
                };
                Ok(TopologyArgs { kind: kautz, given })
            })
            .collect::<anyhow::Result<Vec<_>>>()?
    } else if !args.graphs.is_empty() {
        return Err(input_error(anyhow::anyhow!(
            "--graph lists Kautz graphs; with --topology or its options the sweep runs the one network they name"
        )));
    } else {
        vec![args.topology.clone()]
    };
    topologies
        .iter()
        .map(|topology| network(topology, args.flow))
        .collect()
}

/// The sweep's network of `topology` under `flow`.
fn network(topology: &TopologyArgs, flow: Flow) -> anyhow::Result<SweepNetwork> {
    let plan = topology
        .build()
        .and_then(|built| Ok(built.plan()?))
        .map_err(input_error)?;
    let (mut spec, mut label) = (topology.command_line(), plan.name());
    if spec.contains(',') {
        return Err(input_error(anyhow::anyhow!(
            "a swept network's options name it in the CSV, so they cannot hold a comma: {spec}"
        )));
    }
    if flow != Flow::Nack {
        spec += &format!(" --flow {}", flow.name());
        label += &format!(" ({})", flow.name());
    }
    Ok(SweepNetwork {
        spec,
        label,
        plan,
        flow,
    })
}

/// The merged `rows` in the grid's order; an error if a shard ran a network the grid does
/// not have.
fn sorted(grid: &Grid, rows: Vec<Row>) -> anyhow::Result<Vec<Row>> {
    if let Some(stray) = rows.iter().find(|r| grid.network_of(&r.network).is_none()) {
        return Err(input_error(anyhow::anyhow!(
            "the shards ran '{}', which this sweep's options do not name",
            stray.network
        )));
    }
    let mut rows = rows;
    rows.sort_by(|a, b| {
        let key = |r: &Row| (grid.network_of(&r.network), r.faults);
        key(a).cmp(&key(b)).then(a.rate.total_cmp(&b.rate))
    });
    Ok(rows)
}

/// Writes the CSV, the table and the chart of `rows`, and prints the table.
fn finish(out: SweepOut, grid: &Grid, rows: Vec<Row>) -> anyhow::Result<()> {
    let table = table(grid, &rows);
    let svg = chart(grid, &rows).map_err(|e| anyhow::anyhow!("cannot draw the chart: {e}"))?;
    out.write(&[
        ("sweep.csv", csv_text(&rows).as_bytes()),
        ("sweep.md", table.as_bytes()),
        ("sweep.svg", svg.as_bytes()),
    ])?;
    print_stdout(&table)
}
