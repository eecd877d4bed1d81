//! Linear maps over GF(2), and the two the self-test top is built from: the traffic
//! generators' LFSR advanced eight steps a clock, and the CRC-8 that every message carries.
//!
//! Both are XOR networks: each output bit is the XOR of some input bits. The software
//! function is the definition; [`XorMap::of`] finds, by feeding it each input bit alone,
//! which input bits reach each output bit, and [`XorMap::expr`] prints that as IR
//! expressions. So the hardware is the software function by construction, and the tests
//! below check the software against the published definitions.

use crate::rtl::ir::{Expr, SignalId};

/// The LFSR's feedback taps: x^32 + x^22 + x^2 + x + 1, a maximal-length polynomial
/// (Xilinx XAPP 052, "Efficient Shift Registers, LFSR Counters, and Long Pseudo-Random
/// Sequence Generators", table 3), in the Galois form that shifts right.
pub const LFSR_TAPS: u32 = 0x8020_0003;

/// Steps the LFSR takes per clock: a fresh byte of state every cycle.
pub const LFSR_STEPS: u32 = 8;

/// The CRC-8 polynomial x^8 + x^2 + x + 1 (CRC-8/ATM, ITU-T I.432.1), MSB first, initial
/// value 0, no final XOR.
pub const CRC8_POLY: u8 = 0x07;

/// One step of the Galois LFSR.
pub fn lfsr_step(state: u32) -> u32 {
    let feedback = if state & 1 == 1 { LFSR_TAPS } else { 0 };
    (state >> 1) ^ feedback
}

/// The LFSR [`LFSR_STEPS`] steps on: what its register holds one clock later.
pub fn lfsr_clock(state: u32) -> u32 {
    (0..LFSR_STEPS).fold(state, |s, _| lfsr_step(s))
}

/// The CRC-8 of `crc` followed by `byte`.
pub fn crc8_step(crc: u8, byte: u8) -> u8 {
    (0..8).fold(crc ^ byte, |c, _| match c & 0x80 {
        0 => c << 1,
        _ => (c << 1) ^ CRC8_POLY,
    })
}

/// The CRC-8 of `bytes`, from 0.
pub fn crc8(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |crc, &b| crc8_step(crc, b))
}

/// A node's address word of `bits` bits as the bytes a CRC covers: the most significant
/// byte first, the top byte padded with zeros.
pub fn address_bytes(word: u64, bits: u32) -> Vec<u8> {
    let bytes = bits.div_ceil(8);
    (0..bytes).rev().map(|i| (word >> (8 * i)) as u8).collect()
}

/// The CRC a message from `src` to `dst` starts from: the CRC-8 of the destination's
/// address, then the source's ([`address_bytes`] of `bits` bits each).
pub fn crc8_header(dst: u64, src: u64, bits: u32) -> u8 {
    let mut bytes = address_bytes(dst, bits);
    bytes.extend(address_bytes(src, bits));
    crc8(&bytes)
}

/// A linear map from `inputs` bits to some output bits: `rows[i]` has bit j set when
/// input bit j reaches output bit i.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XorMap {
    inputs: u32,
    rows: Vec<u128>,
}

impl XorMap {
    /// The map of `f`, a function linear over GF(2) (f(a ^ b) = f(a) ^ f(b)) from
    /// `inputs` bits (at most 128) to `outputs` bits.
    pub fn of(inputs: u32, outputs: u32, f: impl Fn(u128) -> u128) -> XorMap {
        assert!(inputs <= 128 && outputs <= 128, "a map of at most 128 bits");
        assert_eq!(f(0), 0, "a linear map sends 0 to 0");
        let images: Vec<u128> = (0..inputs).map(|j| f(1 << j)).collect();
        let rows = (0..outputs)
            .map(|i| {
                images
                    .iter()
                    .enumerate()
                    .filter(|(_, image)| *image >> i & 1 == 1)
                    .fold(0, |row, (j, _)| row | 1 << j)
            })
            .collect();
        XorMap { inputs, rows }
    }

    /// The map applied to `input`, as software.
    pub fn apply(&self, input: u128) -> u128 {
        self.rows.iter().enumerate().fold(0, |out, (i, row)| {
            out | u128::from((row & input).count_ones() % 2 == 1) << i
        })
    }

    /// The map in hardware: `input` lists the input's parts, most significant first (as
    /// [`Expr::Concat`] does), each a whole signal; the value has one bit per output.
    pub fn expr(&self, input: &[(SignalId, u32)]) -> Expr {
        let mut bits = Vec::new();
        for &(signal, width) in input.iter().rev() {
            bits.extend((0..width).map(|lo| Expr::Slice {
                signal,
                lo,
                width: 1,
            }));
        }
        assert_eq!(bits.len() as u32, self.inputs, "the input's width");
        let outputs = self.rows.iter().rev().map(|row| {
            let terms = (0..self.inputs)
                .filter(|j| row >> j & 1 == 1)
                .map(|j| bits[j as usize].clone());
            terms.reduce(Expr::xor).unwrap_or(Expr::zero(1))
        });
        Expr::concat(outputs.collect())
    }
}

/// The LFSR's next state from its state (32 bits).
pub fn lfsr_map() -> XorMap {
    XorMap::of(32, 32, |s| u128::from(lfsr_clock(s as u32)))
}

/// The CRC after one byte, from the CRC (the upper 8 input bits) and the byte (the lower).
pub fn crc8_step_map() -> XorMap {
    XorMap::of(16, 8, |x| u128::from(crc8_step((x >> 8) as u8, x as u8)))
}

/// [`crc8_header`] from the destination's word (the upper `bits` input bits) and the
/// source's (the lower).
pub fn crc8_header_map(bits: u32) -> XorMap {
    let mask = (1u128 << bits) - 1;
    XorMap::of(2 * bits, 8, move |x| {
        u128::from(crc8_header(
            (x >> bits & mask) as u64,
            (x & mask) as u64,
            bits,
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crc_is_crc8_atm() {
        // The catalogue's check value of CRC-8 (poly 0x07, init 0, no reflection, no
        // final XOR): the CRC of "123456789" is 0xF4.
        assert_eq!(crc8(b"123456789"), 0xF4);
        assert_eq!(address_bytes(0x1_2345, 17), vec![0x01, 0x23, 0x45]);
        assert_eq!(address_bytes(0b10_0110, 6), vec![0x26]);
        assert_eq!(crc8_header(0x26, 0x19, 6), crc8(&[0x26, 0x19]));
    }

    #[test]
    fn the_maps_are_the_functions() {
        let lfsr = lfsr_map();
        let crc = crc8_step_map();
        let header = crc8_header_map(6);
        let mut state = 0xACE1_u32;
        for _ in 0..1000 {
            let next = lfsr_clock(state);
            assert_eq!(lfsr.apply(u128::from(state)), u128::from(next));
            let (c, b) = (state as u8, (state >> 8) as u8);
            assert_eq!(
                crc.apply(u128::from(c) << 8 | u128::from(b)),
                u128::from(crc8_step(c, b))
            );
            let (dst, src) = (u64::from(state & 63), u64::from(state >> 6 & 63));
            let both = u128::from(dst) << 6 | u128::from(src);
            assert_eq!(header.apply(both), u128::from(crc8_header(dst, src, 6)));
            state = next;
        }
    }

    #[test]
    fn the_lfsr_does_not_repeat_soon() {
        // A maximal LFSR of 32 bits repeats after 2^32 - 1 steps; a million clocks must
        // not come back to the start.
        let start = 1;
        let mut state = lfsr_clock(start);
        for _ in 0..1_000_000 {
            assert_ne!(state, start);
            assert_ne!(state, 0);
            state = lfsr_clock(state);
        }
    }
}
