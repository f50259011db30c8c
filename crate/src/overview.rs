//! The cluster overview of a finished run: per host group (the hosts of one `hosts` entry of a
//! cluster, as the topology names them), how much of the group's cores the tasks held over time,
//! in equal buckets over `[0, makespan]`, and the group's figures (tasks run, busy fraction,
//! energy). The page draws it as a heat map, one row per group, above the lanes of large
//! clusters; it computes nothing itself.
//!
//! A bucket's value is the mean fraction of the group's cores in use during it: the sum over
//! the tasks' run spans on the group's hosts of `cpuCount x overlap`, divided by the group's
//! cores times the bucket's length. Spans are cut at the run's end.

use crate::format;
use crate::model::Topology;
use crate::sim::result::{HostRecord, SimResult};
use serde::Serialize;

/// The fewest buckets an overview takes.
pub const MIN_BUCKETS: u32 = 1;
/// The most buckets an overview takes (more than a wide screen has pixels for a week).
pub const MAX_BUCKETS: u32 = 2000;

/// The most cells (groups x buckets) of the overview a run answer carries: its buckets are
/// [`MAX_BUCKETS`] unless the topology has so many groups that this bound takes fewer.
pub const MAX_CELLS: usize = 200_000;

/// The buckets of a run answer's overview for a topology of `groups` host groups.
pub fn answer_buckets(groups: usize) -> u32 {
    (MAX_CELLS / groups.max(1)).clamp(MIN_BUCKETS as usize, MAX_BUCKETS as usize) as u32
}

/// Joules in a kilowatt-hour (the metrics catalog shows energy in kWh).
const J_PER_KWH: f64 = 3.6e6;

/// A run's overview: the buckets and one entry per host group, in topology order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    /// The run's end, simulation ms: the buckets cover `[0, makespanMs]`.
    pub makespan_ms: i64,
    pub buckets: u32,
    /// The length of one bucket, ms (`makespanMs / buckets`, not rounded).
    pub bucket_ms: f64,
    /// The length of one bucket for people (`5 min 2 s`).
    pub bucket_text: String,
    /// What a bucket's value is, for a legend.
    pub measure: String,
    pub groups: Vec<GroupOverview>,
}

/// One host group: who it is, where its hosts are among the result's hosts, its use over time
/// and its figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct GroupOverview {
    /// `cluster/group`, as the run options' `hostCounts` name it.
    pub key: String,
    pub cluster: String,
    pub name: String,
    /// The index of the group's first host in the result's `hosts` (its hosts follow it).
    pub first_host: u32,
    pub hosts: u32,
    pub cores_per_host: u32,
    /// Cores of the whole group.
    pub cores: u64,
    /// Per bucket, the mean fraction of the group's cores in use (0 to 1).
    pub utilization: Vec<f64>,
    /// The largest bucket value.
    pub peak: f64,
    /// The mean fraction of the group's cores in use over the whole run.
    pub mean_utilization: f64,
    /// Tasks with at least one run span on the group's hosts.
    pub tasks_run: u64,
    /// The fraction of the group's host time with at least one task running.
    pub busy_fraction: f64,
    pub energy_j: f64,
    pub idle_energy_j: f64,
    pub dynamic_energy_j: f64,
    #[cfg_attr(feature = "ts", ts(optional))]
    pub carbon_g: Option<f64>,
    /// The group's figures in a line for people (a collapsed group's summary row).
    pub summary: String,
}

/// The error of a bucket count outside [`MIN_BUCKETS`]..=[`MAX_BUCKETS`], or not a whole number.
pub fn bad_buckets(found: &dyn std::fmt::Display) -> String {
    format!("buckets must be a whole number from {MIN_BUCKETS} to {MAX_BUCKETS}, not {found}")
}

/// A bucket count from the page (a JavaScript number), checked.
pub fn buckets_from(x: f64) -> Result<u32, String> {
    let ok = x.fract() == 0.0 && (MIN_BUCKETS as f64..=MAX_BUCKETS as f64).contains(&x);
    if ok {
        Ok(x as u32)
    } else {
        Err(bad_buckets(&x))
    }
}

/// The overview of `result`, a run of `topology` (with the run's host counts applied: its hosts
/// are the result's, in the same order). `buckets` must be checked by the caller
/// ([`buckets_from`]); 0 is taken as 1.
pub fn overview(topology: &Topology, result: &SimResult, buckets: u32) -> Overview {
    let buckets = buckets.max(1);
    let makespan = result.metrics.makespan_ms.max(0);
    let bucket_ms = makespan as f64 / buckets as f64;
    let groups = group_ranges(topology);
    // The group of each host, by the host's name in the result.
    let mut group_of = std::collections::HashMap::with_capacity(result.hosts.len());
    for (g, range) in groups.iter().enumerate() {
        for h in range.first..range.first + range.count {
            if let Some(record) = result.hosts.get(h as usize) {
                group_of.insert(record.name.as_str(), g);
            }
        }
    }
    let grid = Grid { makespan, buckets };
    let mut core_ms = vec![Accumulator::new(buckets as usize); groups.len()];
    let mut tasks_run = vec![0u64; groups.len()];
    for task in &result.tasks {
        let mut seen = vec![false; groups.len()];
        for run in &task.runs {
            let Some(&g) = group_of.get(run.host.as_str()) else {
                continue;
            };
            seen[g] = true;
            grid.add(
                &mut core_ms[g],
                run.from_ms,
                run.to_ms,
                task.cpu_count as f64,
            );
        }
        for (count, s) in tasks_run.iter_mut().zip(seen) {
            *count += u64::from(s);
        }
    }
    let groups = groups
        .iter()
        .zip(core_ms)
        .zip(tasks_run)
        .map(|((range, acc), tasks)| {
            let records = host_records(result, range);
            group_overview(range, acc.finish(bucket_ms), tasks, records, makespan)
        })
        .collect();
    Overview {
        makespan_ms: makespan,
        buckets,
        bucket_ms,
        bucket_text: format::duration(bucket_ms),
        measure: "share of the group's cores held by running tasks".into(),
        groups,
    }
}

/// Where one host group's hosts are in the expanded topology.
struct GroupRange {
    key: String,
    cluster: String,
    name: String,
    first: u32,
    count: u32,
    cores_per_host: u32,
}

/// Every host group in topology order, with the index of its first host.
fn group_ranges(topology: &Topology) -> Vec<GroupRange> {
    let mut first = 0u32;
    let mut out = Vec::new();
    for cluster in &topology.clusters {
        for group in &cluster.groups {
            out.push(GroupRange {
                key: cluster.group_key(group),
                cluster: cluster.name.clone(),
                name: group.name.clone(),
                first,
                count: group.count,
                cores_per_host: group.cores,
            });
            first = first.saturating_add(group.count);
        }
    }
    out
}

/// The result's records of a group's hosts (fewer when the result has fewer hosts).
fn host_records<'r>(result: &'r SimResult, range: &GroupRange) -> &'r [HostRecord] {
    let len = result.hosts.len();
    let from = (range.first as usize).min(len);
    let to = (range.first as usize + range.count as usize).min(len);
    &result.hosts[from..to]
}

/// One group's entry from its per-bucket core-ms.
fn group_overview(
    range: &GroupRange,
    core_ms: Vec<f64>,
    tasks_run: u64,
    records: &[HostRecord],
    makespan: i64,
) -> GroupOverview {
    let cores = range.count as u64 * range.cores_per_host as u64;
    let buckets = core_ms.len().max(1) as f64;
    let capacity = cores as f64 * makespan as f64; // core-ms of the whole run
    let total: f64 = core_ms.iter().sum();
    let fraction = |x: f64, of: f64| if of > 0.0 { x / of } else { 0.0 };
    let utilization: Vec<f64> = core_ms
        .iter()
        .map(|&c| fraction(c, capacity / buckets))
        .collect();
    let peak = utilization.iter().copied().fold(0.0, f64::max);
    let busy_ms: i64 = records.iter().map(|h| h.busy_ms).sum();
    let sum = |f: fn(&HostRecord) -> f64| records.iter().map(f).sum::<f64>();
    let carbon = records
        .iter()
        .map(|h| h.carbon_g)
        .sum::<Option<f64>>()
        .filter(|_| !records.is_empty());
    let mean_utilization = fraction(total, capacity);
    let energy_j = sum(|h| h.energy_j);
    GroupOverview {
        key: range.key.clone(),
        cluster: range.cluster.clone(),
        name: range.name.clone(),
        first_host: range.first,
        hosts: range.count,
        cores_per_host: range.cores_per_host,
        cores,
        summary: summary(tasks_run, mean_utilization, peak, energy_j),
        utilization,
        peak,
        mean_utilization,
        tasks_run,
        busy_fraction: fraction(busy_ms as f64, range.count as f64 * makespan as f64),
        energy_j,
        idle_energy_j: sum(|h| h.idle_energy_j),
        dynamic_energy_j: sum(|h| h.dynamic_energy_j),
        carbon_g: carbon,
    }
}

/// `1,234 tasks · 23.4 % of cores in use (peak 81.0 %) · 12.345 kWh`.
fn summary(tasks: u64, mean: f64, peak: f64, energy_j: f64) -> String {
    format!(
        "{} {} · {} of cores in use (peak {}) · {} kWh",
        format::number(tasks as f64, 0),
        if tasks == 1 { "task" } else { "tasks" },
        format::percent(mean, 1),
        format::percent(peak, 1),
        format::number(energy_j / J_PER_KWH, 3),
    )
}

/// The buckets of `[0, makespan]`: bucket `i` is `[i m / b, (i + 1) m / b)`.
struct Grid {
    makespan: i64,
    buckets: u32,
}

/// Core-ms per bucket: partial buckets added directly, whole ones as a difference array of
/// cores (so a long span costs two entries, not one per bucket).
#[derive(Clone)]
struct Accumulator {
    partial: Vec<f64>,
    whole: Vec<f64>,
}

impl Accumulator {
    fn new(buckets: usize) -> Self {
        Accumulator {
            partial: vec![0.0; buckets],
            whole: vec![0.0; buckets + 1],
        }
    }

    /// The core-ms of each bucket, `bucket_ms` being a bucket's length.
    fn finish(self, bucket_ms: f64) -> Vec<f64> {
        let mut cores = 0.0;
        self.partial
            .iter()
            .zip(&self.whole)
            .map(|(&p, &d)| {
                cores += d;
                p + cores * bucket_ms
            })
            .collect()
    }
}

impl Grid {
    /// The bucket holding time `t` (0 <= t <= makespan; the end belongs to the last bucket).
    fn bucket(&self, t: i64) -> usize {
        if self.makespan <= 0 {
            return 0;
        }
        let i = (t as i128 * self.buckets as i128) / self.makespan as i128;
        (i.max(0) as usize).min(self.buckets as usize - 1)
    }

    /// Where bucket `i` starts, ms.
    fn start(&self, i: usize) -> f64 {
        (i as f64 * self.makespan as f64) / self.buckets as f64
    }

    /// Adds `cores` held over `[from, to)`, cut to `[0, makespan]`.
    fn add(&self, acc: &mut Accumulator, from: i64, to: i64, cores: f64) {
        let (from, to) = (from.max(0), to.min(self.makespan));
        if to <= from {
            return;
        }
        let (i, j) = (self.bucket(from), self.bucket(to));
        if i == j {
            acc.partial[i] += cores * (to - from) as f64;
            return;
        }
        acc.partial[i] += cores * (self.start(i + 1) - from as f64);
        // `to` may be the makespan itself, at the end of the last bucket.
        if to as f64 >= self.start(j) {
            acc.partial[j] += cores * (to as f64 - self.start(j));
        }
        acc.whole[i + 1] += cores;
        acc.whole[j] -= cores;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ClusterSpec, HostGroup, PowerModel};
    use crate::sim::result::{Digests, Metrics, Provenance, RunSpan, TaskRecord};

    fn group(name: &str, count: u32, cores: u32) -> HostGroup {
        HostGroup {
            name: name.into(),
            count,
            cores,
            core_speed_mhz: 1000.0,
            memory_mib: 1024,
            gpus: vec![],
            power: PowerModel::Constant { power: 100.0 },
        }
    }

    /// Cluster `rack`: `small` (2 hosts x 4 cores) and `big` (1 host x 8 cores).
    fn topology() -> Topology {
        Topology {
            clusters: vec![ClusterSpec {
                name: "rack".into(),
                groups: vec![group("small", 2, 4), group("big", 1, 8)],
            }],
            ..Topology::default()
        }
    }

    fn host(name: &str, cores: u32, busy_ms: i64, energy_j: f64) -> HostRecord {
        HostRecord {
            name: name.into(),
            cluster: "rack".into(),
            cores,
            memory: 1024,
            busy_ms,
            mean_utilization: 0.0,
            energy_j,
            idle_energy_j: energy_j,
            dynamic_energy_j: 0.0,
            carbon_g: None,
            tasks_run: 0,
        }
    }

    fn task(id: &str, cores: u32, runs: &[(&str, i64, i64)]) -> TaskRecord {
        TaskRecord {
            id: id.into(),
            name: id.into(),
            host: runs.last().map(|r| r.0.to_string()),
            submit_ms: 0,
            start_ms: runs.first().map(|r| r.1),
            finish_ms: runs.last().map_or(0, |r| r.2),
            state: "completed",
            wait_ms: Some(0),
            deferrals: vec![],
            pauses: vec![],
            runs: runs
                .iter()
                .map(|&(host, from_ms, to_ms)| RunSpan {
                    host: host.into(),
                    from_ms,
                    to_ms,
                })
                .collect(),
            deadline_ms: None,
            duration_ms: 0,
            cpu_count: cores,
            memory_mib: 0,
            reason: None,
        }
    }

    /// Task `a` (2 cores) runs on `small` over 500-2500 ms; task `b` (4 cores) on `big` over
    /// 0-1000 ms, then on `small-0` over 3250-4000 ms. The run ends at 4000 ms.
    fn result() -> SimResult {
        SimResult {
            metrics: Metrics {
                makespan_ms: 4000,
                ..Metrics::default()
            },
            tasks: vec![
                task("a", 2, &[("small", 500, 2500)]),
                task("b", 4, &[("big", 0, 1000), ("small-0", 3250, 4000)]),
            ],
            hosts: vec![
                host("small", 4, 2000, 400.0),
                host("small-0", 4, 750, 400.0),
                host("big", 8, 1000, 800.0),
            ],
            series: Default::default(),
            warnings: vec![],
            start_epoch_ms: 0,
            provenance: Provenance {
                program: String::new(),
                version: String::new(),
                seed: 0,
                quantum_ms: 1000,
                semantics: Default::default(),
                digests: Digests {
                    topology: String::new(),
                    workload: String::new(),
                    carbon: None,
                    policy: String::new(),
                },
            },
        }
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    /// Four buckets of 1000 ms. `small` has 8 cores, 8000 core-ms a bucket: a's 2 cores give
    /// 1000, 2000 and 1000 core-ms to buckets 0-2 (1/8, 1/4, 1/8), b's 4 cores 3000 to bucket 3
    /// (3/8); 7000 of 32 000 core-ms in all (0.21875). `big`: b's 4 of 8 cores in bucket 0 (1/2),
    /// 4000 of 32 000 (1/8).
    #[test]
    fn four_buckets_of_two_tasks_by_hand() {
        let o = overview(&topology(), &result(), 4);
        assert_eq!((o.makespan_ms, o.buckets, o.bucket_ms), (4000, 4, 1000.0));
        assert_eq!(o.bucket_text, "1 s");
        let [small, big] = &o.groups[..] else {
            panic!("two groups: {:?}", o.groups)
        };
        assert_eq!(small.key, "rack/small");
        assert_eq!((small.first_host, small.hosts, small.cores), (0, 2, 8));
        assert_eq!(small.utilization, vec![0.125, 0.25, 0.125, 0.375]);
        assert_eq!((small.peak, small.mean_utilization), (0.375, 0.21875));
        assert_eq!(big.key, "rack/big");
        assert_eq!((big.first_host, big.hosts, big.cores), (2, 1, 8));
        assert_eq!(big.utilization, vec![0.5, 0.0, 0.0, 0.0]);
        assert_eq!((big.peak, big.mean_utilization), (0.5, 0.125));
        // b ran on both groups: it counts in each.
        assert_eq!((small.tasks_run, big.tasks_run), (2, 1));
        // Busy: small 2000 + 750 of 2 x 4000 ms; big 1000 of 4000.
        assert_eq!((small.busy_fraction, big.busy_fraction), (0.34375, 0.25));
        assert_eq!((small.energy_j, big.energy_j), (800.0, 800.0));
        assert_eq!(small.carbon_g, None);
        assert_eq!(
            small.summary,
            "2 tasks · 21.9 % of cores in use (peak 37.5 %) · 0.000 kWh"
        );
    }

    /// Three buckets of 4000/3 ms: small's capacity is 8 x 4000/3 = 32 000/3 core-ms a bucket.
    /// a (2 cores, 500-2500): 2 x 2500/3 = 5000/3 in bucket 0 (5/32), 2 x 3500/3 = 7000/3 in
    /// bucket 1 (7/32). b (4 cores, 3250-4000): 3000 in bucket 2 (9/32).
    #[test]
    fn buckets_that_do_not_divide_the_run() {
        let o = overview(&topology(), &result(), 3);
        assert!(close(
            &o.groups[0].utilization,
            &[5.0 / 32.0, 7.0 / 32.0, 9.0 / 32.0]
        ));
        // big: b's 4 cores over 0-1000 of bucket 0's 32 000/3 core-ms: 4000 x 3 / 32 000.
        assert!(close(&o.groups[1].utilization, &[0.375, 0.0, 0.0]));
    }

    /// A span over many buckets fills the whole ones between its ends: b on big over 0-1000 in
    /// 8 buckets of 500 ms is two full buckets of 4 of 8 cores.
    #[test]
    fn whole_buckets_between_the_ends_of_a_span() {
        let o = overview(&topology(), &result(), 8);
        assert_eq!(
            o.groups[1].utilization,
            vec![0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        );
        // small: a (2 of 8 cores) over 500-2500 fills buckets 1-4; b (4 cores) over 3250-4000
        // fills half of bucket 6 (250 ms: 1000 of 4000 core-ms) and all of bucket 7.
        assert_eq!(
            o.groups[0].utilization,
            vec![0.0, 0.25, 0.25, 0.25, 0.25, 0.0, 0.25, 0.5]
        );
    }

    /// Spans past the run's end are cut; a run of length 0 and a group of no hosts give zeros,
    /// never a division by zero.
    #[test]
    fn cut_spans_empty_runs_and_empty_groups() {
        let mut r = result();
        r.tasks[0].runs[0].to_ms = 9000; // a on small 500-9000: cut at 4000
        let o = overview(&topology(), &r, 1);
        // small: a 2 x 3500 + b 4 x 750 = 10 000 of 32 000 core-ms.
        assert_eq!(o.groups[0].utilization, vec![0.3125]);

        r.metrics.makespan_ms = 0;
        let o = overview(&topology(), &r, 2);
        assert_eq!(o.bucket_ms, 0.0);
        assert!(o.groups.iter().all(|g| g.utilization == [0.0, 0.0]));
        assert!(o.groups.iter().all(|g| g.busy_fraction == 0.0));

        let mut t = topology();
        t.clusters[0].groups[0].count = 0;
        let mut r = result();
        r.hosts.remove(0);
        r.hosts.remove(0);
        r.tasks.remove(0);
        r.tasks[0].runs.pop();
        let o = overview(&t, &r, 2);
        assert_eq!((o.groups[0].hosts, o.groups[0].cores), (0, 0));
        assert_eq!(o.groups[0].utilization, vec![0.0, 0.0]);
        assert_eq!(o.groups[1].first_host, 0);
        // big alone: b's 4 of 8 cores over 0-1000 of a 2000 ms bucket.
        assert_eq!(o.groups[1].utilization, vec![0.25, 0.0]);
    }

    #[test]
    fn bucket_counts_are_bounded_whole_numbers() {
        assert_eq!(buckets_from(1.0), Ok(1));
        assert_eq!(buckets_from(2000.0), Ok(2000));
        for bad in [0.0, -1.0, 2001.0, 2.5, f64::NAN, f64::INFINITY, 1e300] {
            let e = buckets_from(bad).expect_err("refused");
            assert!(
                e.starts_with("buckets must be a whole number from 1 to 2000, not "),
                "{e}"
            );
        }
    }
}
