//! Sharded runs (docs/sharding.md). A shardable command's work is a list of independent
//! items in a fixed order ([`Shardable`]): a sweep's points, a comparison's searches, a
//! verification's vectors. Run whole, it runs every item and writes its result from all
//! the items' results. With `--shard I/N` it runs the items at positions p with
//! `p % N == I` and writes their results to one part file ([`part`]); `kautzgen merge`
//! joins the N parts and writes, from all the items' results, exactly what the whole run
//! writes. [`SHARDABLE`] lists the commands that do this; [`crate::cli::job`] makes the
//! job of a parsed command line, which is all a merge needs to know of a command.
//!
//! A whole run's results pass through the JSON a part holds, as a merge's do, so that
//! both write their result from the same values, byte for byte.
//!
//! In: a command's job, its shard, its `--out`. Out: the command's result, or a part and
//! one line that says what it holds.

pub mod command_line;
pub mod part;

use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::cli::progress;
use crate::output;
use crate::sim::vectors::Shard;
use part::{Part, Positioned};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::Path;
use std::time::Instant;

/// The commands, by their subcommands, that take `--shard I/N` and whose parts `kautzgen
/// merge` joins. `netsim` shards the runs of `--seeds`; `verify` the vectors of the units
/// that take `--shard`.
pub const SHARDABLE: [&str; 11] = [
    "netsim",
    "netsim sweep",
    "netsim saturate",
    "netsim compare",
    "netsim torus fig4",
    "torus deadlock-sweep",
    "verify",
    "verify kautz",
    "verify ldi",
    "verify mrns",
    "verify torus",
];

/// Whether `command` (its subcommands, as "netsim sweep") is one of [`SHARDABLE`].
pub fn is_shardable(command: &str) -> bool {
    SHARDABLE.contains(&command)
}

/// A command whose work is a list of independent items, each with a result that a part
/// can hold.
pub trait Shardable {
    /// One item's result.
    type Result: Serialize + DeserializeOwned;
    /// Where the whole result goes, claimed before any work.
    type Output;
    /// How many items the whole run has.
    fn items(&self) -> u64;
    /// The results of the items at `positions` (increasing), in their order.
    fn run(&self, positions: &[u64]) -> anyhow::Result<Vec<Self::Result>>;
    /// Claims the place of the whole result (`--out`, or standard output), so that a
    /// refused output costs no work.
    fn claim(&self) -> anyhow::Result<Self::Output>;
    /// Writes the whole result from every item's result, in position order.
    fn finish(&self, output: Self::Output, results: Vec<Self::Result>) -> anyhow::Result<()>;
}

/// A shardable command as `kautzgen merge` holds it: its results as JSON.
pub trait Job {
    /// How many items the whole run has.
    fn items(&self) -> u64;
    /// Writes the whole result from `results`, every item's in position order.
    fn merge(&self, results: Vec<Value>) -> anyhow::Result<()>;
}

impl<S: Shardable> Job for S {
    fn items(&self) -> u64 {
        Shardable::items(self)
    }

    fn merge(&self, results: Vec<Value>) -> anyhow::Result<()> {
        let output = self.claim()?;
        let results = results
            .into_iter()
            .map(serde_json::from_value)
            .collect::<Result<Vec<S::Result>, _>>()
            .map_err(|e| input_error(anyhow::anyhow!("merge: a part's result: {e}")))?;
        self.finish(output, results)
    }
}

/// `--shard I/N` of a command that runs its items in shards.
#[derive(Debug, Clone, clap::Args)]
pub struct ShardArg {
    /// Run only the items at positions p with p mod N = I (0 <= I < N), and write their
    /// results to --out FILE: a part, which `kautzgen merge` joins with the other shards'
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
}

impl ShardArg {
    /// The shard asked for; none for the whole run.
    pub fn shard(&self) -> anyhow::Result<Option<Shard>> {
        self.shard
            .as_deref()
            .map(|text| text.parse::<Shard>().map_err(input_error))
            .transpose()
    }
}

/// Runs `job` whole, or its `shard` with the part written to `out`.
pub fn execute<S: Shardable>(
    job: &S,
    shard: Option<Shard>,
    out: Option<&Path>,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let config = command_line::current();
    let command = command_line::command_path(&config);
    let items = job.items();
    let Some(shard) = shard else {
        let output = job.claim()?;
        let every: Vec<u64> = (0..items).collect();
        let results = job
            .run(&every)?
            .iter()
            .map(through_json)
            .collect::<anyhow::Result<_>>()?;
        job.finish(output, results)?;
        progress::wall_time(&command, started);
        return Ok(());
    };
    let path = out.ok_or_else(|| {
        input_error(anyhow::anyhow!(
            "--shard {shard} writes a part: give --out FILE"
        ))
    })?;
    output::file::check(path)?;
    let positions: Vec<u64> = (0..items).filter(|&p| shard.selects(p)).collect();
    let results = job.run(&positions)?;
    let results = positions
        .iter()
        .zip(&results)
        .map(|(&position, result)| {
            Ok(Positioned {
                position,
                result: serde_json::to_value(result)?,
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let part = Part::new(command.clone(), config, shard, items, results);
    output::file::write(path, part.text()?.as_bytes())?;
    progress::wall_time(&format!("{command} --shard {shard}"), started);
    print_stdout(&format!(
        "shard {shard} of {command}: {} of the {items} items, written to {}\n",
        positions.len(),
        path.display()
    ))
}

/// `result` as a merge reads it from a part: written as JSON text and read back.
fn through_json<R: Serialize + DeserializeOwned>(result: &R) -> anyhow::Result<R> {
    Ok(serde_json::from_str(&serde_json::to_string(result)?)?)
}
