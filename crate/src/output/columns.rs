//! A run's per-task and per-host data as columns: what the page's worker hands to the page as
//! typed arrays (transferable `ArrayBuffer`s), so that a large result crosses without a JSON
//! text and is read without a parse. Every figure is the one [`SimResult`]'s JSON gives, in the
//! same order; a missing value (`null` in the JSON) is NaN in a float column and -1 in an index
//! column. Strings are held once, in one UTF-8 table (see [`RunColumns::strings`]).
//!
//! `crate/tests/columns.rs` checks every column against the JSON result's fields.

use crate::sim::result::Span;
use crate::sim::SimResult;
use serde::Serialize;
use std::collections::HashMap;

/// A run's tasks and hosts as columns. Task `i` (of `taskCount`) is at index `i` of every task
/// column; its runs are `runFrom[k]..` for `k` in `runStart[i]..runStart[i + 1]`, and so for
/// deferrals and pauses. Host `j` (of `hostCount`) is at index `j` of every host column.
///
/// Strings: string `k` is the UTF-8 bytes `strings[stringEnds[k - 1]..stringEnds[k]]` (from 0 for
/// `k = 0`); task `i`'s id is string `i`, its name string `taskCount + i`, host `j`'s name string
/// `2 * taskCount + j`; clusters and reasons are indices into the same table (each distinct text
/// once).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RunColumns {
    pub task_count: u32,
    pub host_count: u32,
    /// Every string's bytes, concatenated.
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub strings: Vec<u8>,
    /// The end (exclusive, in bytes) of each string in `strings`.
    #[cfg_attr(feature = "ts", ts(type = "Uint32Array"))]
    pub string_ends: Vec<u32>,
    /// Whether every string is ASCII (a byte offset is then a character offset).
    pub ascii: bool,
    /// The names of the state codes of `state` (`completed`, `terminated`).
    pub state_names: Vec<String>,
    /// The host of the task's last run, or -1 when it never started.
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub task_host: Vec<i32>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub submit_ms: Vec<f64>,
    /// The first start, NaN when it never started.
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub start_ms: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub finish_ms: Vec<f64>,
    /// NaN when it never started.
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub wait_ms: Vec<f64>,
    /// An index into `stateNames`.
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub state: Vec<u8>,
    /// NaN without a deadline.
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub deadline_ms: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub duration_ms: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Uint32Array"))]
    pub cpu_count: Vec<u32>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub memory_mib: Vec<f64>,
    /// A string index, or -1 without a reason.
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub reason: Vec<i32>,
    /// Where each task's runs start in the run columns (`taskCount + 1` offsets).
    #[cfg_attr(feature = "ts", ts(type = "Uint32Array"))]
    pub run_start: Vec<u32>,
    /// The host index of each run (-1 for a host the result does not list).
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub run_host: Vec<i32>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub run_from: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub run_to: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Uint32Array"))]
    pub deferral_start: Vec<u32>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub deferral_from: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub deferral_to: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Uint32Array"))]
    pub pause_start: Vec<u32>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub pause_from: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub pause_to: Vec<f64>,
    /// A string index.
    #[cfg_attr(feature = "ts", ts(type = "Uint32Array"))]
    pub host_cluster: Vec<u32>,
    #[cfg_attr(feature = "ts", ts(type = "Uint32Array"))]
    pub host_cores: Vec<u32>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub host_memory: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub host_busy_ms: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub host_mean_utilization: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub host_energy_j: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub host_idle_energy_j: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub host_dynamic_energy_j: Vec<f64>,
    /// NaN without a carbon trace.
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub host_carbon_g: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub host_tasks_run: Vec<f64>,
}

/// A borrowed column, typed as the page receives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Column<'a> {
    F64(&'a [f64]),
    I32(&'a [i32]),
    U32(&'a [u32]),
    U8(&'a [u8]),
}

/// Builds the string table, giving each distinct text of the deduplicated kinds one index.
#[derive(Default)]
struct Strings<'a> {
    bytes: Vec<u8>,
    ends: Vec<u32>,
    seen: HashMap<&'a str, u32>,
}

impl<'a> Strings<'a> {
    fn push(&mut self, s: &str) -> u32 {
        self.bytes.extend_from_slice(s.as_bytes());
        // The page's limits keep a result far below 4 GB of text.
        self.ends.push(self.bytes.len() as u32);
        self.ends.len() as u32 - 1
    }

    fn once(&mut self, s: &'a str) -> u32 {
        if let Some(&k) = self.seen.get(s) {
            return k;
        }
        let k = self.push(s);
        self.seen.insert(s, k);
        k
    }
}

/// `Some(ms)` as a float, `None` as NaN.
fn opt(v: Option<i64>) -> f64 {
    v.map_or(f64::NAN, |x| x as f64)
}

/// Appends spans to `from`/`to` and their end offset to `start`.
fn spans(list: &[Span], start: &mut Vec<u32>, from: &mut Vec<f64>, to: &mut Vec<f64>) {
    for s in list {
        from.push(s.from_ms as f64);
        to.push(s.to_ms as f64);
    }
    start.push(from.len() as u32);
}

impl RunColumns {
    /// The columns of a result: every task and host in the result's order.
    pub fn from_result(r: &SimResult) -> RunColumns {
        let n = r.tasks.len();
        let mut c = RunColumns {
            task_count: n as u32,
            host_count: r.hosts.len() as u32,
            run_start: vec![0],
            deferral_start: vec![0],
            pause_start: vec![0],
            ..RunColumns::default()
        };
        let mut s = Strings::default();
        for t in &r.tasks {
            s.push(&t.id);
        }
        for t in &r.tasks {
            s.push(&t.name);
        }
        // Host names in order (a name listed twice maps to its last host, as a lookup by name).
        let mut host_index: HashMap<&str, i32> = HashMap::with_capacity(r.hosts.len());
        for (j, h) in r.hosts.iter().enumerate() {
            s.push(&h.name);
            host_index.insert(&h.name, j as i32);
        }
        let host_of = |name: &str| host_index.get(name).copied().unwrap_or(-1);
        for h in &r.hosts {
            let cluster = s.once(&h.cluster);
            c.host_cluster.push(cluster);
            c.host_cores.push(h.cores);
            c.host_memory.push(h.memory as f64);
            c.host_busy_ms.push(h.busy_ms as f64);
            c.host_mean_utilization.push(h.mean_utilization);
            c.host_energy_j.push(h.energy_j);
            c.host_idle_energy_j.push(h.idle_energy_j);
            c.host_dynamic_energy_j.push(h.dynamic_energy_j);
            c.host_carbon_g.push(h.carbon_g.unwrap_or(f64::NAN));
            c.host_tasks_run.push(h.tasks_run as f64);
        }
        for t in &r.tasks {
            c.task_host.push(t.host.as_deref().map_or(-1, host_of));
            c.submit_ms.push(t.submit_ms as f64);
            c.start_ms.push(opt(t.start_ms));
            c.finish_ms.push(t.finish_ms as f64);
            c.wait_ms.push(opt(t.wait_ms));
            let state = match c.state_names.iter().position(|x| x == t.state) {
                Some(k) => k,
                None => {
                    c.state_names.push(t.state.to_string());
                    c.state_names.len() - 1
                }
            };
            c.state.push(state as u8);
            c.deadline_ms.push(opt(t.deadline_ms));
            c.duration_ms.push(t.duration_ms as f64);
            c.cpu_count.push(t.cpu_count);
            c.memory_mib.push(t.memory_mib as f64);
            c.reason
                .push(t.reason.as_deref().map_or(-1, |x| s.once(x) as i32));
            for run in &t.runs {
                c.run_host.push(host_of(&run.host));
                c.run_from.push(run.from_ms as f64);
                c.run_to.push(run.to_ms as f64);
            }
            c.run_start.push(c.run_from.len() as u32);
            spans(
                &t.deferrals,
                &mut c.deferral_start,
                &mut c.deferral_from,
                &mut c.deferral_to,
            );
            spans(
                &t.pauses,
                &mut c.pause_start,
                &mut c.pause_from,
                &mut c.pause_to,
            );
        }
        c.ascii = s.bytes.is_ascii();
        c.strings = s.bytes;
        c.string_ends = s.ends;
        c
    }

    /// String `k` of the table.
    pub fn string(&self, k: usize) -> &str {
        let from = if k == 0 {
            0
        } else {
            self.string_ends[k - 1] as usize
        };
        // The bytes were copied from `&str`s at string boundaries.
        std::str::from_utf8(&self.strings[from..self.string_ends[k] as usize]).unwrap_or("")
    }

    /// Every typed-array column by its name on the page (the serialized field names).
    pub fn columns(&self) -> Vec<(&'static str, Column<'_>)> {
        use Column::*;
        vec![
            ("strings", U8(&self.strings)),
            ("stringEnds", U32(&self.string_ends)),
            ("taskHost", I32(&self.task_host)),
            ("submitMs", F64(&self.submit_ms)),
            ("startMs", F64(&self.start_ms)),
            ("finishMs", F64(&self.finish_ms)),
            ("waitMs", F64(&self.wait_ms)),
            ("state", U8(&self.state)),
            ("deadlineMs", F64(&self.deadline_ms)),
            ("durationMs", F64(&self.duration_ms)),
            ("cpuCount", U32(&self.cpu_count)),
            ("memoryMib", F64(&self.memory_mib)),
            ("reason", I32(&self.reason)),
            ("runStart", U32(&self.run_start)),
            ("runHost", I32(&self.run_host)),
            ("runFrom", F64(&self.run_from)),
            ("runTo", F64(&self.run_to)),
            ("deferralStart", U32(&self.deferral_start)),
            ("deferralFrom", F64(&self.deferral_from)),
            ("deferralTo", F64(&self.deferral_to)),
            ("pauseStart", U32(&self.pause_start)),
            ("pauseFrom", F64(&self.pause_from)),
            ("pauseTo", F64(&self.pause_to)),
            ("hostCluster", U32(&self.host_cluster)),
            ("hostCores", U32(&self.host_cores)),
            ("hostMemory", F64(&self.host_memory)),
            ("hostBusyMs", F64(&self.host_busy_ms)),
            ("hostMeanUtilization", F64(&self.host_mean_utilization)),
            ("hostEnergyJ", F64(&self.host_energy_j)),
            ("hostIdleEnergyJ", F64(&self.host_idle_energy_j)),
            ("hostDynamicEnergyJ", F64(&self.host_dynamic_energy_j)),
            ("hostCarbonG", F64(&self.host_carbon_g)),
            ("hostTasksRun", F64(&self.host_tasks_run)),
        ]
    }
}
