//! The one bridge from a plain [`Choice`] to clap: the value parser of an option that takes
//! one of its names, listing each with its help, as the units and the commands declare
//! them.

use crate::choice::Choice;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// Parses a name of `T`; `--help` lists every name of `T` with its help.
pub fn choice<T: Choice + Send + Sync + Clone>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(
        T::ALL
            .iter()
            .map(|&value| PossibleValue::new(value.name()).help(value.help())),
    )
    .map(|name| T::parse(&name).expect("clap accepts only the names of T"))
}
