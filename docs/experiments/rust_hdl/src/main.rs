//! Can rust-hdl describe a Kautz match unit whose letter width W = ceil(log2(d+1)) is
//! chosen at run time, as `kautzgen generate --d D` needs? Build with
//! `cargo run` for the compile-time case; `cargo build --features runtime_width` tries the
//! run-time case.

use rust_hdl::prelude::*;

/// A match unit comparing a source and a destination letter of W bits.
#[derive(LogicBlock, Default)]
struct MatchUnit<const W: usize> {
    pub src: Signal<In, Bits<W>>,
    pub dst: Signal<In, Bits<W>>,
    pub matched: Signal<Out, Bit>,
}

impl<const W: usize> Logic for MatchUnit<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.matched.next = self.src.val() == self.dst.val();
    }
}

#[cfg(not(feature = "runtime_width"))]
fn main() {
    // d = 4 is known when this program is compiled: W = 3 works.
    let mut unit = MatchUnit::<3>::default();
    unit.connect_all();
    println!("{}", generate_verilog(&unit));
}

#[cfg(feature = "runtime_width")]
fn main() {
    // d comes from the command line, as in `kautzgen generate --d 4`.
    let d: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let w = (usize::BITS - d.leading_zeros()) as usize;
    let mut unit = MatchUnit::<w>::default();
    unit.connect_all();
    println!("{}", generate_verilog(&unit));
}
