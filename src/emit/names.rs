//! Legal identifiers for each language, decided in one place before anything is printed.
//!
//! Every module gets a [`ModuleNames`] mapping its IR names (signals, constants, instance
//! and process labels) to names that are legal and unique in the language; module names
//! form one design-wide namespace. Verilog is case-sensitive; VHDL is not, so its
//! uniqueness is checked case-folded, and it forbids leading, trailing and double
//! underscores. Reserved words of either language (and SystemVerilog's, since Verilog
//! files are often read as SystemVerilog) are never emitted as names.

use crate::rtl::ir::{Design, Module, Statement};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    Verilog,
    Vhdl,
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Language::Verilog => "Verilog",
            Language::Vhdl => "VHDL",
        })
    }
}

const VERILOG_RESERVED: &[&str] = &[
    "accept_on",
    "alias",
    "always",
    "always_comb",
    "always_ff",
    "always_latch",
    "and",
    "assert",
    "assign",
    "assume",
    "automatic",
    "before",
    "begin",
    "bind",
    "bins",
    "binsof",
    "bit",
    "break",
    "buf",
    "bufif0",
    "bufif1",
    "byte",
    "case",
    "casex",
    "casez",
    "cell",
    "chandle",
    "checker",
    "class",
    "clocking",
    "cmos",
    "config",
    "const",
    "constraint",
    "context",
    "continue",
    "cover",
    "covergroup",
    "coverpoint",
    "cross",
    "deassign",
    "default",
    "defparam",
    "design",
    "disable",
    "dist",
    "do",
    "edge",
    "else",
    "end",
    "endcase",
    "endchecker",
    "endclass",
    "endclocking",
    "endconfig",
    "endfunction",
    "endgenerate",
    "endgroup",
    "endinterface",
    "endmodule",
    "endpackage",
    "endprimitive",
    "endprogram",
    "endproperty",
    "endsequence",
    "endspecify",
    "endtable",
    "endtask",
    "enum",
    "event",
    "eventually",
    "expect",
    "export",
    "extends",
    "extern",
    "final",
    "first_match",
    "for",
    "force",
    "foreach",
    "forever",
    "fork",
    "forkjoin",
    "function",
    "generate",
    "genvar",
    "global",
    "highz0",
    "highz1",
    "if",
    "iff",
    "ifnone",
    "ignore_bins",
    "illegal_bins",
    "implements",
    "implies",
    "import",
    "incdir",
    "include",
    "initial",
    "inout",
    "input",
    "inside",
    "instance",
    "int",
    "integer",
    "interconnect",
    "interface",
    "intersect",
    "join",
    "join_any",
    "join_none",
    "large",
    "let",
    "liblist",
    "library",
    "local",
    "localparam",
    "logic",
    "longint",
    "macromodule",
    "matches",
    "medium",
    "modport",
    "module",
    "nand",
    "negedge",
    "nettype",
    "new",
    "nexttime",
    "nmos",
    "nor",
    "noshowcancelled",
    "not",
    "notif0",
    "notif1",
    "null",
    "or",
    "output",
    "package",
    "packed",
    "parameter",
    "pmos",
    "posedge",
    "primitive",
    "priority",
    "program",
    "property",
    "protected",
    "pull0",
    "pull1",
    "pulldown",
    "pullup",
    "pulsestyle_ondetect",
    "pulsestyle_onevent",
    "pure",
    "rand",
    "randc",
    "randcase",
    "randsequence",
    "rcmos",
    "real",
    "realtime",
    "ref",
    "reg",
    "reject_on",
    "release",
    "repeat",
    "restrict",
    "return",
    "rnmos",
    "rpmos",
    "rtran",
    "rtranif0",
    "rtranif1",
    "s_always",
    "s_eventually",
    "s_nexttime",
    "s_until",
    "s_until_with",
    "scalared",
    "sequence",
    "shortint",
    "shortreal",
    "showcancelled",
    "signed",
    "small",
    "soft",
    "solve",
    "specify",
    "specparam",
    "static",
    "string",
    "strong",
    "strong0",
    "strong1",
    "struct",
    "super",
    "supply0",
    "supply1",
    "sync_accept_on",
    "sync_reject_on",
    "table",
    "tagged",
    "task",
    "this",
    "throughout",
    "time",
    "timeprecision",
    "timeunit",
    "tran",
    "tranif0",
    "tranif1",
    "tri",
    "tri0",
    "tri1",
    "triand",
    "trior",
    "trireg",
    "type",
    "typedef",
    "union",
    "unique",
    "unique0",
    "unsigned",
    "until",
    "until_with",
    "untyped",
    "use",
    "uwire",
    "var",
    "vectored",
    "virtual",
    "void",
    "wait",
    "wait_order",
    "wand",
    "weak",
    "weak0",
    "weak1",
    "while",
    "wildcard",
    "wire",
    "with",
    "within",
    "wor",
    "xnor",
    "xor",
];

const VHDL_RESERVED: &[&str] = &[
    "abs",
    "access",
    "after",
    "alias",
    "all",
    "and",
    "architecture",
    "array",
    "assert",
    "assume",
    "assume_guarantee",
    "attribute",
    "begin",
    "block",
    "body",
    "buffer",
    "bus",
    "case",
    "component",
    "configuration",
    "constant",
    "context",
    "cover",
    "default",
    "disconnect",
    "downto",
    "else",
    "elsif",
    "end",
    "entity",
    "exit",
    "fairness",
    "file",
    "for",
    "force",
    "function",
    "generate",
    "generic",
    "group",
    "guarded",
    "if",
    "impure",
    "in",
    "inertial",
    "inout",
    "is",
    "label",
    "library",
    "linkage",
    "literal",
    "loop",
    "map",
    "mod",
    "nand",
    "new",
    "next",
    "nor",
    "not",
    "null",
    "of",
    "on",
    "open",
    "or",
    "others",
    "out",
    "package",
    "parameter",
    "port",
    "postponed",
    "procedure",
    "process",
    "property",
    "protected",
    "pure",
    "range",
    "record",
    "register",
    "reject",
    "release",
    "rem",
    "report",
    "restrict",
    "restrict_guarantee",
    "return",
    "rol",
    "ror",
    "select",
    "sequence",
    "severity",
    "shared",
    "signal",
    "sla",
    "sll",
    "sra",
    "srl",
    "strong",
    "subtype",
    "then",
    "to",
    "transport",
    "type",
    "unaffected",
    "units",
    "until",
    "use",
    "variable",
    "vmode",
    "vprop",
    "vunit",
    "wait",
    "when",
    "while",
    "with",
    "xnor",
    "xor",
    // Names the emitted VHDL itself uses: libraries, packages, types, functions.
    "ieee",
    "std",
    "work",
    "std_logic",
    "std_ulogic",
    "std_logic_vector",
    "std_ulogic_vector",
    "unsigned",
    "signed",
    "numeric_std",
    "std_logic_1164",
    "rising_edge",
    "falling_edge",
    "resize",
    "to_unsigned",
    "to_integer",
    "rtl",
    "boolean",
    "integer",
    "natural",
    "string",
    "kg_eq",
    "kg_ne",
    "kg_lt",
    "kg_mux",
];

/// Legal, unique names for everything one module declares.
#[derive(Debug, Clone)]
pub struct ModuleNames {
    pub module: String,
    pub signals: Vec<String>,
    pub constants: Vec<String>,
    /// Instance labels, in the order of the module's instance statements.
    pub instances: Vec<String>,
    /// VHDL process labels of registers, in the order of the module's register statements.
    pub processes: Vec<String>,
    /// In the order of the module's memory statements.
    pub memories: Vec<MemoryNames>,
}

/// The names one memory declares. Each language uses some of them; both claim all, as
/// both claim register process labels, so that one IR name becomes the same legal name in
/// both wherever the languages allow (the equivalence proof matches the array's words by
/// name).
#[derive(Debug, Clone)]
pub struct MemoryNames {
    /// The array of words.
    pub array: String,
    /// VHDL: the array's type.
    pub array_type: String,
    /// Verilog: the loop variable of the block that zeroes the array.
    pub index: String,
    /// VHDL: the label of the process of both ports.
    pub process: String,
}

/// Names for a whole design in one language.
#[derive(Debug, Clone)]
pub struct DesignNames {
    pub language: Language,
    /// IR module name -> legal module name.
    pub modules: BTreeMap<String, String>,
    /// Per module, in design order.
    pub per_module: Vec<ModuleNames>,
    /// The VHDL helper package (unused for Verilog).
    pub package: String,
}

impl DesignNames {
    pub fn of(&self, module: &Module) -> &ModuleNames {
        self.per_module
            .iter()
            .find(|names| names.module == self.modules[&module.name])
            .expect("every module of the design is named")
    }
}

/// A namespace that hands out legal names not yet taken.
struct Namespace {
    language: Language,
    taken: BTreeSet<String>,
}

impl Namespace {
    fn new(language: Language, reserved: impl IntoIterator<Item = String>) -> Self {
        let mut space = Namespace {
            language,
            taken: BTreeSet::new(),
        };
        for name in reserved {
            let key = space.key(&name);
            space.taken.insert(key);
        }
        space
    }

    /// The form in which two names clash: folded case for VHDL.
    fn key(&self, name: &str) -> String {
        match self.language {
            Language::Verilog => name.to_string(),
            Language::Vhdl => name.to_ascii_lowercase(),
        }
    }

    fn is_reserved(&self, name: &str) -> bool {
        let folded = name.to_ascii_lowercase();
        match self.language {
            Language::Verilog => VERILOG_RESERVED.contains(&name),
            Language::Vhdl => VHDL_RESERVED.contains(&folded.as_str()),
        }
    }

    /// Repairs `wanted` into a legal identifier, then makes it unique.
    fn claim(&mut self, wanted: &str) -> String {
        let mut name: String = wanted
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if self.language == Language::Vhdl {
            while name.contains("__") {
                name = name.replace("__", "_");
            }
            name = name.trim_matches('_').to_string();
        }
        if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') || name.is_empty() {
            name = format!("n_{name}");
        }
        if self.is_reserved(&name) {
            name.push_str("_i");
        }
        let mut candidate = name.clone();
        let mut n = 2;
        while self.taken.contains(&self.key(&candidate)) || self.is_reserved(&candidate) {
            candidate = format!("{name}_{n}");
            n += 1;
        }
        self.taken.insert(self.key(&candidate));
        candidate
    }
}

/// The legal form of one name on its own, as it would be given in an empty namespace.
pub fn legalise(name: &str, language: Language) -> String {
    Namespace::new(language, []).claim(name)
}

/// Decides every name of `design` in `language`.
pub fn name_design(design: &Design, language: Language) -> DesignNames {
    let mut global = Namespace::new(language, []);
    let mut modules = BTreeMap::new();
    for module in &design.modules {
        modules.insert(module.name.clone(), global.claim(&module.name));
    }
    let package = global.claim(&format!("{}_pkg", design.top().name));
    let per_module = design
        .modules
        .iter()
        .map(|module| {
            // Module names are visible inside every module (VHDL `entity work.x`).
            let mut local = Namespace::new(language, global.taken.iter().cloned());
            let mut names = ModuleNames {
                module: modules[&module.name].clone(),
                signals: Vec::new(),
                constants: Vec::new(),
                instances: Vec::new(),
                processes: Vec::new(),
                memories: Vec::new(),
            };
            // Ports first, so that they keep their names whenever these are legal.
            let mut order: Vec<usize> = (0..module.signals.len()).collect();
            order.sort_by_key(|&i| {
                !matches!(module.signals[i].kind, crate::rtl::ir::SignalKind::Port(_))
            });
            let mut signal_names = vec![String::new(); module.signals.len()];
            for i in order {
                signal_names[i] = local.claim(&module.signals[i].name);
            }
            names.signals = signal_names;
            names.constants = module
                .constants
                .iter()
                .map(|c| local.claim(&c.name))
                .collect();
            for item in &module.items {
                match &item.statement {
                    Statement::Instance { name, .. } => names.instances.push(local.claim(name)),
                    Statement::Register { target, .. } => {
                        let label = format!("{}_reg", module.sig(*target).name);
                        names.processes.push(local.claim(&label));
                    }
                    Statement::Memory(memory) => {
                        let name = &memory.name;
                        names.memories.push(MemoryNames {
                            array: local.claim(name),
                            array_type: local.claim(&format!("{name}_words")),
                            index: local.claim(&format!("{name}_word")),
                            process: local.claim(&format!("{name}_ports")),
                        });
                    }
                    _ => {}
                }
            }
            names
        })
        .collect();
    DesignNames {
        language,
        modules,
        per_module,
        package,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim_all(language: Language, wanted: &[&str]) -> Vec<String> {
        let mut space = Namespace::new(language, []);
        wanted.iter().map(|w| space.claim(w)).collect()
    }

    #[test]
    fn vhdl_names_are_repaired_and_case_folded() {
        assert_eq!(
            claim_all(
                Language::Vhdl,
                &[
                    "next", "in", "signal", "Route", "route", "a__b_", "_x", "3way", "kg_mux"
                ]
            ),
            vec![
                "next_i", "in_i", "signal_i", "Route", "route_2", "a_b", "x", "n_3way", "kg_mux_i"
            ]
        );
    }

    #[test]
    fn verilog_names_are_case_sensitive_and_keep_underscores() {
        assert_eq!(
            claim_all(
                Language::Verilog,
                &["reg", "wire", "Route", "route", "a__b_", "logic", "next"]
            ),
            vec![
                "reg_i", "wire_i", "Route", "route", "a__b_", "logic_i", "next"
            ]
        );
    }
}
