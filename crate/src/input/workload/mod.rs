//! Workloads (SPEC 10): an OpenDC folder (`tasks.parquet` + `fragments.parquet`), a JSON
//! document `{"tasks": [...]}` or a CSV file, all producing a [`crate::model::Workload`] with
//! tasks in input order and fragments stored as runs ([`crate::model::Fragments`]).
//!
//! A task's duration is the sum of its fragments (SPEC 6.4); a task without fragments runs its
//! `duration` at its `cpuCapacity` (JSON and CSV) or, in parquet, is dropped with a warning that
//! counts such tasks, as OpenDC does. Task memory from parquet is `round(mem_capacity / 1000)`
//! MiB. Every problem names the file, the row (0-based, as in the file) and the column, and says
//! what was expected; after 50 errors the rest are counted.
//!
//! One reader per format: `read_parquet.rs`, `read_json.rs`, `read_csv.rs` (which goes through
//! the JSON reader's checks); `parquet_fragments.rs` reads `fragments.parquet` a batch at a time,
//! `fragment_runs.rs` from its pages' runs where it can; `select_parquet.rs` reads only a window
//! or sample of a parquet workload ([`crate::select`]).

mod fragment_runs;
mod fragment_walk;
mod parquet_fragments;
mod read_csv;
mod read_json;
mod read_parquet;
mod select_parquet;

pub use read_csv::read_csv_workload;
pub use read_json::{read_json_workload, workload_from_value, TASK_FIELDS};
pub use read_parquet::read_parquet_workload;
pub use select_parquet::read_parquet_selected;
