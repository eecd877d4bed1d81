//! `kautzgen verify`: simulates the Kautz route generator in Verilator and GHDL and
//! compares every route with the golden model.

use crate::cli::generate::check_top_name;
use crate::cli::{input_error, output::print_stdout};
use crate::emit::Provenance;
use crate::rtl::kautz_route_gen::{DEFAULT_TOP, Fault, RouteGenParams};
use crate::sim::ghdl::Ghdl;
use crate::sim::vectors::{Pairs, Shard, VectorSet};
use crate::sim::verilator::Verilator;
use crate::sim::{Design, Options, Simulator, scratch_design, verify};
use crate::topology::kautz::Kautz;
use anyhow::bail;
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// Simulate the route generator in Verilator and GHDL against the golden model.
///
/// Generates the route generator of K(d,k), or reads one with --design. For every selected
/// source/destination pair, and for fixed invalid words (a letter above d, equal
/// neighbours, source equal to destination), checks each route and its order, `done` and
/// `error`; routes held while `next_route` comes late; `next_route` ignored while no route
/// is valid; `init` and `rst` in the middle of a search; and at most k + 3(d+1) + 4 cycles
/// of work per route set. Prints the first failures in full and ends with a line
/// `<simulator>: N passed, M failed` per simulator; exits 1 on any failure.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen verify --d 2 --k 3 --pairs all
  kautzgen verify --d 4 --k 5 --sim ghdl --pairs 500 --seed 7
  kautzgen verify --d 4 --k 5 --pairs all --shard 3/8
  kautzgen verify --d 3 --k 3 --sim verilator --pairs 20 --wave k33.vcd
  kautzgen verify --d 4 --k 5 --design build/k45
  kautzgen verify --d 2 --k 3 --pairs all --fault phase-b-skipped   # must fail")]
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
    /// Verify the design in DIR (its manifest.json and the HDL files it lists, as
    /// `kautzgen generate` writes them) instead of generating one.
    #[arg(long, value_name = "DIR", conflicts_with = "fault")]
    design: Option<PathBuf>,
    /// Build this deliberate fault into the generated design, to see verification fail.
    #[arg(long, value_enum)]
    fault: Option<Fault>,
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
    let (design, generated) = match &args.design {
        Some(dir) => (existing_design(dir, &graph, args.top.as_deref())?, None),
        None => {
            let (design, dir) = generate(&args, args.top.as_deref().unwrap_or(DEFAULT_TOP))?;
            (design, Some(dir))
        }
    };
    print_stdout(&format!("{}\n", vectors.describe()))?;
    let options = Options { wave: args.wave };
    let mut failed = Vec::new();
    for simulator in &simulators {
        let bar = progress_bar(vectors.len(), simulator.name());
        let report = verify(simulator.as_ref(), &design, &vectors, &options, &mut |n| {
            bar.inc(n)
        });
        bar.finish_and_clear();
        // A simulator's log names the design's files: keep a generated design beside it.
        let report = match report {
            Ok(report) => report,
            Err(e) => match generated {
                Some(dir) if e.keeps_files() => bail!(
                    "{e}; the generated design is kept in {}",
                    dir.keep().display()
                ),
                _ => return Err(e.into()),
            },
        };
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

/// Reads the design in `dir` and checks it is the one asked for.
fn existing_design(dir: &Path, graph: &Kautz, top: Option<&str>) -> anyhow::Result<Design> {
    let design = Design::load(dir).map_err(input_error)?;
    design.check_graph(graph).map_err(input_error)?;
    if let Some(top) = top
        && top != design.top()
    {
        return Err(input_error(anyhow::anyhow!(
            "--top {top}: the design in {} has the top '{}'",
            dir.display(),
            design.top()
        )));
    }
    Ok(design)
}

/// Generates the design to verify into a temporary directory.
fn generate(args: &Args, top: &str) -> anyhow::Result<(Design, TempDir)> {
    check_top_name(top)?;
    let params = RouteGenParams::new(args.d, args.k, top).map_err(input_error)?;
    let provenance = Provenance {
        command: format!("kautzgen verify --d {} --k {} --top {top}", args.d, args.k),
    };
    Ok(scratch_design(&params, args.fault, &provenance)?)
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
