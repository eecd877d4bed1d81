//! A command's report on standard output. Files and directories the user names are
//! written by [`crate::output`].

use anyhow::Context;
use std::io::Write;
use std::path::Path;

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

/// Writes `text` to the output file `out` (through [`crate::output::file`]), or prints it
/// when there is none.
pub fn write_or_print(out: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match out {
        Some(path) => Ok(crate::output::file::write(path, text.as_bytes())?),
        None => print_stdout(text),
    }
}

/// Refuses, before any work, an `out` that [`write_or_print`] could not write.
pub fn check_out(out: Option<&Path>) -> anyhow::Result<()> {
    Ok(out.map_or(Ok(()), crate::output::file::check)?)
}

/// Left-aligned columns two spaces apart, no trailing spaces.
pub fn columns<const N: usize>(rows: &[[String; N]]) -> String {
    let mut widths = [0; N];
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.len());
        }
    }
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:width$}"))
            .collect();
        text += cells.join("  ").trim_end();
        text.push('\n');
    }
    text
}

/// A write to standard output that failed: a closed pipe (`| head`) is a normal end.
pub fn broken_pipe_is_the_end(error: std::io::Error) -> anyhow::Result<()> {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(error).context("cannot write to standard output")
    }
}
