//! The processors' traffic, shared by the network models: when each healthy node makes a
//! message (a Bernoulli process per node and cycle, drawn as geometric gaps), to whom, and
//! how long. Everything is drawn from one seeded generator in a fixed order, so a seed
//! names a run.

use crate::choice::choice;
use crate::random::SplitMix64;
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
    }
}

/// The traffic of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Traffic {
    pub pattern: Pattern,
    /// Probability that a healthy node makes a message in a cycle, 0 to 1.
    pub rate: f64,
    /// Data bytes per message, drawn uniformly from this range.
    pub bytes: RangeInclusive<u8>,
    /// Hotspot: the fraction of messages to the hot node.
    pub hot_fraction: f64,
}

/// Draws the traffic of one run: injection cycles, destinations and lengths.
#[derive(Debug)]
pub struct TrafficGen {
    traffic: Traffic,
    rng: SplitMix64,
    healthy: Vec<u32>,
    /// Permutation: each node's destination, by node index (unused entries `u32::MAX`).
    partner: Vec<u32>,
    hot: u32,
    /// The next injection of every healthy node: (cycle, node).
    next: BinaryHeap<Reverse<(u64, u32)>>,
}

impl TrafficGen {
    /// The traffic of `traffic` among the `healthy` nodes (at least two, ascending) of a
    /// graph of `nodes` nodes, drawn from `seed`.
    pub fn new(traffic: Traffic, nodes: usize, healthy: Vec<u32>, seed: u64) -> Self {
        debug_assert!(healthy.len() >= 2);
        let mut rng = SplitMix64::new(seed);
        let mut partner = Vec::new();
        if traffic.pattern == Pattern::Permutation {
            let mut order = healthy.clone();
            for i in (1..order.len()).rev() {
                let j = rng.below(i as u64) as usize;
                order.swap(i, j);
            }
            partner = vec![u32::MAX; nodes];
            for (i, &v) in healthy.iter().enumerate() {
                partner[v as usize] = order[i];
            }
        }
        let hot = healthy[rng.below(healthy.len() as u64) as usize];
        let mut traffic_gen = TrafficGen {
            traffic,
            rng,
            healthy,
            partner,
            hot,
            next: BinaryHeap::new(),
        };
        for i in 0..traffic_gen.healthy.len() {
            let v = traffic_gen.healthy[i];
            if let Some(gap) = traffic_gen.gap() {
                traffic_gen.next.push(Reverse((gap, v)));
            }
        }
        traffic_gen
    }

    /// Cycles to wait before the next message: the number of failed Bernoulli trials, or
    /// none at rate 0.
    fn gap(&mut self) -> Option<u64> {
        let rate = self.traffic.rate;
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
        if let Some(gap) = self.gap() {
            self.next.push(Reverse((cycle + 1 + gap, node)));
        }
        Some((cycle, node))
    }

    /// The destination of a message from `src`.
    pub fn destination(&mut self, src: u32) -> u32 {
        match self.traffic.pattern {
            Pattern::Permutation => self.partner[src as usize],
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
        lo + self.rng.below(u64::from(hi - lo) + 1) as u8
    }

    /// A delay of 1 to `max` cycles, before a failed message's next round.
    pub fn retry_delay(&mut self, max: u64) -> u64 {
        1 + self.rng.below(max)
    }
}
