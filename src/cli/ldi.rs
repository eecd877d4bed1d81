//! Placeholder: the `ldi` subcommand.

/// Placeholder arguments.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("the ldi command is being written")
}
