//! The MRNS path generator of `crate::rtl::mrns_path_gen` as a [`SequenceUnit`], checked
//! against the golden model `crate::routing::mrns::disjoint_paths`.
//!
//! In: an [`MrnsPathGenParams`] (and optionally a built-in fault, or the pairs to run).
//! Out: the vectors, in a fixed order, and the paths the golden model gives for each.
//!
//! Vectors (`src`, `dst`): every ordered pair of nodes, source slower, both in node-number
//! order (A = B included: refused), then the out-of-range vectors: for each dimension whose
//! digit field can hold a value that is no digit (its radix is not a power of two) a
//! source and then a destination with that field all ones and every other digit 0
//! (refused). [`MrnsPathUnit::sampled`] puts a seeded sample of pairs of distinct nodes and
//! then A = B = node 0 in place of every pair; [`MrnsPathUnit::with_pairs`] runs exactly
//! the pairs given. Items (`path`, `path_len`): the moves of each path packed as on the
//! generator's ports (docs/mrns-path-gen.md).

use crate::random::{SplitMix64, distinct_pairs};
use crate::routing::mrns::{Move, disjoint_paths};
use crate::rtl::ir::Design;
use crate::rtl::mrns_path_gen::{Fault, MrnsPathGenParams, design_with_fault};
use crate::sim::bits::Bits;
use crate::sim::sequence::{Handshake, Item, Refused, SequenceUnit};
use crate::sim::words::{Field, InputWords, ItemWords, Words};
use crate::topology::mrns::{Address, MrnsError};
use crate::units::check::with_fault;

/// One generated MRNS path generator and its golden model.
#[derive(Debug, Clone)]
pub struct MrnsPathUnit {
    params: MrnsPathGenParams,
    fault: Option<Fault>,
    /// `None`: every pair; otherwise these pairs.
    pairs: Option<Vec<(Address, Address)>>,
    /// The out-of-range vectors follow the pairs.
    out_of_range: bool,
    /// The seed of a sample, for [`MrnsPathUnit::selection`].
    seed: Option<u64>,
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
            out_of_range: true,
            seed: None,
        })
    }

    /// `count` distinct pairs of distinct nodes drawn with a generator seeded by `seed`
    /// (a smaller sample with the same seed is a prefix of a larger one), then A = B =
    /// node 0 and the out-of-range vectors; when `count` reaches the number of such pairs,
    /// the exhaustive check of [`MrnsPathUnit::new`].
    pub fn sampled(params: MrnsPathGenParams, count: u64, seed: u64) -> Result<Self, MrnsError> {
        let network = params.network().clone();
        let nodes = network.node_count();
        if u128::from(count) >= u128::from(nodes) * u128::from(nodes - 1) {
            return MrnsPathUnit::new(params);
        }
        let mut pairs: Vec<(Address, Address)> =
            distinct_pairs(&mut SplitMix64::new(seed), count, |rng| rng.below(nodes))
                .into_iter()
                .map(|(a, b)| (network.address_at(a), network.address_at(b)))
                .collect();
        pairs.push((network.address_at(0), network.address_at(0)));
        Ok(MrnsPathUnit {
            params,
            fault: None,
            pairs: Some(pairs),
            out_of_range: true,
            seed: Some(seed),
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
            out_of_range: false,
            seed: None,
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

    /// What the vectors are, for reports: "all 5184 pairs and 6 out-of-range vectors",
    /// "1000 sampled pairs (seed 1), A = B and 6 out-of-range vectors".
    pub fn selection(&self) -> String {
        let out_of_range = match self.out_of_range_count() {
            0 => String::new(),
            count => format!(" and {count} out-of-range vectors"),
        };
        match (&self.pairs, self.seed) {
            (None, _) => format!("all {} pairs{out_of_range}", self.pair_count()),
            (Some(_), Some(seed)) => format!(
                "{} sampled pairs (seed {seed}), A = B{out_of_range}",
                self.pair_count() - 1
            ),
            (Some(_), None) => format!("{} given pairs", self.pair_count()),
        }
    }

    /// The vectors before the out-of-range ones.
    fn pair_count(&self) -> u64 {
        match &self.pairs {
            Some(pairs) => pairs.len() as u64,
            None => self.node_count().pow(2),
        }
    }

    fn out_of_range_count(&self) -> u64 {
        match self.out_of_range {
            true => 2 * self.loose_fields().len() as u64,
            false => 0,
        }
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
        format!(
            "path generator of {}{}",
            self.params.network(),
            with_fault(self.fault)
        )
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

    /// A path set holds the sum over dimensions of (m_i - 1) paths: the degree.
    fn most_items(&self) -> usize {
        self.params.network().degree()
    }

    fn vector_count(&self) -> u64 {
        self.pair_count() + self.out_of_range_count()
    }

    fn vector(&self, index: u64) -> Vec<Bits> {
        assert!(
            index < self.vector_count(),
            "vector {index} of {}",
            self.vector_count()
        );
        if index < self.pair_count() {
            let (a, b) = match &self.pairs {
                Some(pairs) => pairs[index as usize].clone(),
                None => {
                    let (network, n) = (self.params.network(), self.node_count());
                    (network.address_at(index / n), network.address_at(index % n))
                }
            };
            return vec![self.encode_address(&a), self.encode_address(&b)];
        }
        let extra = (index - self.pair_count()) as usize;
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

    fn sequence_name(&self) -> &'static str {
        "path set"
    }

    /// `src=0,0,0,0 dst=0,2,2,3`: the digit fields most significant first, as the `mrns`
    /// command writes addresses, also when a field holds no digit; a path as its moves in
    /// order, `d0=3 d1=2 d2=2`, none for an empty path or one whose length or dimensions
    /// are out of range.
    fn words(&self) -> Option<Words> {
        let p = &self.params;
        let input = |label: &str| InputWords {
            label: label.to_string(),
            fields: (0..p.n())
                .rev()
                .map(|i| Field {
                    lo: p.digit_lo(i),
                    width: p.digit_bits(i),
                })
                .collect(),
            join: ",".to_string(),
        };
        Some(Words {
            inputs: vec![input("src="), input("dst=")],
            item: ItemWords {
                slots: p.path_moves() as u32,
                field_bits: p.move_bits(),
                join: " ".to_string(),
                min_len: 1,
                value_bits: p.value_bits(),
                dimensions: p.n() as u32,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn unit() -> MrnsPathUnit {
        MrnsPathUnit::new(MrnsPathGenParams::new(&[2, 3, 3, 4]).unwrap()).unwrap()
    }

    #[test]
    fn paths_and_addresses_show_as_the_mrns_command_writes_them() {
        let unit = unit();
        let network = unit.params().network().clone();
        let (a, b) = (
            network.parse_address("0,0,0,0").unwrap(),
            network.parse_address("0,2,2,3").unwrap(),
        );
        // P7 of Example 3 of Choi and Chung's MRNS paper.
        let moves = [(3, 1), (0, 3), (1, 2), (2, 2), (3, 0)]
            .map(|(dimension, value)| Move { dimension, value });
        let item = unit.encode_path(&moves);
        assert_eq!(
            unit.show_item(&item).as_deref(),
            Some("d3=1 d0=3 d1=2 d2=2 d3=0")
        );
        let inputs = [unit.encode_address(&a), unit.encode_address(&b)];
        assert_eq!(
            unit.show_inputs(&inputs).as_deref(),
            Some("src=0,0,0,0 dst=0,2,2,3")
        );
        // A digit field that holds no digit shows its value.
        let loose = unit.out_of_range(1);
        assert_eq!(
            unit.show_inputs(&[loose, inputs[1].clone()]).as_deref(),
            Some("src=0,0,3,0 dst=0,2,2,3")
        );
    }

    #[test]
    fn paths_that_decode_to_nothing_fall_back_to_hex() {
        let unit = unit();
        let p = unit.params();
        let empty = vec![Bits::zero(p.path_bits()), Bits::zero(p.len_bits())];
        assert_eq!(unit.show_item(&empty), None);
        let too_long = vec![
            Bits::zero(p.path_bits()),
            Bits::from_u64(p.len_bits(), p.path_moves() as u64 + 1),
        ];
        assert_eq!(unit.show_item(&too_long), None);
        // Dimension 3 in the first move of Z2xZ3xZ4, which has three (the two-bit field
        // of Z2xZ3xZ3xZ4 holds no other value).
        let unit = MrnsPathUnit::new(MrnsPathGenParams::new(&[2, 3, 4]).unwrap()).unwrap();
        let p = unit.params();
        let mut path = Bits::zero(p.path_bits());
        let top = (p.path_moves() as u32 - 1) * p.move_bits();
        path.set(top, p.move_bits(), 3 << p.value_bits());
        assert_eq!(
            unit.show_item(&vec![path, Bits::from_u64(p.len_bits(), 1)]),
            None
        );
    }

    #[test]
    fn a_sample_is_distinct_pairs_then_a_equal_b_then_the_out_of_range_vectors() {
        let params = MrnsPathGenParams::new(&[2, 3, 3, 4]).unwrap();
        let unit = MrnsPathUnit::sampled(params.clone(), 100, 7).unwrap();
        assert_eq!(unit.vector_count(), 100 + 1 + 4);
        assert_eq!(
            unit.selection(),
            "100 sampled pairs (seed 7), A = B and 4 out-of-range vectors"
        );
        let vectors: Vec<Vec<Bits>> = (0..unit.vector_count()).map(|i| unit.vector(i)).collect();
        let pairs = &vectors[..100];
        assert!(pairs.iter().all(|v| v[0] != v[1]));
        let distinct: HashSet<&Vec<Bits>> = pairs.iter().collect();
        assert_eq!(distinct.len(), 100);
        assert_eq!(vectors[100][0], vectors[100][1]);
        assert_eq!(unit.expected(&vectors[100]), Err(Refused));
        assert!(
            vectors[101..]
                .iter()
                .all(|v| unit.expected(v) == Err(Refused))
        );
        // A smaller sample with the same seed is a prefix; another seed draws others.
        let smaller = MrnsPathUnit::sampled(params.clone(), 10, 7).unwrap();
        assert!((0..10).all(|i| smaller.vector(i) == vectors[i as usize]));
        let other = MrnsPathUnit::sampled(params.clone(), 10, 8).unwrap();
        assert!((0..10).any(|i| other.vector(i) != vectors[i as usize]));
        // Asking for every pair or more is the exhaustive check.
        let all = MrnsPathUnit::sampled(params, 72 * 71, 7).unwrap();
        assert_eq!(all.vector_count(), 72 * 72 + 4);
        assert_eq!(all.selection(), "all 5184 pairs and 4 out-of-range vectors");
    }
}
