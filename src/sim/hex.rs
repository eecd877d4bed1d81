//! Letters as the hexadecimal words the testbenches read and write.
//!
//! In: letters of `width` bits each, the first in the most significant bits, as on the
//! route generator's `src`, `dst` and `route` ports. Out: hexadecimal digits, the value
//! zero-padded on the left to whole digits (what Verilog's `%h` and VHDL-2008's `hwrite`
//! print for a vector of that width), and back.

use crate::topology::kautz::Letter;

/// Number of hexadecimal digits of a `bits`-bit vector.
pub fn digits(bits: usize) -> usize {
    bits.div_ceil(4)
}

/// `letters`, `width` bits each, as lowercase hexadecimal of `digits(letters.len() * width)`
/// digits. Letters must fit in `width` bits.
pub fn encode(letters: &[Letter], width: usize) -> String {
    let bits = letters.len() * width;
    let pad = digits(bits) * 4 - bits;
    let mut stream = std::iter::repeat_n(false, pad).chain(
        letters
            .iter()
            .flat_map(|&a| (0..width).rev().map(move |i| (a as usize >> i) & 1 == 1)),
    );
    let mut text = String::with_capacity(digits(bits));
    for _ in 0..digits(bits) {
        let nibble = (0..4).fold(0u32, |acc, _| {
            acc << 1 | u32::from(stream.next().expect("whole digits"))
        });
        text.push(char::from_digit(nibble, 16).expect("a nibble is one digit"));
    }
    text
}

/// The `count` letters of `width` bits in `text`, or `None` unless `text` is exactly the
/// `digits(count * width)` hexadecimal digits of a `count * width`-bit value (in either
/// case; `X`, `U` and other non-digits are refused).
pub fn decode(text: &str, width: usize, count: usize) -> Option<Vec<Letter>> {
    let bits = count * width;
    if text.len() != digits(bits) {
        return None;
    }
    let mut stream = Vec::with_capacity(digits(bits) * 4);
    for c in text.chars() {
        let nibble = c.to_digit(16)?;
        stream.extend((0..4).rev().map(|i| (nibble >> i) & 1 == 1));
    }
    let (pad, value) = stream.split_at(stream.len() - bits);
    if pad.iter().any(|&bit| bit) {
        return None;
    }
    value
        .chunks(width)
        .map(|letter| {
            let a = letter
                .iter()
                .fold(0usize, |acc, &bit| acc << 1 | usize::from(bit));
            Letter::try_from(a).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_msb_first_and_pads_to_whole_digits() {
        // Letters 0,1,2,3,4 of 3 bits: 0 000 001 010 011 100 = 0x029c (1*8^3 + 2*8^2 + 3*8 + 4
        // = 668), 15 bits in 4 digits.
        assert_eq!(encode(&[0, 1, 2, 3, 4], 3), "029c");
        // 2,3,4,3,0: 010 011 100 011 000 = 0x2718.
        assert_eq!(encode(&[2, 3, 4, 3, 0], 3), "2718");
        // One bit per letter: 1,0,1 = 0b101 = 0x5.
        assert_eq!(encode(&[1, 0, 1], 1), "5");
        assert_eq!(encode(&[255, 0], 8), "ff00");
    }

    #[test]
    fn decodes_what_it_encodes_in_either_case() {
        assert_eq!(decode("029c", 3, 5), Some(vec![0, 1, 2, 3, 4]));
        assert_eq!(decode("029C", 3, 5), Some(vec![0, 1, 2, 3, 4]));
        for width in 1..=8 {
            let letters: Vec<Letter> = (0..7).map(|i| (i * 37 % (1 << width)) as Letter).collect();
            assert_eq!(decode(&encode(&letters, width), width, 7), Some(letters));
        }
    }

    #[test]
    fn refuses_unknown_digits_wrong_lengths_and_set_padding() {
        assert_eq!(decode("02Xc", 3, 5), None);
        assert_eq!(decode("29c", 3, 5), None);
        // 15 bits in 4 digits: the top bit is padding and must be zero.
        assert_eq!(decode("829c", 3, 5), None);
    }
}
