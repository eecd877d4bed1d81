//! What a network run measured, whichever fabric carried its messages: counts of messages
//! and attempts, latency, throughput, first-attempt success, and the invariant counters
//! that a correct model keeps at zero (docs/network.md defines every figure); and the
//! figures only one kind of fabric has: what acknowledged delivery did ([`FlowSummary`]),
//! and the hops and deadlock of switches that route ([`RoutingSummary`]).

use super::message::{AttemptOutcome, Finished, Outcome};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Running totals of a run.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub injected: u64,
    pub delivered: u64,
    pub failed: u64,
    pub attempts: u64,
    pub rounds: u64,
    pub first_attempt: u64,
    pub bytes_arrived: u64,
    /// Latency of every delivered message, in cycles: from its making, and from its first
    /// attempt's head (the network latency).
    pub latencies: Vec<u64>,
    pub network_latencies: Vec<u64>,
    /// Delivered messages by the hops of the attempt that delivered them.
    pub hops: Vec<u64>,
    /// Ended messages by their attempts: (delivered, failed) at index attempts.
    pub by_attempts: Vec<(u64, u64)>,
    /// The cycles whose load is measured, [start, end), and the messages and data bytes
    /// made and arrived in them: the offered and accepted load.
    pub window: (u64, u64),
    pub made: (u64, u64),
    pub arrived_in_window: (u64, u64),
    /// Per node, the data bytes it made and was handed in the window.
    pub per_node: Vec<(u64, u64)>,
    /// Under a measurement window (`--warmup`): only messages made in it are counted, and
    /// those not yet ended.
    pub measured_only: bool,
    pub measured_in_system: u64,
    /// Invariants: worms that ended early at a receiver, and arrivals whose source or
    /// bytes were not the message's.
    pub receive_errors: u64,
    pub corrupted: u64,
}

impl Stats {
    /// Whether cycle `t` is in the measured window.
    fn in_window(&self, t: u64) -> bool {
        (self.window.0..self.window.1).contains(&t)
    }

    /// Counts a message that has ended: its arrival towards the accepted load if it came in
    /// the window, and the rest if it was made in it (or every message is counted).
    pub fn finish(&mut self, f: &Finished) {
        let m = &f.message;
        // Arrived in the window: its last byte handed out in a cycle of it.
        if let Some(arrive) = f.arrive
            && f.outcome == Outcome::Delivered
            && self.in_window(arrive - 1)
        {
            self.arrived_in_window.0 += 1;
            self.arrived_in_window.1 += u64::from(m.bytes);
            self.per_node[m.dst as usize].1 += u64::from(m.bytes);
        }
        if self.measured_only {
            if !self.in_window(m.inject) {
                return;
            }
            self.measured_in_system -= 1;
        }
        self.attempts += m.attempts.len() as u64;
        self.rounds += u64::from(m.round) + 1;
        let first = m.attempts.first().map(|a| a.outcome);
        let tried = m.attempts.len();
        if self.by_attempts.len() <= tried {
            self.by_attempts.resize(tried + 1, (0, 0));
        }
        match f.outcome {
            Outcome::Delivered => self.by_attempts[tried].0 += 1,
            Outcome::Failed => self.by_attempts[tried].1 += 1,
        }
        match f.outcome {
            Outcome::Delivered => {
                self.delivered += 1;
                self.bytes_arrived += u64::from(m.bytes);
                let arrive = f.arrive.expect("a delivered message has arrived");
                self.latencies.push(arrive - m.inject);
                let sent = m.attempts.first().expect("a delivered message was sent");
                self.network_latencies.push(arrive - sent.start);
                let hops = m.attempts.last().expect("sent").hops as usize;
                if self.hops.len() <= hops {
                    self.hops.resize(hops + 1, 0);
                }
                self.hops[hops] += 1;
                if first == Some(AttemptOutcome::Delivered) {
                    self.first_attempt += 1;
                }
            }
            Outcome::Failed => self.failed += 1,
        }
    }

    /// The figures of a run of `cycles` cycles over the `healthy` nodes.
    pub fn summary(&self, cycles: u64, healthy: &[u32]) -> Summary {
        let nodes = healthy.len() as u64;
        let finished = self.delivered + self.failed;
        let (mean, p99) = mean_and_p99(&mut self.latencies.clone());
        let total = Distribution::of(&mut self.latencies.clone());
        let network = Distribution::of(&mut self.network_latencies.clone());
        let latency = total.zip(network).map(|(total, network)| LatencySummary {
            histogram: log2_histogram(&self.latencies),
            total,
            network,
        });
        Summary {
            injected: self.injected,
            delivered: self.delivered,
            failed: self.failed,
            retries: self.attempts - self.rounds,
            mean_latency: mean,
            p99_latency: p99,
            throughput: self.bytes_arrived as f64 / (cycles.max(1) * nodes.max(1)) as f64,
            first_attempt_success: (finished > 0)
                .then(|| self.first_attempt as f64 / finished as f64),
            cycles,
            receive_errors: self.receive_errors,
            corrupted: self.corrupted,
            latency,
            load: self.load(healthy),
            hops: hop_summary(&self.hops),
            attempts: self
                .by_attempts
                .iter()
                .enumerate()
                .filter(|(_, (d, f))| d + f > 0)
                .map(|(attempts, &(delivered, failed))| AttemptCount {
                    attempts: attempts as u64,
                    delivered,
                    failed,
                })
                .collect(),
            ..Summary::default()
        }
    }
}

impl Stats {
    /// A message of `bytes` bytes made by `src` in cycle `t`: offered load if in the window, and
    /// counted if every message is or it is in the window.
    pub fn made(&mut self, t: u64, src: u32, bytes: u8) {
        let measured = self.in_window(t);
        if measured {
            self.made.0 += 1;
            self.made.1 += u64::from(bytes);
            self.per_node[src as usize].0 += u64::from(bytes);
        }
        if !self.measured_only {
            self.injected += 1;
        } else if measured {
            self.injected += 1;
            self.measured_in_system += 1;
        }
    }

    /// The offered and accepted load over the window, per node of the `healthy` ones and
    /// cycle, with the least and the most of a node.
    fn load(&self, healthy: &[u32]) -> Option<LoadSummary> {
        let window = self.window.1 - self.window.0;
        let per = (window * healthy.len() as u64) as f64;
        let range = |of: fn(&(u64, u64)) -> u64| {
            let bytes = healthy.iter().map(|&v| of(&self.per_node[v as usize]));
            let (lo, hi) = bytes.fold((u64::MAX, 0), |(lo, hi), b| (lo.min(b), hi.max(b)));
            [lo as f64 / window as f64, hi as f64 / window as f64]
        };
        (per > 0.0).then(|| LoadSummary {
            offered: self.made.1 as f64 / per,
            accepted: self.arrived_in_window.1 as f64 / per,
            offered_messages: self.made.0 as f64 / per,
            accepted_messages: self.arrived_in_window.0 as f64 / per,
            offered_per_node: range(|n| n.0),
            accepted_per_node: range(|n| n.1),
            capacity: None,
        })
    }
}

/// What one link carried in the measured window, as a fabric counts it: the link from
/// node `from` by switch `port` to node `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkCount {
    pub from: u32,
    pub port: usize,
    pub to: u32,
    pub words: u64,
    pub nacks: u64,
}

/// One link's use, as `--per-link` reports it: its name as `--faulty-link` gives it, the
/// node it leads to, the words it carried and NACKs sent back over it in the window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkUse {
    pub link: String,
    pub to: String,
    pub words: u64,
    /// Words carried per cycle of the window.
    pub utilisation: f64,
    pub nacks: u64,
}

/// The links' use over the window (docs/network.md, "What is measured"): words a link
/// carried per cycle, and NACKs sent back over it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkSummary {
    pub links: u64,
    pub mean_utilisation: f64,
    pub max_utilisation: f64,
    /// The busiest link, as `--faulty-link` names it.
    pub busiest: String,
    /// NACKs sent back over links (none with switches that route), and the most over one.
    pub nacks: u64,
    pub max_nacks: u64,
    /// The link most NACKs came back over, if any did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub most_refused: Option<String>,
}

impl LinkSummary {
    /// The summary of `links` (name, words carried, NACKs) over a window of `cycles`.
    pub fn of(links: impl Iterator<Item = (String, u64, u64)>, cycles: u64) -> Option<Self> {
        let mut summary: Option<LinkSummary> = None;
        let (mut words, mut most_words) = (0u64, 0u64);
        for (name, carried, nacks) in links {
            let s = summary.get_or_insert_with(|| LinkSummary {
                links: 0,
                mean_utilisation: 0.0,
                max_utilisation: 0.0,
                busiest: name.clone(),
                nacks: 0,
                max_nacks: 0,
                most_refused: None,
            });
            s.links += 1;
            words += carried;
            if carried > most_words {
                most_words = carried;
                s.busiest = name.clone();
            }
            s.nacks += nacks;
            if nacks > s.max_nacks {
                s.max_nacks = nacks;
                s.most_refused = Some(name);
            }
        }
        let cycles = cycles.max(1) as f64;
        summary.map(|mut s| {
            s.mean_utilisation = words as f64 / (s.links as f64 * cycles);
            s.max_utilisation = most_words as f64 / cycles;
            s
        })
    }
}

/// How a measured run went (docs/network.md, "Measurement").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasurementSummary {
    pub warmup: u64,
    /// The window's cycles: the figures are those of the messages made in them.
    pub window: u64,
    /// Cycles after the window until its last message ended, or until the limit.
    pub drained: u64,
    /// Messages of the window that had not ended at the drain limit: beyond saturation,
    /// the run is unstable and its latencies are not reported.
    pub unfinished: u64,
    pub unstable: bool,
}

/// The load of a run's injection period (docs/network.md, "Load"): data bytes (a byte is
/// a flit, the links' width) and messages per healthy node per cycle, made (offered) and
/// handed out at their destinations (accepted) in the period.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadSummary {
    pub offered: f64,
    pub accepted: f64,
    pub offered_messages: f64,
    pub accepted_messages: f64,
    /// Fairness: the least and the most any healthy node made and was handed, in bytes
    /// per cycle.
    pub offered_per_node: [f64; 2],
    pub accepted_per_node: [f64; 2],
    /// The uniform-traffic capacity, bytes per node per cycle: the rate at which the
    /// average link is busy every cycle, links / (nodes x mean distance), at most 1.
    pub capacity: Option<f64>,
}

/// The hops of delivered messages: their mean, and how many took each number of hops.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HopSummary {
    pub mean: f64,
    /// Every number of hops from the fewest to the most taken, with its messages.
    pub counts: Vec<HopCount>,
}

/// The delivered messages that took a number of hops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HopCount {
    pub hops: u64,
    pub messages: u64,
}

/// The hop summary of `counts` (messages by hops), none when no message was delivered.
fn hop_summary(counts: &[u64]) -> Option<HopSummary> {
    let messages: u64 = counts.iter().sum();
    if messages == 0 {
        return None;
    }
    let total: u64 = counts.iter().enumerate().map(|(h, &c)| h as u64 * c).sum();
    let first = counts.iter().position(|&c| c > 0).expect("some message");
    let last = counts.iter().rposition(|&c| c > 0).expect("some message");
    Some(HopSummary {
        mean: total as f64 / messages as f64,
        counts: (first..=last)
            .map(|h| HopCount {
                hops: h as u64,
                messages: counts[h],
            })
            .collect(),
    })
}

/// The messages that ended after a number of attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttemptCount {
    pub attempts: u64,
    pub delivered: u64,
    pub failed: u64,
}

/// A distribution of cycle counts: its mean, percentiles (nearest rank) and largest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Distribution {
    pub mean: f64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub p999: u64,
    pub max: u64,
}

impl Distribution {
    /// The figures of `values` (which it sorts), none when empty.
    pub fn of(values: &mut [u64]) -> Option<Distribution> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let n = values.len();
        // Nearest rank: the smallest value that at least a fraction q of them do not
        // exceed, q = per_mille / 1000.
        let at = |per_mille: usize| values[(n * per_mille).div_ceil(1000).max(1) - 1];
        Some(Distribution {
            mean: values.iter().sum::<u64>() as f64 / n as f64,
            p50: at(500),
            p90: at(900),
            p99: at(990),
            p999: at(999),
            max: values[n - 1],
        })
    }
}

/// The latencies of a run's delivered messages (docs/network.md, "What is measured").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencySummary {
    /// From the message's making, queueing at its source included.
    pub total: Distribution,
    /// From its first attempt's head on the link.
    pub network: Distribution,
    /// The total latencies in buckets doubling in width: 0-1, 2-3, 4-7, 8-15, ...
    pub histogram: Vec<Bucket>,
}

/// One bucket of a histogram: the values `from` to `to`, both included, and how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bucket {
    pub from: u64,
    pub to: u64,
    pub count: u64,
}

/// `values` in buckets doubling in width, from the first to the last occupied.
pub fn log2_histogram(values: &[u64]) -> Vec<Bucket> {
    let bucket = |v: u64| (u64::BITS - v.leading_zeros()).saturating_sub(1) as usize;
    let mut counts = vec![0u64; 64];
    for &v in values {
        counts[bucket(v)] += 1;
    }
    let first = counts.iter().position(|&c| c > 0);
    let last = counts.iter().rposition(|&c| c > 0);
    let (Some(first), Some(last)) = (first, last) else {
        return Vec::new();
    };
    (first..=last)
        .map(|i| Bucket {
            from: if i == 0 { 0 } else { 1 << i },
            to: (2u64 << i) - 1,
            count: counts[i],
        })
        .collect()
}

/// The mean and the 99th percentile of `latencies` (which it reorders), none when empty:
/// the summary's headline figures, kept beside the distribution for the tables and sweeps
/// that show them.
pub fn mean_and_p99(latencies: &mut [u64]) -> (Option<f64>, Option<u64>) {
    if latencies.is_empty() {
        return (None, None);
    }
    let sum: u64 = latencies.iter().sum();
    // Nearest rank: the smallest latency that at least 99% of messages do not exceed.
    let rank = (latencies.len() * 99).div_ceil(100).max(1) - 1;
    let mean = sum as f64 / latencies.len() as f64;
    let (_, p99, _) = latencies.select_nth_unstable(rank);
    (Some(mean), Some(*p99))
}

/// The figures of a run, as `netsim` prints them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub injected: u64,
    pub delivered: u64,
    pub failed: u64,
    pub retries: u64,
    /// Cycles from injection to arrival, over delivered messages (none when none was).
    pub mean_latency: Option<f64>,
    pub p99_latency: Option<u64>,
    /// Data bytes arrived per healthy node per cycle.
    pub throughput: f64,
    /// Delivered by the first attempt, over all messages that ended.
    pub first_attempt_success: Option<f64>,
    /// Cycles run: injection and drain.
    pub cycles: u64,
    pub receive_errors: u64,
    pub corrupted: u64,
    /// The latency distributions, when a message was delivered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<LatencySummary>,
    /// The offered and accepted load over the injection period (or the measurement
    /// window), when it has cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<LoadSummary>,
    /// How busy the links were in the window, and the NACKs sent over them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links: Option<LinkSummary>,
    /// With `--per-link`: every link's use, in node then port order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_link: Vec<LinkUse>,
    /// Under a measurement window: its phases, and whether the run was stable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measurement: Option<MeasurementSummary>,
    /// The hops of delivered messages, when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hops: Option<HopSummary>,
    /// Ended messages by the attempts they took, delivered and failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<AttemptCount>,
    /// With buffered switches (vct, saf): what acknowledged delivery did, and the bounds
    /// it keeps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flow: Option<FlowSummary>,
    /// With switches that route (`--routing`): hops, and how the run ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routing: Option<RoutingSummary>,
    /// With receive FIFOs (`--rx-bytes`): what they refused and what the processors took.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receive: Option<ReceiveSummary>,
}

/// What the receive FIFOs did in the measured window (docs/network.md, "Receive
/// backpressure").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReceiveSummary {
    /// Heads a switch refused because its router's FIFO could not take a whole message;
    /// each is a NACK to its source, counted in the links' NACKs too.
    pub refusals: u64,
    /// Bytes the processors took from their FIFOs.
    pub bytes_taken: u64,
}

/// The unit of every number of a [`Summary`] in JSON, by its path (keys joined by dots,
/// array indices dropped), for the `units` of netsim's JSON (docs/network.md, "JSON
/// output"). Kept beside the figures, in their order; a test walks runs of every kind and
/// finds each number here. The worms of a deadlock's wait cycle are named by numbers, not
/// measured, and have none.
pub const SUMMARY_UNITS: [(&str, &str); 67] = [
    ("injected", "messages"),
    ("delivered", "messages"),
    ("failed", "messages"),
    ("retries", "attempts"),
    ("mean_latency", "cycles"),
    ("p99_latency", "cycles"),
    ("throughput", "bytes/node/cycle"),
    ("first_attempt_success", "fraction"),
    ("cycles", "cycles"),
    ("receive_errors", "worms"),
    ("corrupted", "messages"),
    ("latency.total.mean", "cycles"),
    ("latency.total.p50", "cycles"),
    ("latency.total.p90", "cycles"),
    ("latency.total.p99", "cycles"),
    ("latency.total.p999", "cycles"),
    ("latency.total.max", "cycles"),
    ("latency.network.mean", "cycles"),
    ("latency.network.p50", "cycles"),
    ("latency.network.p90", "cycles"),
    ("latency.network.p99", "cycles"),
    ("latency.network.p999", "cycles"),
    ("latency.network.max", "cycles"),
    ("latency.histogram.from", "cycles"),
    ("latency.histogram.to", "cycles"),
    ("latency.histogram.count", "messages"),
    ("load.offered", "bytes/node/cycle"),
    ("load.accepted", "bytes/node/cycle"),
    ("load.offered_messages", "messages/node/cycle"),
    ("load.accepted_messages", "messages/node/cycle"),
    ("load.offered_per_node", "bytes/cycle"),
    ("load.accepted_per_node", "bytes/cycle"),
    ("load.capacity", "bytes/node/cycle"),
    ("links.links", "links"),
    ("links.mean_utilisation", "words/cycle"),
    ("links.max_utilisation", "words/cycle"),
    ("links.nacks", "NACKs"),
    ("links.max_nacks", "NACKs"),
    ("per_link.words", "words"),
    ("per_link.utilisation", "words/cycle"),
    ("per_link.nacks", "NACKs"),
    ("measurement.warmup", "cycles"),
    ("measurement.window", "cycles"),
    ("measurement.drained", "cycles"),
    ("measurement.unfinished", "messages"),
    ("hops.mean", "hops"),
    ("hops.counts.hops", "hops"),
    ("hops.counts.messages", "messages"),
    ("attempts.attempts", "attempts"),
    ("attempts.delivered", "messages"),
    ("attempts.failed", "messages"),
    ("flow.acks_sent", "ACKs"),
    ("flow.acks_dropped", "ACKs"),
    ("flow.duplicates", "worms"),
    ("flow.timeouts", "attempts"),
    ("flow.unacknowledged", "messages"),
    ("flow.late_copies", "worms"),
    ("flow.lost", "messages"),
    ("flow.longest_buffer_hold", "cycles"),
    ("flow.buffer_hold_bound", "cycles"),
    ("flow.longest_message", "cycles"),
    ("flow.message_bound", "cycles"),
    ("routing.mean_extra_hops", "hops"),
    ("routing.in_flight", "worms"),
    ("routing.queued", "messages"),
    ("receive.refusals", "worms"),
    ("receive.bytes_taken", "bytes"),
];

/// What a run of switches that route measured beyond the common figures
/// (docs/torus.md): the hops of delivered messages, what was left when the run stopped,
/// and on deadlock the worms waiting on each other.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RoutingSummary {
    /// Hops over the fault-free minimum (the torus distance).
    pub mean_extra_hops: Option<f64>,
    /// Worms holding channels or starting at their source when the run stopped.
    pub in_flight: u64,
    /// Messages still waiting in their source's queue when the run stopped.
    pub queued: u64,
    pub deadlock: bool,
    /// On deadlock: the cycle of worms waiting on each other, from its oldest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wait_cycle: Vec<Waiting>,
}

/// One worm of a deadlock: where its header is, the channels it holds, the one it wants
/// and the worm that holds that.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    pub worm: u64,
    pub src: String,
    pub dst: String,
    /// The node its header is at.
    pub node: String,
    /// The channels it holds, as links NODE:PORT from its tail's to its header's; none
    /// while its header is still at its source.
    pub holds: Vec<String>,
    /// The first channel its routing function allows there (all are held), or `eject`.
    pub wants: String,
    pub held_by: u64,
}

impl fmt::Display for Waiting {
    /// `worm 4 (0,4 -> 0,1) at 0,0 holds 0,4:+0 wants 0,0:+0 held by worm 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let holds = match self.holds.is_empty() {
            true => "nothing (at its source)".to_string(),
            false => self.holds.join(" "),
        };
        write!(
            f,
            "worm {} ({} -> {}) at {} holds {holds} wants {} held by worm {}",
            self.worm, self.src, self.dst, self.node, self.wants, self.held_by
        )
    }
}

/// What acknowledged delivery did in a run of buffered switches (docs/flow-control.md),
/// and the bounds it keeps, which [`FlowSummary::violation`] checks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FlowSummary {
    /// ACK worms sent whole, and ACKs given up (every route NACKed, or the queue full).
    pub acks_sent: u64,
    pub acks_dropped: u64,
    /// Data worms that arrived again after their message was handed out, not handed out
    /// twice.
    pub duplicates: u64,
    /// Attempts whose ACK did not come in time.
    pub timeouts: u64,
    /// Messages handed out at their destination whose source never heard so (it reported
    /// them failed).
    pub unacknowledged: u64,
    /// Invariants, 0 in every run: data worms that arrived after their message had ended,
    /// and messages acknowledged but never handed out.
    pub late_copies: u64,
    pub lost: u64,
    /// The longest a worm stayed in one switch's buffer, and the bound.
    pub longest_buffer_hold: u64,
    pub buffer_hold_bound: u64,
    /// The longest from a message handed to its router to its outcome, and the bound.
    pub longest_message: u64,
    pub message_bound: u64,
}

impl FlowSummary {
    /// The first bound or invariant the run broke, as a sentence.
    pub fn violation(&self) -> Option<String> {
        if self.longest_buffer_hold > self.buffer_hold_bound {
            Some(format!(
                "a worm stayed {} cycles in a switch's buffer, beyond the bound of {}",
                self.longest_buffer_hold, self.buffer_hold_bound
            ))
        } else if self.longest_message > self.message_bound {
            Some(format!(
                "a message took {} cycles to its outcome, beyond the bound of {}",
                self.longest_message, self.message_bound
            ))
        } else if self.late_copies > 0 {
            Some(format!(
                "{} data worms arrived after their message had ended",
                self.late_copies
            ))
        } else if self.lost > 0 {
            Some(format!(
                "{} messages were acknowledged but never handed out",
                self.lost
            ))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_ranks() {
        let mut values: Vec<u64> = (1..=1000).rev().collect();
        let d = Distribution::of(&mut values).unwrap();
        assert_eq!(
            (d.mean, d.p50, d.p90, d.p99, d.p999, d.max),
            (500.5, 500, 900, 990, 999, 1000)
        );
        // Three values: the median is the second, every high percentile the third.
        let d = Distribution::of(&mut [7, 3, 5]).unwrap();
        assert_eq!((d.p50, d.p90, d.p999, d.max), (5, 7, 7, 7));
        assert_eq!(Distribution::of(&mut []), None);
    }

    #[test]
    fn the_histogram_doubles_its_buckets() {
        let buckets: Vec<(u64, u64, u64)> = log2_histogram(&[0, 1, 2, 3, 4, 8, 1000])
            .iter()
            .map(|b| (b.from, b.to, b.count))
            .collect();
        assert_eq!(
            buckets,
            [
                (0, 1, 2),
                (2, 3, 2),
                (4, 7, 1),
                (8, 15, 1),
                (16, 31, 0),
                (32, 63, 0),
                (64, 127, 0),
                (128, 255, 0),
                (256, 511, 0),
                (512, 1023, 1)
            ]
        );
        assert_eq!(log2_histogram(&[]), []);
    }
}
