//! The processors' traffic, shared by the network models: when each healthy node makes a
//! message (a Bernoulli process per node and cycle, drawn as geometric gaps), to whom, and
//! how long. Everything is drawn from one seeded generator in a fixed order, so a seed
//! names a run.
//!
//! The patterns of the field (Dally and Towles, ch. 3) are defined on the healthy nodes'
//! positions 0..N-1 in node order, for any N, not only powers of two (docs/network.md,
//! "Traffic patterns", gives each mapping): a node whose pattern sends it to itself makes
//! no message.

use crate::choice::choice;
use crate::random::SplitMix64;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::RangeInclusive;

choice! {
    /// Whom a message goes to.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum Pattern {
        #[default]
        Uniform = "uniform": "Any other healthy node, uniformly",
        Permutation = "permutation":
            "A fixed random cyclic permutation of the healthy nodes (Sattolo's algorithm: no \
            node sends to itself); every message of a node goes to the same destination",
        Hotspot = "hotspot":
            "A hot node drawn by the seed gets a fraction of all messages, the rest uniform",
        BitComplement = "bit-complement":
            "Position p sends to N-1-p (for N a power of two, p's bits complemented)",
        BitReversal = "bit-reversal":
            "Position p sends to p's ceil(log2 N) bits reversed, if that is a position",
        Transpose = "transpose":
            "Positions as rows of c = ceil(sqrt N): row i, column j sends to row j, column i, if that is a position",
        Shuffle = "shuffle":
            "Perfect shuffle of N cards: p sends to 2p mod (N-1), N-1 to itself, for N even (for N a power of two, p's bits rotated left); 2p mod N for N odd",
        Tornado = "tornado":
            "Position p sends ceil(N/2)-1 places on round the positions' ring",
        Neighbour = "neighbour":
            "A random healthy node one link away",
    }
}

impl Pattern {
    /// The position position `p` of `n` sends to under this pattern, if it is a fixed map
    /// (`p` itself when it sends nothing); none for the patterns drawn per message.
    pub fn partner_position(self, p: usize, n: usize) -> Option<usize> {
        let bits = usize::BITS - (n - 1).leading_zeros();
        let within = |q: usize| if q < n { q } else { p };
        Some(match self {
            Pattern::BitComplement => n - 1 - p,
            Pattern::BitReversal if bits == 0 => p,
            Pattern::BitReversal => within(p.reverse_bits() >> (usize::BITS - bits)),
            Pattern::Transpose => {
                let c = n.isqrt() + usize::from(n.isqrt().pow(2) < n);
                within((p % c) * c + p / c)
            }
            Pattern::Shuffle if n % 2 == 1 => 2 * p % n,
            Pattern::Shuffle if p == n - 1 => p,
            Pattern::Shuffle => 2 * p % (n - 1),
            Pattern::Tornado => (p + n.div_ceil(2) - 1) % n,
            _ => return None,
        })
    }
}

/// The traffic of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Traffic {
    pub pattern: Pattern,
    /// Probability that a healthy node makes a message in a cycle, 0 to 1, on average
    /// over its on and off periods when it sends in bursts.
    pub rate: f64,
    /// Data bytes per message, drawn uniformly from this range, or one of its two ends.
    pub bytes: RangeInclusive<u8>,
    /// Bimodal lengths: the fraction of messages of the range's longer end, the others of
    /// its shorter one.
    pub long_fraction: Option<f64>,
    /// Hotspot: the fraction of messages to the hot node.
    pub hot_fraction: f64,
    /// On-off injection; none for a Bernoulli process.
    pub burst: Option<Burst>,
}

impl Traffic {
    /// Uniform Bernoulli traffic of `bytes`-byte messages at `rate`, as benchmarks and the
    /// plain sweeps run it.
    pub fn uniform(rate: f64, bytes: RangeInclusive<u8>) -> Self {
        Traffic {
            pattern: Pattern::Uniform,
            rate,
            bytes,
            long_fraction: None,
            hot_fraction: 0.2,
            burst: None,
        }
    }

    /// The mean data bytes of a message: the range's middle, or for bimodal lengths its
    /// two ends weighted by the long fraction.
    pub fn mean_bytes(&self) -> f64 {
        let (lo, hi) = (f64::from(*self.bytes.start()), f64::from(*self.bytes.end()));
        match self.long_fraction {
            Some(p) => lo + p * (hi - lo),
            None => (lo + hi) / 2.0,
        }
    }
}

/// On-off injection (a Markov-modulated Bernoulli process): a node's on and off periods
/// last `on` and `off` cycles on average (geometric lengths); it makes messages only while
/// on, at the rate that keeps its average at [`Traffic::rate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Burst {
    pub on: u64,
    pub off: u64,
}

impl Burst {
    /// The rate while on for an average `rate`: rate (on + off) / on, which must be at
    /// most 1.
    pub fn on_rate(self, rate: f64) -> f64 {
        rate * (self.on + self.off) as f64 / self.on as f64
    }
}

/// Draws the traffic of one run: injection cycles, destinations and lengths.
#[derive(Debug)]
pub struct TrafficGen {
    traffic: Traffic,
    rng: SplitMix64,
    healthy: Vec<u32>,
    /// The fixed patterns: each node's destination, by node index (unused entries
    /// `u32::MAX`; a node's own index when it makes no message).
    partner: Vec<u32>,
    /// Neighbour: each node's healthy out-neighbours, by node index.
    neighbours: Vec<Vec<u32>>,
    hot: u32,
    /// Under bursts, per node: the cycle its current on period ends (off from then).
    on_until: Vec<u64>,
    /// The next injection of every healthy node: (cycle, node).
    next: BinaryHeap<Reverse<(u64, u32)>>,
}

impl TrafficGen {
    /// The traffic of `traffic` among the `healthy` nodes (at least two, ascending) of a
    /// graph of `nodes` nodes whose out-neighbours `out` gives (for the neighbour pattern),
    /// drawn from `seed`.
    pub fn new(
        traffic: Traffic,
        nodes: usize,
        healthy: Vec<u32>,
        out: impl Fn(usize) -> Vec<usize>,
        seed: u64,
    ) -> Self {
        debug_assert!(healthy.len() >= 2);
        let mut rng = SplitMix64::new(seed);
        let partner = partners(traffic.pattern, nodes, &healthy, &mut rng);
        let neighbours = match traffic.pattern {
            Pattern::Neighbour => {
                let mut is_healthy = vec![false; nodes];
                for &v in &healthy {
                    is_healthy[v as usize] = true;
                }
                (0..nodes)
                    .map(|v| {
                        out(v)
                            .into_iter()
                            .filter(|&w| w != v && is_healthy[w])
                            .map(|w| w as u32)
                            .collect()
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        let hot = healthy[rng.below(healthy.len() as u64) as usize];
        let mut traffic_gen = TrafficGen {
            traffic,
            rng,
            healthy,
            partner,
            neighbours,
            hot,
            on_until: Vec::new(),
            next: BinaryHeap::new(),
        };
        if let Some(burst) = traffic_gen.traffic.burst {
            traffic_gen.on_until = vec![0; nodes];
            for i in 0..traffic_gen.healthy.len() {
                // Each node starts on with the stationary probability on / (on + off).
                let on = burst.on as f64 / (burst.on + burst.off) as f64;
                if traffic_gen.chance(on) {
                    let v = traffic_gen.healthy[i] as usize;
                    traffic_gen.on_until[v] = traffic_gen.period(burst.on);
                }
            }
        }
        for i in 0..traffic_gen.healthy.len() {
            let v = traffic_gen.healthy[i];
            if traffic_gen.sends(v)
                && let Some(at) = traffic_gen.next_from(v, 0)
            {
                traffic_gen.next.push(Reverse((at, v)));
            }
        }
        traffic_gen
    }

    /// The first cycle at or after `t` in which node `v` makes a message, or none at rate
    /// 0.
    fn next_from(&mut self, v: u32, t: u64) -> Option<u64> {
        let Some(burst) = self.traffic.burst else {
            return self.gap().map(|gap| t + gap);
        };
        let on_rate = burst.on_rate(self.traffic.rate);
        let mut t = t;
        loop {
            let until = self.on_until[v as usize];
            if t < until {
                let at = t + self.geometric(on_rate)?;
                if at < until {
                    return Some(at);
                }
            }
            let on_from = t.max(until) + self.period(burst.off);
            self.on_until[v as usize] = on_from + self.period(burst.on);
            t = on_from;
        }
    }

    /// The length of an on or off period of mean `mean` cycles: at least 1, geometric.
    fn period(&mut self, mean: u64) -> u64 {
        1 + self
            .geometric(1.0 / mean as f64)
            .expect("a mean of at least 1")
    }

    /// Whether node `v` makes messages: not when its pattern sends it to itself, or it has
    /// no healthy neighbour to send to.
    fn sends(&self, v: u32) -> bool {
        match self.traffic.pattern {
            Pattern::Neighbour => !self.neighbours[v as usize].is_empty(),
            _ => self.partner.get(v as usize) != Some(&v),
        }
    }

    /// The healthy nodes that make no message under the pattern.
    pub fn idle_nodes(&self) -> usize {
        self.healthy.iter().filter(|&&v| !self.sends(v)).count()
    }

    /// Cycles to wait before the next message: the number of failed Bernoulli trials, or
    /// none at rate 0.
    fn gap(&mut self) -> Option<u64> {
        self.geometric(self.traffic.rate)
    }

    /// Failed trials before the first success of trials of probability `rate`, or none
    /// when it is 0.
    fn geometric(&mut self, rate: f64) -> Option<u64> {
        if rate <= 0.0 {
            return None;
        }
        if rate >= 1.0 {
            return Some(0);
        }
        // U in (0, 1]: 53 random bits, never 0, so the logarithm is finite.
        let u = ((self.rng.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64;
        Some((u.ln() / (1.0 - rate).ln()).floor() as u64)
    }

    /// The next node to make a message before cycle `end`, and the cycle, in order of
    /// (cycle, node); the node's following injection is drawn at once.
    pub fn next_injection(&mut self, end: u64) -> Option<(u64, u32)> {
        let &Reverse((cycle, node)) = self.next.peek()?;
        if cycle >= end {
            return None;
        }
        self.next.pop();
        if let Some(at) = self.next_from(node, cycle + 1) {
            self.next.push(Reverse((at, node)));
        }
        Some((cycle, node))
    }

    /// The destination of a message from `src`.
    pub fn destination(&mut self, src: u32) -> u32 {
        match self.traffic.pattern {
            Pattern::Neighbour => {
                let out = &self.neighbours[src as usize];
                out[self.rng.below(out.len() as u64) as usize]
            }
            _ if !self.partner.is_empty() => self.partner[src as usize],
            Pattern::Hotspot if src != self.hot => {
                if self.chance(self.traffic.hot_fraction) {
                    self.hot
                } else {
                    self.other_than(src)
                }
            }
            _ => self.other_than(src),
        }
    }

    fn chance(&mut self, p: f64) -> bool {
        ((self.rng.next_u64() >> 11) as f64) < p * (1u64 << 53) as f64
    }

    /// A healthy node other than `src`, uniformly.
    fn other_than(&mut self, src: u32) -> u32 {
        loop {
            let v = self.healthy[self.rng.below(self.healthy.len() as u64) as usize];
            if v != src {
                return v;
            }
        }
    }

    /// The length of the next message.
    pub fn length(&mut self) -> u8 {
        let (lo, hi) = (*self.traffic.bytes.start(), *self.traffic.bytes.end());
        match self.traffic.long_fraction {
            Some(p) => {
                if self.chance(p) {
                    hi
                } else {
                    lo
                }
            }
            None => lo + self.rng.below(u64::from(hi - lo) + 1) as u8,
        }
    }

    /// A delay of 1 to `max` cycles, before a failed message's next round.
    pub fn retry_delay(&mut self, max: u64) -> u64 {
        1 + self.rng.below(max)
    }
}

/// Each node's destination under a fixed `pattern` among the `healthy` nodes, by node index
/// (`u32::MAX` for the others), drawn from `rng` for the permutation; empty for the
/// patterns drawn per message.
fn partners(pattern: Pattern, nodes: usize, healthy: &[u32], rng: &mut SplitMix64) -> Vec<u32> {
    let n = healthy.len();
    let order: Vec<u32> = match pattern {
        Pattern::Permutation => {
            let mut order = healthy.to_vec();
            for i in (1..n).rev() {
                let j = rng.below(i as u64) as usize;
                order.swap(i, j);
            }
            order
        }
        _ => match (0..n)
            .map(|p| pattern.partner_position(p, n))
            .collect::<Option<Vec<usize>>>()
        {
            Some(positions) => positions.into_iter().map(|q| healthy[q]).collect(),
            None => return Vec::new(),
        },
    };
    let mut partner = vec![u32::MAX; nodes];
    for (i, &v) in healthy.iter().enumerate() {
        partner[v as usize] = order[i];
    }
    partner
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXED: [Pattern; 5] = [
        Pattern::BitComplement,
        Pattern::BitReversal,
        Pattern::Transpose,
        Pattern::Shuffle,
        Pattern::Tornado,
    ];

    fn map(pattern: Pattern, n: usize) -> Vec<usize> {
        (0..n)
            .map(|p| pattern.partner_position(p, n).unwrap())
            .collect()
    }

    #[test]
    fn on_a_power_of_two_the_patterns_are_the_textbook_ones() {
        // N = 16: 4-bit positions.
        assert_eq!(
            map(Pattern::BitComplement, 16),
            (0..16).map(|p| 15 - p).collect::<Vec<_>>()
        );
        assert_eq!(
            map(Pattern::BitReversal, 16),
            [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15]
        );
        // Transpose swaps the two 2-bit halves.
        assert_eq!(
            map(Pattern::Transpose, 16),
            [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]
        );
        // Shuffle rotates the bits left.
        assert_eq!(
            map(Pattern::Shuffle, 16),
            [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15]
        );
        assert_eq!(
            map(Pattern::Tornado, 16),
            (0..16).map(|p| (p + 7) % 16).collect::<Vec<_>>()
        );
    }

    #[test]
    fn on_twelve_positions_out_of_range_partners_stay_home() {
        // b = 4: reversals of 3, 7, 11 are 12, 14, 13; c = 4: transposes of 3, 7, 11 are
        // 12, 13, 14.
        assert_eq!(
            map(Pattern::BitComplement, 12),
            (0..12).map(|p| 11 - p).collect::<Vec<_>>()
        );
        assert_eq!(
            map(Pattern::BitReversal, 12),
            [0, 8, 4, 3, 2, 10, 6, 7, 1, 9, 5, 11]
        );
        assert_eq!(
            map(Pattern::Transpose, 12),
            [0, 4, 8, 3, 1, 5, 9, 7, 2, 6, 10, 11]
        );
        assert_eq!(
            map(Pattern::Shuffle, 12),
            [0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11]
        );
        assert_eq!(
            map(Pattern::Tornado, 12),
            (0..12).map(|p| (p + 5) % 12).collect::<Vec<_>>()
        );
        // An odd deck: 2p mod 7.
        assert_eq!(map(Pattern::Shuffle, 7), [0, 2, 4, 6, 1, 3, 5]);
    }

    #[test]
    fn every_fixed_pattern_is_a_permutation_of_the_positions() {
        for n in 2..=300 {
            for pattern in FIXED {
                let mut seen = vec![false; n];
                for q in map(pattern, n) {
                    assert!(!std::mem::replace(&mut seen[q], true), "{pattern:?} on {n}");
                }
            }
        }
    }

    #[test]
    fn a_node_sent_to_itself_makes_no_message() {
        let traffic = Traffic {
            pattern: Pattern::BitReversal,
            ..Traffic::uniform(1.0, 1..=1)
        };
        // Twelve nodes, all healthy: positions 0, 3, 6, 7, 9 and 11 reverse onto
        // themselves or past the last position.
        let mut draws = TrafficGen::new(traffic, 12, (0..12).collect(), |_| Vec::new(), 1);
        assert_eq!(draws.idle_nodes(), 6);
        let mut made = Vec::new();
        while let Some((_, v)) = draws.next_injection(1) {
            made.push((v, draws.destination(v)));
        }
        assert_eq!(made, [(1, 8), (2, 4), (4, 2), (5, 10), (8, 1), (10, 5)]);
    }

    #[test]
    fn neighbour_traffic_goes_one_link_to_a_healthy_node() {
        let traffic = Traffic {
            pattern: Pattern::Neighbour,
            ..Traffic::uniform(1.0, 1..=1)
        };
        // A ring 0 -> 1 -> 2 -> 3 -> 0 with node 2 faulty: 1 has no healthy neighbour.
        let out = |v: usize| vec![(v + 1) % 4];
        let mut draws = TrafficGen::new(traffic, 4, vec![0, 1, 3], out, 1);
        assert_eq!(draws.idle_nodes(), 1);
        let mut made = Vec::new();
        while let Some((_, v)) = draws.next_injection(1) {
            made.push((v, draws.destination(v)));
        }
        assert_eq!(made, [(0, 1), (3, 0)]);
    }

    /// Messages made by each of `nodes` nodes in each window of `window` cycles, over
    /// `windows` windows, and the lengths drawn.
    fn counts(traffic: Traffic, nodes: u32, window: u64, windows: u64) -> (Vec<u64>, Vec<u8>) {
        let mut draws = TrafficGen::new(
            traffic,
            nodes as usize,
            (0..nodes).collect(),
            |_| Vec::new(),
            7,
        );
        let mut counts = vec![0; (nodes as u64 * windows) as usize];
        let mut lengths = Vec::new();
        while let Some((t, v)) = draws.next_injection(window * windows) {
            counts[(v as u64 * windows + t / window) as usize] += 1;
            lengths.push(draws.length());
        }
        (counts, lengths)
    }

    /// The mean and the variance over mean (the index of dispersion) of `counts`.
    fn dispersion(counts: &[u64]) -> (f64, f64) {
        let n = counts.len() as f64;
        let mean = counts.iter().sum::<u64>() as f64 / n;
        let var = counts
            .iter()
            .map(|&c| (c as f64 - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var / mean)
    }

    #[test]
    fn bursts_keep_the_average_rate_and_make_the_counts_bursty() {
        // 0.02 messages a cycle on average: 2 a window of 100 cycles. A Bernoulli process
        // has variance 100 p (1 - p): an index of dispersion of 0.98. On-off periods of 50
        // and 200 cycles (rate 0.1 while on) make windows mostly empty or busy.
        let bernoulli = Traffic::uniform(0.02, 1..=1);
        let bursty = Traffic {
            burst: Some(Burst { on: 50, off: 200 }),
            ..bernoulli.clone()
        };
        let (mean, index) = dispersion(&counts(bernoulli, 20, 100, 5000).0);
        assert!(
            (mean - 2.0).abs() < 0.03 && (index - 0.98).abs() < 0.05,
            "{mean} {index}"
        );
        let (mean, index) = dispersion(&counts(bursty, 20, 100, 5000).0);
        assert!((mean - 2.0).abs() < 0.1 && index > 3.0, "{mean} {index}");
    }

    #[test]
    fn bimodal_lengths_are_long_with_the_fraction_asked() {
        let traffic = Traffic {
            long_fraction: Some(0.25),
            ..Traffic::uniform(0.1, 4..=64)
        };
        let lengths = counts(traffic, 10, 1000, 100).1;
        assert!(lengths.iter().all(|&l| l == 4 || l == 64));
        let long = lengths.iter().filter(|&&l| l == 64).count() as f64 / lengths.len() as f64;
        // About 100,000 messages: the standard error of the fraction is 0.0014.
        assert!((long - 0.25).abs() < 0.006, "{long}");
    }
}
