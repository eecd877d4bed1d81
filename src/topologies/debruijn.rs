//! `--topology debruijn`: B(d,k), its constant words' self-loops left idle.

use super::{Built, Declared, Given, Param, TopologyError, TopologyKind, required};
use crate::fabric::network::SwitchNetwork;
use crate::network::plan::RouteRule;
use crate::topology::debruijn::DeBruijn;

pub struct Kind;

pub static KIND: Kind = Kind;

impl TopologyKind for Kind {
    fn name(&self) -> &'static str {
        "debruijn"
    }

    fn about(&self) -> &'static str {
        "The de Bruijn digraph B(d,k); its d self-loops keep their ports idle"
    }

    fn network_top(&self) -> &'static str {
        "debruijn_network"
    }

    fn params(&self) -> &'static [Declared] {
        &[
            Declared {
                param: Param::D,
                help: "degree: letters 0..d-1",
            },
            Declared {
                param: Param::K,
                help: "word length and diameter",
            },
        ]
    }

    fn build(&self, given: &Given) -> Result<Built, TopologyError> {
        let [d, k] = required(self.name(), [(given.d, "--d"), (given.k, "--k")])?;
        let graph = DeBruijn::new(d, k)?;
        Ok(Built::table(
            SwitchNetwork::debruijn(&graph)?,
            RouteRule::Disjoint,
        ))
    }
}
