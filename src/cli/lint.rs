//! `kautzgen lint`: the static checks of a generated design directory.

use crate::cli::input_error;
use crate::synth::lint::{LintError, lint};
use std::path::PathBuf;

/// Check a generated design with Verilator, GHDL and yosys.
///
/// Checks a design directory written by `kautzgen generate` with Verilator (-Wall), GHDL
/// (--std=08, analysis and elaboration) and yosys (check -assert, no latches). A self-timed
/// design, whose C elements are loops by design, has its Verilog checked by Icarus Verilog
/// (iverilog -g2005 -Wall) instead of Verilator and yosys. Any warning fails; the exit
/// status is 1 then.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  kautzgen generate --d 4 --k 5 --out build/k45 && kautzgen lint build/k45")]
pub struct Args {
    /// A directory holding manifest.json.
    dir: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let verdicts = lint(&args.dir).map_err(|e| match e {
        LintError::Design { .. } => input_error(e),
        other => other.into(),
    })?;
    let mut failed = 0;
    for v in &verdicts {
        if v.clean {
            println!("clean: {}", v.check);
        } else {
            failed += 1;
            println!("FAILED: {}\n{}", v.check, v.log.trim_end());
        }
    }
    println!("{} passed, {failed} failed", verdicts.len() - failed);
    if failed > 0 {
        anyhow::bail!(
            "{failed} of {} checks found problems in {}",
            verdicts.len(),
            args.dir.display()
        );
    }
    Ok(())
}
