//! OpenDC3 (SDK) experiments, read whole (SPEC 11): the JSON layer with `importFrom`
//! ([`document`]), the experiment-level keys ([`settings`]), topologies, workloads and policies,
//! and the runs: equal axis entries collapsed and scenarios numbered as OpenDC3 numbers them
//! (SPEC 11.4.1), each run `runs` times with seeds `initialSeed + r` (SPEC 11.4.2).

mod collect;
pub mod document;
mod policy;
mod resources;
mod settings;
mod topologies;
mod workloads;

pub use settings::MAX_RUNS;

use super::{Experiment, Files, Format, LoadError, Run};
use crate::diag::{has_errors, Diagnostic};
use crate::json::Place;
use collect::Collector;
use document::Document;
use serde_json::Value;
use std::path::Path;

impl Place for Document {
    fn place_diagnostic(&self, diagnostic: Diagnostic, offset: usize) -> Diagnostic {
        self.place_at(diagnostic, offset)
    }
}

/// What `check` reports on an SDK experiment: every diagnostic, and each policy (`None` for an
/// entry with errors).
pub struct Validation {
    pub diagnostics: Vec<Diagnostic>,
    pub policies: Vec<policy::Entry>,
}

/// Checks an SDK experiment as `opendc validate` does: its keys, values and imports, without
/// reading the traces it names (SPEC 11.2.5, 11.14.3).
pub fn validate(files: &dyn Files, path: &Path, text: String, strict: bool) -> Validation {
    match read_all(files, path, text, strict, false) {
        Err(e) => Validation {
            diagnostics: e.diagnostics().to_vec(),
            policies: vec![],
        },
        Ok(parts) => Validation {
            diagnostics: parts.diagnostics,
            policies: parts.policies,
        },
    }
}

/// Loads the SDK experiment at `path` (whose text is `text`) and everything it names.
pub fn load(
    files: &dyn Files,
    path: &Path,
    text: String,
    strict: bool,
) -> Result<Experiment, LoadError> {
    let parts = read_all(files, path, text, strict, true)?;
    if has_errors(&parts.diagnostics) {
        let mut diagnostics = parts.diagnostics;
        diagnostics.sort_by_key(|d| !d.is_error());
        return Err(if parts.unreadable {
            LoadError::Unreadable(diagnostics)
        } else {
            LoadError::Invalid(diagnostics)
        });
    }
    let mut c = Collector::new(strict);
    let topologies: Vec<_> = parts.topologies.into_iter().flatten().collect();
    let workloads: Vec<_> = parts.workloads.into_iter().flatten().collect();
    let policies: Vec<_> = parts.policies.into_iter().flatten().collect();
    let (topologies, t_kept) = collapse(
        topologies,
        "topologies",
        |a, b| a.1.clusters == b.1.clusters && a.2 == b.2,
        &mut c,
    );
    let (workloads, w_kept) = collapse(
        workloads,
        "workloads",
        |a, b| same_workload(&a.1, &b.1),
        &mut c,
    );
    let (policies, p_kept) = collapse(policies, "allocationPolicies", |a, b| a.0 == b.0, &mut c);
    let (policies, policy_json) = policies.into_iter().unzip();
    let runs = runs(&parts.settings, [&t_kept, &w_kept, &p_kept], &mut c);
    let mut diagnostics = parts.diagnostics;
    diagnostics.extend(parts.doc.place(c.finish()));
    if has_errors(&diagnostics) {
        return Err(LoadError::Invalid(diagnostics));
    }
    let name = match parts.settings.name.as_str() {
        "" => super::label(path),
        n => n.to_string(),
    };
    Ok(Experiment {
        name,
        topologies,
        workloads,
        policies,
        policy_json,
        runs,
        warnings: diagnostics,
        format: Format::Sdk,
    })
}

/// Everything read from an SDK experiment, before its axes are collapsed.
struct Parts {
    doc: Document,
    settings: settings::Settings,
    topologies: Vec<Option<topologies::Entry>>,
    workloads: Vec<Option<workloads::Entry>>,
    policies: Vec<policy::Entry>,
    /// Placed, errors and warnings.
    diagnostics: Vec<Diagnostic>,
    unreadable: bool,
}

/// Reads the document, its settings, topologies, workloads and policies; `resolve` reads the
/// traces the file names too (a run needs them, `check` does not).
fn read_all(
    files: &dyn Files,
    path: &Path,
    text: String,
    strict: bool,
    resolve: bool,
) -> Result<Parts, LoadError> {
    let doc = document::read(files, path, text)?;
    let value = doc.value();
    let mut c = Collector::new(strict);
    let Some(top) = value.as_object() else {
        let d = Diagnostic::error(
            "",
            "an experiment is a JSON object with `topologies` and `workloads`",
        );
        return Err(LoadError::Invalid(doc.place(vec![d])));
    };
    let settings = settings::read(top, &mut c);
    let root = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let reading = Reading {
        files,
        root,
        resolve,
    };
    let topologies = topologies::read(&reading, required_list(top, "topologies", &mut c), &mut c);
    let workloads = workloads::read(&reading, required_list(top, "workloads", &mut c), &mut c);
    let (policies, policy_diagnostics) =
        policy::read(&doc, doc.root.get("allocationPolicies"), strict);
    let unreadable = c.unreadable;
    let mut diagnostics = doc.warnings.clone();
    diagnostics.extend(policy_diagnostics);
    diagnostics.extend(doc.place(c.finish()));
    Ok(Parts {
        doc,
        settings,
        topologies,
        workloads,
        policies,
        diagnostics,
        unreadable,
    })
}

/// Where the files of an experiment come from, and whether the traces are read.
pub(crate) struct Reading<'f> {
    pub files: &'f dyn Files,
    /// The experiment file's folder: references resolve under it (SPEC 11.8.1).
    pub root: &'f Path,
    /// Read the traces (a run); `false` checks only what the file says (`check`).
    pub resolve: bool,
}

/// A required, non-empty list (SPEC 11.4).
fn required_list<'v>(
    top: &'v serde_json::Map<String, Value>,
    key: &str,
    c: &mut Collector,
) -> &'v [Value] {
    match top.get(key) {
        None => c.error(
            "",
            format!("the experiment lacks `{key}`, a non-empty list"),
        ),
        Some(Value::Array(items)) if items.is_empty() => c.error(
            key,
            format!("`{key}` is empty: OpenDC3 needs at least one entry"),
        ),
        Some(Value::Array(items)) => return items,
        Some(other) => c.error(key, format!("`{key}` must be a list, found {other}")),
    }
    &[]
}

fn same_workload(a: &crate::model::Workload, b: &crate::model::Workload) -> bool {
    a.tasks == b.tasks && a.fragments == b.fragments
}

/// The entries of an axis with equal ones collapsed into the first (OpenDC3's axes are sets), a
/// warning at each dropped entry; also the original index of each entry kept.
fn collapse<T>(
    items: Vec<T>,
    axis: &str,
    equal: impl Fn(&T, &T) -> bool,
    c: &mut Collector,
) -> (Vec<T>, Vec<usize>) {
    let mut kept: Vec<T> = Vec::new();
    let mut index = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        match kept.iter().position(|k| equal(k, &item)) {
            Some(j) => c.warn(&format!("{axis}[{i}]"), format!("this entry equals {axis}[{}] once OpenDC3 has read it (defaults filled in, ignored keys dropped): OpenDC3 runs it once, and so does the playground", index[j])),
            None => {
                kept.push(item);
                index.push(i);
            }
        }
    }
    (kept, index)
}

/// The runs in OpenDC3's scenario order: topologies slowest, then workloads, then policies;
/// each `runs` times with seeds `initialSeed + r` (as i64, then u64).
fn runs(s: &settings::Settings, kept: [&Vec<usize>; 3], c: &mut Collector) -> Vec<Run> {
    let [t, w, p] = kept;
    let scenarios = (t.len() * w.len() * p.len()) as u64;
    let total = scenarios.saturating_mul(s.runs as u64);
    if total > MAX_RUNS {
        c.error("runs", format!("the experiment asks for {total} runs ({scenarios} scenarios x {} runs); at most {MAX_RUNS} are supported", s.runs));
        return vec![];
    }
    let mut out = Vec::with_capacity(total as usize);
    for topology in 0..t.len() {
        for workload in 0..w.len() {
            for policy in 0..p.len() {
                let scenario =
                    ((topology * w.len() + workload) * p.len() + policy) as u64 * s.identical;
                for run in 0..s.runs {
                    out.push(Run {
                        topology,
                        workload,
                        policy,
                        run,
                        seed: (s.initial_seed as i64 + run as i64) as u64,
                        scenario,
                    });
                }
            }
        }
    }
    out
}
