//! The network with AXI4-Stream nodes (`--interface axis`) checked as the plain one is:
//! the same messages, their bytes offered on `s_axis` in the cycles the model's processor
//! hands them over, each node's `m_axis_tready` driven by the model's own readiness
//! ([`ready_at`]) and `m_axis_status_tready` held high. What comes out is read into the
//! plain check's account ([`Observed`]):
//! - `s_axis_tready` as `tx_ready`;
//! - a status beat as the verdict of the cycle before it (the beat is registered one cycle
//!   after the router's `res_valid`), attempts and status from its tdata;
//! - the bytes taken from `m_axis` (tvalid and tready) as arrivals, the source from tid,
//!   each message in the cycle its last byte was taken.
//!
//! The model's FIFO keeps counts only, so the cycles the bytes leave it are worked out
//! here from the cycles the model's routers handed them out and the sinks' readiness, by
//! the FIFO's rule (docs/network.md, "Receive backpressure"): a byte handed out in cycle w
//! can be taken from w+2 on, one a cycle, in order. Refusals show in the verdicts: a worm
//! the hardware refused where the model did not (or the reverse) changes its message's
//! attempts or cycles.

use super::{Arrival, Observed, Verdict};
use crate::network::message::Finished;
use crate::network::receive::ready_at;
use std::collections::{BTreeMap, VecDeque};

/// The outputs of each node the check reads.
pub(super) const OBSERVED: [&str; 8] = [
    "s_axis_tready",
    "m_axis_status_tvalid",
    "m_axis_status_tdata",
    "m_axis_tvalid",
    "m_axis_tdata",
    "m_axis_tlast",
    "m_axis_tid",
    "rx_error",
];

/// One word through a FIFO: the cycle the router handed it out, the cycle the sink took
/// it, and which word of which message it is.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    pub written: u64,
    pub taken: u64,
    pub id: u64,
    pub index: usize,
    pub last: bool,
    pub src: u32,
}

/// The sinks' readiness, every word through every node's FIFO, and by message id the
/// cycle each handed-out message's last word leaves its destination's FIFO.
#[derive(Debug)]
pub(super) struct Sinks {
    pub ready: f64,
    pub seed: u64,
    pub entries: Vec<Vec<Entry>>,
    pub taken: BTreeMap<u64, u64>,
}

impl Sinks {
    /// The sinks of the model's run of `seed` whose messages ended as `finished`.
    pub fn new(finished: &[Finished], nodes: usize, seed: u64, ready: f64) -> Self {
        let mut entries: Vec<Vec<Entry>> = vec![Vec::new(); nodes];
        for f in finished {
            let Some(arrive) = f.arrive else { continue };
            let (m, n) = (&f.message, u64::from(f.message.bytes));
            for j in 0..n {
                entries[m.dst as usize].push(Entry {
                    written: arrive - n + 1 + j,
                    taken: 0,
                    id: m.id,
                    index: j as usize,
                    last: j + 1 == n,
                    src: m.src,
                });
            }
        }
        let mut taken = BTreeMap::new();
        for (v, list) in entries.iter_mut().enumerate() {
            list.sort_unstable_by_key(|e| e.written);
            let mut next = 0;
            for entry in list.iter_mut() {
                let mut t = next.max(entry.written + 2);
                while !ready_at(seed, v, t, ready) {
                    t += 1;
                }
                next = t + 1;
                entry.taken = t;
                if entry.last {
                    taken.insert(entry.id, t);
                }
            }
        }
        Sinks {
            ready,
            seed,
            entries,
            taken,
        }
    }

    /// Whether node `v`'s sink takes a byte in cycle `t`.
    pub fn ready(&self, v: usize, t: u64) -> bool {
        ready_at(self.seed, v, t, self.ready)
    }

    /// The last cycle a byte leaves a FIFO.
    pub fn last(&self) -> u64 {
        self.taken.values().copied().max().unwrap_or(0)
    }
}

/// The outputs of `nodes` nodes read into the plain check's account: node v has `rows`
/// rows, row r recorded after clock edge r + 1 (the model's cycle r + 1), and
/// `value(v, r, name)` reads output `name` there; `address(tid)` is a node index's address.
pub(super) fn gather(
    nodes: usize,
    rows: usize,
    sinks: &Sinks,
    value: impl Fn(usize, usize, &str) -> Option<u64>,
    address: impl Fn(u64) -> u64,
) -> Observed {
    let mut seen = Observed {
        ready: vec![Vec::new(); nodes],
        verdicts: vec![VecDeque::new(); nodes],
        arrivals: vec![Vec::new(); nodes],
        errors: Vec::new(),
    };
    for v in 0..nodes {
        let mut receiving: Option<Arrival> = None;
        for r in 0..rows {
            let cycle = r as u64 + 1;
            let get = |name: &str| value(v, r, name).unwrap_or(u64::MAX);
            seen.ready[v].push(get("s_axis_tready") == 1);
            if get("m_axis_status_tvalid") == 1 {
                let data = get("m_axis_status_tdata");
                seen.verdicts[v].push_back(Verdict {
                    cycle: cycle - 1,
                    status: data & 3,
                    attempts: data >> 2,
                });
            }
            if get("rx_error") == 1 {
                seen.errors.push((v, cycle));
            }
            if get("m_axis_tvalid") == 1 && sinks.ready(v, cycle) {
                let entry = receiving.get_or_insert_with(|| Arrival {
                    cycle,
                    src: address(get("m_axis_tid")),
                    len: 0,
                    bytes: Vec::new(),
                });
                entry.bytes.push(get("m_axis_tdata"));
                entry.len += 1;
                if get("m_axis_tlast") == 1 {
                    let mut arrival = receiving.take().expect("filled above");
                    arrival.cycle = cycle;
                    seen.arrivals[v].push(arrival);
                }
            }
        }
    }
    seen.errors.sort_by_key(|&(v, cycle)| (cycle, v));
    seen
}
