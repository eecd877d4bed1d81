//! Runners for the external tools that check, synthesise and prove generated designs.
//!
//! In: a design directory (its `manifest.json` and HDL files), and for synthesis the IR
//! of its top, whose ports the wrapper registers. Out: reports of what each tool said.
//! [`tool`] runs one external program; [`lint`] runs the static checks every generated
//! design must pass; [`ghdl`] turns the VHDL into a Verilog netlist; [`wrapper`],
//! [`target`] and [`flow`] synthesise and place a design on an FPGA; [`report`] prints
//! the figures and writes `docs/synthesis.md`; [`equiv`] proves the two languages equal.

pub mod blocks;
pub mod critical;
pub mod equiv;
pub mod flow;
pub mod ghdl;
pub mod lint;
pub mod pnr;
pub mod report;
pub mod target;
pub mod tool;
pub mod wrapper;

use crate::interrupt::scratch::ScratchDir;
use crate::output::OutputError;
use crate::output::dir::OutputDir;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Where a flow runs its tools: a temporary directory, or one the user asked to keep.
/// A flow that fails keeps its temporary directory too, so that the logs it names exist.
#[derive(Debug)]
pub struct WorkDir {
    path: PathBuf,
    place: Place,
}

#[derive(Debug)]
enum Place {
    Temporary(ScratchDir),
    /// The directory of `--keep`, the earlier one moved aside until the work ends.
    Kept(OutputDir),
    /// A temporary directory left on disk.
    Left,
}

impl WorkDir {
    /// `keep`: the directory to use and leave behind (refused, as every output directory,
    /// when kautzgen did not write it, unless `force`); otherwise a fresh temporary one.
    pub fn new(keep: Option<&Path>, force: bool) -> Result<WorkDir, OutputError> {
        let place = match keep {
            Some(dir) => Place::Kept(OutputDir::in_place(dir, force)?),
            None => Place::Temporary(ScratchDir::new("kautzgen-").map_err(|cause| {
                OutputError::Write {
                    path: std::env::temp_dir(),
                    cause,
                }
            })?),
        };
        let path = match &place {
            Place::Temporary(dir) => dir.path(),
            Place::Kept(dir) => dir.path(),
            Place::Left => unreachable!("a work directory starts in place"),
        };
        let path = std::fs::canonicalize(path).map_err(|cause| OutputError::Write {
            path: path.to_path_buf(),
            cause,
        })?;
        Ok(WorkDir { path, place })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Leaves the directory on disk, a temporary one too: its logs are what a report names.
    pub fn keep(&mut self) -> Result<(), OutputError> {
        match std::mem::replace(&mut self.place, Place::Left) {
            Place::Temporary(dir) => {
                dir.keep();
                Ok(())
            }
            Place::Kept(dir) => dir.commit(),
            Place::Left => Ok(()),
        }
    }

    /// Ends the work: a directory asked to be kept stays, a temporary one goes.
    pub fn finish(mut self) -> Result<(), OutputError> {
        match std::mem::replace(&mut self.place, Place::Left) {
            Place::Kept(dir) => dir.commit(),
            Place::Temporary(_) | Place::Left => Ok(()),
        }
    }
}

/// Renders one of the tera templates compiled into the program.
pub(crate) fn render_template(
    name: &str,
    source: &str,
    context: &impl Serialize,
) -> Result<String, tera::Error> {
    let mut tera = tera::Tera::new();
    tera.autoescape_on(Vec::<&str>::new());
    tera.add_raw_template(name, source)?;
    tera.render(name, &tera::Context::from_serialize(context)?)
}
