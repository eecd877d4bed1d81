//! `kautzgen torus deadlock` and `deadlock-sweep`: the channel dependency graph of a
//! routing relation, and whether it has a cycle.
//!
//! In: k, n, an algorithm, faulty links and nodes (`deadlock`); lists of k and n
//! (`deadlock-sweep`). Out: the graph's size and either `acyclic` (deadlock-free by the
//! Dally-Seitz condition) or the witness cycle of channels, as text or as JSON with fields
//! in a fixed order; for the sweep, a Markdown table with a row per analysis, on standard
//! output or in `--out FILE`. With `--simulate` (and always in the sweep) a cycle's
//! messages are also placed in the wormhole simulator
//! ([`crate::experiments::torus_witness`]) to see whether they deadlock. The sweep's items
//! are its analyses ([`DeadlockSweep`]): with `--shard I/N` it writes a part, which
//! `kautzgen merge` joins ([`crate::cli::shard`]).

use super::{reading_json, witness, written};
use crate::choice::Choice;
use crate::cli::input_error;
use crate::cli::output::{Format, check_out, print_stdout, write_or_print};
use crate::cli::progress;
use crate::cli::shard::{self, ShardArg, Shardable};
use crate::experiments::driver::parallel_map;
use crate::experiments::torus_deadlock_sweep::{Point, points};
use crate::experiments::torus_witness::{self, Witness};
use crate::routing::torus::{Algorithm, Reading, Router};
use crate::routing::torus_cdg::ChannelGraph;
use crate::topology::torus::{Faults, Link, Torus};
use crate::units::choice_arg::choice;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub(super) struct DeadlockArgs {
    /// Nodes per ring (k >= 2)
    #[arg(long)]
    k: u64,
    /// Number of dimensions (n >= 1)
    #[arg(long)]
    n: u64,
    /// Routing algorithm
    #[arg(long, value_parser = choice::<Algorithm>())]
    algo: Algorithm,
    /// When double-e-cube and direction-first select their pair of dimensions
    #[arg(long, value_parser = choice::<Reading>(), default_value = Reading::Reselect.name())]
    reading: Reading,
    /// A faulty output link NODE:PORT, e.g. 1,0:+0 (repeatable)
    #[arg(long = "faulty-link", value_name = "NODE:PORT")]
    faulty_links: Vec<String>,
    /// A faulty node, e.g. 1,1 (repeatable)
    #[arg(long = "faulty-node", value_name = "NODE")]
    faulty_nodes: Vec<String>,
    /// Also place one message per dependency of the cycle in the wormhole simulator and
    /// report whether they deadlock
    #[arg(long)]
    simulate: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Debug, clap::Args)]
pub(super) struct SweepArgs {
    /// Ring sizes (k >= 3), comma-separated
    #[arg(long, value_delimiter = ',', default_values_t = [3, 4, 5, 6, 7, 8])]
    ks: Vec<u64>,
    /// Dimension counts, comma-separated
    #[arg(long, value_delimiter = ',', default_values_t = [2, 3])]
    ns: Vec<u64>,
    /// When double-e-cube and direction-first select their pair of dimensions; keep
    /// analyses those two only
    #[arg(long, value_parser = choice::<Reading>(), default_value = Reading::Reselect.name())]
    reading: Reading,
    #[command(flatten)]
    shard: ShardArg,
    /// Write the table to FILE instead of standard output; with --shard, the part
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// What the command found, for one cube, algorithm and fault set.
struct Analysis {
    router: Router,
    faults: Faults,
    graph: ChannelGraph,
    cycle: Option<Vec<Link>>,
    forced_cycle: Option<Vec<Link>>,
}

/// The analysis's cycle placed in the simulator, or `None` if there is no cycle.
fn simulate(analysis: &Analysis) -> anyhow::Result<Option<Witness>> {
    let Analysis {
        router,
        faults,
        graph,
        cycle,
        ..
    } = analysis;
    cycle
        .as_ref()
        .map(|cycle| torus_witness::place(router, faults, graph, cycle).map_err(input_error))
        .transpose()
}

/// Parses the cube, router and faults; every bad value is the user's input error.
fn parse(args: &DeadlockArgs) -> anyhow::Result<(Router, Faults)> {
    let torus = Torus::new(args.k, args.n).map_err(input_error)?;
    let router = Router::with_reading(torus, args.algo, args.reading).map_err(input_error)?;
    let mut faults = Faults::new();
    for text in &args.faulty_links {
        faults.insert_link(torus.parse_link(text).map_err(input_error)?);
    }
    for text in &args.faulty_nodes {
        faults.insert_node(torus.parse_node(text).map_err(input_error)?);
    }
    Ok((router, faults))
}

/// Builds the graph and looks for its witness cycle.
fn analyse(router: Router, faults: Faults) -> anyhow::Result<Analysis> {
    let graph = ChannelGraph::build(&router, &faults).map_err(input_error)?;
    let cycle = graph.cycle();
    let forced_cycle = graph.forced_cycle();
    Ok(Analysis {
        router,
        faults,
        graph,
        cycle,
        forced_cycle,
    })
}

pub(super) fn run(args: DeadlockArgs) -> anyhow::Result<()> {
    let (router, faults) = parse(&args)?;
    if args.simulate {
        torus_witness::links_only(&faults).map_err(input_error)?;
    }
    let analysis = analyse(router, faults)?;
    let witness = if args.simulate {
        Some(simulate(&analysis)?)
    } else {
        None
    };
    let text = match args.format {
        Format::Text => {
            let placed = witness.as_ref().map(|w| witness::text(w.as_ref()));
            text(&analysis) + &placed.unwrap_or_default()
        }
        Format::Json => json(&analysis, witness.as_ref().map(Option::as_ref))?,
    };
    print_stdout(&text)
}

/// A cycle as `a -> b -> ... -> a`, closed on its first channel.
fn cycle_text(cycle: &[Link]) -> String {
    let mut links: Vec<String> = cycle.iter().map(Link::to_string).collect();
    links.push(cycle[0].to_string());
    links.join(" -> ")
}

fn text(analysis: &Analysis) -> String {
    let Analysis {
        router,
        faults,
        graph,
        cycle,
        forced_cycle,
    } = analysis;
    let mut text = format!(
        "{} on the {}: {} channels, {} dependencies\n",
        router.label(),
        router.torus(),
        graph.channel_count(),
        graph.dependency_count()
    );
    let links: Vec<String> = faults.links().map(Link::to_string).collect();
    let nodes: Vec<String> = faults.nodes().map(|v| v.to_string()).collect();
    if !links.is_empty() {
        text += &format!("faulty links: {}\n", links.join(" "));
    }
    if !nodes.is_empty() {
        text += &format!("faulty nodes: {}\n", nodes.join(" "));
    }
    match cycle {
        None => {
            text += "acyclic\n";
            text += "no cycle of channel dependencies: this routing relation is deadlock-free \
by the Dally-Seitz condition (wormhole, no virtual channels)\n";
        }
        Some(cycle) => {
            text += &format!("cycle of {} channels\n{}\n", cycle.len(), cycle_text(cycle));
            text += "each channel's message may wait for the next: deadlock is possible for \
deterministic routing; for adaptive routing a cycle is not proof of deadlock (Duato)\n";
            text += &match forced_cycle {
                None => format!(
                    "no cycle of forced dependencies ({} of the {} leave a message no other \
port): the analysis cannot tell whether this cycle deadlocks\n",
                    graph.forced_dependency_count(),
                    graph.dependency_count()
                ),
                Some(forced) => format!(
                    "forced cycle of {} channels (each message on it has no other port): a \
deadlock\n{}\n",
                    forced.len(),
                    cycle_text(forced)
                ),
            };
        }
    }
    let stranded = graph.stranded_states();
    if stranded > 0 {
        text += &format!(
            "{stranded} reachable (channel, header, destination) states have every allowed \
port faulty: those messages wait forever, with or without a cycle\n"
        );
    }
    text
}

#[derive(Serialize)]
struct DeadlockJson {
    k: u32,
    n: usize,
    algo: &'static str,
    /// Only under a reading other than the default ([`reading_json`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    reading: Option<&'static str>,
    faulty_links: Vec<String>,
    faulty_nodes: Vec<Vec<u32>>,
    channels: usize,
    dependencies: usize,
    stranded_states: usize,
    forced_dependencies: usize,
    acyclic: bool,
    cycle: Vec<String>,
    forced_cycle: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    witness: Option<witness::WitnessJson>,
}

/// `witness` is `None` without `--simulate`, `Some(None)` for an acyclic graph.
fn json(analysis: &Analysis, witness: Option<Option<&Witness>>) -> anyhow::Result<String> {
    let Analysis {
        router,
        faults,
        graph,
        cycle,
        forced_cycle,
    } = analysis;
    let json = DeadlockJson {
        k: router.torus().k(),
        n: router.torus().n(),
        algo: router.algorithm().name(),
        reading: reading_json(router),
        faulty_links: faults.links().map(Link::to_string).collect(),
        faulty_nodes: faults.nodes().map(written).collect(),
        channels: graph.channel_count(),
        dependencies: graph.dependency_count(),
        stranded_states: graph.stranded_states(),
        forced_dependencies: graph.forced_dependency_count(),
        acyclic: cycle.is_none(),
        cycle: cycle.iter().flatten().map(Link::to_string).collect(),
        forced_cycle: forced_cycle.iter().flatten().map(Link::to_string).collect(),
        witness: witness.map(witness::json),
    };
    Ok(serde_json::to_string(&json)? + "\n")
}

pub(super) fn sweep(args: SweepArgs) -> anyhow::Result<()> {
    let shard = args.shard.shard()?;
    let out = args.out.clone();
    shard::execute(&sweep_job(args)?, shard, out.as_deref())
}

/// The grid of the command line.
pub(super) fn sweep_job(args: SweepArgs) -> anyhow::Result<DeadlockSweep> {
    Ok(DeadlockSweep {
        grid: points(&args.ks, &args.ns, args.reading).map_err(input_error)?,
        out: args.out,
    })
}

/// The deadlock sweep: its analyses, which are its items, and where its table goes.
pub(super) struct DeadlockSweep {
    grid: Vec<Point>,
    out: Option<PathBuf>,
}

impl Shardable for DeadlockSweep {
    /// An analysis's table row.
    type Result = String;
    type Output = ();

    fn items(&self) -> u64 {
        self.grid.len() as u64
    }

    /// The rows of the analyses at `positions`, on every processor.
    fn run(&self, positions: &[u64]) -> anyhow::Result<Vec<String>> {
        let bar = progress::bar(positions.len() as u64, "deadlock", "analyses");
        let rows = parallel_map(positions, |&p| {
            let row = row(&self.grid[p as usize]);
            bar.inc(1);
            row
        });
        bar.finish_and_clear();
        rows.into_iter().collect()
    }

    fn claim(&self) -> anyhow::Result<()> {
        check_out(self.out.as_deref())
    }

    fn finish(&self, (): (), rows: Vec<String>) -> anyhow::Result<()> {
        let mut text = String::from(
            "| algorithm | k | n | faulty links | channels | dependencies | stranded states | result | \
             forced cycle | witness |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
        );
        text.extend(rows);
        write_or_print(self.out.as_deref(), &text)
    }
}

/// The table row of the analysis of `point`, its cycle placed in the simulator.
fn row(point: &Point) -> anyhow::Result<String> {
    let analysis = analyse(point.router, point.faults.clone())?;
    let links: Vec<String> = analysis.faults.links().map(Link::to_string).collect();
    let result = match &analysis.cycle {
        None => "acyclic".to_string(),
        Some(cycle) => format!("cycle of {}: `{}`", cycle.len(), cycle_text(cycle)),
    };
    let forced = match (&analysis.cycle, &analysis.forced_cycle) {
        (None, _) => "-".to_string(),
        (Some(_), None) => "none".to_string(),
        (Some(_), Some(forced)) if Some(forced) == analysis.cycle.as_ref() => {
            "the same".to_string()
        }
        (Some(_), Some(forced)) => {
            format!("cycle of {}: `{}`", forced.len(), cycle_text(forced))
        }
    };
    let placed = simulate(&analysis)?;
    let verdict = witness::verdict(placed.as_ref());
    let torus = analysis.router.torus();
    Ok(format!(
        "| {} | {} | {} | {} | {} | {} | {} | {result} | {forced} | {verdict} |\n",
        analysis.router.label(),
        torus.k(),
        torus.n(),
        if links.is_empty() {
            "-".to_string()
        } else {
            links.join(" ")
        },
        analysis.graph.channel_count(),
        analysis.graph.dependency_count(),
        analysis.graph.stranded_states(),
    ))
}
