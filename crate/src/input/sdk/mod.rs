//! OpenDC3 (SDK) experiment files (SPEC 11): quantities written with units ([`units`]) and inline
//! workloads ([`workload`]).

pub mod units;
pub mod workload;
