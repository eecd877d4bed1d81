//! A link word of an 8-bit network in 16 bits (valid, type bit, byte): the network models
//! keep worms and every link's current word in this form, a quarter of a [`Word`], so that
//! a large network's working set stays in cache.

use super::switch::Word;

/// [`Word::IDLE`], packed.
pub const IDLE: u16 = 0;

/// Packs `w`, whose data must fit a byte.
#[inline]
pub fn pack(w: Word) -> u16 {
    debug_assert!(w.data <= 0xff);
    u16::from(w.valid) << 9 | u16::from(w.ctl) << 8 | w.data as u16
}

#[inline]
pub fn unpack(bits: u16) -> Word {
    Word {
        valid: bits >> 9 & 1 == 1,
        ctl: bits >> 8 & 1 == 1,
        data: u64::from(bits & 0xff),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_is_packed_as_zero() {
        assert_eq!(pack(Word::IDLE), IDLE);
    }

    #[test]
    fn every_byte_word_survives_packing() {
        for valid in [false, true] {
            for ctl in [false, true] {
                for data in 0..=0xff {
                    let w = Word { valid, ctl, data };
                    assert_eq!(unpack(pack(w)), w);
                }
            }
        }
    }
}
