//! The largest inputs a session accepts, checked before the work starts: a browser tab has a few
//! GB of memory at most and a user should get a clear message, not a frozen or crashed tab. The
//! CLI reads files without these limits (only the readers' own, such as 1,000,000 hosts).
//!
//! The browser limits hold OpenDC's half-year scale and more: surf_week (6,295 tasks, 2.3 M
//! fragments, 277 hosts, 1.7 MB of parquet) tiled 31 times is 195,145 tasks and 72 M fragments in
//! 51 MB of parquet. Fragments are stored as runs of equal (duration, usage) in 4 bytes each
//! (SURF's traces: about two fragments per run), read a batch at a time into storage that grows
//! without copying, so such a trace needs about 2 bytes per fragment of wasm memory besides its
//! files (the 18-copy tiling, 41.8 M fragments: README, Speed). A trace whose every fragment
//! differs from all others needs about 52 bytes per fragment while it loads (its run in three
//! words past a million pieces, its piece and the piece's index entry), which at the limit
//! is past wasm32's 4 GB: the module traps, and the page restarts it with the inputs it held
//! before and says so.

use super::handles::Held;
use crate::diag::Diagnostic;
use crate::input::parquet::Table;
use serde::Serialize;

/// Maximum sizes of a session's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// Bytes of one file (text or parquet).
    pub max_file_bytes: u64,
    pub max_tasks: u64,
    pub max_fragments: u64,
    /// Hosts of a topology, after host counts are edited too.
    pub max_hosts: u64,
}

impl Default for Limits {
    /// No limit beyond what the readers enforce themselves (native use).
    fn default() -> Self {
        Limits {
            max_file_bytes: u64::MAX,
            max_tasks: u64::MAX,
            max_fragments: u64::MAX,
            max_hosts: u64::MAX,
        }
    }
}

impl Limits {
    /// The limits of the page (the wasm session).
    pub const BROWSER: Limits = Limits {
        max_file_bytes: 256 << 20,
        max_tasks: 500_000,
        max_fragments: 80_000_000,
        max_hosts: 50_000,
    };

    fn too_big(&self, what: &str, found: u64, max: u64, unit: &str) -> Vec<Diagnostic> {
        vec![Diagnostic::error(
            "",
            format!(
                "{what} has {found} {unit}; the playground in the browser takes at most {max} \
                 (use the command-line tool, `policy-playground simulate`, for larger inputs)"
            ),
        )]
    }

    /// A file of `len` bytes, before it is parsed.
    pub fn check_bytes(&self, len: usize, what: &str) -> Result<(), Vec<Diagnostic>> {
        if len as u64 > self.max_file_bytes {
            return Err(self.too_big(what, len as u64, self.max_file_bytes, "bytes"));
        }
        Ok(())
    }

    /// A parquet workload, from its sizes and the row counts of its footers, before decoding.
    pub fn check_parquet_workload(
        &self,
        tasks: &[u8],
        fragments: &[u8],
    ) -> Result<(), Vec<Diagnostic>> {
        self.check_bytes(tasks.len(), "tasks.parquet")?;
        self.check_bytes(fragments.len(), "fragments.parquet")?;
        // A file that does not open is left for the reader to report in full.
        if let Ok(t) = Table::open(tasks, "tasks.parquet") {
            self.check_count("tasks.parquet", t.rows(), self.max_tasks, "tasks")?;
        }
        if !fragments.is_empty() {
            if let Ok(f) = Table::open(fragments, "fragments.parquet") {
                let rows = f.rows();
                self.check_count("fragments.parquet", rows, self.max_fragments, "fragments")?;
            }
        }
        Ok(())
    }

    fn check_count(&self, what: &str, n: u64, max: u64, unit: &str) -> Result<(), Vec<Diagnostic>> {
        if n > max {
            return Err(self.too_big(what, n, max, unit));
        }
        Ok(())
    }

    /// A topology of `hosts` hosts (also after an edit of its host counts).
    pub fn check_hosts(&self, hosts: u64) -> Result<(), Vec<Diagnostic>> {
        self.check_count("the topology", hosts, self.max_hosts, "hosts")
    }

    /// A scenario read whole, before it is run.
    pub fn check_scenario(&self, s: &crate::scenario::ScenarioFile) -> Result<(), Vec<Diagnostic>> {
        self.check_hosts(s.topology.host_count())?;
        self.check_count(
            "the workload",
            s.workload.tasks.len() as u64,
            self.max_tasks,
            "tasks",
        )?;
        let fragments = s.workload.fragments.len();
        self.check_count("the workload", fragments, self.max_fragments, "fragments")
    }

    /// A parsed input, before it is kept.
    pub(super) fn check_loaded(&self, item: &Held) -> Result<(), Vec<Diagnostic>> {
        match item {
            Held::Topology(t) => self.check_hosts(t.host_count()),
            Held::Workload(w) => {
                self.check_count(
                    "the workload",
                    w.tasks.len() as u64,
                    self.max_tasks,
                    "tasks",
                )?;
                let fragments = w.fragments.len();
                self.check_count("the workload", fragments, self.max_fragments, "fragments")
            }
            Held::Carbon(_) | Held::Run(_) => Ok(()),
        }
    }
}
