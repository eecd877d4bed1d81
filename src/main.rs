//! The `kautzgen` binary: parses the command line and hands it to the library.

use kautzgen::cli::{exit_status, one_line_usage_error, parse, run, unknown_option};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(error) => match unknown_option::explain(&error, &std::env::args().collect::<Vec<_>>())
            .or_else(|| one_line_usage_error(&error))
        {
            Some(message) => {
                eprintln!("{message}");
                return ExitCode::from(2);
            }
            None => error.exit(),
        },
    };
    if let Err(error) = kautzgen::interrupt::install() {
        eprintln!("error: cannot watch for Ctrl-C: {error}");
        return ExitCode::FAILURE;
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(exit_status(&error))
        }
    }
}
