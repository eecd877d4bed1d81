//! Port values of any width, as the generic testbenches read and write them.
//!
//! In: a width and fields of up to 64 bits set at bit positions. Out: lowercase
//! hexadecimal of exactly ceil(width / 4) digits, the value padded with zero bits on the
//! left (what Verilog's `%h` and VHDL-2008's `hwrite` print for a vector of that width),
//! and back. Ports wider than 64 bits (a path of many moves) need no special case.

use std::fmt;

/// An unsigned value of `width` bits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Bits {
    width: u32,
    /// Little-endian 64-bit words; bits at and above `width` are zero.
    words: Vec<u64>,
}

impl Bits {
    /// Zero, `width` bits wide (at least one).
    pub fn zero(width: u32) -> Self {
        assert!(width > 0, "a port has at least one bit");
        Bits {
            width,
            words: vec![0; width.div_ceil(64) as usize],
        }
    }

    /// `value` in `width` bits; it must fit.
    pub fn from_u64(width: u32, value: u64) -> Self {
        let mut bits = Bits::zero(width);
        bits.set(0, width.min(64), value);
        bits
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    /// The same value in `width` bits; it must fit.
    pub fn resized(&self, width: u32) -> Self {
        let mut bits = Bits::zero(width);
        for lo in (0..self.width).step_by(64) {
            let field = 64.min(self.width - lo);
            let value = self.get(lo, field);
            if lo < width {
                bits.set(lo, field.min(width - lo), value);
            } else {
                assert_eq!(value, 0, "the value does not fit {width} bits");
            }
        }
        bits
    }

    /// Writes `value` into bits `lo .. lo + width` (`width` at most 64); it must fit.
    pub fn set(&mut self, lo: u32, width: u32, value: u64) {
        assert!(
            width <= 64 && lo + width <= self.width,
            "field {lo}+{width} of a {}-bit value",
            self.width
        );
        assert!(
            width == 64 || value >> width == 0,
            "{value} does not fit {width} bits"
        );
        for i in 0..width {
            let (word, bit) = (((lo + i) / 64) as usize, (lo + i) % 64);
            self.words[word] &= !(1 << bit);
            self.words[word] |= ((value >> i) & 1) << bit;
        }
    }

    /// Bits `lo .. lo + width` (`width` at most 64).
    pub fn get(&self, lo: u32, width: u32) -> u64 {
        assert!(
            width <= 64 && lo + width <= self.width,
            "field {lo}+{width} of a {}-bit value",
            self.width
        );
        (0..width).fold(0, |value, i| {
            let (word, bit) = (((lo + i) / 64) as usize, (lo + i) % 64);
            value | ((self.words[word] >> bit) & 1) << i
        })
    }

    /// Number of hexadecimal digits of a `width`-bit value.
    pub fn digits(width: u32) -> usize {
        width.div_ceil(4) as usize
    }

    /// Lowercase hexadecimal, exactly [`Bits::digits`] digits.
    pub fn to_hex(&self) -> String {
        (0..Bits::digits(self.width))
            .rev()
            .map(|d| {
                let lo = d as u32 * 4;
                let nibble = self.get(lo, 4.min(self.width - lo));
                char::from_digit(nibble as u32, 16).expect("a nibble is one digit")
            })
            .collect()
    }

    /// The `width`-bit value written as `text`, or `None` unless `text` is exactly
    /// [`Bits::digits`] hexadecimal digits (either case) with the padding bits zero; `x`,
    /// `u` and other non-digits are refused.
    pub fn from_hex(width: u32, text: &str) -> Option<Bits> {
        if text.len() != Bits::digits(width) {
            return None;
        }
        let mut bits = Bits::zero(width);
        for (d, c) in text.chars().rev().enumerate() {
            let nibble = u64::from(c.to_digit(16)?);
            let lo = d as u32 * 4;
            let room = 4.min(width - lo);
            if nibble >> room != 0 {
                return None;
            }
            bits.set(lo, room, nibble);
        }
        Some(bits)
    }
}

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_hex_beyond_64_bits() {
        // 85 bits: 22 digits, the top digit holding one bit.
        let mut bits = Bits::zero(85);
        bits.set(80, 5, 0b10110);
        bits.set(60, 8, 0xa5);
        bits.set(0, 4, 0xf);
        assert_eq!(bits.to_hex(), "16000a500000000000000f");
        assert_eq!(bits.get(60, 8), 0xa5);
        assert_eq!(bits.get(80, 5), 0b10110);
        assert_eq!(Bits::from_hex(85, &bits.to_hex()), Some(bits.clone()));
        assert_eq!(
            Bits::from_hex(85, &bits.to_hex().to_uppercase()),
            Some(bits)
        );
    }

    #[test]
    fn resizing_keeps_the_value() {
        let mut wide = Bits::zero(130);
        wide.set(66, 3, 0b101);
        wide.set(0, 8, 0x3c);
        let narrow = wide.resized(70);
        assert_eq!(narrow.to_hex(), "14000000000000003c");
        assert_eq!(narrow.resized(130), wide);
        assert_eq!(Bits::from_u64(64, 9).resized(4), Bits::from_u64(4, 9));
    }

    #[test]
    #[should_panic(expected = "does not fit")]
    fn resizing_refuses_a_value_that_does_not_fit() {
        Bits::from_u64(64, 0x10).resized(4);
    }

    #[test]
    fn narrow_values_pad_to_whole_digits() {
        assert_eq!(Bits::from_u64(7, 0x5b).to_hex(), "5b");
        assert_eq!(Bits::from_u64(1, 1).to_hex(), "1");
        assert_eq!(Bits::from_u64(64, u64::MAX).to_hex(), "ffffffffffffffff");
        assert_eq!(Bits::from_hex(7, "5b"), Some(Bits::from_u64(7, 0x5b)));
    }

    #[test]
    fn refuses_wrong_lengths_set_padding_and_unknown_digits() {
        assert_eq!(Bits::from_hex(7, "05b"), None);
        assert_eq!(Bits::from_hex(7, "8b"), None);
        assert_eq!(Bits::from_hex(7, "xb"), None);
        assert_eq!(Bits::from_hex(8, "u0"), None);
    }
}
