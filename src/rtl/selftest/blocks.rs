//! The small blocks of the self-test top, each a module of its own: the LFSR that draws
//! the traffic, a counter of events, the UART transmitter, and the reset and button
//! synchroniser.

use super::linear::lfsr_map;
use crate::bits::bits_for;
use crate::rtl::ir::{Expr, Module};

/// Width of every event counter: 32 bits, printed as eight hex digits.
pub const COUNTER_BITS: u32 = 32;

/// `<top>_lfsr`: a 32-bit Galois LFSR that advances eight steps a clock
/// ([`super::linear::lfsr_clock`]), showing its low `bits` bits. Reset clears it, and from
/// the all-zero state, the one an XOR LFSR never leaves, it loads `seed` (which must not
/// be 0).
pub fn lfsr_module(top: &str, bits: u32) -> Module {
    assert!((1..=32).contains(&bits), "an LFSR shows 1 to 32 bits");
    let mut m = Module::new(
        format!("{top}_lfsr"),
        &[
            "A 32-bit Galois LFSR, x^32 + x^22 + x^2 + x + 1, eight steps a clock.",
            "Reset clears it; the all-zero state loads the seed.",
        ],
    );
    m.clocked();
    let seed = m.input("seed", 32, "the first state after reset; not 0");
    let value = m.output("value", bits, "the state's low bits");
    let state = m.internal("state", 32, "the state");
    let next = lfsr_map().expr(&[(state, 32)]);
    let zero = Expr::from(state).eq(Expr::zero(32));
    m.register(
        state,
        0,
        Expr::mux(zero, seed.into(), next),
        "eight steps a clock; 0 (after reset) loads the seed",
    );
    m.assign(
        value,
        Expr::Slice {
            signal: state,
            lo: 0,
            width: bits,
        },
        "",
    );
    m
}

/// `<top>_counter`: a [`COUNTER_BITS`]-bit count that adds `inc` (`inc_bits` bits) every
/// clock, wrapping.
pub fn counter_module(top: &str, inc_bits: u32) -> Module {
    let mut m = Module::new(
        format!("{top}_counter"),
        &["A 32-bit event counter: adds inc every clock, modulo 2^32."],
    );
    m.clocked();
    let inc = m.input("inc", inc_bits, "events this cycle");
    let count = m.output("count", COUNTER_BITS, "events since reset");
    let wide = zext(inc.into(), inc_bits, COUNTER_BITS);
    m.register(
        count,
        0,
        Expr::from(count) + wide,
        "adds this cycle's events",
    );
    m
}

/// `value` (`from` bits) widened to `to` bits with zeros on top.
pub fn zext(value: Expr, from: u32, to: u32) -> Expr {
    match to - from {
        0 => value,
        extra => Expr::concat(vec![Expr::zero(extra), value]),
    }
}

/// The number of 1s among `bits` (each 1 bit), `width` bits wide.
pub fn popcount(bits: Vec<Expr>, width: u32) -> Expr {
    bits.into_iter()
        .map(|b| zext(b, 1, width))
        .reduce(|a, b| a + b)
        .unwrap_or(Expr::zero(width))
}

/// `<top>_uart_tx`: a UART transmitter, 8N1 (a start bit, eight data bits least
/// significant first, a stop bit), each bit `bit_cycles` clocks long. `ready` is high when
/// it can take a byte; a byte is taken in a cycle with `valid` and `ready`.
pub fn uart_module(top: &str, bit_cycles: u64) -> Module {
    assert!(bit_cycles >= 2, "a UART bit lasts two clocks or more");
    let mut m = Module::new(
        format!("{top}_uart_tx"),
        &[
            &format!("A UART transmitter, 8N1, {bit_cycles} clocks a bit."),
            "A byte is taken when valid and ready; tx idles high.",
        ],
    );
    m.clocked();
    let data = m.input("data", 8, "the byte to send");
    let valid = m.input("valid", 1, "a byte is offered");
    let ready = m.output("ready", 1, "no byte is being sent: one offered is taken");
    let tx = m.output("tx", 1, "the serial line, idle high");
    let bw = bits_for(bit_cycles);
    let busy = m.internal("busy", 1, "a byte is being sent");
    let shift = m.internal(
        "shift",
        9,
        "the bits still to send after the current one, stop bit on top",
    );
    let left = m.internal("left", 4, "bits still to send after the current one");
    let baud = m.internal("baud", bw, "clocks left of the current bit, minus one");
    let take = m.internal("take", 1, "a byte is taken this cycle");
    let bit_end = m.internal("bit_end", 1, "the current bit ends this cycle");
    m.assign(ready, Expr::from(busy).eq(Expr::bit(false)), "");
    m.assign(take, Expr::from(valid).and(ready.into()), "");
    m.assign(
        bit_end,
        Expr::from(busy).and(Expr::from(baud).eq(Expr::zero(bw))),
        "",
    );
    let last_bit = Expr::from(left).eq(Expr::zero(4));
    m.register(
        busy,
        0,
        Expr::mux(
            take.into(),
            Expr::bit(true),
            Expr::mux(
                Expr::from(bit_end).and(last_bit.clone()),
                Expr::bit(false),
                busy.into(),
            ),
        ),
        "from the byte taken to the end of its stop bit",
    );
    m.register(
        tx,
        1,
        Expr::mux(
            take.into(),
            Expr::bit(false),
            Expr::mux(
                Expr::from(bit_end),
                Expr::mux(
                    last_bit.clone(),
                    Expr::bit(true),
                    Expr::Slice {
                        signal: shift,
                        lo: 0,
                        width: 1,
                    },
                ),
                tx.into(),
            ),
        ),
        "the start bit, then each bit of shift; high when idle",
    );
    m.register(
        shift,
        0x1FF,
        Expr::mux(
            take.into(),
            Expr::concat(vec![Expr::bit(true), data.into()]),
            Expr::mux(
                bit_end.into(),
                Expr::concat(vec![
                    Expr::bit(true),
                    Expr::Slice {
                        signal: shift,
                        lo: 1,
                        width: 8,
                    },
                ]),
                shift.into(),
            ),
        ),
        "the data bits and the stop bit, shifted out least significant first",
    );
    m.register(
        left,
        0,
        Expr::mux(
            take.into(),
            Expr::konst(4, 9),
            Expr::mux(
                Expr::from(bit_end).and(!last_bit),
                Expr::from(left) - Expr::konst(4, 1),
                left.into(),
            ),
        ),
        "eight data bits and the stop bit follow the start bit",
    );
    let reload = Expr::konst(bw, bit_cycles - 1);
    m.register(
        baud,
        0,
        Expr::mux(
            Expr::from(take).or(bit_end.into()),
            reload,
            Expr::mux(
                busy.into(),
                Expr::from(baud) - Expr::konst(bw, 1),
                baud.into(),
            ),
        ),
        "counts each bit's clocks down",
    );
    m
}

/// Cycles the reset is held after power-up or the reset button, the last value of the
/// power-on count.
const HOLD: u64 = 15;

/// `<top>_reset`: the board's buttons brought onto the clock (two flip-flops each), and the
/// reset of everything else: high from power-up, and while the reset button is held, until
/// `HOLD` clocks after. Its own `rst` is tied low by the top: it relies on the FPGA's
/// flip-flops powering up at 0, as both iCE40 and ECP5 do after configuration.
pub fn reset_module(top: &str) -> Module {
    let mut m = Module::new(
        format!("{top}_reset"),
        &[
            "The buttons synchronised, and the reset: held from power-up and while the",
            "reset button is pressed, until 15 clocks after. Its rst is tied low: it relies",
            "on the flip-flops powering up at 0, as the FPGA's do after configuration.",
        ],
    );
    m.clocked();
    let reset_button = m.input(
        "reset_button",
        1,
        "the reset button is pressed (asynchronous)",
    );
    let pause_button = m.input(
        "pause_button",
        1,
        "the pause button is pressed (asynchronous)",
    );
    let reset = m.output("reset", 1, "the reset of the rest of the design");
    let pause = m.output("pause", 1, "the pause button, on the clock");
    let r1 = m.internal(
        "reset_meta",
        1,
        "first synchroniser stage of the reset button",
    );
    let r2 = m.internal("reset_sync", 1, "the reset button, on the clock");
    let p1 = m.internal(
        "pause_meta",
        1,
        "first synchroniser stage of the pause button",
    );
    let count = m.internal(
        "count",
        4,
        "clocks since power-up or the reset button, to 15",
    );
    m.register(r1, 0, reset_button.into(), "");
    m.register(r2, 0, r1.into(), "");
    m.register(p1, 0, pause_button.into(), "");
    m.register(pause, 0, p1.into(), "");
    let full = Expr::from(count).eq(Expr::konst(4, HOLD));
    m.register(
        count,
        0,
        Expr::mux(
            r2.into(),
            Expr::zero(4),
            Expr::mux(
                full.clone(),
                count.into(),
                Expr::from(count) + Expr::konst(4, 1),
            ),
        ),
        "restarts with the button, stops at 15",
    );
    m.assign(reset, !full, "held until the count is full");
    m
}
