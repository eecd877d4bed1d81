//! `kautzgen netsim torus fig4`: the Fig. 4 experiment of Demaine and Srinivas's k-ary n-cube
//! paper (see docs/papers.md) on the network engine with switches that route, run by the sweep driver shared with
//! `netsim sweep` (shards and their merge included), and its table and chart: mean extra
//! hops, latency and messages dropped against the network size, one line per number of
//! faulty links, one row of panels per algorithm.
//!
//! In: seeds, message and buffer flits, a shard, an output directory. Out: `fig4.csv` (a
//! line per run), `fig4.md` (per cell the means and 95 % confidence half-widths, also on
//! standard output) and `fig4.svg`; with `--shard I/N` only `fig4-I-of-N.csv`, which
//! `--merge N` later gathers into the three ([`super::shards`]). The experiment and its
//! table and chart are [`crate::experiments::torus_fig4`]'s; this file reads the command
//! line and writes them.

use super::shards::{SweepOut, gather, parse_shard, run_shard};
use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::experiments::driver::{Experiment, csv_text};
use crate::experiments::torus_fig4::report::{chart, table};
use crate::experiments::torus_fig4::{Fig4, Fig4Row, aggregate};
use crate::network::cube_run::DEFAULT_MESSAGE_FLITS;
use crate::network::params::DEFAULT_BUFFER_FLITS;
use crate::sim::vectors::Shard;
use std::path::PathBuf;

/// Run the Fig. 4 experiment of Demaine and Srinivas's k-ary n-cube paper; write its table
/// and chart.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
kautzgen netsim torus fig4 --out fig4\n  \
kautzgen netsim torus fig4 --seeds 10 --shard 0/2 --out fig4   (and 1/2, then:)\n  \
kautzgen netsim torus fig4 --seeds 10 --merge 2 --out fig4")]
pub struct Args {
    /// Runs per point, seeds 1 to S (at least 2 for a confidence interval)
    #[arg(long, default_value_t = 30, value_name = "S")]
    seeds: u64,
    /// Flits per message, header included
    #[arg(long, default_value_t = DEFAULT_MESSAGE_FLITS, value_name = "L")]
    message_flits: u64,
    /// Flits the input buffer of each channel holds
    #[arg(long, default_value_t = DEFAULT_BUFFER_FLITS, value_name = "B")]
    buffer_flits: u64,
    /// Run only shard I of N of the runs and write fig4-I-of-N.csv
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Do not run: gather fig4-*-of-N.csv of N shards into the table and the chart
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
    if args.seeds == 0 {
        return Err(input_error(anyhow::anyhow!(
            "--seeds must be at least 1, got 0"
        )));
    }
    let shard = parse_shard(args.shard.as_deref())?;
    let fig4 = Fig4::paper(args.seeds, args.message_flits, args.buffer_flits);
    let out = SweepOut::open(&args.out, args.force, shard, args.merge.is_some())?;
    if let Some(count) = args.merge {
        let mut rows: Vec<Fig4Row> = gather(out.dir(), "fig4", count)?;
        let points = fig4.points();
        let position = |r: &Fig4Row| points.iter().position(|p| *p == r.point);
        rows.sort_by_key(|r| position(r));
        return finish(out, &fig4, &rows);
    }
    fig4.check().map_err(input_error)?;
    let rows = run_shard(&fig4, shard)?;
    match shard == Shard::WHOLE {
        true => finish(out, &fig4, &rows),
        false => out.write_shard("fig4", shard, &rows),
    }
}

/// Writes the CSV, the table and the chart of `rows`, and prints the table.
fn finish(out: SweepOut, fig4: &Fig4, rows: &[Fig4Row]) -> anyhow::Result<()> {
    let cells = aggregate(rows);
    let table = table(fig4, &cells);
    let svg = chart(&cells).map_err(|e| anyhow::anyhow!("cannot draw the chart: {e}"))?;
    out.write(&[
        ("fig4.csv", csv_text(rows).as_bytes()),
        ("fig4.md", table.as_bytes()),
        ("fig4.svg", svg.as_bytes()),
    ])?;
    print_stdout(&table)
}
