//! Vector selection: every pair in lexicographic order, seeded samples, shards, the invalid
//! words, expected answers and the stimulus file. Orders and words are checked against a
//! brute-force enumeration written here, not against the code that produces them.

use kautzgen::rtl::kautz_route::faithful::cycle_bound;
use kautzgen::sim::vectors::{Expected, Pairs, Shard, Vector, VectorSet};
use kautzgen::topology::kautz::{Kautz, Letter};
use std::collections::HashSet;

/// Every word of k letters over 0..=d without equal neighbours, in lexicographic order.
fn brute_words(d: u8, k: usize) -> Vec<Vec<Letter>> {
    let mut words: Vec<Vec<Letter>> = vec![vec![]];
    for _ in 0..k {
        let mut longer = Vec::new();
        for w in &words {
            for a in (0..=d).filter(|&a| w.last() != Some(&a)) {
                longer.push([w.clone(), vec![a]].concat());
            }
        }
        words = longer;
    }
    words
}

fn all(set: &VectorSet) -> Vec<Vector> {
    (0..set.len()).map(|i| set.get(i)).collect()
}

fn pair(v: &Vector) -> (Vec<Letter>, Vec<Letter>) {
    (v.src.clone(), v.dst.clone())
}

#[test]
fn all_pairs_come_in_lexicographic_order_then_the_invalid_words() {
    let g = Kautz::new(2, 3).unwrap();
    let words = brute_words(2, 3);
    assert_eq!(words.len(), 12);
    let expected: Vec<(Vec<Letter>, Vec<Letter>)> = words
        .iter()
        .flat_map(|s| {
            words
                .iter()
                .filter(move |t| *t != s)
                .map(move |t| (s.clone(), t.clone()))
        })
        .collect();
    let set = VectorSet::new(&g, Pairs::All, Shard::WHOLE).unwrap();
    assert_eq!(set.pair_count(), 132);
    assert_eq!(set.invalid_count(), 6);
    let vectors = all(&set);
    assert_eq!(vectors.len(), 138);
    let pairs: Vec<_> = vectors[..132].iter().map(pair).collect();
    assert_eq!(pairs, expected);
    assert!(
        vectors
            .iter()
            .enumerate()
            .all(|(i, v)| v.position == i as u64)
    );
}

#[test]
fn invalid_words_of_k45_k33_and_k11() {
    // K(4,5): lowest node 01010, highest 43434; 3 bits a letter, so 5, 6 and 7 are not
    // letters: the test uses d+1 = 5 in the source and 7 in the destination.
    let words = |g: &Kautz| -> Vec<(Vec<Letter>, Vec<Letter>)> {
        let set = VectorSet::new(g, Pairs::Sample { count: 0, seed: 0 }, Shard::WHOLE).unwrap();
        all(&set).iter().map(pair).collect()
    };
    let k45 = Kautz::new(4, 5).unwrap();
    assert_eq!(
        words(&k45),
        vec![
            (vec![0, 1, 0, 1, 0], vec![0, 1, 0, 1, 0]),
            (vec![4, 3, 4, 3, 4], vec![4, 3, 4, 3, 4]),
            (vec![0, 1, 0, 1, 1], vec![4, 3, 4, 3, 4]),
            (vec![0, 1, 0, 1, 0], vec![3, 3, 4, 3, 4]),
            (vec![0, 1, 0, 1, 5], vec![4, 3, 4, 3, 4]),
            (vec![0, 1, 0, 1, 0], vec![7, 3, 4, 3, 4]),
        ]
    );
    // K(3,3): 2 bits a letter and d+1 = 4 letters, so every 2-bit value is a letter.
    assert_eq!(
        words(&Kautz::new(3, 3).unwrap()),
        vec![
            (vec![0, 1, 0], vec![0, 1, 0]),
            (vec![3, 2, 3], vec![3, 2, 3]),
            (vec![0, 1, 1], vec![3, 2, 3]),
            (vec![0, 1, 0], vec![2, 2, 3]),
        ]
    );
    // K(1,1): one-letter words have no neighbours; only src == dst is left.
    assert_eq!(
        words(&Kautz::new(1, 1).unwrap()),
        vec![(vec![0], vec![0]), (vec![1], vec![1])]
    );
    let set = VectorSet::new(&k45, Pairs::Sample { count: 0, seed: 0 }, Shard::WHOLE).unwrap();
    assert!(all(&set).iter().all(|v| v.expected == Expected::Error));
}

#[test]
fn expected_answers_are_the_golden_route_sets() {
    // Table 3 of the route-generator paper (Smit et al. 1991): from 01234 to 23430 the
    // routes 30, 23430, 023430, 1323430.
    let g = Kautz::new(4, 5).unwrap();
    let set = VectorSet::new(&g, Pairs::All, Shard::WHOLE).unwrap();
    let (s, t) = (g.index_of(&[0, 1, 2, 3, 4]), g.index_of(&[2, 3, 4, 3, 0]));
    let v = set.get((s * 1279 + t - usize::from(t > s)) as u64);
    assert_eq!(
        (v.src.as_slice(), v.dst.as_slice()),
        (&[0, 1, 2, 3, 4][..], &[2, 3, 4, 3, 0][..])
    );
    assert_eq!(
        v.expected,
        Expected::Routes(vec![
            vec![3, 0],
            vec![2, 3, 4, 3, 0],
            vec![0, 2, 3, 4, 3, 0],
            vec![1, 3, 2, 3, 4, 3, 0]
        ])
    );
}

#[test]
fn samples_are_seeded_distinct_nodes_and_prefixes_of_larger_ones() {
    let g = Kautz::new(4, 5).unwrap();
    let sample = |count, seed| {
        let set = VectorSet::new(&g, Pairs::Sample { count, seed }, Shard::WHOLE).unwrap();
        assert_eq!(set.pair_count(), count);
        all(&set)[..count as usize]
            .iter()
            .map(pair)
            .collect::<Vec<_>>()
    };
    let a = sample(500, 3);
    assert_eq!(a, sample(500, 3), "same seed, same sample");
    assert_ne!(a, sample(500, 4), "another seed, another sample");
    assert_eq!(a[..100], sample(100, 3)[..]);
    assert_eq!(
        a.iter().collect::<HashSet<_>>().len(),
        500,
        "pairs are distinct"
    );
    for (s, t) in &a {
        assert!(s != t);
        for w in [s, t] {
            assert!(w.len() == 5 && w.iter().all(|&x| x <= 4));
            assert!(w.windows(2).all(|p| p[0] != p[1]));
        }
    }
    // Every first letter turns up: the draw covers the alphabet.
    let firsts: HashSet<Letter> = a.iter().map(|(s, _)| s[0]).collect();
    assert_eq!(firsts.len(), 5);
}

#[test]
fn a_sample_as_large_as_the_graph_is_every_pair() {
    // K(2,2) has 6 nodes and 30 ordered pairs.
    let g = Kautz::new(2, 2).unwrap();
    let every = all(&VectorSet::new(&g, Pairs::All, Shard::WHOLE).unwrap());
    for count in [30, 31, 1000] {
        let set = VectorSet::new(&g, Pairs::Sample { count, seed: 9 }, Shard::WHOLE).unwrap();
        assert_eq!(all(&set), every, "count {count}");
    }
    let set = VectorSet::new(&g, Pairs::Sample { count: 29, seed: 9 }, Shard::WHOLE).unwrap();
    assert_eq!(set.pair_count(), 29);
}

#[test]
fn shards_are_disjoint_and_together_the_whole() {
    let g = Kautz::new(3, 3).unwrap();
    for pairs in [Pairs::All, Pairs::Sample { count: 97, seed: 1 }] {
        let whole = all(&VectorSet::new(&g, pairs, Shard::WHOLE).unwrap());
        for n in [1, 2, 3, 8, 200] {
            let mut union = Vec::new();
            for i in 0..n {
                let shard = VectorSet::new(&g, pairs, Shard::new(i, n).unwrap()).unwrap();
                let part = all(&shard);
                assert!(part.iter().all(|v| v.position % n == i));
                assert!(part.windows(2).all(|w| w[0].position < w[1].position));
                union.extend(part);
            }
            union.sort_by_key(|v| v.position);
            assert_eq!(union, whole, "{n} shards of {pairs:?}");
        }
    }
}

#[test]
fn a_shard_counts_what_it_selects() {
    for n in [1, 2, 3, 8] {
        for i in 0..n {
            let shard = Shard::new(i, n).unwrap();
            for total in [0, 1, 7, 8, 9, 138] {
                let selected = (0..total).filter(|&p| shard.selects(p)).count() as u64;
                assert_eq!(shard.len_of(total), selected, "{i}/{n} of {total}");
            }
        }
    }
}

#[test]
fn shard_syntax() {
    assert_eq!("3/8".parse::<Shard>().unwrap(), Shard::new(3, 8).unwrap());
    assert_eq!(" 0 / 1 ".parse::<Shard>().unwrap(), Shard::WHOLE);
    for bad in ["8/8", "1/0", "3", "a/8", "-1/8", "3/8/9", ""] {
        assert_eq!(
            bad.parse::<Shard>().unwrap_err().to_string(),
            format!("shard '{bad}' is not I/N with 0 <= I < N (for example 0/8)")
        );
    }
}

#[test]
fn the_cycle_bound_follows_the_port_contract() {
    // bound = k + 3(d+1) + 4.
    for (d, k, bound) in [
        (1, 1, 11),
        (3, 3, 19),
        (4, 5, 24),
        (7, 6, 34),
        (8, 13, 44),
        (255, 64, 836),
    ] {
        assert_eq!(cycle_bound(d, k), bound, "K({d},{k})");
    }
}

#[test]
fn a_pair_in_a_sample_expects_what_it_expects_in_the_full_sweep() {
    let g = Kautz::new(3, 3).unwrap();
    let whole = all(&VectorSet::new(&g, Pairs::All, Shard::WHOLE).unwrap());
    let sample = VectorSet::new(&g, Pairs::Sample { count: 50, seed: 2 }, Shard::WHOLE).unwrap();
    for v in all(&sample) {
        let same = whole.iter().find(|w| pair(w) == pair(&v)).unwrap();
        assert_eq!(v.expected, same.expected);
    }
}

#[test]
fn describe_names_the_selection() {
    let g = Kautz::new(4, 5).unwrap();
    let sample = Pairs::Sample {
        count: 1000,
        seed: 1,
    };
    assert_eq!(
        VectorSet::new(&g, sample, Shard::WHOLE).unwrap().describe(),
        "K(4,5): 1000 sampled pairs (seed 1) and 6 invalid vectors: 1006 vectors"
    );
    // 1280 * 1279 + 6 = 1637126 vectors; shard 3 of 8 holds positions 3, 11, ...:
    // ceil((1637126 - 3) / 8) = 204641.
    assert_eq!(
        VectorSet::new(&g, Pairs::All, Shard::new(3, 8).unwrap())
            .unwrap()
            .describe(),
        "K(4,5): all 1637120 pairs and 6 invalid vectors, shard 3/8: 204641 vectors"
    );
    let one = Pairs::Sample { count: 1, seed: 5 };
    assert_eq!(
        VectorSet::new(&g, one, Shard::new(0, 1 << 30).unwrap())
            .unwrap()
            .describe(),
        "K(4,5): 1 sampled pair (seed 5) and 6 invalid vectors, shard 0/1073741824: 1 vector"
    );
    let big = Kautz::new(20, 8).unwrap();
    assert_eq!(
        VectorSet::new(&big, Pairs::All, Shard::WHOLE)
            .unwrap_err()
            .to_string(),
        "K(20,8) has 26880000000 nodes, more than the 16777216 that can be enumerated"
    );
    assert_eq!(
        VectorSet::new(
            &big,
            Pairs::Sample {
                count: 1 << 25,
                seed: 0
            },
            Shard::WHOLE
        )
        .unwrap_err()
        .to_string(),
        "a sample holds at most 16777216 pairs, got 33554432; verify every pair in shards instead"
    );
}
