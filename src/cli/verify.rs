//! `kautzgen verify`: simulates the Kautz route generator in Verilator and GHDL and
//! compares every route with the golden model.

use crate::cli::{input_error, output::print_stdout};
use crate::sim::ghdl::Ghdl;
use crate::sim::vectors::{Pairs, Shard, VectorSet};
use crate::sim::verilator::Verilator;
use crate::sim::{Design, Options, Simulator, verify};
use crate::topology::kautz::Kautz;
use anyhow::bail;
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Simulate the route generator of K(d,k) and compare it with the golden model.
///
/// For every selected source/destination pair, and for fixed invalid words (a letter above
/// d, equal neighbours, source equal to destination), checks each route and its order,
/// `done` and `error`; routes held while `next_route` comes late; `next_route` ignored while
/// no route is valid; `init` and `rst` in the middle of a search; and at most
/// k + 3(d+1) + 4 cycles of work per route set. Prints the first failures in full and ends
/// with a line `<simulator>: N passed, M failed` per simulator; exits 1 on any failure.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen verify --d 2 --k 3 --design gen/k23 --pairs all
  kautzgen verify --d 4 --k 5 --design gen/k45 --sim ghdl --pairs 500 --seed 7
  kautzgen verify --d 4 --k 5 --design gen/k45 --pairs all --shard 3/8
  kautzgen verify --d 3 --k 3 --design gen/k33 --sim verilator --pairs 20 --wave k33.vcd")]
pub struct Args {
    /// Degree: letters are 0..=d.
    #[arg(long)]
    d: u64,
    /// Word length and diameter.
    #[arg(long)]
    k: u64,
    /// Simulators to run.
    #[arg(long, value_enum, default_value_t = Sim::All)]
    sim: Sim,
    /// "all": every ordered pair of distinct nodes, in lexicographic order; N: N distinct
    /// pairs drawn with --seed (every pair when N reaches their number).
    #[arg(long, value_name = "all|N", default_value = "1000", value_parser = parse_pairs)]
    pairs: PairCount,
    /// Seed of the sample drawn by --pairs N.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Verify slice I of N (0 <= I < N): the vectors at positions p with p mod N = I.
    /// The N slices are disjoint and together hold every vector.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Write the waves of the run to this VCD file (with one --sim only).
    #[arg(long, value_name = "FILE.vcd")]
    wave: Option<PathBuf>,
    /// Name of the generator's top module and entity [default: kautz_route_gen].
    #[arg(long, value_name = "NAME")]
    top: Option<String>,
    /// The generated design to verify: a directory holding manifest.json and the HDL
    /// files it lists.
    #[arg(long, value_name = "DIR")]
    design: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Sim {
    Verilator,
    Ghdl,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PairCount {
    All,
    Count(u64),
}

fn parse_pairs(text: &str) -> Result<PairCount, String> {
    match text {
        "all" => Ok(PairCount::All),
        _ => text
            .parse()
            .map(PairCount::Count)
            .map_err(|_| format!("'{text}' is neither 'all' nor a number of pairs")),
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let graph = Kautz::new(args.d, args.k).map_err(input_error)?;
    let shard = match &args.shard {
        Some(text) => text.parse().map_err(input_error)?,
        None => Shard::WHOLE,
    };
    let pairs = match args.pairs {
        PairCount::All => Pairs::All,
        PairCount::Count(count) => Pairs::Sample {
            count,
            seed: args.seed,
        },
    };
    let simulators: Vec<Box<dyn Simulator>> = match args.sim {
        Sim::Verilator => vec![Box::new(Verilator::default())],
        Sim::Ghdl => vec![Box::new(Ghdl::default())],
        Sim::All => vec![Box::new(Verilator::default()), Box::new(Ghdl::default())],
    };
    if args.wave.is_some() && simulators.len() > 1 {
        return Err(input_error(anyhow::anyhow!(
            "--wave writes the waves of one simulator: add --sim verilator or --sim ghdl"
        )));
    }
    let vectors = VectorSet::new(&graph, pairs, shard).map_err(input_error)?;
    let design = Design::load(&args.design).map_err(input_error)?;
    design.check_graph(&graph).map_err(input_error)?;
    if let Some(top) = &args.top
        && top != design.top()
    {
        return Err(input_error(anyhow::anyhow!(
            "--top {top}: the design in {} has the top '{}'",
            args.design.display(),
            design.top()
        )));
    }
    print_stdout(&format!("{}\n", vectors.describe()))?;
    let options = Options { wave: args.wave };
    let mut failed = Vec::new();
    for simulator in &simulators {
        let bar = progress_bar(vectors.len(), simulator.name());
        let report = verify(simulator.as_ref(), &design, &vectors, &options, &mut |n| {
            bar.inc(n)
        });
        bar.finish_and_clear();
        let report = report?;
        print_stdout(&report.render())?;
        if !report.all_passed() {
            failed.push(format!(
                "{}: {} of {} vectors",
                simulator.name(),
                report.failed,
                report.passed + report.failed
            ));
        }
    }
    if !failed.is_empty() {
        bail!("verification failed ({})", failed.join("; "));
    }
    Ok(())
}

/// A bar on standard error while standard output is a terminal; nothing otherwise, so that
/// logs and pipes get only the report.
fn progress_bar(len: u64, name: &str) -> ProgressBar {
    if !std::io::stdout().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template("{prefix:>9} [{bar:40}] {pos}/{len} vectors, {eta}")
        .expect("the template is valid")
        .progress_chars("=> ");
    ProgressBar::new(len)
        .with_style(style)
        .with_prefix(name.to_string())
}
