//! `kautzgen netsim sweep`: runs the network model over a grid of graphs, fault counts and
//! injection rates, and writes the table, the CSV and the SVG chart of the results, with
//! the loads at which first-attempt success falls below 90% and 50% (the claim of the
//! network-switch paper, Smit et al. 1991, that collisions are rare; see docs/papers.md).
//!
//! In: the grid, a shard of it, an output directory. Out: `sweep.csv`, `sweep.md` and
//! `sweep.svg` in the directory (the table also on standard output); with `--shard I/N`
//! only `sweep-I-of-N.csv`, which `--merge` later gathers into the three. The sharding,
//! the shard files and their merge are shared with `netsim torus fig4` ([`run_shard`],
//! [`gather`]).

use crate::cli::bench::parse_graph;
use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::cli::progress;
use crate::network::sweep::{
    Crossing, CsvRow, Experiment, Grid, Row, crossing, csv_text, run_points,
};
use crate::output::{self, dir::OutputDir};
use crate::plot::sweep_svg;
use crate::rtl::kautz_route::faithful::cycle_bound;
use crate::sim::vectors::Shard;
use crate::topology::kautz::Kautz;
use anyhow::Context;
use std::path::{Path, PathBuf};

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

/// Where a sweep's results go. A whole run replaces the directory whole, as every output
/// directory; the shards of a sweep add their files to one directory, and the merge its
/// table, chart and CSV, keeping the shards' files.
pub(super) enum SweepOut {
    Whole(OutputDir),
    Shared(PathBuf),
}

impl SweepOut {
    /// Claims `path` before the run, so that a refused directory costs no time.
    pub(super) fn open(
        path: &Path,
        force: bool,
        shard: Shard,
        merge: bool,
    ) -> anyhow::Result<SweepOut> {
        Ok(match shard == Shard::WHOLE && !merge {
            true => SweepOut::Whole(OutputDir::staged(path, force)?),
            false => SweepOut::Shared(output::dir::shared(path, force)?),
        })
    }

    /// Where the shards' files are.
    pub(super) fn dir(&self) -> &Path {
        match self {
            SweepOut::Whole(out) => out.target(),
            SweepOut::Shared(dir) => dir,
        }
    }

    /// Writes `files` (name, contents) and puts them in place.
    pub(super) fn write(self, files: &[(&str, &[u8])]) -> anyhow::Result<()> {
        match self {
            SweepOut::Whole(out) => {
                for (name, bytes) in files {
                    let path = out.path().join(name);
                    std::fs::write(&path, bytes)
                        .with_context(|| format!("cannot write '{}'", path.display()))?;
                }
                out.commit()?;
            }
            SweepOut::Shared(dir) => {
                for (name, bytes) in files {
                    output::file::write(&dir.join(name), bytes)?;
                }
            }
        }
        Ok(())
    }

    /// Writes a shard's rows to `NAME-I-of-N.csv` and says so.
    pub(super) fn write_shard<R: CsvRow>(
        self,
        name: &str,
        shard: Shard,
        rows: &[R],
    ) -> anyhow::Result<()> {
        let file = format!("{name}-{}-of-{}.csv", shard.index(), shard.count());
        let path = self.dir().join(&file);
        self.write(&[(&file, csv_text(rows).as_bytes())])?;
        print_stdout(&format!(
            "{} points of the sweep written to {}\n",
            rows.len(),
            path.display()
        ))
    }
}

/// `--shard I/N`, or the whole grid.
pub(super) fn parse_shard(text: Option<&str>) -> anyhow::Result<Shard> {
    match text {
        Some(text) => text.parse::<Shard>().map_err(input_error),
        None => Ok(Shard::WHOLE),
    }
}

/// Runs `shard` of `experiment`'s points.
pub(super) fn run_shard<E: Experiment>(
    experiment: &E,
    shard: Shard,
) -> anyhow::Result<Vec<E::Row>> {
    let points: Vec<E::Point> = experiment
        .points()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| shard.selects(*i as u64))
        .map(|(_, p)| p)
        .collect();
    let bar = progress::bar(points.len() as u64, "sweep", "points");
    let rows = run_points(experiment, &points, &|| bar.inc(1));
    bar.finish_and_clear();
    Ok(rows?)
}

/// The rows of every shard file `NAME-*-of-COUNT.csv` in `dir`, in shard order.
pub(super) fn gather<R: CsvRow>(dir: &Path, name: &str, count: u64) -> anyhow::Result<Vec<R>> {
    if count == 0 {
        return Err(input_error(anyhow::anyhow!(
            "--merge needs the number of shards, at least 1"
        )));
    }
    let mut rows = Vec::new();
    for index in 0..count {
        let path = dir.join(format!("{name}-{index}-of-{count}.csv"));
        let text = std::fs::read_to_string(&path).map_err(|_| {
            input_error(anyhow::anyhow!(
                "shard {index}/{count} is missing: no '{}'",
                path.display()
            ))
        })?;
        for (n, line) in text.lines().enumerate().skip(1) {
            rows.push(R::parse_csv(line).ok_or_else(|| {
                input_error(anyhow::anyhow!(
                    "'{}' line {}: not a row of a sweep",
                    path.display(),
                    n + 1
                ))
            })?);
        }
    }
    Ok(rows)
}

/// Writes the CSV, the table and the chart of `rows`, and prints the table.
fn finish(out: SweepOut, rows: &[Row]) -> anyhow::Result<()> {
    let table = table(rows);
    let svg = sweep_svg(rows).map_err(|e| anyhow::anyhow!("cannot draw the chart: {e}"))?;
    out.write(&[
        ("sweep.csv", csv_text(rows).as_bytes()),
        ("sweep.md", table.as_bytes()),
        ("sweep.svg", svg.as_bytes()),
    ])?;
    print_stdout(&table)
}

/// The results as Markdown: every point, then where first-attempt success falls below 90%
/// and 50%.
fn table(rows: &[Row]) -> String {
    let mut text = String::from(
        "| graph | faulty nodes | rate | injected | delivered | first-attempt success | retries per message | mean latency | p99 latency | throughput (bytes/node/cycle) |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let percent = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x));
    for r in rows {
        let s = &r.summary;
        text += &format!(
            "| K({},{}) | {} | {} | {} | {} | {} | {:.2} | {} | {} | {:.4} |\n",
            r.point.graph.d(),
            r.point.graph.k(),
            r.point.faults,
            r.point.rate,
            s.injected,
            percent(Some(r.delivered_fraction())),
            percent(s.first_attempt_success),
            r.retries_per_message(),
            s.mean_latency
                .map_or("-".to_string(), |x| format!("{x:.1}")),
            s.p99_latency.map_or("-".to_string(), |x| x.to_string()),
            s.throughput
        );
    }
    text += "\nFirst-attempt success falls below 90% and 50% at these rates (messages per node per cycle, interpolated between the rates run):\n\n\
             | graph | faulty nodes | below 90% | below 50% |\n| --- | ---: | ---: | ---: |\n";
    let mut keys: Vec<(usize, usize, u64)> = rows
        .iter()
        .map(|r| (r.point.graph.d(), r.point.graph.k(), r.point.faults))
        .collect();
    keys.dedup();
    for (d, k, faults) in keys {
        let of: Vec<&Row> = rows
            .iter()
            .filter(|r| (r.point.graph.d(), r.point.graph.k(), r.point.faults) == (d, k, faults))
            .collect();
        let at = |threshold| match crossing(&of, threshold) {
            Crossing::At(x) => format!("{x:.4}"),
            Crossing::AtOrBelow(x) => format!("at or below {x}"),
            Crossing::NotReached => "not reached".to_string(),
        };
        text += &format!("| K({d},{k}) | {faults} | {} | {} |\n", at(0.9), at(0.5));
    }
    text
}
