//! Placeholder: the `routes` subcommand.

/// Placeholder arguments.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("being written")
}
