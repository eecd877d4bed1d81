//! `kautzgen netsim sweep`: runs the network model over a grid of graphs, fault counts and
//! injection rates, and writes the table, the CSV and the SVG chart of the results, with
//! the loads at which first-attempt success falls below 90% and 50% (the claim of the
//! network-switch paper, Smit et al. 1991, that collisions are rare; see docs/papers.md).
//!
//! In: the grid, a shard of it, an output directory. Out: `sweep.csv`, `sweep.md` and
//! `sweep.svg` in the directory (the table also on standard output); with `--shard I/N`
//! only `sweep-I-of-N.csv`, which `--merge` later gathers into the three ([`super::shards`]).
//! The sweep and its table and chart are the experiment's
//! ([`crate::experiments::kautz_sweep`]); this file reads the command line and writes them.

use super::shards::{SweepOut, gather, parse_shard, run_shard};
use crate::cli::bench::parse_graph;
use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::experiments::driver::csv_text;
use crate::experiments::kautz_sweep::report::{chart, table};
use crate::experiments::kautz_sweep::{Grid, Row};
use crate::rtl::kautz_route::faithful::cycle_bound;
use crate::sim::vectors::Shard;
use crate::topology::kautz::Kautz;
use std::path::PathBuf;

/// Run the network model over a grid of rates and fault counts; write a table and a chart.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
kautzgen netsim sweep --out sweep\n  \
kautzgen netsim sweep --graph 2,3 --rates 0.001,0.01 --cycles 2000 --out small\n  \
kautzgen netsim sweep --shard 0/4 --out sweep   (and 1/4, 2/4, 3/4, then:)\n  \
kautzgen netsim sweep --merge 4 --out sweep")]
pub struct Args {
    /// A graph, as D,K; repeat for several
    #[arg(long = "graph", value_name = "D,K", default_values = ["2,3", "3,4", "4,5"])]
    graphs: Vec<String>,
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
    let graphs = args
        .graphs
        .iter()
        .map(|text| parse_graph(text))
        .collect::<anyhow::Result<Vec<Kautz>>>()?;
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
    let shard = parse_shard(args.shard.as_deref())?;
    let out = SweepOut::open(&args.out, args.force, shard, args.merge.is_some())?;
    if let Some(count) = args.merge {
        let mut rows: Vec<Row> = gather(out.dir(), "sweep", count)?;
        rows.sort_by(|a, b| {
            let key = |r: &Row| (r.point.graph.d(), r.point.graph.k(), r.point.faults);
            key(a)
                .cmp(&key(b))
                .then(a.point.rate.total_cmp(&b.point.rate))
        });
        return finish(out, &rows);
    }
    let grid = Grid {
        graphs,
        rates: args.rates.clone(),
        cycles: args.cycles,
        seed: args.seed,
        bytes: args.message_bytes,
        route_cycles: cycle_bound,
    };
    grid.check().map_err(input_error)?;
    let rows = run_shard(&grid, shard)?;
    match shard == Shard::WHOLE {
        true => finish(out, &rows),
        false => out.write_shard("sweep", shard, &rows),
    }
}

/// Writes the CSV, the table and the chart of `rows`, and prints the table.
fn finish(out: SweepOut, rows: &[Row]) -> anyhow::Result<()> {
    let table = table(rows);
    let svg = chart(rows).map_err(|e| anyhow::anyhow!("cannot draw the chart: {e}"))?;
    out.write(&[
        ("sweep.csv", csv_text(rows).as_bytes()),
        ("sweep.md", table.as_bytes()),
        ("sweep.svg", svg.as_bytes()),
    ])?;
    print_stdout(&table)
}
