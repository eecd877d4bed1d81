//! `--topology kautz`: K(d,k), the default, whose routes come from the route generator.

use super::{Built, Declared, Given, Param, TopologyError, TopologyKind, required};
use crate::topology::kautz::Kautz;

pub struct Kind;

pub static KIND: Kind = Kind;

impl TopologyKind for Kind {
    fn name(&self) -> &'static str {
        "kautz"
    }

    fn about(&self) -> &'static str {
        "The Kautz digraph K(d,k); routes from the route generator"
    }

    fn network_top(&self) -> &'static str {
        crate::rtl::network::whole::DEFAULT_TOP
    }

    fn params(&self) -> &'static [Declared] {
        &[
            Declared {
                param: Param::D,
                help: "degree: letters 0..=d",
            },
            Declared {
                param: Param::K,
                help: "word length and diameter",
            },
        ]
    }

    fn build(&self, given: &Given) -> Result<Built, TopologyError> {
        let [d, k] = required(self.name(), [(given.d, "--d"), (given.k, "--k")])?;
        let graph = Kautz::new(d, k)?;
        Ok(Built::Kautz(graph))
    }
}
