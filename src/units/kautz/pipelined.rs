//! The pipelined route engine (`--arch pipelined`, `kautz_route_pipe`) as a [`StreamUnit`]:
//! the pairs of a [`VectorSet`] fed one per clock with random gaps and random
//! back-pressure, every output compared in every cycle with a model of the pipeline whose
//! route sets come from the golden model.
//!
//! The model is the engine's contract (docs/route-generator.md), not its netlist: a chain
//! of [`latency`] stages, all of which move on an edge where `out_ready` is high or the
//! last stage is empty; the pair on the inputs enters on such an edge when `in_valid` is
//! high; the last stage's pair is on the outputs with its whole route set (zero routes and
//! `out_error` for bad words), and an empty last stage shows all zeros. In a gap the
//! inputs carry random bits, which must not leak out.
//!
//! In: the engine's parameters, an optional built-in fault, the vectors and a seed. Out:
//! every cycle's inputs and expected outputs.

use crate::random::SplitMix64;
use crate::rtl::ir::Design;
use crate::rtl::kautz_route::pipelined::latency;
use crate::rtl::kautz_route::{self, Fault, RouteGenParams, pack_word};
use crate::sim::bits::Bits;
use crate::sim::stream::{Cycle, StreamUnit};
use crate::sim::vectors::{Expected, Vector, VectorSet};
use std::collections::VecDeque;

/// One cycle in this many offers no pair (in_valid low).
pub const GAP_ONE_IN: u64 = 4;
/// One cycle in this many holds out_ready low.
pub const STALL_ONE_IN: u64 = 4;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PipeError {
    #[error(
        "K({d},{k}) has {bits}-bit node words; the stream testbench carries at most 64 bits an input port"
    )]
    WideWord { d: usize, k: usize, bits: u32 },
}

/// The engine, the vectors it is fed and the seed of its gaps and stalls.
pub struct PipeUnit {
    params: RouteGenParams,
    fault: Option<Fault>,
    vectors: VectorSet,
    seed: u64,
}

impl PipeUnit {
    pub fn new(
        params: RouteGenParams,
        fault: Option<Fault>,
        vectors: VectorSet,
        seed: u64,
    ) -> Result<Self, PipeError> {
        let bits = params.k() as u32 * params.letter_bits();
        if bits > 64 {
            return Err(PipeError::WideWord {
                d: params.d(),
                k: params.k(),
                bits,
            });
        }
        Ok(PipeUnit {
            params: params.with_arch(kautz_route::Arch::Pipelined),
            fault,
            vectors,
            seed,
        })
    }

    /// The route sets the run checks: one per vector.
    pub fn set_count(&self) -> u64 {
        self.vectors.len()
    }

    /// The output ports after an edge, in port order (in_ready, out_valid, out_routes,
    /// out_lens, out_error), with `last` the pair in the last stage.
    fn outputs(&self, last: Option<&Expected>, out_ready: bool) -> Vec<Bits> {
        let (d, k) = (self.params.d(), self.params.k());
        let (w, lw) = (self.params.letter_bits(), self.params.length_bits());
        let route_bits = (k as u32 + 2) * w;
        let mut routes = Bits::zero(d as u32 * route_bits);
        let mut lens = Bits::zero(d as u32 * lw);
        if let Some(Expected::Routes(set)) = last {
            for (i, hops) in set.iter().enumerate() {
                let slot = i as u32 * route_bits;
                for (j, &letter) in hops.iter().enumerate() {
                    // Hop z1 in the slot's most significant letter.
                    routes.set(slot + (k + 1 - j) as u32 * w, w, u64::from(letter));
                }
                lens.set(i as u32 * lw, lw, hops.len() as u64);
            }
        }
        let bit = |b: bool| Bits::from_u64(1, u64::from(b));
        vec![
            bit(out_ready || last.is_none()),
            bit(last.is_some()),
            routes,
            lens,
            bit(matches!(last, Some(Expected::Error))),
        ]
    }
}

impl StreamUnit for PipeUnit {
    fn describe(&self) -> String {
        format!(
            "pipelined route engine of {}{}",
            self.params.graph,
            match self.fault {
                Some(fault) => format!(" with the built-in fault {fault:?}"),
                None => String::new(),
            }
        )
    }

    fn design(&self) -> Design {
        kautz_route::design_with_fault(&self.params, self.fault)
    }

    /// Rows in port order: in_valid, src, dst, out_ready. The run ends when every set has
    /// been taken.
    fn cycles(&self) -> Vec<Cycle> {
        let (k, w) = (self.params.k(), self.params.letter_bits());
        let mut rng = SplitMix64::new(self.seed);
        // Each stage's vector, if it holds one.
        let mut stages: VecDeque<Option<Vector>> = vec![None; latency(self.params.d())].into();
        let (mut next, mut taken, total) = (0, 0, self.vectors.len());
        let mut cycles = Vec::new();
        while taken < total {
            let in_valid = next < total && rng.below(GAP_ONE_IN) != 0;
            let out_ready = rng.below(STALL_ONE_IN) != 0;
            let (src, dst, entering) = if in_valid {
                let vector = self.vectors.get(next);
                (
                    pack_word(&vector.src, w),
                    pack_word(&vector.dst, w),
                    Some(vector),
                )
            } else {
                let mut junk = || rng.next_u64() >> (64 - k as u32 * w);
                (junk(), junk(), None)
            };
            let last = stages.back().expect("latency is at least 3");
            if out_ready || last.is_none() {
                if last.is_some() {
                    taken += 1;
                }
                stages.pop_back();
                stages.push_front(entering);
                next += u64::from(in_valid);
            }
            let shown = stages.back().expect("stages").as_ref();
            cycles.push(Cycle {
                inputs: vec![u64::from(in_valid), src, dst, u64::from(out_ready)],
                outputs: self.outputs(shown.map(|v| &v.expected), out_ready),
                note: shown.map_or_else(
                    || "no set shown".to_string(),
                    |v| {
                        let g = &self.params.graph;
                        format!(
                            "vector {} (src {} dst {})",
                            v.position,
                            g.format_letters(&v.src),
                            g.format_letters(&v.dst)
                        )
                    },
                ),
            });
        }
        cycles
    }
}
