//! The command line: one file per subcommand, each parsing its arguments and calling the
//! library. Errors leave here as `anyhow` errors; those caused by the user's input are
//! wrapped in [`InputError`] so that `main` can exit with status 2 for them.

pub(crate) mod bench;
mod board;
mod draw;
mod export;
mod generate;
mod ldi;
mod lint;
mod memory;
mod merge;
mod mrns;
mod netsim;
pub mod output;
pub mod progress;
mod prove;
mod routes;
pub mod shard;
mod slurm;
mod synth;
mod topology;
mod torus;
mod unit;
pub mod unknown_option;
mod verify;

use crate::input::InputError;
use anyhow::Context;
use clap::{Parser, Subcommand};

/// The heading of the options every command takes, listed after its own.
const GLOBAL: &str = "Global options";

/// kautzgen: golden models and routing hardware for Kautz and related networks.
#[derive(Debug, Parser)]
#[command(name = "kautzgen", version = env!("KAUTZGEN_VERSION"), about, long_about = None)]
pub struct Cli {
    /// Show no progress bars (they appear only while standard error is a terminal).
    #[arg(long, global = true, help_heading = GLOBAL)]
    quiet: bool,
    /// Threads that simulations use: a run's cycle is split between them, and a sweep's
    /// points run on them (default: every core). Results are the same byte for byte for
    /// every count.
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Refuse network runs estimated to need more memory than this many GiB (default: the
    /// machine's memory, or its control group's limit).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "GIB", value_parser = memory::parse_gib)]
    max_memory: Option<u64>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Routes(routes::Args),
    Draw(draw::Args),
    Bench(bench::Args),
    Generate(generate::Args),
    Lint(lint::Args),
    Ldi(ldi::Args),
    Mrns(mrns::Args),
    Torus(torus::Args),
    Netsim(Box<netsim::Args>),
    Verify(verify::Args),
    Board(board::Args),
    Synth(synth::Args),
    Prove(prove::Args),
    Topology(topology::Args),
    Export(export::Args),
    Merge(merge::Args),
    Slurm(slurm::Args),
}

/// The command line's definition.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command()
}

/// Parses the process's command line with [`command`].
pub fn parse() -> Result<Cli, clap::Error> {
    parse_from(std::env::args_os())
}

/// Parses `words` (the program's name first) with [`command`].
pub fn parse_from<W: Into<std::ffi::OsString> + Clone>(
    words: impl IntoIterator<Item = W>,
) -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    command()
        .try_get_matches_from(words)
        .and_then(|matches| Cli::from_arg_matches(&matches))
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    progress::set_quiet(cli.quiet);
    if let Some(bytes) = cli.max_memory.or_else(memory::machine_memory) {
        crate::network::memory::set_limit(bytes);
    }
    if let Some(threads) = cli.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(threads))
            .build_global()
            .context("starting the simulation threads")?;
    }
    match cli.command {
        Command::Routes(args) => routes::run(args),
        Command::Draw(args) => draw::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Ldi(args) => ldi::run(args),
        Command::Mrns(args) => mrns::run(args),
        Command::Torus(args) => torus::run(args),
        Command::Netsim(args) => netsim::run(*args),
        Command::Verify(args) => verify::run(args),
        Command::Board(args) => board::run(args),
        Command::Synth(args) => synth::run(args),
        Command::Prove(args) => prove::run(args),
        Command::Topology(args) => topology::run(args),
        Command::Export(args) => export::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Slurm(args) => slurm::run(args),
    }
}

/// The job of a parsed command line that runs in shards, as `kautzgen merge` needs it:
/// the registry of [`shard::SHARDABLE`]'s commands. `None` for a command line that runs
/// whole (another command, or `netsim` without `--seeds`).
pub fn job(cli: Cli) -> anyhow::Result<Option<Box<dyn shard::Job>>> {
    match cli.command {
        Command::Netsim(args) => netsim::job(*args),
        Command::Torus(args) => torus::job(args),
        Command::Verify(args) => verify::job(args),
        _ => Ok(None),
    }
}

/// Marks any error as the user's input being wrong.
pub fn input_error(error: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(InputError(error.into()))
}

/// Clap's own message for a bad command line, folded onto one line; `None` when clap
/// asks to print help or the version instead, which is not an error.
pub fn one_line_usage_error(error: &clap::Error) -> Option<String> {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return None;
    }
    let rendered = error.render().to_string();
    let parts: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    Some(format!("{} (see --help)", parts.join(" ")))
}

/// Exit status for an error: 2 for bad input (an output kautzgen must not write among
/// it, wherever in the chain of causes), 1 for a failure of the work itself.
pub fn exit_status(error: &anyhow::Error) -> u8 {
    let refused = error.chain().any(|cause| {
        cause
            .downcast_ref::<crate::output::OutputError>()
            .is_some_and(crate::output::OutputError::is_refusal)
    });
    if refused || error.downcast_ref::<InputError>().is_some() {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    /// A command line of each registered command makes a job, and is named by its entry;
    /// command lines that run whole make none.
    #[test]
    fn every_shardable_command_makes_a_job_and_no_other_does() {
        let shardable = [
            "netsim --d 2 --k 3 --rate 0.01 --cycles 10 --seeds 2",
            "netsim sweep --graph 2,3 --out x",
            "netsim saturate --d 2 --k 3",
            "netsim compare --out x",
            "netsim torus fig4 --out x",
            "torus deadlock-sweep --ks 3 --ns 2",
            "verify --d 2 --k 2",
            "verify kautz --d 2 --k 2",
            "verify ldi --m 18 --s 3",
            "verify mrns --radices 2,3",
            "verify torus --k 3 --n 2 --algo e-cube",
        ];
        let whole = [
            "netsim --d 2 --k 3 --rate 0.01 --cycles 10",
            "netsim torus --k 3 --n 2 --algo e-cube --rate 0.1 --cycles 10",
            "torus deadlock --k 3 --n 2 --algo e-cube",
            "verify --d 2 --k 2 --arch pipelined",
            "verify switch --d 2",
            "routes --d 2 --k 3 --src 01 --dst 20",
        ];
        let job_of = |line: &str| {
            let words: Vec<String> = line.split_whitespace().map(String::from).collect();
            let cli =
                super::parse_from(std::iter::once("kautzgen".to_string()).chain(words.clone()));
            let job = super::job(cli.unwrap_or_else(|e| panic!("{line}: {e}")));
            (words, job.unwrap_or_else(|e| panic!("{line}: {e}")))
        };
        assert_eq!(shardable.len(), super::shard::SHARDABLE.len());
        for (line, name) in shardable.into_iter().zip(super::shard::SHARDABLE) {
            let (words, job) = job_of(line);
            assert_eq!(super::shard::command_line::command_path(&words), name);
            assert!(super::shard::is_shardable(name));
            assert!(job.is_some(), "{line}");
        }
        for line in whole {
            assert!(job_of(line).1.is_none(), "{line}");
        }
    }
}
