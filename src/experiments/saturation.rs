//! The saturation throughput of a network under one traffic, found by bisection on the
//! offered load (`netsim saturate`, docs/network.md, "Saturation").
//!
//! In: a network's parameters ([`saturation_of`]), or any way to run one measured point
//! at a rate and the bounds of the search ([`saturate`]). Out: every probe in the order run, the zero-load latency,
//! and the saturation throughput with the bracket of offered loads it lies in.
//!
//! The criterion (Dally and Towles, "Principles and Practices of Interconnection Networks",
//! 2004, ch. 23, and BookSim's convention): a point is **saturated** when its measurement
//! window does not drain within its limit (unstable), or when it accepts less than
//! [`ACCEPTED_FRACTION`] of what it offers, or when its mean network latency (from a
//! message's first head on a link to its arrival) exceeds [`LATENCY_FACTOR`] times the
//! zero-load latency. The saturation throughput is the accepted load of the highest
//! unsaturated rate found.
//!
//! Network latency, not total latency: the total adds the wait in the source's queue,
//! which grows as a single-server queue does, ρ/(2(1-ρ)) services at load ρ, and passes
//! 3x the zero-load latency well before a source's link is full (at ρ near 0.9 for a
//! message that takes two services' time to cross), so that a network whose links are
//! never shared would be called saturated at 90% of what it carries. A queue that grows
//! without bound is what the drain limit catches.

use crate::network::distances::capacity;
use crate::network::net::{Measure, Net, NetParams};
use serde::{Deserialize, Serialize};

/// The zero-load probe makes at least this many messages, however long that takes.
const ZERO_LOAD_MESSAGES: f64 = 400.0;
/// The zero-load probe offers this fraction of the uniform-traffic capacity.
const ZERO_LOAD_FRACTION: f64 = 0.01;

/// A point accepting less than this fraction of its offered load is saturated.
pub const ACCEPTED_FRACTION: f64 = 0.95;
/// A point whose mean latency is more than this many times the zero-load latency is
/// saturated.
pub const LATENCY_FACTOR: f64 = 3.0;

/// One measured point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    /// Messages per node per cycle asked for.
    pub rate: f64,
    /// Data bytes per node per cycle made and delivered in the window.
    pub offered: f64,
    pub accepted: f64,
    /// Mean network latency of the window's messages, in cycles; none when unstable or
    /// none was delivered.
    pub latency: Option<f64>,
    /// The window did not drain within its limit.
    pub unstable: bool,
}

/// Why a probe counts as saturated, if it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Stable,
    Unstable,
    AcceptedBelowOffered,
    LatencyAboveBound,
}

impl Verdict {
    const ALL: [Verdict; 4] = [
        Verdict::Stable,
        Verdict::Unstable,
        Verdict::AcceptedBelowOffered,
        Verdict::LatencyAboveBound,
    ];

    /// The verdict as the table and the JSON give it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Stable => "stable",
            Verdict::Unstable => "unstable",
            Verdict::AcceptedBelowOffered => "accepted-below-offered",
            Verdict::LatencyAboveBound => "latency-above-bound",
        }
    }
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Verdict {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Verdict::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or_else(|| serde::de::Error::custom(format!("'{name}' is not a verdict")))
    }
}

impl Probe {
    /// The probe's verdict against the zero-load latency `zero_load`.
    pub fn verdict(&self, zero_load: f64) -> Verdict {
        match self.latency {
            _ if self.unstable => Verdict::Unstable,
            _ if self.accepted < ACCEPTED_FRACTION * self.offered => Verdict::AcceptedBelowOffered,
            Some(l) if l > LATENCY_FACTOR * zero_load => Verdict::LatencyAboveBound,
            None => Verdict::AcceptedBelowOffered,
            Some(_) => Verdict::Stable,
        }
    }
}

/// A probe and its verdict.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    #[serde(flatten)]
    pub probe: Probe,
    pub verdict: Verdict,
}

/// How a search is bounded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Search {
    /// The rate of the zero-load probe, far below saturation.
    pub zero_load_rate: f64,
    /// The highest rate the sources can inject at.
    pub limit: f64,
    /// Stop when the bracket's width is at most this fraction of its top.
    pub precision: f64,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Saturation {
    /// Mean network latency at the zero-load probe, cycles.
    pub zero_load_latency: f64,
    /// The accepted load of the highest unsaturated probe, bytes per node per cycle.
    pub throughput: f64,
    /// Offered loads of the highest unsaturated and the lowest saturated probe: the
    /// saturation point lies between (the top is none if even the limit is unsaturated).
    pub bracket: (f64, Option<f64>),
    /// Every probe, in the order run, with its verdict.
    pub probes: Vec<Judged>,
}

/// Why no saturation point was found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SaturationError {
    #[error(
        "the zero-load probe (rate {rate}) is itself saturated ({}): the network saturates below 1% of its uniform-traffic capacity under this traffic",
        .verdict.name()
    )]
    ZeroLoadSaturated {
        rate: f64,
        /// The load the probe offered, above the saturation throughput.
        offered: f64,
        verdict: Verdict,
    },
    #[error("the zero-load probe (rate {0}) delivered no message: give more --cycles")]
    NothingDelivered(f64),
    #[error("{0} is not strongly connected: it has no uniform-traffic capacity")]
    NotConnected(String),
}

/// Searches by bisection between the zero-load rate and the limit, running each rate with
/// `run`. The bracket is halved geometrically while its ends are more than a factor 4
/// apart (saturation rates span orders of magnitude across topologies), then
/// arithmetically.
pub fn saturate(
    search: Search,
    mut run: impl FnMut(f64) -> Probe,
) -> Result<Saturation, SaturationError> {
    let zero = run(search.zero_load_rate);
    let zero_load = zero
        .latency
        .ok_or(SaturationError::NothingDelivered(zero.rate))?;
    let verdict = zero.verdict(zero_load);
    if verdict != Verdict::Stable {
        return Err(SaturationError::ZeroLoadSaturated {
            rate: zero.rate,
            offered: zero.offered,
            verdict,
        });
    }
    let mut probes = vec![Judged {
        probe: zero,
        verdict,
    }];
    let (mut low, mut high) = (zero, None::<Probe>);
    let mut next = search.limit;
    loop {
        let probe = run(next);
        let verdict = probe.verdict(zero_load);
        probes.push(Judged { probe, verdict });
        match verdict {
            Verdict::Stable => low = probe,
            _ => high = Some(probe),
        }
        let Some(top) = high else { break };
        if top.rate - low.rate <= search.precision * top.rate {
            break;
        }
        next = match top.rate > 4.0 * low.rate {
            true => (low.rate * top.rate).sqrt(),
            false => (low.rate + top.rate) / 2.0,
        };
    }
    Ok(Saturation {
        zero_load_latency: zero_load,
        throughput: low.accepted,
        bracket: (low.offered, high.map(|h| h.offered)),
        probes,
    })
}

/// The saturation of `params`'s network and traffic (its rate ignored), every point a
/// measured run of `params`'s window, to `precision`.
pub fn saturation_of(params: &NetParams, precision: f64) -> Result<Saturation, SaturationError> {
    let plan = params.plan.as_ref();
    let capacity = capacity(plan).ok_or_else(|| SaturationError::NotConnected(plan.name()))?;
    let bytes = params.traffic.mean_bytes();
    let zero_load_rate = ZERO_LOAD_FRACTION * capacity / bytes;
    let search = Search {
        zero_load_rate,
        // A source sends at most one word a cycle, so at most one message of `bytes`.
        limit: (1.0 / bytes).min(1.0),
        precision,
    };
    let nodes = plan.node_count() as f64;
    let zero_window = (ZERO_LOAD_MESSAGES / (zero_load_rate * nodes)).ceil() as u64;
    let probe = |rate: f64| {
        let window = match rate == zero_load_rate {
            true => params.cycles.max(zero_window),
            false => params.cycles,
        };
        probe(params, rate, window)
    };
    saturate(search, probe)
}

/// `params` measured over a window of `window` cycles, after its warm-up (the window's
/// length if it has none), with a drain limit of warm-up plus window.
pub fn measured(params: &NetParams, window: u64) -> NetParams {
    let mut params = params.clone();
    params.cycles = window;
    let warmup = params.measure.map_or(window, |m| m.warmup);
    params.measure = Some(Measure {
        warmup,
        drain_limit: warmup + window,
    });
    params
}

/// One measured run of `params` at `rate` with a window of `window` cycles.
fn probe(params: &NetParams, rate: f64, window: u64) -> Probe {
    let mut params = measured(params, window);
    params.traffic.rate = rate;
    let summary = Net::new(&params)
        .expect("the network was built once already")
        .run(|_| {});
    let load = summary.load.as_ref();
    Probe {
        rate,
        offered: load.map_or(0.0, |l| l.offered),
        accepted: load.map_or(0.0, |l| l.accepted),
        latency: summary.latency.as_ref().map(|l| l.network.mean),
        unstable: summary.measurement.as_ref().is_some_and(|m| m.unstable),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network that saturates at 0.3 messages per node per cycle, 10 bytes a message:
    /// below it, accepted equals offered at latency 20; above, it accepts 3 bytes.
    fn model(rate: f64) -> Probe {
        let offered = rate * 10.0;
        let saturated = rate > 0.3;
        Probe {
            rate,
            offered,
            accepted: if saturated { 3.0 } else { offered },
            latency: Some(20.0),
            unstable: false,
        }
    }

    #[test]
    fn bisection_brackets_the_saturation_rate() {
        let search = Search {
            zero_load_rate: 0.001,
            limit: 1.0,
            precision: 0.01,
        };
        let s = saturate(search, model).unwrap();
        assert_eq!(s.zero_load_latency, 20.0);
        // Offered loads up to 3 / 0.95 still accept 95% of it: the bracket holds that
        // edge, and the throughput is the 3 bytes accepted there.
        let (low, high) = (s.bracket.0, s.bracket.1.unwrap());
        assert!(low <= 3.0 / 0.95 && 3.0 / 0.95 < high, "{low}..{high}");
        assert!(high - low <= 0.01 * high, "{low}..{high}");
        assert_eq!(s.throughput, 3.0);
        // The zero-load probe, the limit, then halvings: geometric from 0.001..1 (ratio
        // 1000) until the ends are within 4x, then arithmetic.
        assert_eq!(s.probes[0].probe.rate, 0.001);
        assert_eq!(
            s.probes[1],
            Judged {
                probe: model(1.0),
                verdict: Verdict::AcceptedBelowOffered
            }
        );
        assert!((s.probes[2].probe.rate - 0.001f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn each_criterion_saturates_a_point() {
        let p = |accepted, latency, unstable| Probe {
            rate: 0.1,
            offered: 1.0,
            accepted,
            latency,
            unstable,
        };
        assert_eq!(p(1.0, Some(30.0), false).verdict(10.0), Verdict::Stable);
        assert_eq!(p(0.95, Some(30.0), false).verdict(10.0), Verdict::Stable);
        assert_eq!(
            p(0.949, Some(30.0), false).verdict(10.0),
            Verdict::AcceptedBelowOffered
        );
        assert_eq!(
            p(1.0, Some(30.1), false).verdict(10.0),
            Verdict::LatencyAboveBound
        );
        assert_eq!(p(1.0, None, true).verdict(10.0), Verdict::Unstable);
    }

    #[test]
    fn a_network_unsaturated_at_the_limit_has_no_top() {
        let search = Search {
            zero_load_rate: 0.001,
            limit: 0.2,
            precision: 0.01,
        };
        let s = saturate(search, model).unwrap();
        assert_eq!((s.bracket, s.probes.len()), ((2.0, None), 2));
        let busy = |rate| Probe {
            unstable: true,
            ..model(rate)
        };
        assert_eq!(
            saturate(search, busy).unwrap_err().to_string(),
            "the zero-load probe (rate 0.001) is itself saturated (unstable): the network saturates below 1% of its uniform-traffic capacity under this traffic"
        );
    }
}
