//! An untimed model of the self-timed switches' clock handshake, and the breadth-first
//! exploration of every interleaving of its events.
//!
//! Every clock wire between switches is an independent delay element: it keeps the
//! transitions sent into it in order and delivers each one after any delay at all (a
//! transport delay of any length, so several may be in flight). With `local_forks`, so is
//! each wire from a node clock to its own switch's per-wire C elements. Gates (the C
//! elements, the node clock's inverter) switch at once: a gate's delay is the same as a
//! longer delay on every wire it drives, which the model already covers. A state is the
//! number of transitions each node clock has made (its phase), the transitions in flight
//! on every wire, and what each C element holds; from each state every wire that has a
//! transition in flight may deliver it next.
//!
//! Checked in every reachable state and at every step:
//! - liveness: some transition is in flight; a state with none is a deadlock, since every
//!   gate is then stable and nothing will ever move again;
//! - synchronous equivalence: when a switch's clock falls for the k-th time, which is when
//!   its capture registers take the links' words and NACKs, every wire into it has delivered
//!   its sender's k-th rise (so the words of the sender's cycle k, which arrive no later
//!   than the clock bundled with them, are there) and no neighbour has risen a (k+1)-th
//!   time (so they have not been replaced by the next cycle's). Then the k-th capture sees
//!   exactly the neighbours' outputs of cycle k, as with one common clock;
//! - boundedness: no wire holds more than [`MAX_IN_FLIGHT`] transitions and no two phases
//!   differ by more than [`MAX_SPREAD`], so the explored state space is finite.
//!
//! States are kept with their phases shifted down by an even number, so that a network
//! that runs forever has finitely many.

use super::Rendezvous;
use super::graph::ClockGraph;
use std::collections::{HashMap, VecDeque};

/// Transitions one wire may hold before the model calls the handshake unbounded.
pub const MAX_IN_FLIGHT: u8 = 4;

/// Largest difference of two switches' phases before the model calls it unbounded.
pub const MAX_SPREAD: i32 = 8;

/// What to explore: the switches of `graph`, clocked by `rendezvous`, with the node
/// clocks' wires to their own C elements delayed too when `local_forks`.
#[derive(Debug, Clone, Copy)]
pub struct Model<'g> {
    pub graph: &'g ClockGraph,
    pub rendezvous: Rendezvous,
    pub local_forks: bool,
    pub search: Search,
}

/// Which interleavings the search follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Search {
    /// From every state, every delivery that can come next.
    Every,
    /// From every state, the deliveries into one switch only: the lowest-numbered switch
    /// with a transition in flight towards it. Deliveries into different switches are
    /// independent: a delivery changes only its receiver's gates, and a clock that moves
    /// only adds transitions behind those already in flight on its wires, so it neither
    /// enables nor disables a delivery into another switch, nor changes what that one
    /// delivers, and the two orders reach the same state. Each delivery left out stays
    /// enabled until it is taken, and a cycle of states (phases shifted) delivers on every
    /// wire, so none is left out forever. This is a stubborn-set reduction (Valmari): it
    /// reaches every deadlock that [`Search::Every`] reaches, and since the checks at a
    /// clock edge read only the wires into its switch, which only deliveries into that
    /// switch change, every violation too. Deliveries into the same switch are all
    /// explored, in every order, so a lost transition (the level rendezvous) is found.
    PerSwitch,
}

/// What the exploration found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every reachable state has a transition in flight and every step keeps the
    /// synchronous equivalence.
    Live,
    /// A reachable state where nothing is in flight: `trace` reaches it from reset.
    Deadlock { trace: Vec<String>, state: String },
    /// A step that breaks the synchronous equivalence or the bounds.
    Violation { trace: Vec<String>, what: String },
    /// More than the states allowed: no verdict.
    TooLarge,
}

/// The exploration's verdict and its size.
#[derive(Debug, Clone)]
pub struct Exploration {
    pub states: usize,
    pub steps: usize,
    pub verdict: Verdict,
}

/// One state of the handshake, its phases as they are (not shifted).
#[derive(Debug, Clone)]
struct State {
    /// Transitions of each node clock since reset: the clock is high when odd.
    phase: Vec<i32>,
    /// Transitions in flight on each clock wire, then on each local fork (the node clock of
    /// the wire's receiver, to the wire's C element).
    in_flight: Vec<u8>,
    /// What each clock wire's C element holds (per-wire rendezvous only).
    held: Vec<bool>,
}

/// A step that went wrong, in words.
type Fault = String;

impl<'g> Model<'g> {
    fn wires(&self) -> usize {
        self.graph.wires().len()
    }

    /// The state at reset: every clock low, every C element holding 1 (so that the node
    /// clocks, their inverse, start low), nothing in flight; then every gate settles.
    fn reset(&self) -> Result<(State, Vec<String>), Fault> {
        let forks = if self.local_forks { self.wires() } else { 0 };
        let mut state = State {
            phase: vec![0; self.graph.switches()],
            in_flight: vec![0; self.wires() + forks],
            held: vec![true; self.wires()],
        };
        let mut events = Vec::new();
        for s in 0..self.graph.switches() {
            events.extend(self.settle(&mut state, s)?);
        }
        Ok((state, events))
    }

    /// The phase of wire `w`'s sender as the wire's far end shows it.
    fn view(&self, state: &State, w: usize) -> i32 {
        state.phase[self.graph.wires()[w].from] - i32::from(state.in_flight[w])
    }

    /// The level of the node clock of `s` as `w`'s C element sees it.
    fn own_level(&self, state: &State, s: usize, w: usize) -> bool {
        let fork = if self.local_forks {
            i32::from(state.in_flight[self.wires() + w])
        } else {
            0
        };
        (state.phase[s] - fork) & 1 == 1
    }

    /// Lets switch `s`'s gates settle after something reached it; returns what its clock
    /// did, in words.
    fn settle(&self, state: &mut State, s: usize) -> Result<Vec<String>, Fault> {
        let mut events = Vec::new();
        // A clock that moves changes the inputs of its own per-wire elements at once when
        // its forks are not delayed; a second move in a row would be a pulse of no width.
        for _ in 0..2 {
            let node_element = state.phase[s] & 1 == 0;
            let inputs: Vec<bool> = match self.rendezvous {
                Rendezvous::PerWire => self
                    .graph
                    .inputs(s)
                    .map(|w| {
                        let (own, seen) =
                            (self.own_level(state, s, w), self.view(state, w) & 1 == 1);
                        if own == seen {
                            state.held[w] = own;
                        }
                        state.held[w]
                    })
                    .collect(),
                Rendezvous::Level => self
                    .graph
                    .inputs(s)
                    .map(|w| self.view(state, w) & 1 == 1)
                    .collect(),
            };
            if inputs.contains(&node_element) {
                return Ok(events);
            }
            events.push(self.toggle(state, s)?);
        }
        Err(format!("switch {s}'s clock moved twice at once"))
    }

    /// Switch `s`'s clock moves: its wires carry the transition, and a fall is checked
    /// against its neighbours.
    fn toggle(&self, state: &mut State, s: usize) -> Result<String, Fault> {
        state.phase[s] += 1;
        let phase = state.phase[s];
        for w in self.graph.outputs(s) {
            state.in_flight[w] += 1;
        }
        if self.local_forks {
            for w in self.graph.inputs(s) {
                state.in_flight[self.wires() + w] += 1;
            }
        }
        if let Some(w) = (0..state.in_flight.len()).find(|&w| state.in_flight[w] > MAX_IN_FLIGHT) {
            return Err(format!(
                "{} holds more than {MAX_IN_FLIGHT} transitions",
                self.wire_name(w)
            ));
        }
        let spread = state.phase.iter().max().unwrap() - state.phase.iter().min().unwrap();
        if spread > MAX_SPREAD {
            return Err(format!("two switches' phases differ by {spread}"));
        }
        self.check_edge(state, s)?;
        Ok(format!("switch {s}'s clock {}", edge(phase)))
    }

    /// Switch `s`'s clock has just made its `p`-th transition: every wire into it must
    /// have brought its sender's (p-1)-th. For a fall (the k-th capture) that is every
    /// neighbour's k-th rise, so the words of the neighbour's cycle k are there; for a rise
    /// (the (k+1)-th launch) it is every neighbour's k-th fall, so no neighbour's k-th
    /// capture can see this switch's next words. Both are conditions on the wires into `s`
    /// alone, which only deliveries into `s` change: see [`Search::PerSwitch`].
    fn check_edge(&self, state: &State, s: usize) -> Result<(), Fault> {
        let phase = state.phase[s];
        for w in self.graph.inputs(s) {
            if self.view(state, w) < phase - 1 {
                let wire = &self.graph.wires()[w];
                return Err(format!(
                    "switch {s}'s clock {} before {} brought switch {}'s {}",
                    edge(phase),
                    wire.name,
                    wire.from,
                    edge(phase - 1)
                ));
            }
        }
        Ok(())
    }

    /// The switch that delivery `w` (a clock wire, or a local fork) arrives at.
    fn receiver(&self, w: usize) -> usize {
        let wires = self.graph.wires();
        wires.get(w).unwrap_or_else(|| &wires[w - wires.len()]).to
    }

    /// The deliveries the search follows from `state`.
    fn next_deliveries(&self, state: &State) -> Vec<usize> {
        let moving = (0..state.in_flight.len()).filter(|&w| state.in_flight[w] > 0);
        match self.search {
            Search::Every => moving.collect(),
            Search::PerSwitch => {
                let moving: Vec<usize> = moving.collect();
                let Some(first) = moving.iter().map(|&w| self.receiver(w)).min() else {
                    return moving;
                };
                moving
                    .into_iter()
                    .filter(|&w| self.receiver(w) == first)
                    .collect()
            }
        }
    }

    fn wire_name(&self, w: usize) -> String {
        match self.graph.wires().get(w) {
            Some(wire) => wire.name.clone(),
            None => {
                let wire = &self.graph.wires()[w - self.wires()];
                format!("switch {}'s clock to the element of {}", wire.to, wire.name)
            }
        }
    }

    /// Delivers the oldest transition on wire `w`; returns the step in words.
    fn deliver(&self, state: &mut State, w: usize) -> Result<String, Fault> {
        state.in_flight[w] -= 1;
        let (receiver, what) = match self.graph.wires().get(w) {
            Some(wire) => {
                let phase = self.view(state, w);
                (
                    wire.to,
                    format!(
                        "{} brings switch {}'s {}",
                        wire.name,
                        wire.from,
                        edge(phase)
                    ),
                )
            }
            None => {
                let wire = &self.graph.wires()[w - self.wires()];
                (
                    wire.to,
                    format!("{} reaches its element", self.wire_name(w)),
                )
            }
        };
        let events = self.settle(state, receiver)?;
        Ok(std::iter::once(what)
            .chain(events)
            .collect::<Vec<_>>()
            .join("; "))
    }

    /// The state as a key: phases shifted down by an even number, so that the lowest phase
    /// or view is 0 or 1.
    fn key(&self, state: &State) -> Box<[u8]> {
        let views = (0..self.wires()).map(|w| self.view(state, w));
        let lowest = state.phase.iter().copied().chain(views).min().unwrap_or(0);
        let shift = lowest - lowest.rem_euclid(2);
        let phases = state.phase.iter().map(|&p| (p - shift) as u8);
        let held = state.held.iter().map(|&h| u8::from(h));
        phases
            .chain(state.in_flight.iter().copied())
            .chain(held)
            .collect()
    }

    fn unkey(&self, key: &[u8]) -> State {
        let (phases, rest) = key.split_at(self.graph.switches());
        let (in_flight, held) = rest.split_at(rest.len() - self.wires());
        State {
            phase: phases.iter().map(|&p| i32::from(p)).collect(),
            in_flight: in_flight.to_vec(),
            held: held.iter().map(|&h| h == 1).collect(),
        }
    }

    /// Every switch's clock and what it sees, in words.
    fn describe(&self, state: &State) -> String {
        (0..self.graph.switches())
            .map(|s| {
                let seen: Vec<String> = self
                    .graph
                    .inputs(s)
                    .map(|w| {
                        format!(
                            "{}={}",
                            self.graph.wires()[w].name,
                            u8::from(self.view(state, w) & 1 == 1)
                        )
                    })
                    .collect();
                format!(
                    "switch {s} clock {} after {} transitions, sees {}",
                    if state.phase[s] & 1 == 1 {
                        "high"
                    } else {
                        "low"
                    },
                    state.phase[s],
                    seen.join(" ")
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The steps from reset along `wires`, in words, with the state reached.
    fn replay(&self, wires: &[usize]) -> (Vec<String>, State) {
        let (mut state, events) = self.reset().expect("reset was explored");
        let mut trace = vec![format!("reset: {}", events.join("; "))];
        for &w in wires {
            match self.deliver(&mut state, w) {
                Ok(step) => trace.push(step),
                Err(fault) => {
                    trace.push(fault);
                    break;
                }
            }
        }
        (trace, state)
    }

    /// Explores every state reachable from reset, breadth first, up to `max_states`.
    pub fn explore(&self, max_states: usize) -> Exploration {
        let mut exploration = Exploration {
            states: 0,
            steps: 0,
            verdict: Verdict::Live,
        };
        let (start, _) = match self.reset() {
            Ok(start) => start,
            Err(what) => {
                exploration.verdict = Verdict::Violation {
                    trace: vec![],
                    what,
                };
                return exploration;
            }
        };
        // Each state's id is its place in `parents`: where it came from, by which wire.
        let mut ids: HashMap<Box<[u8]>, u32> = HashMap::new();
        let mut parents: Vec<(u32, u32)> = vec![(u32::MAX, u32::MAX)];
        let first = self.key(&start);
        ids.insert(first.clone(), 0);
        let mut queue = VecDeque::from([(first, 0u32)]);
        let path = |mut id: u32, parents: &[(u32, u32)]| {
            let mut wires = Vec::new();
            while parents[id as usize].0 != u32::MAX {
                wires.push(parents[id as usize].1 as usize);
                id = parents[id as usize].0;
            }
            wires.reverse();
            wires
        };
        while let Some((key, id)) = queue.pop_front() {
            let state = self.unkey(&key);
            let moving = self.next_deliveries(&state);
            if moving.is_empty() {
                let (trace, end) = self.replay(&path(id, &parents));
                exploration.verdict = Verdict::Deadlock {
                    trace,
                    state: self.describe(&end),
                };
                break;
            }
            for w in moving {
                exploration.steps += 1;
                let mut next = state.clone();
                if let Err(what) = self.deliver(&mut next, w) {
                    let mut wires = path(id, &parents);
                    wires.push(w);
                    let (trace, _) = self.replay(&wires);
                    exploration.verdict = Verdict::Violation { trace, what };
                    exploration.states = ids.len();
                    return exploration;
                }
                let next_key = self.key(&next);
                if !ids.contains_key(&next_key) {
                    let next_id = parents.len() as u32;
                    parents.push((id, w as u32));
                    ids.insert(next_key.clone(), next_id);
                    queue.push_back((next_key, next_id));
                    if ids.len() > max_states {
                        exploration.states = ids.len();
                        exploration.verdict = Verdict::TooLarge;
                        return exploration;
                    }
                }
            }
        }
        exploration.states = ids.len();
        exploration
    }
}

/// "rise k" or "fall k" for the transition that takes a clock to `phase`.
fn edge(phase: i32) -> String {
    if phase & 1 == 1 {
        format!("rise {}", (phase + 1) / 2)
    } else {
        format!("fall {}", phase / 2)
    }
}
