//! A unit as it is checked: its design with any deliberate fault built in, the vectors or
//! traffic the command line selected, and the golden model's answers; run in a simulator
//! by `verify`, written as a self-checking testbench by `generate --testbench`.
//!
//! Most units belong to one of three families that sim/ checks in one way each: function
//! units ([`FunctionUnit`]: an answer per input), sequence units ([`SequenceUnit`]: items
//! handed out one per request) and stream units ([`StreamUnit`]: every output in every
//! cycle). [`Family`] turns any of them into a [`Check`]; a unit checked in its own way
//! (the network message by message, the self-timed ring with wire delays) implements
//! [`Check`] itself. The checks of function and sequence units are independent vectors
//! ([`Vectors`]): they run in any shards, and their reports are made from every vector's
//! [`Outcome`].

use crate::choice::Choice;
use crate::emit::names::Language;
use crate::emit::testbench::Testbench;
use crate::input::InputError;
use crate::rtl::ir::{Design, ResetStyle};
use crate::sim::function::{self, FunctionReport, FunctionUnit};
use crate::sim::outcome::Outcome;
use crate::sim::sequence::{self, SequenceReport, SequenceUnit};
use crate::sim::stream::{self, StreamUnit};
use crate::sim::{SHOWN_BY_VERIFY, SimError, Simulator, export};
use crate::units::restyled::Restyled;
use std::path::Path;

/// How a check runs in one simulator.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    /// Copy the run's waves (VCD) here.
    pub wave: Option<&'a Path>,
    /// Failures kept in full.
    pub shown: usize,
    /// Told how many vectors each finished batch held, where a check runs in batches.
    pub progress: &'a dyn Fn(u64),
}

impl Default for Run<'_> {
    fn default() -> Self {
        Run {
            wave: None,
            shown: SHOWN_BY_VERIFY,
            progress: &|_| {},
        }
    }
}

/// One simulator's verdict on a check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The report, ending with `<sim>: N passed, M failed`.
    pub text: String,
    pub passed: u64,
    pub failed: u64,
}

impl Verdict {
    /// As the reports judge it: something ran and nothing failed.
    pub fn all_passed(&self) -> bool {
        self.failed == 0 && self.passed > 0
    }
}

impl From<FunctionReport> for Verdict {
    fn from(report: FunctionReport) -> Self {
        Verdict {
            text: report.render(),
            passed: report.passed,
            failed: report.failed,
        }
    }
}

impl From<SequenceReport> for Verdict {
    fn from(report: SequenceReport) -> Self {
        Verdict {
            text: report.render(),
            passed: report.passed,
            failed: report.failed,
        }
    }
}

/// Which simulators can run a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Simulation {
    /// One clock: Verilator, GHDL and Icarus Verilog (Verilator and GHDL by default).
    Clocked,
    /// Clocks made by the hardware through wires with delays: GHDL and Icarus Verilog only.
    DelayedWires,
}

/// A unit as checked.
pub trait Check {
    /// What is checked, the first line of `verify`'s report.
    fn heading(&self) -> String;
    /// What one counted check is, plural: "vectors", "cycles", "messages".
    fn counted(&self) -> &'static str;
    /// The design, with the check's deliberate fault built in.
    fn design(&self) -> Design;
    fn simulation(&self) -> Simulation {
        Simulation::Clocked
    }
    /// Whether the check runs its vectors batch by batch, telling [`Run::progress`] of
    /// each batch; false for a check that runs whole.
    fn batched(&self) -> bool {
        false
    }
    /// The check as independent vectors, which run in any shards; `None` for a check that
    /// runs as one (a stream of cycles, a network's traffic).
    fn vectors(&self) -> Option<&dyn Vectors> {
        None
    }
    /// Runs the check in `simulator` and judges it against the golden model.
    fn verify(&self, simulator: &dyn Simulator, run: Run) -> Result<Verdict, SimError>;
    /// The self-checking testbench in `languages` that runs the same check without
    /// kautzgen, and how many checks it makes; an input error for a check that has none.
    fn testbench(&self, languages: &[Language]) -> Result<Testbench, ExportError>;
    /// The same check of the design reset in `style`, which the design takes
    /// ([`crate::units::reset`] checked it): every design it builds, simulated or
    /// exported, restyled.
    fn with_reset(self: Box<Self>, style: ResetStyle) -> Box<dyn Check>;
}

/// A check made of independent vectors.
pub trait Vectors {
    /// How many vectors the whole check runs.
    fn count(&self) -> u64;
    /// Runs the vectors at `positions` (increasing) in `simulator`: each one's outcome, in
    /// their order, the first [`Run::shown`] failures in full.
    fn outcomes(
        &self,
        simulator: &dyn Simulator,
        positions: &[u64],
        run: Run,
    ) -> Result<Vec<Outcome>, SimError>;
    /// The verdict of `simulator` from the `outcomes` of every vector, in their order, the
    /// first `shown` failures in full.
    fn verdict(&self, simulator: &str, outcomes: &[Outcome], shown: usize) -> Verdict;
}

/// Why a check's testbench cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    NoTestbench(#[from] InputError),
    #[error(transparent)]
    Sim(#[from] SimError),
}

/// A unit of one of the three families that sim/ checks, with its report's heading.
pub enum Family {
    Function(Box<dyn FunctionUnit>),
    Sequence(Box<dyn SequenceUnit>),
    Stream(Box<dyn StreamUnit>),
}

/// A family unit as a [`Check`], with the heading `verify` prints.
pub struct FamilyCheck {
    pub unit: Family,
    pub heading: String,
}

impl FamilyCheck {
    /// A function unit checked on all its vectors: `<unit>: N vectors`.
    pub fn function(unit: Box<dyn FunctionUnit>) -> Self {
        let heading = format!("{}: {} vectors", unit.describe(), unit.vector_count());
        FamilyCheck {
            unit: Family::Function(unit),
            heading,
        }
    }

    /// A stream unit, its run of cycles from reset described by `heading`.
    pub fn stream(unit: Box<dyn StreamUnit>, heading: String) -> Self {
        FamilyCheck {
            unit: Family::Stream(unit),
            heading,
        }
    }
}

impl Check for FamilyCheck {
    fn heading(&self) -> String {
        self.heading.clone()
    }

    fn counted(&self) -> &'static str {
        match self.unit {
            Family::Stream(_) => "cycles",
            _ => "vectors",
        }
    }

    fn design(&self) -> Design {
        match &self.unit {
            Family::Function(unit) => unit.design(),
            Family::Sequence(unit) => unit.design(),
            Family::Stream(unit) => unit.design(),
        }
    }

    fn batched(&self) -> bool {
        matches!(self.unit, Family::Sequence(_))
    }

    fn vectors(&self) -> Option<&dyn Vectors> {
        match &self.unit {
            Family::Stream(_) => None,
            _ => Some(self),
        }
    }

    fn verify(&self, simulator: &dyn Simulator, run: Run) -> Result<Verdict, SimError> {
        if let Family::Stream(unit) = &self.unit {
            return Ok(stream::verify(simulator, unit.as_ref(), run.shown, run.wave)?.into());
        }
        let every: Vec<u64> = (0..self.count()).collect();
        let outcomes = self.outcomes(simulator, &every, run)?;
        Ok(self.verdict(simulator.name(), &outcomes, run.shown))
    }

    fn with_reset(self: Box<Self>, style: ResetStyle) -> Box<dyn Check> {
        let unit = match self.unit {
            Family::Function(inner) => Family::Function(Box::new(Restyled { inner, style })),
            Family::Sequence(inner) => Family::Sequence(Box::new(Restyled { inner, style })),
            Family::Stream(inner) => Family::Stream(Box::new(Restyled { inner, style })),
        };
        Box::new(FamilyCheck {
            unit,
            heading: self.heading,
        })
    }

    fn testbench(&self, languages: &[Language]) -> Result<Testbench, ExportError> {
        Ok(match &self.unit {
            Family::Function(unit) => export::function_unit(unit.as_ref(), languages)?,
            Family::Sequence(unit) => export::sequence_unit(unit.as_ref(), languages)?,
            Family::Stream(unit) => export::stream_unit(unit.as_ref(), languages)?,
        })
    }
}

/// Why a stream unit's check is never taken as [`Vectors`].
const STREAM: &str = "a stream unit's cycles are one run, not independent vectors: FamilyCheck::vectors gives None for it";

impl Vectors for FamilyCheck {
    fn count(&self) -> u64 {
        match &self.unit {
            Family::Function(unit) => unit.vector_count(),
            Family::Sequence(unit) => unit.vector_count(),
            Family::Stream(_) => unreachable!("{STREAM}"),
        }
    }

    fn outcomes(
        &self,
        simulator: &dyn Simulator,
        positions: &[u64],
        run: Run,
    ) -> Result<Vec<Outcome>, SimError> {
        match &self.unit {
            Family::Function(unit) => {
                function::outcomes(simulator, unit.as_ref(), positions, run.shown)
            }
            Family::Sequence(unit) => {
                let options = sequence::Options {
                    shown: run.shown,
                    wave: run.wave,
                    progress: run.progress,
                };
                sequence::outcomes(simulator, unit.as_ref(), positions, options)
            }
            Family::Stream(_) => unreachable!("{STREAM}"),
        }
    }

    fn verdict(&self, simulator: &str, outcomes: &[Outcome], shown: usize) -> Verdict {
        match &self.unit {
            Family::Sequence(unit) => {
                SequenceReport::of(simulator, unit.as_ref(), outcomes, shown).into()
            }
            _ => FunctionReport::of(simulator, outcomes, shown).into(),
        }
    }
}

/// " with fault <name>" for a unit built with `fault`, by the fault's command-line name;
/// empty without one.
pub(crate) fn with_fault<F: Choice>(fault: Option<F>) -> String {
    match fault {
        Some(fault) => format!(" with fault {}", fault.name()),
        None => String::new(),
    }
}
