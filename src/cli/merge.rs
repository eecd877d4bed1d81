//! `kautzgen merge`: joins the parts that the shards of a run wrote (`--shard I/N --out
//! FILE`) into the result that the run writes whole, byte for byte (docs/sharding.md). It
//! knows no command: it checks the parts ([`crate::cli::shard::part::join`]), parses the
//! command line they recorded with `--out` and `--force` added as given to it, and hands
//! the items' results to that command's job ([`crate::cli::job`]).
//!
//! In: part files, in any order; `--out`, `--force`. Out: the command's result, where its
//! own `--out` puts it (standard output without one).

use crate::cli::shard::{command_line, is_shardable, part};
use crate::input::input_error;
use std::path::PathBuf;

/// Join the parts of a sharded run into the result the whole run writes.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Joins the parts written by the shards of a run (each run with --shard I/N \
--out FILE) into the result the run writes whole, byte for byte. The parts may come in any \
order; they must be every shard of one run, each once: the same command with the same \
options (but --shard, --out, --force, --threads and --quiet), the same shard count N, and \
shards 0 to N-1. The command is read from the parts: nothing needs typing again.",
    after_help = "Example:\n  \
kautzgen netsim sweep --graph 2,3 --shard 0/2 --out part-0.json\n  \
kautzgen netsim sweep --graph 2,3 --shard 1/2 --out part-1.json\n  \
kautzgen merge part-*.json --out sweep"
)]
pub struct Args {
    /// The part files of every shard, in any order
    #[arg(required = true, value_name = "PART")]
    parts: Vec<PathBuf>,
    /// Where the whole result goes, as the command's own --out takes it (a directory for
    /// netsim sweep, netsim torus fig4 and netsim compare); without it, standard output
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace --out even when kautzgen did not write it, as the command's --force
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut parts = Vec::new();
    for path in &args.parts {
        parts.push((path.display().to_string(), part::read(path)?));
    }
    let joined = part::join(parts)?;
    let refuse = |message: String| anyhow::Error::from(input_error(format!("merge: {message}")));
    if !is_shardable(&joined.command) {
        return Err(refuse(format!(
            "the parts come from '{}', which is not a command that runs in shards",
            joined.command
        )));
    }
    let command = subcommand(&joined.command);
    let takes = |option: &str| command.get_arguments().any(|a| a.get_id() == option);
    let out_required = command
        .get_arguments()
        .any(|a| a.get_id() == "out" && a.is_required_set());
    if args.out.is_none() && out_required {
        return Err(refuse(format!(
            "{} writes its result to --out only: give --out",
            joined.command
        )));
    }
    if args.force && !takes("force") {
        return Err(refuse(format!("{} takes no --force", joined.command)));
    }
    let mut words = vec!["kautzgen".to_string()];
    words.extend(joined.config.iter().cloned());
    if let Some(out) = &args.out {
        words.extend(["--out".to_string(), out.display().to_string()]);
    }
    if args.force {
        words.push("--force".to_string());
    }
    let cli = crate::cli::parse_from(&words).map_err(|e| {
        let line = crate::cli::one_line_usage_error(&e).unwrap_or_else(|| e.to_string());
        refuse(format!(
            "the parts' command line does not parse here: {line}"
        ))
    })?;
    command_line::merging(&joined.config);
    let job = crate::cli::job(cli)?.ok_or_else(|| {
        refuse(format!(
            "'{}' runs whole: its command line has no items to join",
            joined.config.join(" ")
        ))
    })?;
    if job.items() != joined.results.len() as u64 {
        return Err(refuse(format!(
            "the parts hold {} items, and their command line makes {} here",
            joined.results.len(),
            job.items()
        )));
    }
    job.merge(joined.results)
}

/// The definition of the subcommand `path` ("netsim sweep") of a registered name, with
/// the global options of the commands above it.
fn subcommand(path: &str) -> clap::Command {
    let mut command = crate::cli::command();
    command.build();
    for name in path.split_whitespace() {
        command = command
            .find_subcommand(name)
            .expect("a registered command is a subcommand of kautzgen")
            .clone();
    }
    command
}
