//! What every testbench shares: its name, the rule its top's name follows, the timeout,
//! and the rendering of the tera templates in `testbenches/` that the families of units
//! (function, sequence, stream, self-timed) fill in.

pub use crate::emit::names::Language;
use crate::emit::names::name_design;
use crate::rtl::ir::Design;
use thiserror::Error;

/// Multiple of the cycle bound after which a testbench stops waiting for `done`.
pub const TIMEOUT_FACTOR: u64 = 8;

#[derive(Debug, Error)]
pub enum TestbenchError {
    #[error(
        "top name '{0}' is not an identifier both languages accept: use a letter, then letters, digits and single underscores, not ending in one"
    )]
    Top(String),
    /// A fault of the templates themselves, which are compiled into the program.
    #[error("testbench template {name}: {cause}")]
    Template {
        name: &'static str,
        cause: tera::Error,
    },
}

/// The reset a testbench drives: the top's port, by its legal name in the testbench's
/// language, and the levels that put it on and off (`rst` 1 and 0, `rst_n` 0 and 1).
/// Every testbench holds it on from time 0 for its first clock edges and releases it just
/// after an edge, which suits an asynchronous reset too.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct TbReset {
    pub name: String,
    pub on: u8,
    pub off: u8,
}

impl TbReset {
    /// The reset of `design`'s top in `language`; `rst`, active high, for a top without a
    /// clock, whose testbench never names it.
    pub(crate) fn of(design: &Design, language: Language) -> Self {
        let top = design.top();
        let style = top.clocking.map(|c| c.style).unwrap_or_default();
        let name = match top.clocking {
            Some(clocking) => {
                let names = name_design(design, language);
                names.of(top).signals[clocking.reset.0 as usize].clone()
            }
            None => style.port().to_string(),
        };
        let on = u8::from(style.active_high());
        TbReset {
            name,
            on,
            off: 1 - on,
        }
    }
}

/// Name of the testbench's module or entity for a design whose top is `top`.
pub fn testbench_name(top: &str) -> String {
    format!("tb_{top}")
}

/// Checks that `top` names a module in Verilog and an entity in VHDL alike: no escaped
/// identifiers, and VHDL's rules on underscores. Reserved words are left to the tools.
pub fn check_top(top: &str) -> Result<(), TestbenchError> {
    let mut chars = top.chars();
    let legal = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !top.ends_with('_')
        && !top.contains("__");
    match legal {
        true => Ok(()),
        false => Err(TestbenchError::Top(top.to_string())),
    }
}

/// A testbench rendered from a template of `testbenches/`: its top's name, its text, and
/// the context it was rendered from, which the cocotb test of an exported testbench reads
/// (`tb/cocotb.json`) so that it drives and judges the same ports in the same way.
pub struct Rendered {
    pub top: String,
    pub text: String,
    pub context: serde_json::Value,
}

impl Rendered {
    /// The testbench `top` rendered from `template` (named `name`) with `context`.
    pub(crate) fn new(
        top: String,
        name: &'static str,
        template: &str,
        context: &impl serde::Serialize,
    ) -> Result<Self, TestbenchError> {
        Ok(Rendered {
            top,
            text: render_template(name, template, context)?,
            context: serde_json::to_value(context)
                .expect("a testbench's context serialises, as tera has just read it"),
        })
    }
}

/// Renders the testbench template `template` (named `name`, for messages) with `context`.
pub(crate) fn render_template(
    name: &'static str,
    template: &str,
    context: &impl serde::Serialize,
) -> Result<String, TestbenchError> {
    let failed = |cause| TestbenchError::Template { name, cause };
    let mut tera = tera::Tera::new();
    tera.autoescape_on(Vec::<&str>::new());
    tera.add_raw_template(name, template).map_err(failed)?;
    let context = tera::Context::from_serialize(context).map_err(failed)?;
    tera.render(name, &context).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tops_must_suit_both_languages() {
        for good in ["kautz_route_gen", "k", "Gen2_a"] {
            assert!(check_top(good).is_ok(), "{good}");
        }
        for bad in ["", "2gen", "_gen", "gen_", "a__b", "a-b", "a b", "\\esc"] {
            assert!(check_top(bad).is_err(), "{bad:?}");
        }
    }
}
