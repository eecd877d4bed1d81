//! Runners for the external tools that check and synthesise generated designs.
//!
//! In: a design directory (its `manifest.json` and HDL files). Out: reports of what each
//! tool said. [`tool`] runs one external program; [`lint`] runs the static checks every
//! generated design must pass.

pub mod lint;
pub mod tool;
