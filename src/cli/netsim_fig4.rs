//! `kautzgen netsim torus fig4`: the Fig. 4 experiment of Demaine and Srinivas's k-ary n-cube
//! paper (see docs/papers.md) on the wormhole model, run by the sweep driver shared with
//! `netsim sweep` (shards and their merge included), and its table and chart: mean extra
//! hops, latency and messages dropped against the network size, one line per number of
//! faulty links, one row of panels per algorithm.
//!
//! In: seeds, message and buffer flits, a shard, an output directory. Out: `fig4.csv` (a
//! line per run), `fig4.md` (per cell the means and 95 % confidence half-widths, also on
//! standard output) and `fig4.svg`; with `--shard I/N` only `fig4-I-of-N.csv`, which
//! `--merge N` later gathers into the three.

use super::netsim_sweep::{SweepOut, gather, parse_shard, run_shard};
use super::netsim_torus::{DEFAULT_BUFFER_FLITS, DEFAULT_MESSAGE_FLITS};
use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::network::sweep::{Experiment, csv_text};
use crate::network::torus_fig4::{Estimate, Fig4, Fig4Cell, Fig4Row, aggregate};
use crate::plot::{Panel, panels_svg};
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

fn estimate_text(e: Option<Estimate>) -> String {
    match e {
        None => "-".to_string(),
        Some(Estimate {
            mean,
            half_width: None,
        }) => format!("{mean:.3}"),
        Some(Estimate {
            mean,
            half_width: Some(h),
        }) => format!("{mean:.3} ± {h:.3}"),
    }
}

/// The cells as Markdown, one line per (algorithm, n, faults).
fn table(fig4: &Fig4, cells: &[Fig4Cell]) -> String {
    let mut text = format!(
        "Binary n-cubes, uniform traffic: a message per node per time step with probability {} for {} steps, {} flits a message, {}-flit buffers; means over seeds with 95 % confidence half-widths.\n\n\
         | algorithm | n | nodes | faulty links | runs | deadlocks | injected | delivered | dropped | mean extra hops | mean latency (cycles) |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        fig4.rate, fig4.steps, fig4.message_flits, fig4.buffer_flits
    );
    for c in cells {
        text += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            c.algorithm.name(),
            c.n,
            1u64 << c.n,
            c.faults,
            c.runs,
            c.deadlocks,
            c.injected,
            c.delivered,
            c.dropped,
            estimate_text(c.extra_hops),
            estimate_text(c.latency)
        );
    }
    text
}

/// Per algorithm, extra hops, latency and the messages dropped against the node count, a
/// line per fault count (the y axis reaches at least 1.25, so an all-zero panel reads 0).
fn chart(cells: &[Fig4Cell]) -> Result<String, String> {
    let mut algorithms = Vec::new();
    for c in cells {
        if !algorithms.contains(&c.algorithm) {
            algorithms.push(c.algorithm);
        }
    }
    let sizes: Vec<f64> = cells.iter().map(|c| (1u64 << c.n) as f64).collect();
    let lo = sizes.iter().copied().fold(f64::MAX, f64::min);
    let hi = sizes.iter().copied().fold(f64::MIN, f64::max);
    let x_range = (lo, hi.max(lo * 1.0001));
    type Value = fn(&Fig4Cell) -> Option<f64>;
    let figures: [(&str, Value); 3] = [
        ("mean extra hops", |c| Some(c.extra_hops?.mean)),
        ("mean latency (cycles)", |c| Some(c.latency?.mean)),
        ("dropped (% of injected)", |c| {
            Some(100.0 * c.dropped as f64 / c.injected.max(1) as f64)
        }),
    ];
    let mut panels = Vec::new();
    for &algorithm in &algorithms {
        let of: Vec<&Fig4Cell> = cells.iter().filter(|c| c.algorithm == algorithm).collect();
        for (name, value) in figures {
            let mut faults: Vec<u64> = of.iter().map(|c| c.faults).collect();
            faults.sort_unstable();
            faults.dedup();
            let lines: Vec<(String, Vec<(f64, f64)>)> = faults
                .iter()
                .map(|&f| {
                    let mut line: Vec<(f64, f64)> = of
                        .iter()
                        .filter(|c| c.faults == f)
                        .filter_map(|c| Some(((1u64 << c.n) as f64, value(c)?)))
                        .collect();
                    line.sort_by(|a, b| a.0.total_cmp(&b.0));
                    (format!("{f} faulty links"), line)
                })
                .collect();
            let top = lines
                .iter()
                .flat_map(|(_, l)| l.iter().map(|p| p.1))
                .fold(0.0f64, f64::max)
                .max(1.0)
                * 1.25;
            panels.push(Panel {
                title: format!("{}: {name}", algorithm.name()),
                x_desc: "nodes",
                x_range,
                y_top: top,
                lines,
            });
        }
    }
    panels_svg(
        "Binary n-cubes, Fig. 4 of Demaine and Srinivas's k-ary n-cube paper: wormhole model, rate 0.2 per node per step, 30 steps",
        figures.len(),
        &panels,
    )
}
