//! The FuseSoC core file (CAPI2) of a design directory: `<top>.core`.
//!
//! In: the design, the manifest of its files and the command that produced it. Out: a
//! core that lists each language's files in compile order with their file type
//! (`verilogSource-2005`, `vhdlSource-2008`), with a `default` target (the Verilog), a
//! `vhdl` target and a Verilator `lint` target, so that the directory drops into a FuseSoC
//! library or an edalize flow as it is. A self-timed design has no `lint` target: its C
//! elements are loops that Verilator's lint reports by design. Rendered from
//! `templates/fusesoc_core.tera`.

use crate::emit::manifest::{Manifest, TestbenchEntry};
use crate::emit::{GeneratedFile, Provenance};
use crate::rtl::ir::Design;
use serde::Serialize;

const TEMPLATE: &str = include_str!("../../templates/fusesoc_core.tera");

#[derive(Serialize)]
struct Context<'a> {
    top: &'a str,
    summary: &'a str,
    params: String,
    version: &'a str,
    command: &'a str,
    vlnv: String,
    description: String,
    verilog: &'a [String],
    vhdl: &'a [String],
    default_fileset: &'a str,
    /// Whether the core has the Verilator lint target.
    lint: bool,
    /// The self-checking testbench's top, files, and the simulators of its `sim` target;
    /// empty without one.
    tb_top: String,
    tb_verilog: String,
    tb_vhdl: String,
    tb_vectors: String,
    sim_tools: String,
    sim_default: &'a str,
}

/// `<top>.core` for the files `manifest` lists.
pub fn core_file(design: &Design, manifest: &Manifest, provenance: &Provenance) -> GeneratedFile {
    let params: Vec<String> = design
        .params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let params = params.join(", ");
    let context = Context {
        top: &manifest.top,
        summary: &design.summary,
        description: serde_json::to_string(&format!("kautzgen {} ({params})", design.summary))
            .expect("strings serialise"),
        params,
        version: env!("CARGO_PKG_VERSION"),
        command: &provenance.command,
        vlnv: manifest.vlnv(),
        verilog: &manifest.verilog,
        vhdl: &manifest.vhdl,
        default_fileset: if manifest.verilog.is_empty() {
            "vhdl"
        } else {
            "verilog"
        },
        lint: !manifest.verilog.is_empty() && design.timing.is_synchronous(),
        tb_top: String::new(),
        tb_verilog: String::new(),
        tb_vhdl: String::new(),
        tb_vectors: String::new(),
        sim_tools: String::new(),
        sim_default: "",
    };
    let context = match &manifest.testbench {
        Some(tb) => with_testbench(context, tb),
        None => context,
    };
    let mut tera = tera::Tera::new();
    tera.autoescape_on(Vec::<&str>::new());
    let text = tera
        .add_raw_template("fusesoc_core.tera", TEMPLATE)
        .and_then(|()| {
            tera.render(
                "fusesoc_core.tera",
                &tera::Context::from_serialize(&context)?,
            )
        })
        .expect("the core template is compiled in and renders every design");
    GeneratedFile {
        path: format!("{}.core", manifest.top),
        text,
    }
}

/// `context` with the `sim` target of the testbench `tb`: Icarus by default, Verilator, and
/// GHDL for the VHDL.
fn with_testbench<'a>(context: Context<'a>, tb: &TestbenchEntry) -> Context<'a> {
    let source = |ext: &str| {
        tb.files
            .iter()
            .find(|f| f.ends_with(ext))
            .cloned()
            .unwrap_or_default()
    };
    let verilog = tb.top.contains_key("verilog");
    let tools: Vec<&str> = [
        (verilog, "icarus"),
        (verilog, "verilator"),
        (tb.top.contains_key("vhdl"), "ghdl"),
    ]
    .into_iter()
    .filter_map(|(has, tool)| has.then_some(tool))
    .collect();
    Context {
        // Both languages' tops are `tb_<top>`, legal and alike in both.
        tb_top: tb.top.values().next().cloned().unwrap_or_default(),
        tb_verilog: source(".v"),
        tb_vhdl: source(".vhd"),
        tb_vectors: source("vectors.txt"),
        sim_default: tools[0],
        sim_tools: tools.join(", "),
        ..context
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::names::Language;
    use crate::emit::render;
    use crate::rtl::ir::Timing;
    use crate::rtl::kautz_route::{RouteGenParams, design};

    #[test]
    fn the_core_lists_every_file_with_its_type() {
        let params = RouteGenParams::new(2, 3, "kautz_route_gen").unwrap();
        let provenance = Provenance {
            command: "kautzgen generate --d 2 --k 3".into(),
        };
        let (files, manifest) = render(
            &design(&params),
            &[Language::Verilog, Language::Vhdl],
            &provenance,
        )
        .unwrap();
        let core = files
            .iter()
            .find(|f| f.path == "kautz_route_gen.core")
            .expect("render writes the core");
        assert!(core.text.starts_with("CAPI=2:\n"), "{}", core.text);
        for line in [
            "name: kautzgen:hdl:kautz_route_gen_d2_k3:0.1.0",
            "    file_type: verilogSource-2005",
            "    file_type: vhdlSource-2008",
            "      - vhdl/kautz_route_gen_pkg.vhd",
            "  lint:\n    description: Verilator -Wall, lint only\n    flow: lint",
            "    filesets: [verilog]\n    toplevel: kautz_route_gen",
        ] {
            assert!(
                core.text.contains(line),
                "missing {line:?} in\n{}",
                core.text
            );
        }
        for file in manifest.verilog.iter().chain(&manifest.vhdl) {
            assert!(core.text.contains(&format!("      - {file}\n")), "{file}");
        }
        let vhdl_only = render(&design(&params), &[Language::Vhdl], &provenance).unwrap();
        let core = vhdl_only
            .0
            .iter()
            .find(|f| f.path.ends_with(".core"))
            .unwrap();
        assert!(core.text.contains("  default:\n    filesets: [vhdl]"));
        assert!(!core.text.contains("lint"));
        let mut self_timed = design(&params);
        self_timed.timing = Timing::SelfTimed;
        let (files, _) = render(&self_timed, &[Language::Verilog], &provenance).unwrap();
        let core = files.iter().find(|f| f.path.ends_with(".core")).unwrap();
        assert!(core.text.contains("  default:\n    filesets: [verilog]"));
        assert!(!core.text.contains("lint"), "{}", core.text);
    }
}
