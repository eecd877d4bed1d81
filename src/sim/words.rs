//! How a sequence unit's data inputs and items read in a report (`src=0,1,2`, `[d0=1
//! d2=0]`, `[2012]`): one description that kautzgen's reports print from in Rust and the
//! self-checking testbenches print from in Verilog and VHDL, so that a failure reads the
//! same in `kautzgen verify` and in an exported testbench.
//!
//! In: the fields of each input port and the layout of an item (a list of fields at the top
//! of its first port, the count of fields used in its second). Out: the text, or `None` for
//! an item that decodes to nothing meaningful (then the ports are shown in hexadecimal).

use crate::sim::bits::Bits;
use serde::Serialize;

/// A field of a port: `width` bits from bit `lo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Field {
    pub lo: u32,
    pub width: u32,
}

/// How one data input reads: `label`, then its fields in decimal joined by `join`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InputWords {
    /// "src=".
    pub label: String,
    /// Most significant first.
    pub fields: Vec<Field>,
    pub join: String,
}

/// How an item of two ports reads: `slots` fields of `field_bits` bits from the top of the
/// first port, of which the second port says how many are used (at least `min_len`), in
/// brackets and joined by `join`; each field a number, or with `value_bits` > 0 a move
/// `d<dimension>=<value>` (the field's high bits and low `value_bits` bits) of a dimension
/// below `dimensions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemWords {
    pub slots: u32,
    pub field_bits: u32,
    pub join: String,
    pub min_len: u32,
    pub value_bits: u32,
    pub dimensions: u32,
}

/// The words of a unit's inputs and items.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Words {
    pub inputs: Vec<InputWords>,
    pub item: ItemWords,
}

impl Words {
    /// The inputs, each as its label and fields, separated by spaces.
    pub fn show_inputs(&self, inputs: &[Bits]) -> String {
        let shown: Vec<String> = self
            .inputs
            .iter()
            .zip(inputs)
            .map(|(words, bits)| {
                let fields: Vec<String> = words
                    .fields
                    .iter()
                    .map(|f| bits.get(f.lo, f.width).to_string())
                    .collect();
                format!("{}{}", words.label, fields.join(&words.join))
            })
            .collect();
        shown.join(" ")
    }

    /// The item's fields, without brackets; `None` when its length or a dimension is out of
    /// range.
    pub fn show_item(&self, item: &[Bits]) -> Option<String> {
        let w = &self.item;
        let len = item[1].get(0, item[1].width().min(64));
        if len < u64::from(w.min_len) || len > u64::from(w.slots) {
            return None;
        }
        let fields: Option<Vec<String>> = (0..len as u32)
            .map(|j| {
                let field = item[0].get((w.slots - 1 - j) * w.field_bits, w.field_bits);
                match w.value_bits {
                    0 => Some(field.to_string()),
                    vb => {
                        let dimension = field >> vb;
                        (dimension < u64::from(w.dimensions))
                            .then(|| format!("d{dimension}={}", field & ((1 << vb) - 1)))
                    }
                }
            })
            .collect();
        fields.map(|f| f.join(&w.join))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_moves_read_as_the_reports_write_them() {
        let letters = Words {
            inputs: vec![InputWords {
                label: "src=".into(),
                fields: vec![
                    Field { lo: 4, width: 2 },
                    Field { lo: 2, width: 2 },
                    Field { lo: 0, width: 2 },
                ],
                join: String::new(),
            }],
            item: ItemWords {
                slots: 5,
                field_bits: 2,
                join: String::new(),
                min_len: 0,
                value_bits: 0,
                dimensions: 0,
            },
        };
        // 0b01_00_10 = letters 1, 0, 2.
        assert_eq!(
            letters.show_inputs(&[Bits::from_u64(6, 0b010010)]),
            "src=102"
        );
        // Route [2,0,1,2] at the top of five 2-bit slots: 10 00 01 10 00.
        let route = [Bits::from_u64(10, 0b10_00_01_10_00), Bits::from_u64(3, 4)];
        assert_eq!(letters.show_item(&route).as_deref(), Some("2012"));
        assert_eq!(
            letters.show_item(&[route[0].clone(), Bits::from_u64(3, 6)]),
            None
        );
        let moves = Words {
            inputs: vec![],
            item: ItemWords {
                slots: 2,
                field_bits: 3,
                join: " ".into(),
                min_len: 1,
                value_bits: 1,
                dimensions: 3,
            },
        };
        // Moves d2=1 (0b101) then d0=0 (0b000).
        let path = [Bits::from_u64(6, 0b101_000), Bits::from_u64(2, 2)];
        assert_eq!(moves.show_item(&path).as_deref(), Some("d2=1 d0=0"));
        // Dimension 3 does not exist; no move at all is no path.
        assert_eq!(
            moves.show_item(&[Bits::from_u64(6, 0b111_000), Bits::from_u64(2, 1)]),
            None
        );
        assert_eq!(
            moves.show_item(&[path[0].clone(), Bits::from_u64(2, 0)]),
            None
        );
    }
}
