//! Readers of the simulator's inputs (SPEC 10): OpenDC topologies, workloads (parquet, JSON,
//! CSV) and carbon traces (parquet, CSV, JSON), with the value-and-unit, time and diagnostic
//! helpers they share. Every reader takes bytes or text (never a path), so the CLI and the
//! browser read the same way.

pub mod carbon;
pub mod json_text;
pub mod parquet;
pub mod problems;
pub mod sdk;
pub mod thrift_check;
pub mod thrift_schema;
pub mod time;
pub mod topology;
pub mod units;
pub mod workload;
