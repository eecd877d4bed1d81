//! The route table that stands in for the route generator in the router of every network
//! but Kautz (docs/topologies.md, "In the network model"): a ROM of every ordered pair's
//! routes, as the topology's plan gives them ([`TablePlan::routes`], the network model's
//! own), with the route generator's ports, so that the router drives either alike.
//!
//! In: a [`RouteTable`] (the routes of every pair) and the widths. Out: the module
//! `<router>_route_table`. `init` registers `dst` and starts at route 0; `next_route` moves
//! to the next. The ROM, a case on (src, dst, route index), is read one cycle later and its
//! word registered, so a route is shown B = [`TABLE_ROUTE_CYCLES`] cycles after `init` or
//! `next_route`, as the model takes it. A route index past the pair's last reads the
//! default, length 0: `done`. `error` says `dst` is not a node or is `src`.

use crate::bits::bits_for;
use crate::network::plan::{Plan, TABLE_ROUTE_CYCLES, TablePlan};
use crate::rtl::ir::{Expr, Module};
use thiserror::Error;

/// Most routes a table holds: each is a line of the ROM's case in the HDL.
pub const MAX_ENTRIES: usize = 1 << 16;

const _: () = assert!(TABLE_ROUTE_CYCLES == 2, "the ROM is read, then registered");

/// Why a network's route table is not built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableError {
    #[error(
        "the route table of {network} would hold {entries} routes; a generated router holds at most {MAX_ENTRIES}: generate a smaller network"
    )]
    TooLarge { network: String, entries: String },
}

/// Every ordered pair's routes, as route bytes (the output port at each switch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteTable {
    nodes: usize,
    /// At `src * nodes + dst`: the pair's routes in the order they are tried.
    routes: Vec<Vec<Vec<u8>>>,
}

impl RouteTable {
    /// The table of `plan`'s routes, if it is small enough to generate.
    pub fn of(plan: &TablePlan) -> Result<Self, TableError> {
        let nodes = plan.node_count();
        let too_large = |entries: String| TableError::TooLarge {
            network: plan.name(),
            entries,
        };
        // Every pair has a route: refuse at once a table that cannot fit.
        if nodes * (nodes - 1) > MAX_ENTRIES {
            return Err(too_large(format!("at least {}", nodes * (nodes - 1))));
        }
        let routes: Vec<Vec<Vec<u8>>> = (0..nodes * nodes)
            .map(|pair| match (pair / nodes, pair % nodes) {
                (s, t) if s == t => Vec::new(),
                (s, t) => plan.routes(s, t).into_iter().map(|r| r.bytes).collect(),
            })
            .collect();
        let table = RouteTable { nodes, routes };
        match table.entries() {
            entries if entries > MAX_ENTRIES => Err(too_large(entries.to_string())),
            _ => Ok(table),
        }
    }

    /// The routes of every pair, together.
    pub fn entries(&self) -> usize {
        self.routes.iter().map(Vec::len).sum()
    }

    /// R: the most routes a pair has.
    pub fn most_routes(&self) -> usize {
        self.routes.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// H: the most hops a route takes.
    pub fn longest(&self) -> usize {
        self.routes
            .iter()
            .flatten()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
    }

    /// Bits of `route_len`, enough for 0..=H.
    pub fn length_bits(&self) -> u32 {
        bits_for(self.longest() as u64 + 1)
    }

    /// Bits of one ROM word: L, then H ports of `w` bits each.
    pub fn word_bits(&self, w: u32) -> u32 {
        self.length_bits() + self.longest() as u32 * w
    }

    /// "72 routes of at most 5 hops, 13-bit words".
    pub fn describe(&self, w: u32) -> String {
        format!(
            "{} routes of at most {} hops, {}-bit words",
            self.entries(),
            self.longest(),
            self.word_bits(w)
        )
    }
}

/// The widths the table's ports share with the router.
#[derive(Debug, Clone, Copy)]
pub struct TableWidths {
    /// W: bits of a port number, and of a route's hop.
    pub w: u32,
    /// Bits of a node's address (`src`, `dst`).
    pub address: u32,
}

/// The route table as a module called `name`, its ports the route generator's.
pub fn module(table: &RouteTable, widths: TableWidths, name: &str) -> Module {
    let TableWidths { w, address: aw } = widths;
    let (lw, h) = (table.length_bits(), table.longest() as u32);
    let rw = h * w;
    let iw = bits_for(table.most_routes() as u64 + 1);
    let doc = format!(
        "Route table: {}, read B = {TABLE_ROUTE_CYCLES} cycles after init or next_route (docs/topologies.md).",
        table.describe(w)
    );
    let mut m = Module::new(
        name.to_string(),
        &[
            &doc,
            "Every ordered pair's routes, tried in order: the port of each hop, z1 most significant.",
        ],
    );
    m.clocked();
    let init = m.input(
        "init",
        1,
        "with the message's first byte: look up dst's routes",
    );
    let next_route = m.input("next_route", 1, "the route shown is taken: show the next");
    let src = m.input("src", aw, "this node's index");
    let dst = m.input("dst", aw, "the destination's index, with init");
    let route_valid = m.output("route_valid", 1, "a route is shown");
    let route = m.output("route", rw, "its hops' ports z1..zL, z1 most significant");
    let route_len = m.output("route_len", lw, "L, its hops");
    let done = m.output("done", 1, "no further route for the pair");
    let error = m.output("error", 1, "dst is not a node, or is this node");
    let dst_q = m.internal("dst_q", aw, "the destination, taken with init");
    m.register(
        dst_q,
        0,
        Expr::mux(init.into(), dst.into(), dst_q.into()),
        "Taken with the first byte.",
    );
    let index = m.internal("index", iw, "routes taken: the index of the route shown");
    m.register(
        index,
        0,
        Expr::mux(
            init.into(),
            Expr::zero(iw),
            Expr::mux(
                next_route.into(),
                Expr::from(index) + Expr::konst(iw, 1),
                index.into(),
            ),
        ),
        "0 with init, one up per route taken.",
    );
    let key = m.internal("key", 2 * aw + iw, "the ROM's address: src, dst, index");
    m.assign(
        key,
        Expr::concat(vec![src.into(), dst_q.into(), index.into()]),
        "The pair and the route's index.",
    );
    let entry = m.internal("entry", lw + rw, "the ROM's word at key: L, then the ports");
    m.case(
        entry,
        key,
        arms(table, w, aw, iw, lw),
        Expr::zero(lw + rw),
        "The route table: every pair's routes in the order they are tried; past the last, length 0.",
    );
    let word = m.internal("word", lw + rw, "the ROM's word, registered");
    m.register(word, 0, entry.into(), "Read one cycle after its address.");
    m.assign(
        route_len,
        Expr::Slice {
            signal: word,
            lo: rw,
            width: lw,
        },
        "L.",
    );
    m.assign(
        route,
        Expr::Slice {
            signal: word,
            lo: 0,
            width: rw,
        },
        "The ports.",
    );
    let n = table.nodes as u64;
    m.assign(
        error,
        !Expr::from(dst_q)
            .lt(Expr::konst(aw, n))
            .and(Expr::from(dst_q).ne(src.into())),
        "Not one of the nodes, or this node.",
    );
    m.assign(
        done,
        Expr::from(route_len).eq(Expr::zero(lw)),
        "Length 0: the pair has no route at this index.",
    );
    m.assign(
        route_valid,
        !Expr::from(error).or(done.into()),
        "A route of a valid pair.",
    );
    m
}

/// The ROM's lines: (src, dst, i) -> (L, ports), for every route of every pair.
fn arms(table: &RouteTable, w: u32, aw: u32, iw: u32, lw: u32) -> Vec<(Expr, Expr)> {
    let h = table.longest();
    let n = table.nodes;
    let mut arms = Vec::with_capacity(table.entries());
    for (pair, routes) in table.routes.iter().enumerate() {
        let (s, t) = ((pair / n) as u64, (pair % n) as u64);
        for (i, bytes) in routes.iter().enumerate() {
            let key = Expr::konst(2 * aw + iw, (s << aw | t) << iw | i as u64);
            let mut word = vec![Expr::konst(lw, bytes.len() as u64)];
            word.extend(bytes.iter().map(|&p| Expr::konst(w, u64::from(p))));
            word.extend((bytes.len()..h).map(|_| Expr::zero(w)));
            arms.push((key, Expr::concat(word)));
        }
    }
    arms
}
