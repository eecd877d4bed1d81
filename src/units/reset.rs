//! `--reset`: any unit built with its registers reset in another style than the default
//! (docs/design.md, "Reset"). The style is a property of the whole design, chosen
//! after a unit builds it ([`Design::with_reset`]), so no unit declares it: the command
//! line wraps the unit ([`Restyled`]), and its check, whose every design, simulated or
//! exported, is restyled the same way.

use crate::choice::Choice;
use crate::emit::names::Language;
use crate::input::{InputError, input_error};
use crate::rtl::ir::{Design, ResetStyle};
use crate::sim::bits::Bits;
use crate::sim::function::FunctionUnit;
use crate::sim::sequence::{Handshake, Item, Refused, SequenceUnit};
use crate::sim::stream::{Cycle, StreamUnit};
use crate::sim::words::Words;
use crate::units::check::Check;
use crate::units::{HardwareUnit, Purpose};
use clap::ArgMatches;
use std::path::PathBuf;

/// `inner` with every design it builds reset in `style`, which it takes (checked by
/// [`Restyled::unit`]).
pub struct Restyled<T> {
    pub inner: T,
    pub style: ResetStyle,
}

impl<T> Restyled<T> {
    /// `design` in this style; a unit's design was checked to take it when the unit was
    /// wrapped.
    fn restyle(&self, design: Design) -> Design {
        design
            .with_reset(self.style)
            .expect("checked when the unit was wrapped")
    }
}

impl Restyled<Box<dyn HardwareUnit>> {
    /// `unit` reset in `style`; the unit itself for the default style, and an input error
    /// for a design that cannot take it.
    pub fn unit(
        unit: Box<dyn HardwareUnit>,
        style: ResetStyle,
    ) -> Result<Box<dyn HardwareUnit>, InputError> {
        if style.is_default() {
            return Ok(unit);
        }
        unit.design().with_reset(style).map_err(input_error)?;
        Ok(Box::new(Restyled { inner: unit, style }))
    }
}

impl HardwareUnit for Restyled<Box<dyn HardwareUnit>> {
    /// The unit's name and the style: `switch-async-low`, apart in synthesis reports.
    fn name(&self) -> String {
        format!("{}-{}", self.inner.name(), self.style.name())
    }

    fn command_line(&self) -> String {
        format!(
            "{} --reset {}",
            self.inner.command_line(),
            self.style.name()
        )
    }

    fn design(&self) -> Design {
        self.restyle(self.inner.design())
    }

    fn timing(&self) -> String {
        self.inner.timing()
    }

    fn check(&self, matches: &ArgMatches, purpose: Purpose) -> Result<Box<dyn Check>, InputError> {
        Ok(self.inner.check(matches, purpose)?.with_reset(self.style))
    }

    fn cycles_by_design(&self) -> Option<u64> {
        self.inner.cycles_by_design()
    }
}

impl FunctionUnit for Restyled<Box<dyn FunctionUnit>> {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn design(&self) -> Design {
        self.restyle(self.inner.design())
    }

    fn latency(&self) -> u32 {
        self.inner.latency()
    }

    fn vector_count(&self) -> u64 {
        self.inner.vector_count()
    }

    fn vector(&self, index: u64) -> Vec<u64> {
        self.inner.vector(index)
    }

    fn expected(&self, inputs: &[u64]) -> Vec<u64> {
        self.inner.expected(inputs)
    }
}

impl StreamUnit for Restyled<Box<dyn StreamUnit>> {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn design(&self) -> Design {
        self.restyle(self.inner.design())
    }

    fn cycles(&self) -> Vec<Cycle> {
        self.inner.cycles()
    }
}

impl SequenceUnit for Restyled<Box<dyn SequenceUnit>> {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn design(&self) -> Design {
        self.restyle(self.inner.design())
    }

    fn handshake(&self) -> Handshake {
        self.inner.handshake()
    }

    fn cycle_bound(&self) -> u64 {
        self.inner.cycle_bound()
    }

    fn vector_count(&self) -> u64 {
        self.inner.vector_count()
    }

    fn most_items(&self) -> usize {
        self.inner.most_items()
    }

    fn vector(&self, index: u64) -> Vec<Bits> {
        self.inner.vector(index)
    }

    fn expected(&self, inputs: &[Bits]) -> Result<Vec<Item>, Refused> {
        self.inner.expected(inputs)
    }

    fn sequence_name(&self) -> &'static str {
        self.inner.sequence_name()
    }

    fn files(&self, language: Language) -> Option<Vec<PathBuf>> {
        self.inner.files(language)
    }

    fn words(&self) -> Option<Words> {
        self.inner.words()
    }

    fn show_inputs(&self, inputs: &[Bits]) -> Option<String> {
        self.inner.show_inputs(inputs)
    }

    fn show_item(&self, item: &Item) -> Option<String> {
        self.inner.show_item(item)
    }
}
