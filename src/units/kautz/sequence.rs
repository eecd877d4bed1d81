//! The Kautz route generator (faithful or parallel architecture) as a sequence unit: `init`
//! starts a search for `src` and `dst`, each route is an item on `route` and `route_len`,
//! taken with `next_route`, and `done` ends the set (with `error` for words that are not
//! nodes, or equal). Its exported testbench is the sequence units' self-checking one.
//!
//! In: the generator's parameters, a built-in fault or none, and the vectors `verify`
//! selects ([`VectorSet`]: the pairs, then the invalid words). Out: the design, each
//! vector's `src` and `dst`, and the golden model's routes encoded as the ports carry them
//! (docs/route-generator.md).

use crate::emit::manifest::Manifest;
use crate::emit::names::Language;
use crate::routing::kautz::route_set;
use crate::rtl::ir::Design;
use crate::rtl::kautz_route::parallel;
use crate::rtl::kautz_route::{self, Arch, Fault, RouteGenParams};
use crate::sim::bits::Bits;
use crate::sim::sequence::{Handshake, Item, Refused, SequenceUnit};
use crate::sim::vectors::VectorSet;
use crate::sim::words::{Field, InputWords, ItemWords, Words};
use crate::topology::kautz::{Kautz, Letter};
use crate::units::check::with_fault;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The route generator of `params` checked on `vectors`.
pub struct RouteGenUnit {
    params: RouteGenParams,
    fault: Option<Fault>,
    vectors: VectorSet,
    /// The design simulated, when it is read from a directory rather than generated.
    read: Option<DesignDir>,
}

impl RouteGenUnit {
    /// The unit of `params`, which must be the faithful or the parallel architecture (the
    /// pipelined engine streams whole sets: `route_pipe`).
    pub fn new(params: RouteGenParams, fault: Option<Fault>, vectors: VectorSet) -> Self {
        assert_ne!(params.arch, Arch::Pipelined, "the engine is a stream unit");
        RouteGenUnit {
            params,
            fault,
            vectors,
            read: None,
        }
    }

    /// The unit simulating the design `read` (the faithful or parallel generator of the
    /// same K(d,k), whose ports are those of the generated one) instead of generating it.
    pub fn reading(mut self, read: DesignDir) -> Self {
        self.params.top = read.top().to_string();
        self.read = Some(read);
        self
    }

    fn word(&self, letters: &[Letter]) -> Bits {
        let (k, w) = (self.params.k() as u32, self.params.letter_bits());
        let mut bits = Bits::zero(k * w);
        for (i, &letter) in letters.iter().enumerate() {
            bits.set((k - 1 - i as u32) * w, w, u64::from(letter));
        }
        bits
    }

    fn letters(&self, bits: &Bits) -> Vec<Letter> {
        let (k, w) = (self.params.k() as u32, self.params.letter_bits());
        (0..k)
            .map(|i| bits.get((k - 1 - i) * w, w) as Letter)
            .collect()
    }
}

impl SequenceUnit for RouteGenUnit {
    /// "route generator of K(2,3): all 132 pairs and 6 invalid vectors: 138 vectors", with
    /// the architecture, the built-in fault or the directory read when there are.
    fn describe(&self) -> String {
        if let Some(read) = &self.read {
            return format!(
                "route generator read from {} of {}",
                read.given.display(),
                self.vectors.describe()
            );
        }
        let arch = match self.params.arch {
            Arch::Parallel => "parallel ",
            _ => "",
        };
        let fault = with_fault(self.fault);
        format!(
            "{arch}route generator{fault} of {}",
            self.vectors.describe()
        )
    }

    fn design(&self) -> Design {
        let design = kautz_route::design_with_fault(&self.params, self.fault);
        // A design read from a directory has the reset its manifest names, and the
        // testbench drives that one.
        match &self.read {
            Some(read) => design
                .with_reset(read.manifest.reset)
                .expect("a route generator is synchronous"),
            None => design,
        }
    }

    fn handshake(&self) -> Handshake {
        Handshake {
            start: "init",
            next: "next_route",
            valid: "route_valid",
            done: "done",
            error: "error",
        }
    }

    /// The architecture's bound: the parallel design's 2, or the faithful design's
    /// k + 3(d+1) + 4 (each as its manifest's `cycle_bound` or description says).
    fn cycle_bound(&self) -> u64 {
        if let Some(read) = &self.read {
            return read.cycle_bound(&self.params.graph);
        }
        match self.params.arch {
            Arch::Parallel => parallel::CYCLE_BOUND as u64,
            _ => kautz_route::faithful::cycle_bound(self.params.d(), self.params.k()) as u64,
        }
    }

    /// A route set holds d routes.
    fn most_items(&self) -> usize {
        self.params.d()
    }

    fn vector_count(&self) -> u64 {
        self.vectors.len()
    }

    fn files(&self, language: Language) -> Option<Vec<PathBuf>> {
        self.read.as_ref().map(|read| read.files(language))
    }

    fn vector(&self, index: u64) -> Vec<Bits> {
        let vector = self.vectors.get(index);
        vec![self.word(&vector.src), self.word(&vector.dst)]
    }

    fn expected(&self, inputs: &[Bits]) -> Result<Vec<Item>, Refused> {
        let (src, dst) = (self.letters(&inputs[0]), self.letters(&inputs[1]));
        let routes = route_set(&self.params.graph, &src, &dst).map_err(|_| Refused)?;
        let (k, w, lw) = (
            self.params.k() as u32,
            self.params.letter_bits(),
            self.params.length_bits(),
        );
        Ok(routes
            .iter()
            .map(|route| {
                let mut bits = Bits::zero((k + 2) * w);
                for (j, &letter) in route.hops.iter().enumerate() {
                    bits.set((k + 1 - j as u32) * w, w, u64::from(letter));
                }
                vec![bits, Bits::from_u64(lw, route.hops.len() as u64)]
            })
            .collect())
    }

    fn sequence_name(&self) -> &'static str {
        "route set"
    }

    /// `src=010 dst=012` and a route as its hops, `[2012]`: letters as the `routes` command
    /// writes them (digits when d <= 9, else separated by commas).
    fn words(&self) -> Option<Words> {
        let (k, w) = (self.params.k() as u32, self.params.letter_bits());
        let join = if self.params.d() <= 9 { "" } else { "," };
        let input = |label: &str| InputWords {
            label: label.to_string(),
            fields: (0..k)
                .map(|i| Field {
                    lo: (k - 1 - i) * w,
                    width: w,
                })
                .collect(),
            join: join.to_string(),
        };
        Some(Words {
            inputs: vec![input("src="), input("dst=")],
            item: ItemWords {
                slots: k + 2,
                field_bits: w,
                join: join.to_string(),
                min_len: 0,
                value_bits: 0,
                dimensions: 0,
            },
        })
    }
}

/// Why a design directory cannot be checked as this route generator.
#[derive(Debug, Error)]
pub enum DesignDirError {
    #[error("cannot read {}: {cause}", path.display())]
    Read {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{} is not a design manifest: {cause}", path.display())]
    Manifest {
        path: PathBuf,
        cause: serde_json::Error,
    },
    #[error(transparent)]
    SelfTimed(#[from] crate::rtl::ir::SelfTimedError),
    #[error(
        "the design in {} is the pipelined engine, whose ports are not the route generator's; check it with `kautzgen verify --d D --k K --arch pipelined`, which generates it",
        dir.display()
    )]
    Pipelined { dir: PathBuf },
    #[error("the design in {} is for {found}, not d = {d}, k = {k}", dir.display())]
    Params {
        dir: PathBuf,
        found: String,
        d: usize,
        k: usize,
    },
}

/// A route generator's design directory as `kautzgen generate` writes it: `manifest.json`
/// and the HDL files it lists.
#[derive(Debug, Clone)]
pub struct DesignDir {
    /// The directory as the user named it, for reports; `dir` is its absolute path.
    given: PathBuf,
    dir: PathBuf,
    manifest: Manifest,
}

impl DesignDir {
    /// Reads `dir/manifest.json` and checks that it is a route generator with the route
    /// by route handshake for `graph`.
    pub fn load(dir: &Path, graph: &Kautz) -> Result<Self, DesignDirError> {
        let dir = dir.to_path_buf();
        let path = dir.join("manifest.json");
        let text = std::fs::read_to_string(&path).map_err(|cause| DesignDirError::Read {
            path: path.clone(),
            cause,
        })?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|cause| DesignDirError::Manifest { path, cause })?;
        // The testbenches step the design by its clock and time its answers in cycles.
        manifest
            .timing
            .require_synchronous("verification against the golden model", &manifest.top)?;
        // Simulators run in a directory of their own: the files need absolute paths.
        let canonical = std::fs::canonicalize(&dir).map_err(|cause| DesignDirError::Read {
            path: dir.to_path_buf(),
            cause,
        })?;
        let read = DesignDir {
            given: dir.clone(),
            dir: canonical,
            manifest,
        };
        read.check_graph(graph)?;
        Ok(read)
    }

    fn check_graph(&self, graph: &Kautz) -> Result<(), DesignDirError> {
        let param = |name: &str| self.manifest.params.get(name).copied();
        let (d, k) = (graph.d(), graph.k());
        if param("d") == Some(d as u64) && param("k") == Some(k as u64) {
            // Of the Kautz units, only the pipelined engine has a latency in its manifest.
            return match param("latency") {
                Some(_) => Err(DesignDirError::Pipelined {
                    dir: self.dir.clone(),
                }),
                None => Ok(()),
            };
        }
        let show = |v: Option<u64>| v.map_or("none".to_string(), |v| v.to_string());
        Err(DesignDirError::Params {
            dir: self.dir.clone(),
            found: format!("d = {}, k = {}", show(param("d")), show(param("k"))),
            d,
            k,
        })
    }

    /// The most cycles of work per route set: the manifest's `cycle_bound` (the parallel
    /// design writes it), else the faithful design's k + 3(d+1) + 4.
    fn cycle_bound(&self, graph: &Kautz) -> u64 {
        match self.manifest.params.get("cycle_bound") {
            Some(&bound) => bound,
            None => crate::rtl::kautz_route::faithful::cycle_bound(graph.d(), graph.k()) as u64,
        }
    }

    /// The top module and entity.
    pub fn top(&self) -> &str {
        &self.manifest.top
    }

    /// The files of `language`, in compile order.
    fn files(&self, language: Language) -> Vec<PathBuf> {
        let files = match language {
            Language::Verilog => &self.manifest.verilog,
            Language::Vhdl => &self.manifest.vhdl,
        };
        files.iter().map(|f| self.dir.join(f)).collect()
    }
}
