//! The MRNS path generator of `crate::rtl::mrns_path_gen` as a [`SequenceUnit`], checked
//! against the golden model `crate::routing::mrns::disjoint_paths`.
//!
//! In: an [`MrnsPathGenParams`] (and optionally a built-in fault, or the pairs to run).
//! Out: the vectors, in a fixed order, and the paths the golden model gives for each.
//!
//! Vectors (`src`, `dst`): every ordered pair of nodes, source slower, both in node-number
//! order (A = B included: refused), then for each dimension whose digit field can hold a
//! value that is no digit (its radix is not a power of two) a source and then a
//! destination with that field all ones and every other digit 0 (refused). With
//! [`MrnsPathUnit::with_pairs`], exactly the pairs given. Items (`path`, `path_len`): the
//! moves of each path packed as on the generator's ports (docs/mrns-path-gen.md).

use crate::routing::mrns::{Move, disjoint_paths};
use crate::rtl::ir::Design;
use crate::rtl::mrns_path_gen::{Fault, MrnsPathGenParams, design_with_fault};
use crate::sim::bits::Bits;
use crate::sim::sequence::{Handshake, Item, Refused, SequenceUnit};
use crate::topology::mrns::{Address, MrnsError};

/// One generated MRNS path generator and its golden model.
#[derive(Debug, Clone)]
pub struct MrnsPathUnit {
    params: MrnsPathGenParams,
    fault: Option<Fault>,
    /// `None`: every pair and the invalid vectors; otherwise only these pairs.
    pairs: Option<Vec<(Address, Address)>>,
}

impl MrnsPathUnit {
    /// The exhaustive check: the network must be small enough to enumerate (at most
    /// `MAX_ENUMERATED_NODES` nodes).
    pub fn new(params: MrnsPathGenParams) -> Result<Self, MrnsError> {
        params.network().enumerable_node_count()?;
        Ok(MrnsPathUnit {
            params,
            fault: None,
            pairs: None,
        })
    }

    /// A check of the given (source, destination) pairs only, in that order; addresses of
    /// another network are refused.
    pub fn with_pairs(
        params: MrnsPathGenParams,
        pairs: Vec<(Address, Address)>,
    ) -> Result<Self, MrnsError> {
        for (a, b) in &pairs {
            params.network().check_address(a)?;
            params.network().check_address(b)?;
        }
        Ok(MrnsPathUnit {
            params,
            fault: None,
            pairs: Some(pairs),
        })
    }

    /// The same check of the generator with `fault` built in.
    pub fn with_fault(mut self, fault: Fault) -> Self {
        self.fault = Some(fault);
        self
    }

    pub fn params(&self) -> &MrnsPathGenParams {
        &self.params
    }

    /// `address` as on the `src` and `dst` ports.
    pub fn encode_address(&self, address: &Address) -> Bits {
        let p = &self.params;
        let mut bits = Bits::zero(p.address_bits());
        for i in 0..p.n() {
            bits.set(p.digit_lo(i), p.digit_bits(i), u64::from(address.digit(i)));
        }
        bits
    }

    /// A path as on the `path` and `path_len` ports: move j in slot j from the top, the
    /// dimension above the value, unused slots zero.
    pub fn encode_path(&self, moves: &[Move]) -> Item {
        let p = &self.params;
        let (slots, mw, vw) = (p.path_moves(), p.move_bits(), p.value_bits());
        let mut path = Bits::zero(p.path_bits());
        for (j, step) in moves.iter().enumerate() {
            let word = (step.dimension as u64) << vw | u64::from(step.value);
            path.set((slots - 1 - j) as u32 * mw, mw, word);
        }
        vec![path, Bits::from_u64(p.len_bits(), moves.len() as u64)]
    }

    fn node_count(&self) -> u64 {
        self.params.network().node_count()
    }

    /// The dimensions whose digit field holds values that are no digit.
    fn loose_fields(&self) -> Vec<usize> {
        let network = self.params.network();
        (0..self.params.n())
            .filter(|&i| !network.radix(i).is_power_of_two())
            .collect()
    }

    /// Node 0 with digit `dimension`'s field all ones.
    fn out_of_range(&self, dimension: usize) -> Bits {
        let p = &self.params;
        let width = p.digit_bits(dimension);
        let mut bits = Bits::zero(p.address_bits());
        bits.set(p.digit_lo(dimension), width, (1 << width) - 1);
        bits
    }
}

impl SequenceUnit for MrnsPathUnit {
    fn describe(&self) -> String {
        let fault = match self.fault {
            Some(fault) => format!(" with fault {fault:?}"),
            None => String::new(),
        };
        format!("path generator of {}{fault}", self.params.network())
    }

    fn design(&self) -> Design {
        design_with_fault(&self.params, self.fault)
    }

    fn handshake(&self) -> Handshake {
        Handshake {
            start: "init",
            next: "next_path",
            valid: "path_valid",
            done: "done",
            error: "error",
        }
    }

    fn cycle_bound(&self) -> u64 {
        self.params.cycle_bound()
    }

    fn vector_count(&self) -> u64 {
        match &self.pairs {
            Some(pairs) => pairs.len() as u64,
            None => self.node_count().pow(2) + 2 * self.loose_fields().len() as u64,
        }
    }

    fn vector(&self, index: u64) -> Vec<Bits> {
        assert!(
            index < self.vector_count(),
            "vector {index} of {}",
            self.vector_count()
        );
        if let Some(pairs) = &self.pairs {
            let (a, b) = &pairs[index as usize];
            return vec![self.encode_address(a), self.encode_address(b)];
        }
        let n = self.node_count();
        if index < n * n {
            let network = self.params.network();
            let (a, b) = (network.address_at(index / n), network.address_at(index % n));
            return vec![self.encode_address(&a), self.encode_address(&b)];
        }
        let extra = (index - n * n) as usize;
        let bad = self.out_of_range(self.loose_fields()[extra / 2]);
        let zero = Bits::zero(self.params.address_bits());
        match extra % 2 {
            0 => vec![bad, zero],
            _ => vec![zero, bad],
        }
    }

    fn expected(&self, inputs: &[Bits]) -> Result<Vec<Item>, Refused> {
        let p = &self.params;
        let network = p.network();
        let decode = |bits: &Bits| -> Result<Address, Refused> {
            let written: Vec<u64> = (0..p.n())
                .rev()
                .map(|i| bits.get(p.digit_lo(i), p.digit_bits(i)))
                .collect();
            network.address(&written).map_err(|_| Refused)
        };
        let (a, b) = (decode(&inputs[0])?, decode(&inputs[1])?);
        let paths = disjoint_paths(network, &a, &b).map_err(|_| Refused)?;
        Ok(paths.map(|path| self.encode_path(path.moves())).collect())
    }
}
