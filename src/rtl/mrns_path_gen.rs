//! The node-disjoint path generator of Choi and Chung's MRNS paper (see docs/papers.md) for
//! any MRNS network: given A and B it emits the l = sum (m_i - 1) paths one per request,
//! each as its moves (dimension, new digit), in exactly the order of
//! [`crate::routing::mrns::DisjointPaths`].
//!
//! In: the radices (written most significant first, as `--radices 2,3,3,4`) and a top
//! name. Out: a [`Design`] of these blocks, each its own module:
//! - **check**: whether `src` and `dst` are distinct nodes, and which digits differ.
//! - **compact** (priority logic): C, the moves (i, b_i) of the differing dimensions i in
//!   increasing order, packed to the front of an n-slot list, its thermometer mask (k
//!   ones) and k.
//! - **append** (two instances): a list of up to n-1 moves with a move appended after its
//!   last one. Appending the first move to the rest is a rotation of the list.
//! - **rows**: the rotating register that holds the current row of the Hamiltonian-circuit
//!   Latin square (loaded with C = row 0, rotated left by one each time the cursor leaves
//!   a differing dimension), the unrotated C for excursions, the mask and k.
//! - **select**: `src` and `dst` captured at `init`, and the digits a_m and b_m of the
//!   cursor's dimension.
//! - **cursor**: where the generator stands: first every dimension m (a shortest path
//!   where A and B differ), then every (m, v) with v = 0 .. m_m - 1 (a side exit where v
//!   is neither a_m nor b_m), one candidate per clock.
//! - **assemble**: the path of the current candidate (shortest: the row; detour on m:
//!   (m, v) then the row rotated once more, which is the rest of the row starting with m
//!   followed by (m, b_m); excursion: (m, v), C, (m, a_m)) and its length; holds the path
//!   found on the outputs.
//! - **control**: the handshake state machine (search, wait for `next_path`, done).
//!
//! Walking the dimensions in increasing order visits the rows in the order of C, so the
//! shortest paths need no row counter, and after the walk the rows have turned k times,
//! back to row 0, ready for the side exits. Each candidate takes one clock whether it is a
//! path or not, so every route set takes exactly [`cycle_bound`] = 1 + n + sum m_i cycles
//! of work (waiting for `next_path` not counted). Ports and encodings: docs/mrns-path-gen.md.

use crate::bits::bits_for;
use crate::choice::choice;
use crate::rtl::const_arith::extend;
use crate::rtl::ir::{
    Clocking, Connections, ConstId, Design, Expr, Module, SignalId, Timing, port_struct, ports,
};
use crate::topology::mrns::{Mrns, MrnsError};
use std::collections::BTreeMap;
use thiserror::Error;

/// Default top module name.
pub const DEFAULT_TOP: &str = "mrns_path_gen";

/// Most dimensions a generator is built for: the compaction is n stages of n moves, and
/// at 256 per radix the path port (n+1 moves of up to 12 bits) stays at 204 bits.
pub const MAX_DIMENSIONS: usize = 16;

/// Why no generator is built for the radices given; each message fits on one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MrnsPathGenError {
    #[error(transparent)]
    Network(#[from] MrnsError),
    #[error(
        "{network} has {n} dimensions; the MRNS path generator is built for 1 to {MAX_DIMENSIONS}"
    )]
    TooManyDimensions { network: String, n: usize },
}

/// The network of a path generator and the name of its top module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MrnsPathGenParams {
    network: Mrns,
    top: String,
}

impl MrnsPathGenParams {
    /// The generator for the network with radices `radices`, most significant first
    /// (`[2, 3, 3, 4]` is Z2xZ3xZ3xZ4), its top named [`DEFAULT_TOP`].
    pub fn new(radices: &[u64]) -> Result<Self, MrnsPathGenError> {
        Self::for_network(Mrns::new(radices)?)
    }

    /// The generator for `network`, its top named [`DEFAULT_TOP`].
    pub fn for_network(network: Mrns) -> Result<Self, MrnsPathGenError> {
        if network.dimensions() > MAX_DIMENSIONS {
            return Err(MrnsPathGenError::TooManyDimensions {
                network: network.to_string(),
                n: network.dimensions(),
            });
        }
        Ok(MrnsPathGenParams {
            network,
            top: DEFAULT_TOP.to_string(),
        })
    }

    /// The same generator with its top module named `top`.
    pub fn with_top(mut self, top: &str) -> Self {
        self.top = top.to_string();
        self
    }

    pub fn network(&self) -> &Mrns {
        &self.network
    }

    pub fn top(&self) -> &str {
        &self.top
    }

    /// n, the number of dimensions.
    pub fn n(&self) -> usize {
        self.network.dimensions()
    }

    /// Bits of digit `dimension` in `src` and `dst`: ceil(log2 m_i), at least 1.
    pub fn digit_bits(&self, dimension: usize) -> u32 {
        bits_for(self.network.radix(dimension) as u64)
    }

    /// Bit position of the lowest bit of digit `dimension` in an address: the digits are
    /// packed most significant dimension first, so dimension 0 is the lowest.
    pub fn digit_lo(&self, dimension: usize) -> u32 {
        (0..dimension).map(|i| self.digit_bits(i)).sum()
    }

    /// Width of `src` and `dst`.
    pub fn address_bits(&self) -> u32 {
        self.digit_lo(self.n())
    }

    /// Bits of the dimension field of a move: enough for 0 .. n-1.
    pub fn dimension_bits(&self) -> u32 {
        bits_for(self.n() as u64)
    }

    /// Bits of the value field of a move: enough for every digit of every dimension.
    pub fn value_bits(&self) -> u32 {
        (0..self.n()).map(|i| self.digit_bits(i)).max().unwrap_or(1)
    }

    /// Bits of one move: dimension field, then value field.
    pub fn move_bits(&self) -> u32 {
        self.dimension_bits() + self.value_bits()
    }

    /// Move slots on `path`: n + 1, the longest path (an excursion, k + 2 with k <= n - 1,
    /// or a detour, k + 1 with k = n). Only Z2 never fills the second slot.
    pub fn path_moves(&self) -> usize {
        self.n() + 1
    }

    /// Width of `path`.
    pub fn path_bits(&self) -> u32 {
        self.path_moves() as u32 * self.move_bits()
    }

    /// Width of `path_len`: enough for 0 .. n+1.
    pub fn len_bits(&self) -> u32 {
        bits_for(self.path_moves() as u64 + 1)
    }

    /// See [`cycle_bound`].
    pub fn cycle_bound(&self) -> u64 {
        cycle_bound(&self.network)
    }
}

/// Cycles of work from `init` to `done` for every pair of distinct nodes, waiting for
/// `next_path` not counted: one to load, n for the shortest paths (one per dimension),
/// one per (dimension, digit value) for the side exits. Also the most cycles from `init`
/// or `next_path` to the next `path_valid` or `done`. For Z2xZ3xZ3xZ4: 1 + 4 + 12 = 17.
pub fn cycle_bound(network: &Mrns) -> u64 {
    let n = network.dimensions();
    1 + n as u64 + (0..n).map(|i| network.radix(i) as u64).sum::<u64>()
}

choice! {
    /// A deliberate fault, built in to show that verification catches a broken design.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Fault {
        RowsFrozenWhileShortest = "rows-frozen-while-shortest":
            "The rows turn only during the side exits: every shortest path is row 0",
        DestinationDigitNotSkipped = "destination-digit-not-skipped":
            "A side exit in a differing dimension may take b_m: one extra path per such \
            dimension, ending with the same move it started with",
    }
}

/// The whole path generator.
pub fn design(params: &MrnsPathGenParams) -> Design {
    design_with_fault(params, None)
}

/// The path generator, with `fault` built in if there is one.
pub fn design_with_fault(params: &MrnsPathGenParams, fault: Option<Fault>) -> Design {
    let check = check(params);
    let compact = compact(params);
    let append = (params.n() >= 2).then(|| append(params));
    let rows = rows(params, append.as_ref());
    let select = select(params);
    let cursor = cursor(params);
    let assemble = assemble(params, fault);
    let control = control(params);
    let top = top(
        params,
        Blocks {
            check: &check,
            compact: &compact,
            rows: &rows,
            select: &select,
            cursor: &cursor,
            assemble: &assemble,
            control: &control,
        },
        fault,
    );
    let mut modules = vec![check.0, compact.0];
    modules.extend(append.map(|(append, _)| append));
    modules.extend([rows.0, select.0, cursor.0, assemble.0, control.0, top]);
    let mut values = BTreeMap::from([("n".to_string(), params.n() as u64)]);
    for i in 0..params.n() {
        values.insert(format!("m{i}"), params.network.radix(i) as u64);
    }
    Design {
        modules,
        params: values,
        summary: format!(
            "path generator for the node-disjoint paths of the MRNS network {}",
            params.network
        ),
        timing: Timing::Synchronous,
    }
}

fn name(params: &MrnsPathGenParams, block: &str) -> String {
    format!("{}_{block}", params.top)
}

/// Slot `j` (0 = first, most significant) of a list of `slots` moves held in `list`.
fn slot(list: SignalId, j: usize, slots: usize, mw: u32) -> Expr {
    Expr::Slice {
        signal: list,
        lo: (slots - 1 - j) as u32 * mw,
        width: mw,
    }
}

/// Bit `j` of a mask whose first slot is its most significant bit.
fn mask_bit(mask: SignalId, j: usize, slots: usize) -> Expr {
    Expr::Slice {
        signal: mask,
        lo: (slots - 1 - j) as u32,
        width: 1,
    }
}

/// `piece` (`piece_bits` wide) in front of the first `all - piece_bits` bits of `list`
/// (the empty list if there is none): the list shifted one place back, `all` bits wide.
fn prepend(piece: Expr, list: Option<SignalId>, piece_bits: u32, all: u32) -> Expr {
    if all == piece_bits {
        return piece;
    }
    let rest = match list {
        Some(signal) => Expr::Slice {
            signal,
            lo: piece_bits,
            width: all - piece_bits,
        },
        None => Expr::zero(all - piece_bits),
    };
    Expr::concat(vec![piece, rest])
}

/// Digit `dimension` of address `address`.
fn digit(params: &MrnsPathGenParams, address: SignalId, dimension: usize) -> Expr {
    Expr::Slice {
        signal: address,
        lo: params.digit_lo(dimension),
        width: params.digit_bits(dimension),
    }
}

/// `value(i)` for the dimension i that `m` names; zero for no dimension. An AND-OR over
/// the dimensions, so it reads every bit of every value.
fn by_dimension(
    params: &MrnsPathGenParams,
    m: SignalId,
    width: u32,
    value: impl Fn(usize) -> Expr,
) -> Expr {
    let dw = params.dimension_bits();
    Expr::or_all((0..params.n()).map(|i| {
        Expr::mux(
            Expr::from(m).eq(Expr::konst(dw, i as u64)),
            value(i),
            Expr::zero(width),
        )
    }))
}

port_struct!(
    struct CheckPorts { src, dst, valid, differ }
);

fn check(params: &MrnsPathGenParams) -> (Module, CheckPorts) {
    let n = params.n();
    let aw = params.address_bits();
    let mut m = Module::new(
        name(params, "check"),
        &[
            "input check: whether src and dst are distinct nodes (every digit below its radix),",
            "and which of their digits differ.",
        ],
    );
    let src = m.input(
        "src",
        aw,
        "source address, most significant dimension first",
    );
    let dst = m.input("dst", aw, "destination address, same layout");
    let valid = m.output("valid", 1, "both are nodes and they differ");
    let differ = m.output("differ", n as u32, "bit i: digit i differs");
    m.assign(
        differ,
        Expr::concat(
            (0..n)
                .rev()
                .map(|i| digit(params, src, i).ne(digit(params, dst, i)))
                .collect(),
        ),
        "One comparator per dimension.",
    );
    // A digit field that holds only digits of its radix (a power of two) needs no check.
    let in_range = (0..n)
        .filter(|&i| !params.network.radix(i).is_power_of_two())
        .flat_map(|i| {
            let radix = Expr::konst(params.digit_bits(i), params.network.radix(i) as u64);
            [
                digit(params, src, i).lt(radix.clone()),
                digit(params, dst, i).lt(radix),
            ]
        });
    m.assign(
        valid,
        Expr::and_all(in_range).and(Expr::from(differ).any()),
        "Digits in range, and at least one differs.",
    );
    let ports = ports!(
        m,
        CheckPorts {
            src,
            dst,
            valid,
            differ
        }
    );
    (m, ports)
}

port_struct!(
    struct CompactPorts { dst, differ, row, mask: ?, count }
);

fn compact(params: &MrnsPathGenParams) -> (Module, CompactPorts) {
    let n = params.n();
    let (dw, vw, mw, lw) = (
        params.dimension_bits(),
        params.value_bits(),
        params.move_bits(),
        params.len_bits(),
    );
    let list_bits = n as u32 * mw;
    let mut m = Module::new(
        name(params, "compact"),
        &[
            "compaction (priority logic): the moves (i, b_i) of the differing dimensions i, in",
            "increasing order of i, packed into the first k slots of an n-slot list: the list C,",
            "row 0 of the Latin square. Also its mask (k ones from the first slot) and k.",
        ],
    );
    let dst = m.input("dst", params.address_bits(), "destination address");
    let differ = m.input("differ", n as u32, "bit i: digit i differs");
    let row = m.output(
        "row",
        list_bits,
        "C, first move most significant, unused slots zero",
    );
    let mask = (n >= 2).then(|| m.output("mask", n as u32, "slot j of C holds a move: j < k"));
    let count = m.output("count", lw, "k, the number of differing dimensions");
    // Stage i packs dimensions i .. n-1: dimension i's move goes in front of what the
    // stages above packed, if digit i differs. Stage n is the empty list.
    let mut later: Option<(SignalId, Option<SignalId>)> = None;
    for i in (0..n).rev() {
        let differs = Expr::Slice {
            signal: differ,
            lo: i as u32,
            width: 1,
        };
        let step = Expr::concat(vec![
            Expr::konst(dw, i as u64),
            extend(digit(params, dst, i), params.digit_bits(i), vw),
        ]);
        let list = m.internal(
            &format!("list_{i}"),
            list_bits,
            &format!("dimensions {i} .. n-1 packed"),
        );
        m.assign(
            list,
            Expr::mux(
                differs.clone(),
                prepend(step, later.map(|(l, _)| l), mw, list_bits),
                later.map_or(Expr::zero(list_bits), |(l, _)| l.into()),
            ),
            &format!("Stage {i}: dimension {i} in front if it differs."),
        );
        let bits = (n >= 2).then(|| {
            let bits = m.internal(
                &format!("mask_{i}"),
                n as u32,
                &format!("mask of dimensions {i} .. n-1 packed"),
            );
            let later_mask = later.and_then(|(_, mask)| mask);
            m.assign(
                bits,
                Expr::mux(
                    differs,
                    prepend(Expr::bit(true), later_mask, 1, n as u32),
                    later_mask.map_or(Expr::zero(n as u32), Expr::from),
                ),
                "",
            );
            bits
        });
        later = Some((list, bits));
    }
    let (list, bits) = later.expect("at least one dimension");
    m.assign(row, list.into(), "All dimensions packed.");
    if let (Some(mask), Some(bits)) = (mask, bits) {
        m.assign(mask, bits.into(), "");
    }
    let k = (0..n).fold(Expr::zero(lw), |sum, i| {
        sum + extend(
            Expr::Slice {
                signal: differ,
                lo: i as u32,
                width: 1,
            },
            1,
            lw,
        )
    });
    m.assign(count, k, "k: one per differing digit.");
    let ports = ports!(m, CompactPorts { dst, differ, row, mask: ?, count });
    (m, ports)
}

port_struct!(
    struct AppendPorts { list, valid, tail, out }
);

fn append(params: &MrnsPathGenParams) -> (Module, AppendPorts) {
    let n = params.n();
    let mw = params.move_bits();
    let slots = n - 1;
    let mut m = Module::new(
        name(params, "append"),
        &[
            "a list of up to n-1 moves with one more move after its last: the list's own first move",
            "makes this a rotation; the back move of an excursion makes C an excursion's middle.",
        ],
    );
    let list = m.input(
        "list",
        slots as u32 * mw,
        "moves, first most significant, packed to the front",
    );
    let valid = m.input(
        "valid",
        slots as u32,
        "slot j holds a move (first slot MSB)",
    );
    let tail = m.input("tail", mw, "the move to append");
    let out = m.output(
        "out",
        n as u32 * mw,
        "list then tail, first most significant, unused slots zero",
    );
    let parts = (0..=slots)
        .map(|j| {
            // The tail goes in the first slot that holds no move.
            let after_last = if j == 0 {
                Expr::bit(true)
            } else {
                mask_bit(valid, j - 1, slots)
            };
            let tail_here = Expr::mux(after_last, tail.into(), Expr::zero(mw));
            if j < slots {
                Expr::mux(
                    mask_bit(valid, j, slots),
                    slot(list, j, slots, mw),
                    tail_here,
                )
            } else {
                tail_here
            }
        })
        .collect();
    m.assign(out, Expr::concat(parts), "One multiplexer per slot.");
    let ports = ports!(
        m,
        AppendPorts {
            list,
            valid,
            tail,
            out
        }
    );
    (m, ports)
}

port_struct!(
    struct RowsPorts { clk, rst, load, rotate, row_in, mask_in: ?, count_in, back: ?, row, row_next, excursion: ?, k }
);

fn rows(params: &MrnsPathGenParams, append: Option<&(Module, AppendPorts)>) -> (Module, RowsPorts) {
    let n = params.n();
    let (mw, lw) = (params.move_bits(), params.len_bits());
    let list_bits = n as u32 * mw;
    let mut m = Module::new(
        name(params, "rows"),
        &[
            "the rows of the Hamiltonian-circuit Latin square: a rotating register loaded with C",
            "(row 0) and turned left by one move per rotate, so that row r is C rotated by r; beside",
            "it the unrotated C for excursions, the mask of C and k.",
        ],
    );
    let clocking = m.clocked();
    let load = m.input("load", 1, "load a new C (init)");
    let rotate = m.input("rotate", 1, "turn the row left by one move");
    let row_in = m.input("row_in", list_bits, "C from the compaction");
    let mask_in = (n >= 2).then(|| m.input("mask_in", n as u32, "mask of C"));
    let count_in = m.input("count_in", lw, "k");
    let back = (n >= 2).then(|| {
        m.input(
            "back",
            mw,
            "the last move of an excursion on the cursor's dimension",
        )
    });
    let row = m.output(
        "row",
        list_bits,
        "the current row, first move most significant",
    );
    let row_next = m.output("row_next", list_bits, "the row turned once more");
    let excursion = (n >= 2).then(|| {
        m.output(
            "excursion",
            list_bits,
            "C followed by the back move: an excursion after its first move",
        )
    });
    let k = m.output("k", lw, "number of differing dimensions");
    m.register(
        row,
        0,
        Expr::mux(
            load.into(),
            row_in.into(),
            Expr::mux(rotate.into(), row_next.into(), row.into()),
        ),
        "The rotating register.",
    );
    m.register(
        k,
        0,
        Expr::mux(load.into(), count_in.into(), k.into()),
        "k stays from init to init.",
    );
    match (append, mask_in, back, excursion) {
        (Some(append), Some(mask_in), Some(back), Some(excursion)) => {
            let (mask, c) = hold_c(&mut m, params, load, row_in, mask_in);
            rotation(&mut m, params, append, row, mask, row_next);
            excursion_after_c(&mut m, params, append, c, mask, back, excursion);
        }
        _ => m.assign(
            row_next,
            row.into(),
            "One dimension: a row of one move is its own rotation.",
        ),
    }
    let ports = ports!(m, RowsPorts { clk = clocking.clock, rst = clocking.reset, load, rotate, row_in, mask_in: ?, count_in, back: ?, row, row_next, excursion: ?, k });
    (m, ports)
}

/// The mask of C and C without its last slot, held from init to init for the excursions.
fn hold_c(
    m: &mut Module,
    params: &MrnsPathGenParams,
    load: SignalId,
    row_in: SignalId,
    mask_in: SignalId,
) -> (SignalId, SignalId) {
    let (n, mw) = (params.n(), params.move_bits());
    let rest = (n - 1) as u32;
    let mask = m.internal("mask", n as u32, "slot j of C holds a move");
    let c = m.internal(
        "c",
        rest * mw,
        "C without its last slot, which only k = n fills, when there is no excursion",
    );
    m.register(
        mask,
        0,
        Expr::mux(load.into(), mask_in.into(), mask.into()),
        "",
    );
    m.register(
        c,
        0,
        Expr::mux(
            load.into(),
            Expr::Slice {
                signal: row_in,
                lo: mw,
                width: rest * mw,
            },
            c.into(),
        ),
        "",
    );
    (mask, c)
}

/// `row_next`: the row with its first move appended after its last.
fn rotation(
    m: &mut Module,
    params: &MrnsPathGenParams,
    (append, p): &(Module, AppendPorts),
    row: SignalId,
    mask: SignalId,
    row_next: SignalId,
) {
    let (n, mw) = (params.n(), params.move_bits());
    let rest = (n - 1) as u32;
    let rotate = Connections::of(append)
        .bind(
            &p.list,
            Expr::Slice {
                signal: row,
                lo: 0,
                width: rest * mw,
            },
        )
        .bind(
            &p.valid,
            Expr::Slice {
                signal: mask,
                lo: 0,
                width: rest,
            },
        )
        .bind(&p.tail, slot(row, 0, n, mw))
        .bind(&p.out, row_next);
    m.instance(
        "u_rotate",
        rotate,
        "Rotation: the first move goes after the last; the row keeps k moves.",
    );
}

/// `excursion`: C with the `back` move appended after its last.
fn excursion_after_c(
    m: &mut Module,
    params: &MrnsPathGenParams,
    (append, p): &(Module, AppendPorts),
    c: SignalId,
    mask: SignalId,
    back: SignalId,
    excursion: SignalId,
) {
    let rest = (params.n() - 1) as u32;
    let connections = Connections::of(append)
        .bind(&p.list, c)
        .bind(
            &p.valid,
            Expr::Slice {
                signal: mask,
                lo: 1,
                width: rest,
            },
        )
        .bind(&p.tail, back)
        .bind(&p.out, excursion);
    m.instance(
        "u_excursion",
        connections,
        "Excursion: C, then back to the source's digit.",
    );
}

port_struct!(
    struct SelectPorts { clk, rst, load, src, dst, m, a, b, differ }
);

fn select(params: &MrnsPathGenParams) -> (Module, SelectPorts) {
    let (aw, dw, vw) = (
        params.address_bits(),
        params.dimension_bits(),
        params.value_bits(),
    );
    let mut m = Module::new(
        name(params, "select"),
        &[
            "the operands: src and dst captured at init, and the digits a_m and b_m of the cursor's",
            "dimension m.",
        ],
    );
    let clocking = m.clocked();
    let load = m.input("load", 1, "capture src and dst (init)");
    let src = m.input("src", aw, "source address");
    let dst = m.input("dst", aw, "destination address");
    let dim = m.input("m", dw, "the cursor's dimension");
    let a = m.output("a", vw, "a_m, the source's digit m");
    let b = m.output("b", vw, "b_m, the destination's digit m");
    let differ = m.output("differ", 1, "a_m differs from b_m");
    let src_q = m.internal("src_q", aw, "source captured at init");
    let dst_q = m.internal("dst_q", aw, "destination captured at init");
    for (q, input) in [(src_q, src), (dst_q, dst)] {
        m.register(
            q,
            0,
            Expr::mux(load.into(), input.into(), q.into()),
            "Held from init to init.",
        );
    }
    for (out, q) in [(a, src_q), (b, dst_q)] {
        let picked = by_dimension(params, dim, vw, |i| {
            extend(digit(params, q, i), params.digit_bits(i), vw)
        });
        m.assign(out, picked, "Digit m, widened to a move's value field.");
    }
    m.assign(differ, Expr::from(a).ne(b.into()), "");
    let ports = ports!(m, SelectPorts { clk = clocking.clock, rst = clocking.reset, load, src, dst, m = dim, a, b, differ });
    (m, ports)
}

port_struct!(
    struct CursorPorts { clk, rst, start, advance, m, v, side, last, leave, exhausted }
);

fn cursor(params: &MrnsPathGenParams) -> (Module, CursorPorts) {
    let n = params.n();
    let (dw, vw) = (params.dimension_bits(), params.value_bits());
    let mut m = Module::new(
        name(params, "cursor"),
        &[
            "the cursor: the candidate path the generator looks at. First the dimensions m = 0 .. n-1",
            "(shortest paths), then the side exits (m, v) for m = 0 .. n-1 and v = 0 .. m_m - 1; one",
            "candidate per advance.",
        ],
    );
    let clocking = m.clocked();
    let start = m.input("start", 1, "go to the first candidate (init)");
    let advance = m.input("advance", 1, "go to the next candidate");
    let dim = m.output("m", dw, "dimension of the candidate");
    let v = m.output("v", vw, "digit value of a side exit");
    let side = m.output("side", 1, "walking the side exits");
    let last = m.output("last", 1, "the candidate is the very last");
    let leave = m.output(
        "leave",
        1,
        "this advance leaves dimension m for the next one",
    );
    let exhausted = m.output("exhausted", 1, "advanced past the last candidate");
    let value_last = m.internal("value_last", 1, "no further candidate in dimension m");
    let dim_last = m.internal("dim_last", 1, "m is the highest dimension");
    let top_value = by_dimension(params, dim, vw, |i| {
        Expr::konst(vw, params.network.radix(i) as u64 - 1)
    });
    m.assign(
        value_last,
        (!Expr::from(side)).or(Expr::from(v).eq(top_value)),
        "A dimension holds one shortest candidate, and m_m side exits.",
    );
    m.assign(
        dim_last,
        Expr::from(dim).eq(Expr::konst(dw, n as u64 - 1)),
        "",
    );
    m.assign(
        leave,
        Expr::from(advance).and(value_last.into()),
        "Leaving a dimension.",
    );
    m.assign(
        last,
        Expr::from(side).and(value_last.into()).and(dim_last.into()),
        "",
    );
    m.register(
        v,
        0,
        Expr::mux(
            Expr::from(start).or(leave.into()),
            Expr::zero(vw),
            Expr::mux(advance.into(), Expr::from(v) + Expr::konst(vw, 1), v.into()),
        ),
        "Digit counter.",
    );
    m.register(
        dim,
        0,
        Expr::mux(
            Expr::from(start).or(Expr::from(leave).and(dim_last.into())),
            Expr::zero(dw),
            Expr::mux(
                leave.into(),
                Expr::from(dim) + Expr::konst(dw, 1),
                dim.into(),
            ),
        ),
        "Dimension counter; it wraps from the shortest walk to the side exits.",
    );
    m.register(
        side,
        0,
        Expr::mux(
            start.into(),
            Expr::bit(false),
            Expr::from(side).or(Expr::from(leave).and(dim_last.into())),
        ),
        "",
    );
    m.register(
        exhausted,
        0,
        Expr::mux(
            start.into(),
            Expr::bit(false),
            Expr::from(exhausted).or(Expr::from(advance).and(last.into())),
        ),
        "",
    );
    let ports = ports!(m, CursorPorts { clk = clocking.clock, rst = clocking.reset, start, advance, m = dim, v, side, last, leave, exhausted });
    (m, ports)
}

port_struct!(
    struct AssemblePorts { clk, rst, capture, side, m, v, a, b, differ, row, row_next, excursion: ?, k, candidate, path, path_len }
);

fn assemble(params: &MrnsPathGenParams, fault: Option<Fault>) -> (Module, AssemblePorts) {
    let n = params.n();
    let (dw, vw, mw, lw) = (
        params.dimension_bits(),
        params.value_bits(),
        params.move_bits(),
        params.len_bits(),
    );
    let list_bits = n as u32 * mw;
    let mut m = Module::new(
        name(params, "assemble"),
        &[
            "the candidate's path and length, and whether it is a path at all; the path found is",
            "held on the outputs. Shortest: the row. Detour on m: (m, v), then the row turned once",
            "more (the rest of the row starting with m, then (m, b_m)). Excursion: (m, v), C, (m, a_m).",
        ],
    );
    let clocking = m.clocked();
    let capture = m.input("capture", 1, "a path is found: hold it");
    let side = m.input("side", 1, "the candidate is a side exit");
    let dim = m.input("m", dw, "the candidate's dimension");
    let v = m.input("v", vw, "the side exit's digit value");
    let a = m.input("a", vw, "a_m");
    let b = m.input("b", vw, "b_m");
    let differ = m.input("differ", 1, "a_m differs from b_m");
    let row = m.input("row", list_bits, "the current row");
    let row_next = m.input("row_next", list_bits, "the row turned once more");
    let excursion = (n >= 2).then(|| m.input("excursion", list_bits, "C, then (m, a_m)"));
    let k = m.input("k", lw, "number of differing dimensions");
    let candidate = m.output("candidate", 1, "the candidate is a path");
    let path = m.output("path", params.path_bits(), "the path found");
    let path_len = m.output("path_len", lw, "its number of moves");
    let now = m.internal("now", params.path_bits(), "the candidate's path");
    let now_len = m.internal("now_len", lw, "the candidate's length");
    let not_b = match fault {
        Some(Fault::DestinationDigitNotSkipped) => Expr::from(v).ne(b.into()).or(differ.into()),
        _ => Expr::from(v).ne(b.into()),
    };
    m.assign(
        candidate,
        Expr::mux(
            side.into(),
            Expr::from(v).ne(a.into()).and(not_b),
            differ.into(),
        ),
        "A shortest path where the digits differ; a side exit to a digit neither a_m nor b_m.",
    );
    let side_body = match excursion {
        Some(excursion) => Expr::mux(differ.into(), row_next.into(), excursion.into()),
        None => row_next.into(),
    };
    m.assign(
        now,
        Expr::mux(
            side.into(),
            Expr::concat(vec![dim.into(), v.into(), side_body]),
            Expr::concat(vec![row.into(), Expr::zero(mw)]),
        ),
        "",
    );
    m.assign(
        now_len,
        Expr::mux(
            side.into(),
            Expr::from(k) + Expr::mux(differ.into(), Expr::konst(lw, 1), Expr::konst(lw, 2)),
            k.into(),
        ),
        "k, k+1 for a detour, k+2 for an excursion.",
    );
    m.register(
        path,
        0,
        Expr::mux(capture.into(), now.into(), path.into()),
        "Registered outputs, held until the next path.",
    );
    m.register(
        path_len,
        0,
        Expr::mux(capture.into(), now_len.into(), path_len.into()),
        "",
    );
    let ports = ports!(m, AssemblePorts { clk = clocking.clock, rst = clocking.reset, capture, side, m = dim, v, a, b, differ, row, row_next, excursion: ?, k, candidate, path, path_len });
    (m, ports)
}

/// The control's states, in encoding order.
const STATES: [(&str, &str); 4] = [
    ("S_IDLE", "after reset: nothing to do"),
    ("S_SEARCH", "looking at one candidate per clock"),
    ("S_WAIT", "a path is on the outputs until next_path"),
    ("S_DONE", "no further path (or invalid input)"),
];

port_struct!(
    struct ControlPorts { clk, rst, init, next_path, valid, candidate, last, exhausted, load, advance, found, path_valid, done, error }
);

fn control(params: &MrnsPathGenParams) -> (Module, ControlPorts) {
    let mut m = Module::new(
        name(params, "control"),
        &[
            "control: the handshake. init loads and searches (from any state); each path found waits",
            "for next_path; done after the last candidate, with error if the input was invalid.",
        ],
    );
    let clocking = m.clocked();
    let init = m.input("init", 1, "capture src and dst and start");
    let next_path = m.input("next_path", 1, "take the path shown and go on");
    let valid = m.input("valid", 1, "src and dst are distinct nodes");
    let candidate = m.input("candidate", 1, "the cursor's candidate is a path");
    let last = m.input("last", 1, "the cursor is at the last candidate");
    let exhausted = m.input("exhausted", 1, "the cursor is past the last candidate");
    let load = m.output("load", 1, "load the datapath");
    let advance = m.output("advance", 1, "move the cursor on");
    let found = m.output("found", 1, "capture the candidate's path");
    let path_valid = m.output("path_valid", 1, "a path is on the outputs");
    let done = m.output("done", 1, "no further path");
    let error = m.output("error", 1, "the last init had invalid input");
    let states = m.states(2, &STATES);
    let [idle, search, wait, done_s] = states[..] else {
        unreachable!("four states")
    };
    let state = m.internal("state", 2, "current state");
    let state_next = m.internal("state_next", 2, "state after this clock, unless init");
    let next_state = m.internal("next_state", 2, "state after this clock");
    let searching = m.internal("searching", 1, "a candidate is looked at this clock");
    m.assign(
        searching,
        Expr::from(state).eq(search.into()).and(!Expr::from(init)),
        "",
    );
    m.assign(load, init.into(), "init loads everything at once.");
    m.assign(
        advance,
        searching.into(),
        "Every candidate looked at is passed.",
    );
    m.assign(found, Expr::from(searching).and(candidate.into()), "");
    m.case(
        state_next,
        state,
        vec![
            (
                search.into(),
                Expr::mux(
                    candidate.into(),
                    wait.into(),
                    Expr::mux(last.into(), done_s.into(), search.into()),
                ),
            ),
            (
                wait.into(),
                Expr::mux(
                    next_path.into(),
                    Expr::mux(exhausted.into(), done_s.into(), search.into()),
                    wait.into(),
                ),
            ),
            (done_s.into(), done_s.into()),
        ],
        idle.into(),
        "Transitions when init is low.",
    );
    m.assign(
        next_state,
        Expr::mux(
            init.into(),
            Expr::mux(valid.into(), search.into(), done_s.into()),
            state_next.into(),
        ),
        "init restarts from any state.",
    );
    m.register(state, 0, next_state.into(), "The state register.");
    let next_is = |s: ConstId| Expr::from(next_state).eq(s.into());
    m.register(
        path_valid,
        0,
        next_is(wait),
        "Registered outputs: a path is held in S_WAIT.",
    );
    m.register(done, 0, next_is(done_s), "");
    m.register(
        error,
        0,
        Expr::mux(init.into(), !Expr::from(valid), error.into()),
        "Whether the last init had invalid input.",
    );
    let ports = ports!(m, ControlPorts { clk = clocking.clock, rst = clocking.reset, init, next_path, valid, candidate, last, exhausted, load, advance, found, path_valid, done, error });
    (m, ports)
}

/// The blocks the top module instantiates, with their ports.
struct Blocks<'a> {
    check: &'a (Module, CheckPorts),
    compact: &'a (Module, CompactPorts),
    rows: &'a (Module, RowsPorts),
    select: &'a (Module, SelectPorts),
    cursor: &'a (Module, CursorPorts),
    assemble: &'a (Module, AssemblePorts),
    control: &'a (Module, ControlPorts),
}

fn top(params: &MrnsPathGenParams, blocks: Blocks, fault: Option<Fault>) -> Module {
    let l = params.network.degree();
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!(
                "node-disjoint path generator for the MRNS network {} (Choi and Chung's MRNS paper):",
                params.network
            ),
            &format!(
                "after init, gives the {l} paths from src to dst one at a time, shortest first;"
            ),
            "next_path takes the one shown.",
            &format!(
                "Every route set takes {} cycles of work; ports and encodings: docs/mrns-path-gen.md.",
                params.cycle_bound()
            ),
        ],
    );
    let io = TopPorts::declare(&mut m, params);
    let wires = Wires::declare(&mut m, params);
    check_and_compact(&mut m, &io, &wires, blocks.check, blocks.compact);
    cursor_instance(&mut m, &io, &wires, blocks.cursor);
    select_instance(&mut m, &io, &wires, blocks.select);
    rows_instance(&mut m, params, &io, &wires, blocks.rows, fault);
    assemble_instance(&mut m, &io, &wires, blocks.assemble);
    control_instance(&mut m, &io, &wires, blocks.control);
    m
}

/// The top's ports.
struct TopPorts {
    clocking: Clocking,
    init: SignalId,
    next_path: SignalId,
    src: SignalId,
    dst: SignalId,
    path_valid: SignalId,
    path: SignalId,
    path_len: SignalId,
    done: SignalId,
    error: SignalId,
}

impl TopPorts {
    fn declare(m: &mut Module, params: &MrnsPathGenParams) -> Self {
        let aw = params.address_bits();
        TopPorts {
            clocking: m.clocked(),
            init: m.input("init", 1, "capture src and dst and start a new search"),
            next_path: m.input("next_path", 1, "take the path shown and search on"),
            src: m.input(
                "src",
                aw,
                "source node, most significant digit first, ceil(log2 m_i) bits each",
            ),
            dst: m.input("dst", aw, "destination node, same layout"),
            path_valid: m.output("path_valid", 1, "path and path_len hold a path"),
            path: m.output(
                "path",
                params.path_bits(),
                "moves (dimension, value), first most significant, unused moves zero",
            ),
            path_len: m.output("path_len", params.len_bits(), "number of moves"),
            done: m.output("done", 1, "no further path (stays high until init or rst)"),
            error: m.output(
                "error",
                1,
                "a digit of src or dst is not below its radix, or src equals dst",
            ),
        }
    }
}

/// The wires between the top's blocks, named for the block that drives them.
struct Wires {
    valid: SignalId,
    differ: SignalId,
    c_row: SignalId,
    c_mask: Option<SignalId>,
    c_count: SignalId,
    load: SignalId,
    advance: SignalId,
    found: SignalId,
    dim: SignalId,
    v: SignalId,
    side: SignalId,
    last: SignalId,
    leave: SignalId,
    exhausted: SignalId,
    a: SignalId,
    b: SignalId,
    differ_m: SignalId,
    rotate: SignalId,
    row: SignalId,
    row_next: SignalId,
    excursion: Option<SignalId>,
    k: SignalId,
    candidate: SignalId,
}

impl Wires {
    fn declare(m: &mut Module, params: &MrnsPathGenParams) -> Self {
        let n = params.n();
        let (dw, vw, lw) = (
            params.dimension_bits(),
            params.value_bits(),
            params.len_bits(),
        );
        let list_bits = n as u32 * params.move_bits();
        Wires {
            valid: m.internal("valid", 1, "check: src and dst are distinct nodes"),
            differ: m.internal("differ", n as u32, "check: differing digits"),
            c_row: m.internal("c_row", list_bits, "compact: C"),
            c_mask: (n >= 2).then(|| m.internal("c_mask", n as u32, "compact: mask of C")),
            c_count: m.internal("c_count", lw, "compact: k"),
            load: m.internal("load", 1, "control: load"),
            advance: m.internal("advance", 1, "control: advance the cursor"),
            found: m.internal("found", 1, "control: capture the path"),
            dim: m.internal("m", dw, "cursor: dimension"),
            v: m.internal("v", vw, "cursor: digit value"),
            side: m.internal("side", 1, "cursor: side exits"),
            last: m.internal("last", 1, "cursor: last candidate"),
            leave: m.internal("leave", 1, "cursor: leaving dimension m"),
            exhausted: m.internal("exhausted", 1, "cursor: past the end"),
            a: m.internal("a", vw, "select: a_m"),
            b: m.internal("b", vw, "select: b_m"),
            differ_m: m.internal("differ_m", 1, "select: a_m differs from b_m"),
            rotate: m.internal("rotate", 1, "turn the row"),
            row: m.internal("row", list_bits, "rows: current row"),
            row_next: m.internal("row_next", list_bits, "rows: the row turned once"),
            excursion: (n >= 2)
                .then(|| m.internal("excursion", list_bits, "rows: C, then (m, a_m)")),
            k: m.internal("k", lw, "rows: k"),
            candidate: m.internal("candidate", 1, "assemble: the candidate is a path"),
        }
    }
}

/// The input check and the compaction of C from the inputs.
fn check_and_compact(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (check, check_ports): &(Module, CheckPorts),
    (compact, compact_ports): &(Module, CompactPorts),
) {
    let p = check_ports;
    m.instance(
        "u_check",
        Connections::of(check)
            .bind(&p.src, io.src)
            .bind(&p.dst, io.dst)
            .bind(&p.valid, wires.valid)
            .bind(&p.differ, wires.differ),
        "Input check.",
    );
    let p = compact_ports;
    let connections = Connections::of(compact)
        .bind(&p.dst, io.dst)
        .bind(&p.differ, wires.differ)
        .bind(&p.row, wires.c_row)
        .bind_opt(&p.mask, wires.c_mask)
        .bind(&p.count, wires.c_count);
    m.instance("u_compact", connections, "C from the inputs.");
}

fn cursor_instance(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (cursor, p): &(Module, CursorPorts),
) {
    let connections = Connections::of(cursor)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.start, wires.load)
        .bind(&p.advance, wires.advance)
        .bind(&p.m, wires.dim)
        .bind(&p.v, wires.v)
        .bind(&p.side, wires.side)
        .bind(&p.last, wires.last)
        .bind(&p.leave, wires.leave)
        .bind(&p.exhausted, wires.exhausted);
    m.instance("u_cursor", connections, "The cursor.");
}

fn select_instance(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (select, p): &(Module, SelectPorts),
) {
    let connections = Connections::of(select)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.load, wires.load)
        .bind(&p.src, io.src)
        .bind(&p.dst, io.dst)
        .bind(&p.m, wires.dim)
        .bind(&p.a, wires.a)
        .bind(&p.b, wires.b)
        .bind(&p.differ, wires.differ_m);
    m.instance("u_select", connections, "Digits of the cursor's dimension.");
}

/// The rows, and `rotate`, which turns them.
fn rows_instance(
    m: &mut Module,
    params: &MrnsPathGenParams,
    io: &TopPorts,
    wires: &Wires,
    (rows, p): &(Module, RowsPorts),
    fault: Option<Fault>,
) {
    let turn = Expr::from(wires.leave).and(wires.differ_m.into());
    m.assign(
        wires.rotate,
        match fault {
            Some(Fault::RowsFrozenWhileShortest) => turn.and(wires.side.into()),
            _ => turn,
        },
        "The row turns as the cursor leaves a differing dimension: in the shortest walk to the next row, in the side exits to the row that starts with the next differing dimension.",
    );
    let connections = Connections::of(rows)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.load, wires.load)
        .bind(&p.rotate, wires.rotate)
        .bind(&p.row_in, wires.c_row)
        .bind_opt(&p.mask_in, wires.c_mask)
        .bind(&p.count_in, wires.c_count)
        .bind_opt(
            &p.back,
            (params.n() >= 2).then(|| Expr::concat(vec![wires.dim.into(), wires.a.into()])),
        )
        .bind(&p.row, wires.row)
        .bind(&p.row_next, wires.row_next)
        .bind_opt(&p.excursion, wires.excursion)
        .bind(&p.k, wires.k);
    m.instance("u_rows", connections, "The Latin-square rows.");
}

fn assemble_instance(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (assemble, p): &(Module, AssemblePorts),
) {
    let connections = Connections::of(assemble)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.capture, wires.found)
        .bind(&p.side, wires.side)
        .bind(&p.m, wires.dim)
        .bind(&p.v, wires.v)
        .bind(&p.a, wires.a)
        .bind(&p.b, wires.b)
        .bind(&p.differ, wires.differ_m)
        .bind(&p.row, wires.row)
        .bind(&p.row_next, wires.row_next)
        .bind_opt(&p.excursion, wires.excursion)
        .bind(&p.k, wires.k)
        .bind(&p.candidate, wires.candidate)
        .bind(&p.path, io.path)
        .bind(&p.path_len, io.path_len);
    m.instance("u_assemble", connections, "Path assembly.");
}

fn control_instance(
    m: &mut Module,
    io: &TopPorts,
    wires: &Wires,
    (control, p): &(Module, ControlPorts),
) {
    let connections = Connections::of(control)
        .bind(&p.clk, io.clocking.clock)
        .bind(&p.rst, io.clocking.reset)
        .bind(&p.init, io.init)
        .bind(&p.next_path, io.next_path)
        .bind(&p.valid, wires.valid)
        .bind(&p.candidate, wires.candidate)
        .bind(&p.last, wires.last)
        .bind(&p.exhausted, wires.exhausted)
        .bind(&p.load, wires.load)
        .bind(&p.advance, wires.advance)
        .bind(&p.found, wires.found)
        .bind(&p.path_valid, io.path_valid)
        .bind(&p.done, io.done)
        .bind(&p.error, io.error);
    m.instance("u_control", connections, "Control unit.");
}
