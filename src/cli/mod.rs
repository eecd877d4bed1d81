//! The command line: one file per subcommand, each parsing its arguments and calling the
//! library. Errors leave here as `anyhow` errors; those caused by the user's input are
//! wrapped in [`InputError`] so that `main` can exit with status 2 for them.

pub(crate) mod bench;
mod draw;
mod export;
mod generate;
mod ldi;
mod lint;
mod memory;
mod mrns;
mod netsim;
pub mod output;
pub mod progress;
mod prove;
mod routes;
mod synth;
mod topology;
mod torus;
mod unit;
pub mod unknown_option;
mod verify;

use crate::input::InputError;
use anyhow::Context;
use clap::{Parser, Subcommand};

/// kautzgen: golden models and routing hardware for Kautz and related networks.
#[derive(Debug, Parser)]
#[command(name = "kautzgen", version = env!("KAUTZGEN_VERSION"), about, long_about = None)]
pub struct Cli {
    /// Show no progress bars (they appear only while standard error is a terminal).
    #[arg(long, global = true)]
    quiet: bool,
    /// Threads that simulations use: a run's cycle is split between them, and a sweep's
    /// points run on them (default: every core). Results are the same byte for byte for
    /// every count.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Refuse network runs estimated to need more memory than this many GiB (default: the
    /// machine's memory, or its control group's limit).
    #[arg(long, global = true, value_name = "GIB", value_parser = memory::parse_gib)]
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
    Synth(synth::Args),
    Prove(prove::Args),
    Topology(topology::Args),
    Export(export::Args),
}

/// The command line's definition.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command()
}

/// Parses the process's command line with [`command`].
pub fn parse() -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    command()
        .try_get_matches()
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
        Command::Synth(args) => synth::run(args),
        Command::Prove(args) => prove::run(args),
        Command::Topology(args) => topology::run(args),
        Command::Export(args) => export::run(args),
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
}
