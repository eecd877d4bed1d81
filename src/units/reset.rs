//! `--reset`: any unit built with its registers reset in another style than the default
//! (docs/design.md, "Reset"). The style is a property of the whole design, chosen
//! after a unit builds it ([`Design::with_reset`]), so no unit declares it: the command
//! line wraps the unit ([`Restyled`]), and its check, whose every design, simulated or
//! exported, is restyled the same way.

use crate::choice::Choice;
use crate::input::{InputError, input_error};
use crate::rtl::ir::{Design, ResetStyle};
use crate::units::check::Check;
use crate::units::restyled::Restyled;
use crate::units::{HardwareUnit, Purpose};
use clap::ArgMatches;

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
