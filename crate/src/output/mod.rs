//! Writers: the inverse of [`crate::input`]. A topology, workload and carbon trace as the JSON
//! the readers take (a scenario file), and a workload or carbon trace as OpenDC parquet, so that
//! what the page holds can be taken to the CLI or to OpenDC. Reading back what is written gives
//! the same model, bit for bit (the provenance digests agree; `crate/tests/export.rs`).

pub mod bars;
pub mod columns;
pub mod csv;
pub mod json;
pub mod opendc3;
pub mod parquet;
pub mod steps;
