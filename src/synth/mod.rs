//! Runners for the external tools that check, synthesise and prove generated designs.
//!
//! In: a design directory (its `manifest.json` and HDL files), and for synthesis the IR
//! of its top, whose ports the wrapper registers. Out: reports of what each tool said.
//! [`tool`] runs one external program; [`lint`] runs the static checks every generated
//! design must pass; [`ghdl`] turns the VHDL into a Verilog netlist; [`wrapper`],
//! [`target`] and [`flow`] synthesise and place a design on an FPGA; [`report`] prints
//! the figures and writes `docs/synthesis.md`; [`equiv`] proves the two languages equal.

pub mod equiv;
pub mod flow;
pub mod ghdl;
pub mod lint;
pub mod report;
pub mod target;
pub mod tool;
pub mod wrapper;

use serde::Serialize;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// Where a flow runs its tools: a temporary directory, or one the user asked to keep.
/// A flow that fails keeps its temporary directory too, so that the logs it names exist.
#[derive(Debug)]
pub struct WorkDir {
    temporary: Option<TempDir>,
    path: PathBuf,
}

impl WorkDir {
    /// `keep`: the directory to use and leave behind; otherwise a fresh temporary one.
    pub fn new(keep: Option<&Path>) -> std::io::Result<WorkDir> {
        match keep {
            Some(dir) => {
                std::fs::create_dir_all(dir)?;
                Ok(WorkDir {
                    temporary: None,
                    path: std::fs::canonicalize(dir)?,
                })
            }
            None => {
                let temporary = tempfile::Builder::new().prefix("kautzgen-").tempdir()?;
                let path = temporary.path().to_path_buf();
                Ok(WorkDir {
                    temporary: Some(temporary),
                    path,
                })
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Leaves the directory on disk when this value is dropped.
    pub fn keep(&mut self) {
        if let Some(temporary) = self.temporary.take() {
            let _ = temporary.keep();
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
