//! The grid of the deadlock sweep in docs/torus.md: which cubes, algorithms and fault sets
//! the channel dependency analysis is run on.
//!
//! In: the ring sizes k and dimension counts n, and the reading. Out: one [`Point`] per
//! algorithm that runs on the cube under that reading (west-first only on n = 2; under
//! `keep` only double e-cube and direction-first) and per fault set of [`fault_sets`], in
//! order (n, k, algorithm, fault set).

use crate::choice::Choice;
use crate::routing::torus::{Algorithm, Reading, Router};
use crate::topology::torus::{Dir, Faults, Link, Port, Torus, TorusError};
use thiserror::Error;

/// Why a grid cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SweepError {
    #[error("the deadlock sweep needs k >= 3 (its fault sets use the link 0...0:-0), got k = {0}")]
    Radix(u64),
    #[error(transparent)]
    Torus(#[from] TorusError),
}

/// One analysis of the sweep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Point {
    pub router: Router,
    pub faults: Faults,
}

/// The fixed fault sets: none; the link 0...0:+0; the links 0...0:+0 and 0...0:-0. They
/// are the first channels of the fault-free witness cycles (e-cube's starts at 0...0:+0,
/// direction-first's at 0...0:-0), so the faulty runs show whether removing a witness
/// removes every cycle. Faults can only remove dependencies: the candidates a router
/// may choose among never grow when a port is masked.
pub fn fault_sets(torus: &Torus) -> Vec<Faults> {
    let origin = torus.node_at(0);
    let link = |dir| Link {
        node: origin.clone(),
        port: Port { dim: 0, dir },
    };
    let mut one = Faults::new();
    one.insert_link(link(Dir::Plus));
    let mut two = one.clone();
    two.insert_link(link(Dir::Minus));
    vec![Faults::new(), one, two]
}

/// Every point of the grid over `ks` and `ns` under `reading` (k >= 3: the 2-ary cube has
/// no link `-0` at node 0).
pub fn points(ks: &[u64], ns: &[u64], reading: Reading) -> Result<Vec<Point>, SweepError> {
    let mut points = Vec::new();
    for &n in ns {
        for &k in ks {
            if k < 3 {
                return Err(SweepError::Radix(k));
            }
            let torus = Torus::new(k, n)?;
            for &algorithm in Algorithm::ALL {
                let Ok(router) = Router::with_reading(torus, algorithm, reading) else {
                    continue;
                };
                for faults in fault_sets(&torus) {
                    points.push(Point { router, faults });
                }
            }
        }
    }
    Ok(points)
}
