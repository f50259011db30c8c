//! Workloads made in the page: generated ([`crate::generate`]), edited in a task table
//! ([`crate::task_table`]), or a window or a sample of another ([`crate::select`]). Each becomes
//! a handle like a loaded workload (so it runs, explains and exports like any other), and any
//! workload handle can be written out as the JSON `simulate --workload` reads.
//!
//! The table and the selection answer the new workload as JSON text, which the page loads as a
//! JSON workload: the page can then load it again by itself after a worker restart, without the
//! workload it came from.

use super::handles::{Held, LoadedInput, Session};
use super::{failure, guard, Answer};
use crate::diag::Diagnostic;
use crate::generate::{self, GeneratorSettings};
use crate::model::Workload;
use crate::select::{self, Selection};
use crate::task_table::{self, TaskTable};
use serde_json::Value;

/// The generator's settings as a JSON Schema, each with its title, range and default (the
/// page's generator form is built from it).
pub fn generator_schema() -> Answer<Value> {
    guard(|| Answer::Success {
        value: generate::schema(),
    })
}

/// The workload of the generator's settings (JSON text, absent keys at their defaults) as JSON
/// text: the bytes of `policy-playground generate --settings FILE --out OUT`.
pub fn generated_workload_json(settings_json: &str) -> Answer<String> {
    guard(|| match generated(settings_json) {
        Ok(w) => Answer::Success {
            value: generate::workload_json(&w),
        },
        Err(errors) => Answer::Failure { errors },
    })
}

fn generated(settings_json: &str) -> Result<Workload, Vec<Diagnostic>> {
    let settings = GeneratorSettings::from_json(settings_json).map_err(|ds| {
        ds.into_iter()
            .map(|d| d.under("settings"))
            .collect::<Vec<_>>()
    })?;
    generate::generate(&settings)
        .map_err(|ds| ds.into_iter().map(|d| d.under("settings")).collect())
}

/// [`generator_schema`] as JSON text.
pub fn generator_schema_json_str() -> String {
    generator_schema().to_json_string()
}

/// [`generated_workload_json`] as JSON text.
pub fn generated_workload_json_str(settings_json: &str) -> String {
    generated_workload_json(settings_json).to_json_string()
}

impl Session {
    /// Generates a workload and keeps it under a new handle (checked against the session's
    /// limits like any loaded workload).
    pub fn generate_workload(&mut self, settings_json: &str) -> Answer<LoadedInput> {
        guard(|| match generated(settings_json) {
            Ok(w) => self.keep(Held::Workload(w)),
            Err(errors) => Answer::Failure { errors },
        })
    }

    fn workload(&self, handle: u32) -> Result<&Workload, Vec<Diagnostic>> {
        match self.get(handle, "workload")? {
            Held::Workload(w) => Ok(w),
            _ => Err(vec![Diagnostic::error(
                "workload",
                format!("handle {handle} is not a workload"),
            )]),
        }
    }

    /// A workload handle's tasks as the JSON text `simulate --workload` reads (for a generated
    /// workload, the bytes of `policy-playground generate`).
    pub fn workload_json(&self, handle: u32) -> Answer<String> {
        guard(|| match self.workload(handle) {
            Ok(w) => Answer::Success {
                value: generate::workload_json(w),
            },
            Err(errors) => Answer::Failure { errors },
        })
    }

    /// The task table of a small workload ([`task_table::MAX_TABLE_TASKS`] tasks at most).
    pub fn workload_table(&self, handle: u32) -> Answer<TaskTable> {
        guard(|| match self.workload(handle).and_then(task_table::table) {
            Ok(table) => Answer::Success { value: table },
            Err(errors) => Answer::Failure { errors },
        })
    }

    /// The workload of an edited task table (`rows_json`: its rows in their new order) made from
    /// the workload `handle`, as JSON text; errors name the row and column.
    pub fn edit_workload(&self, handle: u32, rows_json: &str) -> Answer<String> {
        guard(|| {
            match self
                .workload(handle)
                .and_then(|w| task_table::edit(w, rows_json))
            {
                Ok(w) => Answer::Success {
                    value: generate::workload_json(&w),
                },
                Err(errors) => Answer::Failure { errors },
            }
        })
    }

    /// A window and/or a sample of the workload `handle` (`selection_json`: `{"fromMs", "toMs",
    /// "fraction", "seed"}`), as JSON text.
    pub fn select_workload(&self, handle: u32, selection_json: &str) -> Answer<String> {
        guard(|| {
            let selected = Selection::from_json(selection_json)
                .and_then(|s| self.workload(handle).and_then(|w| select::select(w, &s)));
            match selected {
                Ok(w) => Answer::Success {
                    value: generate::workload_json(&w),
                },
                Err(errors) => Answer::Failure { errors },
            }
        })
    }

    /// Reads an OpenDC parquet workload keeping only what `selection_json` selects: only the
    /// kept tasks and their fragments are decoded, and the session's limits are checked on
    /// them before they are (not on the footers' row counts, as
    /// [`Session::load_workload_parquet`] does), so a trace past the browser's limits within
    /// its file size is read in part.
    pub fn load_workload_parquet_selected(
        &mut self,
        tasks: &[u8],
        fragments: &[u8],
        selection_json: &str,
    ) -> Answer<LoadedInput> {
        for (bytes, what) in [(tasks, "tasks.parquet"), (fragments, "fragments.parquet")] {
            if let Err(errors) = self.limits.check_bytes(bytes.len(), what) {
                return Answer::Failure { errors };
            }
        }
        guard(|| {
            let (max_tasks, max_fragments) = (self.limits.max_tasks, self.limits.max_fragments);
            let read = Selection::from_json(selection_json).and_then(|s| {
                crate::input::workload::read_parquet_selected(
                    tasks,
                    fragments,
                    &s,
                    max_tasks,
                    max_fragments,
                )
            });
            match read {
                Ok(w) => self.keep(Held::Workload(under_workload(w))),
                Err(errors) => Answer::Failure { errors },
            }
        })
    }

    /// Reads a JSON or CSV workload keeping only what `selection_json` selects, and checks the
    /// session's limits on what is kept, not on the whole: a trace past the browser's task
    /// limit (within its file size) can be windowed or sampled into one the page runs.
    pub fn load_workload_selected(
        &mut self,
        text: &str,
        format: &str,
        selection_json: &str,
    ) -> Answer<LoadedInput> {
        if let Err(errors) = self.limits.check_bytes(text.len(), "the workload") {
            return Answer::Failure { errors };
        }
        guard(|| {
            let selection = match Selection::from_json(selection_json) {
                Ok(s) => s,
                Err(errors) => return Answer::Failure { errors },
            };
            let read = match format {
                "json" => crate::input::workload::read_json_workload(text),
                "csv" => crate::input::workload::read_csv_workload(text),
                other => {
                    return failure(format!(
                        "unknown workload format `{other}`; expected json or csv"
                    ))
                }
            };
            match read.and_then(|w| select::select(&w, &selection)) {
                Ok(w) => self.keep(Held::Workload(under_workload(w))),
                Err(errors) => Answer::Failure { errors },
            }
        })
    }
}

/// A workload's warnings under `workload.…`, as `load_workload` places them.
fn under_workload(mut w: Workload) -> Workload {
    w.warnings = w
        .warnings
        .into_iter()
        .map(|d| d.under("workload"))
        .collect();
    w
}
