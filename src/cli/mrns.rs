//! Placeholder: the `mrns` subcommand.

/// Placeholder arguments.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("the mrns command is being written")
}
