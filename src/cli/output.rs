//! A command's report on standard output. Files and directories the user names are
//! written by [`crate::output`].

use anyhow::Context;
use std::io::Write;

/// `--format` of a command that prints one result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for people.
    Text,
    /// One line of JSON, its fields in a fixed order.
    Json,
}

/// Prints to standard output, treating a closed pipe (`| head`) as a normal end.
pub fn print_stdout(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}
