//! Widths of numbers in bits, shared by every layer that packs values into words: the
//! golden models' header layouts, the hardware generators' signals and the testbenches'
//! vectors.

/// ceil(log2(values)): the bits that tell `values` values apart, 0 for a single value
/// (which needs no bits at all). A field of a header, an address of a memory.
pub fn ceil_log2(values: u64) -> u32 {
    u64::BITS - values.saturating_sub(1).leading_zeros()
}

/// The width of a signal that holds one of the values `0..values`: [`ceil_log2`], but at
/// least one bit, since a signal cannot be empty.
pub fn bits_for(values: u64) -> u32 {
    ceil_log2(values).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_for_counts_values() {
        let cases = [
            (1, 1),
            (2, 1),
            (3, 2),
            (4, 2),
            (5, 3),
            (9, 4),
            (16, 4),
            (17, 5),
        ];
        for (values, bits) in cases {
            assert_eq!(bits_for(values), bits, "{values}");
        }
        assert_eq!(bits_for(1 << 32), 32);
    }

    #[test]
    fn a_single_value_needs_no_bits_but_a_signal_needs_one() {
        assert_eq!((ceil_log2(0), ceil_log2(1), ceil_log2(2)), (0, 0, 1));
        assert_eq!((bits_for(0), bits_for(1)), (1, 1));
        assert_eq!(ceil_log2(u64::MAX), 64);
    }
}
