//! The `kautzgen` binary: parses the command line and hands it to the library.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = kautzgen::cli::Cli::parse();
    match kautzgen::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(kautzgen::cli::exit_status(&error))
        }
    }
}
