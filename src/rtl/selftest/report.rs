//! The reporter of the self-test top: every `report_cycles` clocks it takes a snapshot of
//! the four counters and sends it over the UART as one line of text,
//!
//! ```text
//! sent=0000a1b2 delivered=0000a1a0 failed=00000011 corrupt=00000000\r\n
//! ```
//!
//! each count as eight lower-case hex digits, most significant first, all four taken in
//! the same clock. It also says whether traffic flows: a message was delivered between the
//! last two snapshots.

use super::blocks::COUNTER_BITS;
use crate::bits::bits_for;
use crate::rtl::ir::{Connections, Expr, Module};

/// The counters, in the order of the line.
pub const FIELDS: [&str; 4] = ["sent", "delivered", "failed", "corrupt"];

/// Hex digits of each count.
const DIGITS: u32 = COUNTER_BITS / 4;

/// One character of the line: a fixed one, or digit `digit` (0 the most significant) of
/// counter `field`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Char {
    Fixed(u8),
    Hex { field: usize, digit: u32 },
}

/// The line's characters.
fn line() -> Vec<Char> {
    let mut chars = Vec::new();
    for (field, name) in FIELDS.iter().enumerate() {
        let label = match field {
            0 => format!("{name}="),
            _ => format!(" {name}="),
        };
        chars.extend(label.bytes().map(Char::Fixed));
        chars.extend((0..DIGITS).map(|digit| Char::Hex { field, digit }));
    }
    chars.extend(b"\r\n".iter().copied().map(Char::Fixed));
    chars
}

/// Characters of one line, `\r\n` included.
pub fn line_length() -> u64 {
    line().len() as u64
}

/// Clocks one line takes on the wire: ten bits a character.
pub fn line_cycles(bit_cycles: u64) -> u64 {
    line_length() * 10 * bit_cycles
}

/// `<top>_report`: the snapshot, the line and the UART (an instance of `uart`).
pub fn report_module(top: &str, uart: &Module, report_cycles: u64) -> Module {
    let mut m = Module::new(
        format!("{top}_report"),
        &[
            &format!(
                "Every {report_cycles} clocks: the four counters as one line of text on the UART,"
            ),
            "\"sent=XXXXXXXX delivered=XXXXXXXX failed=XXXXXXXX corrupt=XXXXXXXX\\r\\n\" in hex.",
        ],
    );
    let clocking = m.clocked();
    let counts: Vec<_> = FIELDS
        .iter()
        .map(|name| m.input(name, COUNTER_BITS, &format!("the {name} counter")))
        .collect();
    let tx = m.output("tx", 1, "the UART's line");
    let flowing = m.output(
        "flowing",
        1,
        "a message was delivered between the last two snapshots",
    );
    let pw = bits_for(report_cycles);
    let period = m.internal("period", pw, "clocks since the last snapshot");
    let tick = m.internal("tick", 1, "a snapshot is taken this clock");
    m.assign(
        tick,
        Expr::from(period).eq(Expr::konst(pw, report_cycles - 1)),
        "",
    );
    m.register(
        period,
        0,
        Expr::mux(
            tick.into(),
            Expr::zero(pw),
            Expr::from(period) + Expr::konst(pw, 1),
        ),
        "",
    );
    let snaps: Vec<_> = FIELDS
        .iter()
        .zip(&counts)
        .map(|(name, &count)| {
            let snap = m.internal(
                &format!("snap_{name}"),
                COUNTER_BITS,
                &format!("the {name} counter at the last snapshot"),
            );
            m.register(
                snap,
                0,
                Expr::mux(tick.into(), count.into(), snap.into()),
                "",
            );
            snap
        })
        .collect();
    m.register(
        flowing,
        0,
        Expr::mux(
            tick.into(),
            Expr::from(counts[1]).ne(snaps[1].into()),
            flowing.into(),
        ),
        "",
    );

    let chars = line();
    let cw = bits_for(chars.len() as u64);
    let index = m.internal("index", cw, "the character being offered");
    let busy = m.internal("busy", 1, "a line is being sent");
    let ready = m.internal("ready", 1, "the UART takes the character");
    let char_data = m.internal("char_data", 8, "the character offered");
    let fixed = m.internal("fixed", 8, "the character at index, if a fixed one");
    let is_hex = m.internal("is_hex", 1, "the character at index is a hex digit");
    let nibble = m.internal("nibble", 4, "the hex digit's value");
    let label = |i: usize| Expr::konst(cw, i as u64);
    let fixed_arms = chars
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Char::Fixed(b) => Some((label(i), Expr::konst(8, u64::from(*b)))),
            Char::Hex { .. } => None,
        })
        .collect();
    m.case(
        fixed,
        index,
        fixed_arms,
        Expr::zero(8),
        "the line's fixed characters",
    );
    let hex_positions: Vec<(usize, usize, u32)> = chars
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Char::Hex { field, digit } => Some((i, *field, *digit)),
            Char::Fixed(_) => None,
        })
        .collect();
    let nibble_arms = hex_positions
        .iter()
        .map(|&(i, field, digit)| {
            let lo = COUNTER_BITS - 4 * (digit + 1);
            let value = Expr::Slice {
                signal: snaps[field],
                lo,
                width: 4,
            };
            (label(i), value)
        })
        .collect();
    m.case(
        nibble,
        index,
        nibble_arms,
        Expr::zero(4),
        "the digit of the snapshot at index",
    );
    let hex_arms = hex_positions
        .iter()
        .map(|&(i, _, _)| (label(i), Expr::bit(true)))
        .collect();
    m.case(is_hex, index, hex_arms, Expr::bit(false), "");
    let wide = Expr::concat(vec![Expr::zero(4), nibble.into()]);
    let hex = Expr::mux(
        Expr::from(nibble).lt(Expr::konst(4, 10)),
        wide.clone() + Expr::konst(8, u64::from(b'0')),
        wide + Expr::konst(8, u64::from(b'a') - 10),
    );
    m.assign(char_data, Expr::mux(is_hex.into(), hex, fixed.into()), "");
    let take = Expr::from(busy).and(ready.into());
    let at_end = Expr::from(index).eq(label(chars.len() - 1));
    m.register(
        busy,
        0,
        Expr::mux(
            tick.into(),
            Expr::bit(true),
            Expr::mux(
                take.clone().and(at_end.clone()),
                Expr::bit(false),
                busy.into(),
            ),
        ),
        "from a snapshot to the line's last character",
    );
    m.register(
        index,
        0,
        Expr::mux(
            tick.into(),
            Expr::zero(cw),
            Expr::mux(
                take.and(!at_end),
                Expr::from(index) + Expr::konst(cw, 1),
                index.into(),
            ),
        ),
        "",
    );
    m.instance(
        "u_uart",
        Connections::of(uart)
            .bind(&uart.port_named("clk"), clocking.clock)
            .bind(&uart.port_named("rst"), clocking.reset)
            .bind(&uart.port_named("data"), char_data)
            .bind(&uart.port_named("valid"), busy)
            .bind(&uart.port_named("ready"), ready)
            .bind(&uart.port_named("tx"), tx),
        "The line's characters, one after another.",
    );
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_67_characters() {
        let text: String = line()
            .iter()
            .map(|c| match c {
                Char::Fixed(b) => *b as char,
                Char::Hex { .. } => 'X',
            })
            .collect();
        assert_eq!(
            text,
            "sent=XXXXXXXX delivered=XXXXXXXX failed=XXXXXXXX corrupt=XXXXXXXX\r\n"
        );
        assert_eq!(line_length(), 67);
        assert_eq!(line_cycles(217), 67 * 10 * 217);
    }
}
