//! The shards of a sweep on the command line, shared by `netsim sweep` and `netsim torus
//! fig4`: `--shard I/N` runs the points whose position p has `p % N == I` with a progress
//! bar and writes them to `NAME-I-of-N.csv`; `--merge N` gathers the N files back.
//!
//! In: an experiment ([`crate::experiments::driver::Experiment`]), a shard, an output
//! directory. Out: the rows run or gathered, and the files written to the directory.

use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::cli::progress;
use crate::experiments::driver::{CsvRow, Experiment, csv_text, run_points};
use crate::output::{self, dir::OutputDir};
use crate::sim::vectors::Shard;
use anyhow::Context;
use std::path::{Path, PathBuf};

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
