//! The Kautz route generator (faithful or parallel architecture) as a sequence unit: `init`
//! starts a search for `src` and `dst`, each route is an item on `route` and `route_len`,
//! taken with `next_route`, and `done` ends the set (with `error` for words that are not
//! nodes, or equal). Its exported testbench is the sequence units' self-checking one.
//!
//! In: the generator's parameters, a built-in fault or none, and the vectors `verify`
//! selects ([`VectorSet`]: the pairs, then the invalid words). Out: the design, each
//! vector's `src` and `dst`, and the golden model's routes encoded as the ports carry them
//! (docs/route-generator.md).

use crate::routing::kautz::route_set;
use crate::rtl::ir::Design;
use crate::rtl::kautz_route::parallel;
use crate::rtl::kautz_route::{self, Arch, Fault, RouteGenParams};
use crate::sim::bits::Bits;
use crate::sim::sequence::{Handshake, Item, Refused, SequenceUnit};
use crate::sim::units::with_fault;
use crate::sim::vectors::VectorSet;
use crate::sim::words::{Field, InputWords, ItemWords, Words};
use crate::topology::kautz::Letter;

/// The route generator of `params` checked on `vectors`.
pub struct RouteGenUnit {
    params: RouteGenParams,
    fault: Option<Fault>,
    vectors: VectorSet,
}

impl RouteGenUnit {
    /// The unit of `params`, which must be the faithful or the parallel architecture (the
    /// pipelined engine streams whole sets: `route_pipe`).
    pub fn new(params: RouteGenParams, fault: Option<Fault>, vectors: VectorSet) -> Self {
        assert_ne!(params.arch, Arch::Pipelined, "the engine is a stream unit");
        RouteGenUnit {
            params,
            fault,
            vectors,
        }
    }

    fn word(&self, letters: &[Letter]) -> Bits {
        let (k, w) = (self.params.k() as u32, self.params.letter_bits());
        let mut bits = Bits::zero(k * w);
        for (i, &letter) in letters.iter().enumerate() {
            bits.set((k - 1 - i as u32) * w, w, u64::from(letter));
        }
        bits
    }

    fn letters(&self, bits: &Bits) -> Vec<Letter> {
        let (k, w) = (self.params.k() as u32, self.params.letter_bits());
        (0..k)
            .map(|i| bits.get((k - 1 - i) * w, w) as Letter)
            .collect()
    }
}

impl SequenceUnit for RouteGenUnit {
    /// "route generator of K(2,3): all 132 pairs and 6 invalid vectors: 138 vectors", with
    /// the architecture and the built-in fault when there are.
    fn describe(&self) -> String {
        let arch = match self.params.arch {
            Arch::Parallel => "parallel ",
            _ => "",
        };
        let fault = with_fault(self.fault);
        format!(
            "{arch}route generator{fault} of {}",
            self.vectors.describe()
        )
    }

    fn design(&self) -> Design {
        kautz_route::design_with_fault(&self.params, self.fault)
    }

    fn handshake(&self) -> Handshake {
        Handshake {
            start: "init",
            next: "next_route",
            valid: "route_valid",
            done: "done",
            error: "error",
        }
    }

    /// The architecture's bound: the parallel design's 2, or the faithful design's
    /// k + 3(d+1) + 4 (each as its manifest's `cycle_bound` or description says).
    fn cycle_bound(&self) -> u64 {
        match self.params.arch {
            Arch::Parallel => parallel::CYCLE_BOUND as u64,
            _ => kautz_route::faithful::cycle_bound(self.params.d(), self.params.k()) as u64,
        }
    }

    fn vector_count(&self) -> u64 {
        self.vectors.len()
    }

    fn vector(&self, index: u64) -> Vec<Bits> {
        let vector = self.vectors.get(index);
        vec![self.word(&vector.src), self.word(&vector.dst)]
    }

    fn expected(&self, inputs: &[Bits]) -> Result<Vec<Item>, Refused> {
        let (src, dst) = (self.letters(&inputs[0]), self.letters(&inputs[1]));
        let routes = route_set(&self.params.graph, &src, &dst).map_err(|_| Refused)?;
        let (k, w, lw) = (
            self.params.k() as u32,
            self.params.letter_bits(),
            self.params.length_bits(),
        );
        Ok(routes
            .iter()
            .map(|route| {
                let mut bits = Bits::zero((k + 2) * w);
                for (j, &letter) in route.hops.iter().enumerate() {
                    bits.set((k + 1 - j as u32) * w, w, u64::from(letter));
                }
                vec![bits, Bits::from_u64(lw, route.hops.len() as u64)]
            })
            .collect())
    }

    fn sequence_name(&self) -> &'static str {
        "route set"
    }

    /// `src=010 dst=012` and a route as its hops, `[2012]`: letters as the `routes` command
    /// writes them (digits when d <= 9, else separated by commas).
    fn words(&self) -> Option<Words> {
        let (k, w) = (self.params.k() as u32, self.params.letter_bits());
        let join = if self.params.d() <= 9 { "" } else { "," };
        let input = |label: &str| InputWords {
            label: label.to_string(),
            fields: (0..k)
                .map(|i| Field {
                    lo: (k - 1 - i) * w,
                    width: w,
                })
                .collect(),
            join: join.to_string(),
        };
        Some(Words {
            inputs: vec![input("src="), input("dst=")],
            item: ItemWords {
                slots: k + 2,
                field_bits: w,
                join: join.to_string(),
                min_len: 0,
                value_bits: 0,
                dimensions: 0,
            },
        })
    }
}
