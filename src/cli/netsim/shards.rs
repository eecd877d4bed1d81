//! What the sweeps of the command line share, `netsim sweep` and `netsim torus fig4`, as
//! shardable commands ([`crate::cli::shard`]): an item is a point of the sweep, its result
//! the point's CSV line (numbers written exactly, so that the rows read back are the rows
//! run), and the whole result a directory written at once.
//!
//! In: an experiment ([`crate::experiments::driver::Experiment`]) and the positions of the
//! points to run; the CSV lines of every point; an output directory and its files. Out:
//! the points' CSV lines, the rows read back, the directory written.

use crate::cli::input_error;
use crate::cli::progress;
use crate::experiments::driver::{CsvRow, Experiment, run_points};
use crate::output::dir::OutputDir;
use anyhow::Context;

/// The CSV lines of the points of `experiment` at `positions` (increasing), run on every
/// processor with a progress bar.
pub(super) fn run_lines<E: Experiment>(
    experiment: &E,
    positions: &[u64],
) -> anyhow::Result<Vec<String>> {
    let points: Vec<E::Point> = experiment
        .points()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| positions.binary_search(&(*i as u64)).is_ok())
        .map(|(_, p)| p)
        .collect();
    let bar = progress::bar(points.len() as u64, "sweep", "points");
    let rows = run_points(experiment, &points, &|| bar.inc(1));
    bar.finish_and_clear();
    Ok(rows?.iter().map(CsvRow::csv).collect())
}

/// The rows of `lines`, each written by [`CsvRow::csv`].
pub(super) fn rows<R: CsvRow>(lines: &[String]) -> anyhow::Result<Vec<R>> {
    lines
        .iter()
        .map(|line| {
            R::parse_csv(line)
                .ok_or_else(|| input_error(anyhow::anyhow!("'{line}' is not a row of this sweep")))
        })
        .collect()
}

/// Writes `files` (name, contents) into `out` and puts it in place.
pub(super) fn write(out: OutputDir, files: &[(&str, &[u8])]) -> anyhow::Result<()> {
    for (name, bytes) in files {
        let path = out.path().join(name);
        std::fs::write(&path, bytes)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
    }
    Ok(out.commit()?)
}
