//! `kautzgen netsim torus fig4`: the Fig. 4 experiment of Demaine and Srinivas's k-ary n-cube
//! paper (see docs/papers.md) on the network engine with switches that route, run by the sweep driver shared with
//! `netsim sweep` (shards and their merge included), and its table and chart: mean extra
//! hops, latency and messages dropped against the network size, one line per number of
//! faulty links, one row of panels per algorithm.
//!
//! In: seeds, message and buffer flits, an output directory. Out: `fig4.csv` (a line per
//! run), `fig4.md` (per cell the means and 95 % confidence half-widths, also on standard
//! output) and `fig4.svg`. Its items are the runs ([`Fig4Job`]): with `--shard I/N` it
//! writes a part, which `kautzgen merge` joins ([`crate::cli::shard`]). The experiment and
//! its table and chart are [`crate::experiments::torus_fig4`]'s; this file reads the
//! command line and writes them.

use super::shards::{rows, run_lines, write};
use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::cli::shard::{self, ShardArg, Shardable};
use crate::experiments::driver::{Experiment, csv_text};
use crate::experiments::torus_fig4::report::{chart, table};
use crate::experiments::torus_fig4::{Fig4, Fig4Row, aggregate};
use crate::network::cube_run::DEFAULT_MESSAGE_FLITS;
use crate::network::params::DEFAULT_BUFFER_FLITS;
use crate::output::dir::OutputDir;
use std::path::PathBuf;

/// Run the Fig. 4 experiment of Demaine and Srinivas's k-ary n-cube paper; write its table
/// and chart.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
kautzgen netsim torus fig4 --out fig4\n  \
kautzgen netsim torus fig4 --seeds 10 --shard 0/2 --out part-0.json   (and 1/2, then:)\n  \
kautzgen merge part-0.json part-1.json --out fig4")]
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

/// The experiment of the command line, checked.
pub fn job(args: Args) -> anyhow::Result<Fig4Job> {
    if args.seeds == 0 {
        return Err(input_error(anyhow::anyhow!(
            "--seeds must be at least 1, got 0"
        )));
    }
    Ok(Fig4Job {
        fig4: Fig4::paper(args.seeds, args.message_flits, args.buffer_flits),
        out: args.out,
        force: args.force,
    })
}

/// The experiment, whose runs are its items, and the directory of its results.
pub struct Fig4Job {
    fig4: Fig4,
    out: PathBuf,
    force: bool,
}

impl Shardable for Fig4Job {
    /// A run's CSV line.
    type Result = String;
    type Output = OutputDir;

    fn items(&self) -> u64 {
        self.fig4.points().len() as u64
    }

    fn run(&self, positions: &[u64]) -> anyhow::Result<Vec<String>> {
        self.fig4.check().map_err(input_error)?;
        run_lines(&self.fig4, positions)
    }

    fn claim(&self) -> anyhow::Result<OutputDir> {
        Ok(OutputDir::staged(&self.out, self.force)?)
    }

    /// Writes the CSV, the table and the chart of the runs, and prints the table.
    fn finish(&self, out: OutputDir, lines: Vec<String>) -> anyhow::Result<()> {
        let rows: Vec<Fig4Row> = rows(&lines)?;
        let cells = aggregate(&rows);
        let table = table(&self.fig4, &cells);
        let svg = chart(&cells).map_err(|e| anyhow::anyhow!("cannot draw the chart: {e}"))?;
        write(
            out,
            &[
                ("fig4.csv", csv_text(&rows).as_bytes()),
                ("fig4.md", table.as_bytes()),
                ("fig4.svg", svg.as_bytes()),
            ],
        )?;
        print_stdout(&table)
    }
}
