//! The deterministic pseudo-random numbers of the models and verification flows: seeded samples of
//! node pairs, and stimulus derived from a vector's own inputs so that it is driven the
//! same way in every shard. The same numbers on every platform, so a seed names a sample.

use std::collections::HashSet;
use std::hash::Hash;

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and the same on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// A number in `0..n`, by the high half of a 128-bit product.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// `count` distinct ordered pairs of distinct values, each value made by `draw`, in
/// drawing order: a smaller count from the same generator is a prefix of a larger one.
/// There must be more than `count` such pairs, or this never ends.
pub fn distinct_pairs<T: Clone + Eq + Hash>(
    rng: &mut SplitMix64,
    count: u64,
    mut draw: impl FnMut(&mut SplitMix64) -> T,
) -> Vec<(T, T)> {
    let mut seen = HashSet::new();
    let mut pairs = Vec::with_capacity(count as usize);
    while (pairs.len() as u64) < count {
        let a = draw(rng);
        let b = loop {
            let b = draw(rng);
            if b != a {
                break b;
            }
        };
        if seen.insert((a.clone(), b.clone())) {
            pairs.push((a, b));
        }
    }
    pairs
}

/// The SplitMix64 output function: a bijection that spreads every input bit.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_outputs_are_those_of_the_reference_splitmix64() {
        // From the reference C implementation (Vigna, splitmix64.c) seeded with 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn distinct_pairs_are_distinct_and_a_prefix_of_more() {
        let pairs = distinct_pairs(&mut SplitMix64::new(3), 20, |rng| rng.below(5));
        assert_eq!(pairs.len(), 20);
        assert!(pairs.iter().all(|(a, b)| a != b && *a < 5 && *b < 5));
        let unique: HashSet<_> = pairs.iter().collect();
        assert_eq!(unique.len(), 20);
        let fewer = distinct_pairs(&mut SplitMix64::new(3), 7, |rng| rng.below(5));
        assert_eq!(fewer, pairs[..7]);
    }

    #[test]
    fn below_stays_below_its_bound() {
        let mut rng = SplitMix64::new(7);
        assert!((0..1000).all(|_| rng.below(3) < 3));
        assert_eq!(SplitMix64::new(7).below(1), 0);
    }
}
