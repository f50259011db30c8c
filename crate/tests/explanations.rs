//! A placement's explanation, number by number (issue 15, item 3): every figure a host table
//! shows (raw score per weigher, normalised score, contribution, total, rank, each weigher's
//! min and max, each filter's verdict and reason) checked against values worked out by hand
//! from SPEC 2-4, and, on random inputs, against the decision the explanation claims to explain.
//!
//! The numbers are chosen so that a wrong formula shows: a total replaced by 0, 1 or -1, a sum
//! turned into a difference or a product, a division into a product, or an inverted comparison
//! each changes at least one checked value.

mod explanations {
    pub mod fixtures;
    pub mod queue;
    pub mod runs;
    pub mod spec;
}

use explanations::fixtures::*;
use policy_playground::engine::explain::Placement;
use policy_playground::engine::memorizing::Buckets;
use policy_playground::engine::rank;
use policy_playground::engine::scheduler::Scheduler;
use policy_playground::engine::{Demand, HostState};
use policy_playground::policy::{Filter, WeigherKind};

/// Two weighers, one with a positive and one with a negative multiplier, over three candidates
/// and a host the Ram filter turns away (its low free memory must not count in the Ram range).
///
/// Ram x 2 over the candidates: raw A 6144, B 2048, C 4096 -> min 2048, max 6144, span 4096;
///   normalised (raw - min) / span: A 1, B 0, C 0.5; contribution (2 * (raw - min)) / 4096:
///   A 2, B 0, C 1.
/// VCpu x -1.5: raw -provisionedCores: A -1, B -0, C -4 -> min -4, max 0, span 4;
///   normalised: A 3/4 = 0.75, B 1, C 0; contribution (-1.5 * (raw + 4)) / 4: A -4.5 / 4 =
///   -1.125, B -6 / 4 = -1.5, C -0.
/// Totals 0 + Ram + VCpu: A 2 - 1.125 = 0.875, B 0 - 1.5 = -1.5, C 1 - 0 = 1.
/// Ranks: C 1, A 2, B 3: C, the third host, is chosen.
#[test]
fn two_weighers_with_opposite_multipliers() {
    let hosts = vec![
        with(host(4, 1000.0, 8192), |h| {
            h.available_memory = 6144;
            h.provisioned_cores = 1;
        }),
        with(host(4, 1000.0, 8192), |h| h.available_memory = 2048),
        with(host(4, 1000.0, 8192), |h| {
            h.available_memory = 4096;
            h.provisioned_cores = 4;
        }),
        // 8192 * 1 - (8192 - 512) = 512 free < 1024.
        with(host(4, 1000.0, 8192), |h| h.available_memory = 512),
    ];
    let p = policy(
        vec![Filter::Ram {
            allocation_ratio: 1.0,
        }],
        vec![(WeigherKind::Ram, 2.0), (WeigherKind::VCpu, -1.5)],
        1,
    );
    let (choice, e) = decide(&p, &hosts, &demand(1, 1000.0, 1024));
    assert_eq!(choice.host, Some(2));
    assert_eq!(e.chosen.as_deref(), Some("C"));
    assert_scores(
        &e,
        "A",
        &[(6144.0, 1.0, 2.0), (-1.0, 0.75, -1.125)],
        0.875,
        2,
    );
    assert_scores(&e, "B", &[(2048.0, 0.0, 0.0), (0.0, 1.0, -1.5)], -1.5, 3);
    assert_scores(&e, "C", &[(4096.0, 0.5, 1.0), (-4.0, 0.0, 0.0)], 1.0, 1);
    assert_rejected(&e, "D", "Ram", "needs 1024 MiB, 512 MiB free");
    assert_ranges(&e, &[(2048.0, 6144.0, true), (-4.0, 0.0, true)]);
    assert_eq!((e.candidates, e.subset, e.draw.clone()), (3, 1, None));
    assert_eq!(e.summary, "4 hosts: 1 rejected by Ram; chose C");
}

/// Ties keep topology order, in the ranks shown and in the choice; the best is neither the
/// first nor the last host, so a running best that keeps the last of equals (`>=`), the worst
/// (`<`) or the first (`==`) picks another host.
///
/// Ram x 1: raw A 2048, B 4096, C 4096, D 1024 -> min 1024, max 4096, span 3072; contribution
/// (raw - 1024) / 3072: A 1024 / 3072 = 1/3, B 1, C 1, D 0. Ranks B 1, C 2 (tie, topology
/// order), A 3, D 4.
#[test]
fn ties_keep_topology_order() {
    let hosts = ties_hosts();
    let p = policy(vec![], vec![(WeigherKind::Ram, 1.0)], 1);
    let (choice, e) = decide(&p, &hosts, &demand(1, 0.0, 0));
    assert_eq!(choice.host, Some(1));
    let third = 1024.0 / 3072.0;
    assert_scores(&e, "A", &[(2048.0, third, third)], third, 3);
    assert_scores(&e, "B", &[(4096.0, 1.0, 1.0)], 1.0, 1);
    assert_scores(&e, "C", &[(4096.0, 1.0, 1.0)], 1.0, 2);
    assert_scores(&e, "D", &[(1024.0, 0.0, 0.0)], 0.0, 4);
    assert_ranges(&e, &[(1024.0, 4096.0, true)]);
}

/// Four hosts with free memory 2048, 4096, 4096, 1024 MiB (see [`ties_hosts`]).
fn ties_hosts() -> Vec<HostState> {
    [2048, 4096, 4096, 1024]
        .iter()
        .map(|&free| with(host(4, 1000.0, 8192), |h| h.available_memory = free))
        .collect()
}

/// With `subsetSize` 3 the choice is drawn among the first three of the ranking (B, C, A from
/// [`ties_keep_topology_order`]), not of the topology: the one output 2^63 maps to index
/// floor(2^63 * 3 / 2^64) = 1, the second ranked host, C (topology index 2; topology index 1
/// would be B).
#[test]
fn a_draw_indexes_the_ranking() {
    let hosts = ties_hosts();
    let p = policy(vec![], vec![(WeigherKind::Ram, 1.0)], 3);
    let (choice, e) = decide_with(&p, &hosts, &demand(1, 0.0, 0), &mut Fixed(vec![1 << 63]));
    assert_eq!(choice.host, Some(2));
    assert_eq!(e.chosen.as_deref(), Some("C"));
    let draw = e.draw.clone().expect("a draw among 3");
    assert_eq!((draw.values, draw.among, draw.index), (vec![1 << 63], 3, 1));
    assert_eq!((e.candidates, e.subset), (4, 3));
    assert_eq!(ranks(&e), vec![Some(3), Some(1), Some(2), Some(4)]);
}

/// A `subsetSize` above the number of candidates draws among all of them: 10 -> min(10, 4) =
/// 4; the output u64::MAX maps to floor((2^64 - 1) * 4 / 2^64) = 3, the last ranked host, D.
#[test]
fn a_subset_larger_than_the_candidates_draws_among_all() {
    let hosts = ties_hosts();
    let p = policy(vec![], vec![(WeigherKind::Ram, 1.0)], 10);
    let (choice, e) = decide_with(&p, &hosts, &demand(1, 0.0, 0), &mut Fixed(vec![u64::MAX]));
    assert_eq!(choice.host, Some(3));
    assert_eq!((e.candidates, e.subset), (4, 4));
    assert_eq!(e.draw.as_ref().map(|d| (d.among, d.index)), Some((4, 3)));
}

/// A weigher whose candidates all score the same adds nothing (SPEC 4.1): normalised 0,
/// contribution 0, `active` false, and the other weigher alone decides.
///
/// InstanceCount x -1: raw 2, 2, 2 -> min = max = 2: inactive.
/// Ram x 1: raw A 1024, B 3072, C 2048 -> span 2048; contribution A 0, B 1, C 0.5.
/// Totals A 0, B 1, C 0.5: ranks B 1, C 2, A 3; B is chosen. (Computing the inactive weigher's
/// contribution anyway gives (-1 * 0) / 0 = NaN, and every total NaN.)
#[test]
fn an_all_equal_weigher_adds_nothing() {
    let hosts: Vec<HostState> = [1024, 3072, 2048]
        .iter()
        .map(|&free| {
            with(host(4, 1000.0, 8192), |h| {
                h.available_memory = free;
                h.instance_count = 2;
            })
        })
        .collect();
    let p = policy(
        vec![],
        vec![(WeigherKind::InstanceCount, -1.0), (WeigherKind::Ram, 1.0)],
        1,
    );
    let (choice, e) = decide(&p, &hosts, &demand(1, 0.0, 0));
    assert_eq!(choice.host, Some(1));
    assert_scores(&e, "A", &[(2.0, 0.0, 0.0), (1024.0, 0.0, 0.0)], 0.0, 3);
    assert_scores(&e, "B", &[(2.0, 0.0, 0.0), (3072.0, 1.0, 1.0)], 1.0, 1);
    assert_scores(&e, "C", &[(2.0, 0.0, 0.0), (2048.0, 0.5, 0.5)], 0.5, 2);
    assert_ranges(&e, &[(2.0, 2.0, false), (1024.0, 3072.0, true)]);
}

/// When every weigher is inactive every total is 0 and the ranking is the topology order:
/// the first candidate (B; A is down) is chosen.
#[test]
fn all_weighers_inactive_rank_in_topology_order() {
    let hosts = vec![
        with(host(4, 1000.0, 4096), |h| h.up = false),
        host(4, 1000.0, 4096),
        host(4, 1000.0, 4096),
    ];
    let p = policy(
        vec![Filter::Compute],
        vec![(WeigherKind::Ram, 1.0), (WeigherKind::VCpu, -1.0)],
        1,
    );
    let (choice, e) = decide(&p, &hosts, &demand(1, 0.0, 0));
    assert_eq!(choice.host, Some(1));
    assert_rejected(&e, "A", "Compute", "host is down");
    assert_scores(&e, "B", &[(4096.0, 0.0, 0.0), (0.0, 0.0, 0.0)], 0.0, 1);
    assert_scores(&e, "C", &[(4096.0, 0.0, 0.0), (0.0, 0.0, 0.0)], 0.0, 2);
    assert_ranges(&e, &[(4096.0, 4096.0, false), (0.0, 0.0, false)]);
}

/// No candidate: no choice, the weighers' ranges are absent and inactive, the summary says why.
/// Both hosts have 2 cores for a 4-core task.
#[test]
fn without_candidates_nothing_is_ranked() {
    let hosts = vec![host(2, 1000.0, 4096), host(2, 1000.0, 4096)];
    let p = policy(
        vec![Filter::VCpu {
            allocation_ratio: 1.0,
        }],
        vec![(WeigherKind::Ram, 1.0), (WeigherKind::VCpu, 1.0)],
        2,
    );
    let (choice, e) = decide(&p, &hosts, &demand(4, 0.0, 0));
    assert_eq!((choice.host, choice.draw), (None, None));
    assert_rejected(&e, "A", "VCpu", "needs 4 cores, host has 2");
    assert_rejected(&e, "B", "VCpu", "needs 4 cores, host has 2");
    for w in &e.weighers {
        assert_eq!((w.min, w.max, w.active), (None, None, false), "{w:?}");
    }
    assert_eq!((e.candidates, e.subset, e.chosen.clone()), (0, 0, None));
    assert_eq!(e.summary, "2 hosts: 2 rejected by VCpu; none fits now");
}

/// Without weighers the ranking is the candidate list: `subsetSize` 1 takes the first
/// candidate without a draw, `subsetSize` 2 draws (2^63 -> floor(2^63 * 2 / 2^64) = 1, the
/// second candidate). Every candidate's total is 0.
#[test]
fn without_weighers_the_candidates_are_the_ranking() {
    let hosts = vec![
        with(host(4, 1000.0, 4096), |h| h.instance_count = 3),
        host(4, 1000.0, 4096),
        host(4, 1000.0, 4096),
    ];
    let filters = vec![Filter::InstanceCount { limit: 3 }];
    let (choice, e) = decide(
        &policy(filters.clone(), vec![], 1),
        &hosts,
        &demand(1, 0.0, 0),
    );
    assert_eq!((choice.host, choice.draw), (Some(1), None));
    assert_eq!(ranks(&e), vec![None, Some(1), Some(2)]);
    assert_eq!(totals(&e), vec![None, Some(0.0), Some(0.0)]);
    let p = policy(filters, vec![], 2);
    let (choice, e) = decide_with(&p, &hosts, &demand(1, 0.0, 0), &mut Fixed(vec![1 << 63]));
    assert_eq!(choice.host, Some(2));
    assert_eq!(e.draw.as_ref().map(|d| (d.among, d.index)), Some((2, 1)));
    assert_eq!(e.summary, "3 hosts: 1 rejected by InstanceCount; chose C");
}

/// Each weigher's raw score (SPEC 4 table) as the explanation shows it, one host per row:
///
/// | host | cores x speed | memory, free | tasks | prov. cores | GPU cores, prov. |
/// | A    | 4 x 1000      | 8192, 6000   | 3     | 2           | 2, 1             |
/// | B    | 0 x 2000      | 4096, 4096   | 0     | 0           | 0, 0             |
/// | C    | 8 x 500       | 8192, -1024  | 1     | 12          | 4, 3             |
///
/// Ram = free: 6000, 4096, -1024. CoreRam = free / cores: 6000 / 4 = 1500, 0 (no cores),
/// -1024 / 8 = -128. InstanceCount: 3, 0, 1. VCpuCapacity = cores x speed: 4000, 0, 4000.
/// VCpu = -prov. cores: -2, -0, -12. VGpu = -prov. GPU cores: -1, -0, -3.
#[test]
fn raw_scores_follow_the_spec_table() {
    let hosts = vec![
        with(host_gpu(4, 1000.0, 8192, 2), |h| {
            h.available_memory = 6000;
            h.instance_count = 3;
            h.provisioned_cores = 2;
            h.provisioned_gpu_cores = 1;
        }),
        host(0, 2000.0, 4096),
        with(host_gpu(8, 500.0, 8192, 4), |h| {
            h.available_memory = -1024;
            h.instance_count = 1;
            h.provisioned_cores = 12;
            h.provisioned_gpu_cores = 3;
        }),
    ];
    let kinds = [
        WeigherKind::Ram,
        WeigherKind::CoreRam,
        WeigherKind::InstanceCount,
        WeigherKind::VCpuCapacity,
        WeigherKind::VCpu,
        WeigherKind::VGpu,
    ];
    let p = policy(vec![], kinds.iter().map(|&k| (k, 1.0)).collect(), 1);
    let (_, e) = decide(&p, &hosts, &demand(0, 0.0, 0));
    let raws = |name: &str| -> Vec<f64> { row(&e, name).scores.iter().map(|s| s.raw).collect() };
    assert_eq!(raws("A"), vec![6000.0, 1500.0, 3.0, 4000.0, -2.0, -1.0]);
    assert_eq!(raws("B"), vec![4096.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(raws("C"), vec![-1024.0, -128.0, 1.0, 4000.0, -12.0, -3.0]);
    let names: Vec<&str> = e.weighers.iter().map(|w| w.weigher).collect();
    assert_eq!(
        names,
        [
            "Ram",
            "CoreRam",
            "InstanceCount",
            "VCpuCapacity",
            "VCpu",
            "VGpu"
        ]
    );
}

/// The six weighers of [`raw_scores_follow_the_spec_table`] with multipliers 1, -2, 0.5, 3,
/// -1, 4: every contribution and total, by hand.
///
/// Ram [-1024, 6000] span 7024: A 1, B 5120/7024, C 0.
/// CoreRam x -2 [-128, 1500] span 1628: A -2, B (-2 * 128) / 1628 = -256/1628, C -0.
/// InstanceCount x 0.5 [0, 3]: A 0.5, B 0, C 0.5 / 3.
/// VCpuCapacity x 3 [0, 4000]: A 3, B 0, C 3.
/// VCpu x -1 [-12, 0] span 12: A (-1 * 10) / 12 = -10/12, B -1, C -0.
/// VGpu x 4 [-3, 0] span 3: A 8/3, B 4, C 0.
/// Totals, added in weigher order from 0: A 1 - 2 + 0.5 + 3 - 10/12 + 8/3 = 4.33..,
/// B 0.72.. - 0.157.. + 0 + 0 - 1 + 4 = 3.57.., C 0 - 0 + 0.166.. + 3 - 0 + 0 = 3.166..:
/// ranks A 1, B 2, C 3.
#[test]
fn six_weighers_add_up_in_policy_order() {
    let hosts = vec![
        with(host_gpu(4, 1000.0, 8192, 2), |h| {
            h.available_memory = 6000;
            h.instance_count = 3;
            h.provisioned_cores = 2;
            h.provisioned_gpu_cores = 1;
        }),
        host(0, 2000.0, 4096),
        with(host_gpu(8, 500.0, 8192, 4), |h| {
            h.available_memory = -1024;
            h.instance_count = 1;
            h.provisioned_cores = 12;
            h.provisioned_gpu_cores = 3;
        }),
    ];
    let p = policy(
        vec![],
        vec![
            (WeigherKind::Ram, 1.0),
            (WeigherKind::CoreRam, -2.0),
            (WeigherKind::InstanceCount, 0.5),
            (WeigherKind::VCpuCapacity, 3.0),
            (WeigherKind::VCpu, -1.0),
            (WeigherKind::VGpu, 4.0),
        ],
        1,
    );
    let (choice, e) = decide(&p, &hosts, &demand(0, 0.0, 0));
    let a = [1.0, -2.0, 0.5, 3.0, -10.0 / 12.0, 8.0 / 3.0];
    let b = [5120.0 / 7024.0, -256.0 / 1628.0, 0.0, 0.0, -1.0, 4.0];
    let c = [0.0, 0.0, 0.5 / 3.0, 3.0, 0.0, 0.0];
    let sum = |xs: &[f64]| xs.iter().fold(0.0, |t, x| t + x);
    for (name, want, rank) in [("A", a, 1), ("B", b, 2), ("C", c, 3)] {
        let r = row(&e, name);
        let got: Vec<f64> = r.scores.iter().map(|s| s.contribution).collect();
        assert_eq!(got, want, "{name}");
        assert_eq!((r.total, r.rank), (Some(sum(&want)), Some(rank)), "{name}");
    }
    assert!((sum(&a) - 4.3333333).abs() < 1e-6 && (sum(&c) - 3.1666666).abs() < 1e-6);
    assert_eq!(choice.host, Some(0));
}

/// One host for each way a filter can turn a host away, and one host (`Edge`) that passes
/// every filter with nothing to spare: each filter of SPEC 3, for a task of 4 cores at 10000
/// MHz (2500 MHz per core), 4096 MiB and 4 GPU cores. A changed comparison or formula either
/// rejects `Edge` or admits one of the others, or changes a reason's numbers.
///
/// Edge: 4 cores, 4 provisioned, VCpu(2): 4 x 2 - 4 = 4 >= 4; 2500 MHz >= 10000 / 4;
///   Ram(1.5): 4096 x 1.5 - (4096 - 2048) = 4096 >= 4096; 1 task < 2; VGpu(2): 4 x 2 - 4 = 4.
fn filter_hosts() -> Vec<(&'static str, HostState)> {
    let edge = with(host_gpu(4, 2500.0, 4096, 4), |h| {
        h.provisioned_cores = 4;
        h.available_memory = 2048;
        h.instance_count = 1;
        h.provisioned_gpu_cores = 4;
    });
    let e = |f: fn(&mut HostState)| with(edge, f);
    vec![
        ("Edge", edge),
        ("Down", e(|h| h.up = false)),
        ("VCpuShort", e(|h| h.provisioned_cores = 5)),
        ("VCpuSmall", e(|h| (h.cores, h.provisioned_cores) = (2, 0))),
        ("VCpuOver", e(|h| (h.cores, h.provisioned_cores) = (8, 20))),
        ("Slow", e(|h| h.core_speed = 2000.0)),
        ("RamShort", e(|h| h.available_memory = 1024)),
        (
            "RamSmall",
            e(|h| (h.memory, h.available_memory) = (3072, 3072)),
        ),
        (
            "RamOver",
            e(|h| (h.memory, h.available_memory) = (8192, -6144)),
        ),
        ("Busy", e(|h| h.instance_count = 2)),
        ("GpuShort", e(|h| h.provisioned_gpu_cores = 5)),
        (
            "GpuSmall",
            e(|h| (h.gpu_cores, h.provisioned_gpu_cores) = (2, 0)),
        ),
        ("Both", e(|h| (h.up, h.instance_count) = (false, 2))),
    ]
}

/// Every filter kind, in the order Compute, VCpu(2), VCpuCapacity, Ram(1.5), InstanceCount(2),
/// VGpu(2), SameHost, DifferentHost.
fn all_filters() -> Vec<Filter> {
    vec![
        Filter::Compute,
        Filter::VCpu {
            allocation_ratio: 2.0,
        },
        Filter::VCpuCapacity,
        Filter::Ram {
            allocation_ratio: 1.5,
        },
        Filter::InstanceCount { limit: 2 },
        Filter::VGpu {
            allocation_ratio: 2.0,
        },
        Filter::SameHost,
        Filter::DifferentHost,
    ]
}

/// The demand of [`filter_hosts`]: 4 cores at 10000 MHz, 4096 MiB, 4 GPU cores.
fn filter_demand() -> Demand {
    Demand {
        gpu_count: 4,
        ..demand(4, 10000.0, 4096)
    }
}

/// The explanation of [`filter_hosts`] under `filters`.
fn explain_filters(filters: Vec<Filter>) -> (rank::Choice, Placement) {
    let named = filter_hosts();
    let names: Vec<String> = named.iter().map(|(n, _)| n.to_string()).collect();
    let hosts: Vec<HostState> = named.iter().map(|&(_, h)| h).collect();
    let p = policy(filters, vec![], 1);
    decide_named(&p, &hosts, &names, &filter_demand(), &mut Fixed(vec![]))
}

/// Each rejected host shows the first filter that failed and why, in numbers worked out from
/// SPEC 3; only `Edge` passes and is chosen.
///
/// VCpuShort 4 x 2 - 5 = 3 free; VCpuSmall has 2 cores < 4; VCpuOver 8 x 2 - 20 = -4, shown as
/// 0 free. RamShort 6144 - (4096 - 1024) = 3072 free; RamSmall has 3072 MiB < 4096; RamOver
/// 12288 - (8192 + 6144) = -2048, shown as 0. GpuShort 8 - 5 = 3 free; GpuSmall has 2 < 4.
/// Both is down and busy: Compute comes first.
#[test]
fn each_filter_rejects_with_its_numbers() {
    let (choice, e) = explain_filters(all_filters());
    assert_eq!(choice.host, Some(0));
    assert_eq!((e.candidates, e.chosen.as_deref()), (1, Some("Edge")));
    assert_scores(&e, "Edge", &[], 0.0, 1);
    for (name, filter, reason) in [
        ("Down", "Compute", "host is down"),
        ("VCpuShort", "VCpu", "needs 4 cores, 3 free"),
        ("VCpuSmall", "VCpu", "needs 4 cores, host has 2"),
        ("VCpuOver", "VCpu", "needs 4 cores, 0 free"),
        (
            "Slow",
            "VCpuCapacity",
            "needs 2500 MHz per core, cores run at 2000 MHz",
        ),
        ("RamShort", "Ram", "needs 4096 MiB, 3072 MiB free"),
        ("RamSmall", "Ram", "needs 4096 MiB, host has 3072 MiB"),
        ("RamOver", "Ram", "needs 4096 MiB, 0 MiB free"),
        ("Busy", "InstanceCount", "runs 2 tasks, limit 2"),
        ("GpuShort", "VGpu", "needs 4 GPU cores, 3 free"),
        ("GpuSmall", "VGpu", "needs 4 GPU cores, host has 2"),
        ("Both", "Compute", "host is down"),
    ] {
        assert_rejected(&e, name, filter, reason);
    }
    assert_eq!(
        e.summary,
        "13 hosts: 3 rejected by VCpu, 3 by Ram, 2 by Compute, 2 by VGpu, \
         1 by VCpuCapacity, 1 by InstanceCount; chose Edge"
    );
}

/// The first failing filter is the first in the policy's list: reversed, `Both` (down and
/// busy) is turned away by InstanceCount, and the others keep their filter and reason.
#[test]
fn the_first_filter_in_list_order_is_reported() {
    let mut filters = all_filters();
    filters.reverse();
    let (choice, e) = explain_filters(filters);
    assert_eq!(choice.host, Some(0));
    assert_rejected(&e, "Both", "InstanceCount", "runs 2 tasks, limit 2");
    assert_rejected(&e, "Down", "Compute", "host is down");
    assert_rejected(&e, "RamOver", "Ram", "needs 4096 MiB, 0 MiB free");
}

/// With a filter's limit one step tighter, `Edge` fails it too, with the numbers one step off:
/// VCpu(1.75): 4 x 1.75 - 4 = 3 free; Ram(1.25): 4096 x 1.25 - 2048 = 3072 MiB free;
/// InstanceCount(1): runs 1; VGpu(1.75): 3 free; a 2501 MHz per-core demand (10004 / 4) beats
/// 2500 MHz cores.
#[test]
fn a_host_at_the_limit_fails_one_step_past_it() {
    let edge = filter_hosts()[0].1;
    let d = filter_demand();
    for (filter, d, reason) in [
        (
            Filter::VCpu {
                allocation_ratio: 1.75,
            },
            d,
            "needs 4 cores, 3 free",
        ),
        (
            Filter::Ram {
                allocation_ratio: 1.25,
            },
            d,
            "needs 4096 MiB, 3072 MiB free",
        ),
        (
            Filter::InstanceCount { limit: 1 },
            d,
            "runs 1 tasks, limit 1",
        ),
        (
            Filter::VGpu {
                allocation_ratio: 1.75,
            },
            d,
            "needs 4 GPU cores, 3 free",
        ),
        (
            Filter::VCpuCapacity,
            Demand {
                cpu_capacity: 10004.0,
                ..d
            },
            "needs 2501 MHz per core, cores run at 2500 MHz",
        ),
    ] {
        let (choice, e) = decide(&policy(vec![filter], vec![], 1), &[edge], &d);
        assert_eq!(choice.host, None, "{filter:?}");
        assert_rejected(&e, "A", filter.name(), reason);
        assert_eq!(
            e.summary,
            format!("1 host: 1 rejected by {}; none fits now", filter.name())
        );
    }
}

/// The summary's edge cases: one host ("1 host", no rejections), and no host at all.
#[test]
fn summaries_of_one_host_and_of_none() {
    let p = policy(vec![], vec![(WeigherKind::Ram, 1.0)], 1);
    let (_, e) = decide(&p, &[host(1, 1000.0, 1024)], &demand(1, 0.0, 0));
    assert_eq!(e.summary, "1 host; chose A");
    let (choice, e) = decide(&p, &[], &demand(1, 0.0, 0));
    assert_eq!(choice.host, None);
    assert_eq!(e.summary, "0 hosts; nothing to choose from");
}

/// The memorizing scheduler (SPEC 6.3) walks (running tasks, topology index): with tasks A 2,
/// B 0, C 1, D 0 the walk is B, D, C, A; B has 1 core for a 2-core task, so D, the first
/// fitting host of bucket 0, is chosen. After D takes the task, D moves to bucket 1 behind C:
/// the walk is B, C, D, A and C is next.
#[test]
fn memorizing_explains_buckets_and_the_walk() {
    let mut hosts: Vec<HostState> = [(4, 2), (1, 0), (4, 1), (4, 0)]
        .iter()
        .map(|&(cores, tasks)| with(host(cores, 1000.0, 4096), |h| h.instance_count = tasks))
        .collect();
    let filters = vec![Filter::VCpu {
        allocation_ratio: 1.0,
    }];
    let (names, d) = (letters(4), demand(2, 0.0, 0));
    let mut buckets = Buckets::new(&hosts);
    assert_eq!(buckets.select(&filters, &hosts, &d), Some(3));
    let e = buckets.explain(&filters, &hosts, &names, &d, Some(3));
    assert_walk(&e, &[(2, 4), (0, 1), (1, 3), (0, 2)], "D");
    assert_rejected_in_walk(&e, "B", "needs 2 cores, host has 1");
    assert_eq!((e.candidates, e.subset), (3, 1));
    assert_eq!(e.summary, "4 hosts: 1 rejected by VCpu; chose D");
    hosts[3].place(&d);
    buckets.moved(3, 0, 1);
    assert_eq!(buckets.select(&filters, &hosts, &d), Some(2));
    let e = buckets.explain(&filters, &hosts, &names, &d, Some(2));
    assert_walk(&e, &[(2, 4), (0, 1), (1, 2), (1, 3)], "C");
}

/// Asserts a memorizing placement: per host in topology order `(bucket, place in the walk)`.
fn assert_walk(e: &Placement, walk: &[(u32, usize)], chosen: &str) {
    assert_eq!(e.scheduler, "memorizing");
    let got: Vec<(Option<u32>, Option<usize>)> =
        e.hosts.iter().map(|h| (h.bucket, h.rank)).collect();
    let want: Vec<(Option<u32>, Option<usize>)> =
        walk.iter().map(|&(b, r)| (Some(b), Some(r))).collect();
    assert_eq!(got, want, "(bucket, rank) per host");
    assert_eq!(e.chosen.as_deref(), Some(chosen));
    assert!(e
        .hosts
        .iter()
        .all(|h| h.total.is_none() && h.scores.is_empty()));
    assert!(e.weighers.is_empty() && e.draw.is_none());
}

/// Asserts that `name` was turned away by VCpu with `reason` in a memorizing placement.
fn assert_rejected_in_walk(e: &Placement, name: &str, reason: &str) {
    let r = row(e, name);
    assert_eq!(
        (r.passed, r.rejected_by, r.reason.as_deref()),
        (false, Some("VCpu"), Some(reason))
    );
}

/// The scheduler behind one entry point keeps the memorizing buckets current through
/// `moved`: the same walk as [`memorizing_explains_buckets_and_the_walk`] (D, then C), and a
/// filter policy's scheduler explains with the filter scheduler (ranks by total).
#[test]
fn the_scheduler_entry_point_moves_hosts_between_buckets() {
    let mut hosts: Vec<HostState> = [(4, 2), (1, 0), (4, 1), (4, 0)]
        .iter()
        .map(|&(cores, tasks)| with(host(cores, 1000.0, 4096), |h| h.instance_count = tasks))
        .collect();
    let mut p = policy(
        vec![Filter::VCpu {
            allocation_ratio: 1.0,
        }],
        vec![],
        1,
    );
    p.memorize = true;
    let (names, d) = (letters(4), demand(2, 0.0, 0));
    let mut s = Scheduler::new(&p, &hosts);
    let choice = s.select(&p, &hosts, &d, &mut Fixed(vec![]));
    assert_eq!(choice.host, Some(3));
    assert_eq!(
        s.explain(&p, &hosts, &names, &d, &choice).scheduler,
        "memorizing"
    );
    let before = hosts[3].instance_count;
    hosts[3].place(&d);
    s.moved(3, before, hosts[3].instance_count);
    assert_eq!(s.select(&p, &hosts, &d, &mut Fixed(vec![])).host, Some(2));
    // The filter scheduler: InstanceCount x -1 prefers the fewest tasks (B has no room).
    let p = policy(
        p.filters.clone(),
        vec![(WeigherKind::InstanceCount, -1.0)],
        1,
    );
    let mut s = Scheduler::new(&p, &hosts);
    let choice = s.select(&p, &hosts, &d, &mut Fixed(vec![]));
    assert_eq!(choice.host, Some(2));
    let e = s.explain(&p, &hosts, &names, &d, &choice);
    assert_eq!(
        (e.scheduler, ranks(&e)),
        ("filter", vec![Some(3), None, Some(1), Some(2)])
    );
}

/// On random clusters, policies and tasks, the explanation agrees with SPEC 3-4 recomputed from
/// the tables (see `explanations/spec.rs`) and with the decision itself: the verdicts, the raw
/// scores, each weigher's range, every contribution and total bit for bit, ranks that order
/// the totals shown (ties in topology order), and the chosen host at rank 1 (`subsetSize` 1)
/// or at the drawn rank. The ranks and the choice come from the decision's own arithmetic, the
/// totals from the explanation's, so a mutation of either shows.
#[test]
fn explanations_agree_with_the_decision_on_random_inputs() {
    let mut rng = policy_playground::engine::rng(15);
    let mut chose_other_than_first = 0;
    for case in 0..3000 {
        let hosts = random::hosts(&mut rng);
        let p = random::policy(&mut rng);
        let d = random::demand(&mut rng);
        let names = letters(hosts.len());
        let mut draws = rng.clone();
        let (choice, e) = decide_named(&p, &hosts, &names, &d, &mut draws);
        let context = format!("case {case}: {p:?} {d:?} {hosts:?}");
        let candidates = check_verdicts(&p, &hosts, &d, &e, &context);
        check_scores(&p, &hosts, &candidates, &e, &context);
        check_choice(&p, &hosts, &candidates, &choice, &e, &context);
        chose_other_than_first +=
            usize::from(choice.host.is_some() && choice.host != candidates.first().copied());
        rng = draws;
    }
    assert!(chose_other_than_first > 1000, "{chose_other_than_first}");
}

/// Checks each row's verdict against SPEC 3 and returns the candidates (topology indices).
fn check_verdicts(
    p: &policy_playground::policy::Policy,
    hosts: &[HostState],
    d: &Demand,
    e: &Placement,
    context: &str,
) -> Vec<usize> {
    assert_eq!(e.hosts.len(), hosts.len(), "{context}");
    let mut candidates = vec![];
    for (i, (h, r)) in hosts.iter().zip(&e.hosts).enumerate() {
        let first = explanations::spec::first_rejecting(p, h, d);
        assert_eq!(r.passed, first.is_none(), "{context}: host {i}");
        assert_eq!(
            r.rejected_by,
            first.map(|f| p.filters[f].name()),
            "{context}"
        );
        assert_eq!(r.reason.is_some(), first.is_some(), "{context}");
        if first.is_none() {
            candidates.push(i);
        }
    }
    assert_eq!(e.candidates, candidates.len(), "{context}");
    candidates
}

/// Checks every candidate's scores and total, and each weigher's range, against SPEC 4.
fn check_scores(
    p: &policy_playground::policy::Policy,
    hosts: &[HostState],
    candidates: &[usize],
    e: &Placement,
    context: &str,
) {
    use explanations::spec;
    let ranges = spec::ranges(p, hosts, candidates);
    for (w, (range, &(min, max))) in e.weighers.iter().zip(&ranges).enumerate() {
        let has = !candidates.is_empty();
        let want = (has.then_some(min), has.then_some(max), has && min != max);
        assert_eq!(
            (range.min, range.max, range.active),
            want,
            "{context}: weigher {w}"
        );
    }
    for &i in candidates {
        let r = &e.hosts[i];
        for (s, (w, &(min, max))) in r.scores.iter().zip(p.weighers.iter().zip(&ranges)) {
            let raw = spec::raw(w.kind, &hosts[i]);
            let normalized = if max == min {
                0.0
            } else {
                (raw - min) / (max - min)
            };
            let contribution = spec::contribution(w.multiplier, raw, min, max);
            let got = (s.raw, s.normalized, s.multiplier, s.contribution);
            assert_eq!(
                got,
                (raw, normalized, w.multiplier, contribution),
                "{context}: host {i}"
            );
        }
        assert_eq!(r.scores.len(), p.weighers.len(), "{context}");
        assert_eq!(
            r.total,
            Some(spec::total(p, &hosts[i], &ranges)),
            "{context}: host {i}"
        );
    }
}

/// Checks the ranks against the SPEC ranking and the choice against the ranks and the draw.
fn check_choice(
    p: &policy_playground::policy::Policy,
    hosts: &[HostState],
    candidates: &[usize],
    choice: &rank::Choice,
    e: &Placement,
    context: &str,
) {
    let ranking = explanations::spec::ranking(p, hosts, candidates);
    for (r, &i) in ranking.iter().enumerate() {
        assert_eq!(e.hosts[i].rank, Some(r + 1), "{context}: host {i}");
    }
    let k = (p.subset_size as usize).min(candidates.len());
    assert_eq!(e.subset, k, "{context}");
    let want = match (&choice.draw, k) {
        (_, 0) => None,
        (None, 1) => Some(ranking[0]),
        (Some(draw), _) if k > 1 => {
            assert_eq!(draw.among, k as u64, "{context}");
            Some(ranking[draw.index as usize])
        }
        (draw, _) => panic!("{context}: draw {draw:?} with k = {k}"),
    };
    assert_eq!(choice.host, want, "{context}");
    assert_eq!(
        e.chosen,
        want.map(|i| letters(hosts.len())[i].clone()),
        "{context}"
    );
    assert_eq!(e.draw, choice.draw, "{context}");
}

/// Random inputs for [`explanations_agree_with_the_decision_on_random_inputs`]: small integer
/// states so that filters cut some hosts, scores tie, and weighers are sometimes all-equal.
mod random {
    use policy_playground::engine::{Demand, HostState, Rng};
    use policy_playground::policy::{Filter, Policy, Weigher, WeigherKind};
    use rand::RngExt;

    pub fn hosts(rng: &mut Rng) -> Vec<HostState> {
        (0..rng.random_range(0..10usize))
            .map(|_| {
                let cores = rng.random_range(0..9u32);
                let memory = rng.random_range(0..5i64) * 1024;
                let mut h = HostState::empty(
                    cores,
                    [1000.0, 2000.0, 2500.0][rng.random_range(0..3usize)],
                    memory,
                    rng.random_range(0..5u32),
                );
                h.up = rng.random_range(0..6u32) != 0;
                h.instance_count = rng.random_range(0..4u32);
                h.provisioned_cores = rng.random_range(0..12i64);
                h.available_memory = memory - rng.random_range(0..6i64) * 512;
                h.provisioned_gpu_cores = rng.random_range(0..4i64);
                h
            })
            .collect()
    }

    pub fn demand(rng: &mut Rng) -> Demand {
        let cpu_count = rng.random_range(1..5u32);
        Demand {
            cpu_count,
            cpu_capacity: cpu_count as f64 * [800.0, 1500.0, 2200.0][rng.random_range(0..3usize)],
            memory: rng.random_range(0..5i64) * 512,
            gpu_count: rng.random_range(0..3u32),
            gpu_capacity: 0.0,
        }
    }

    pub fn policy(rng: &mut Rng) -> Policy {
        let kinds = [
            WeigherKind::Ram,
            WeigherKind::CoreRam,
            WeigherKind::InstanceCount,
            WeigherKind::VCpuCapacity,
            WeigherKind::VCpu,
            WeigherKind::VGpu,
        ];
        let multipliers = [-3.0, -1.0, -0.5, 0.25, 1.0, 2.0, 7.0];
        Policy {
            filters: (0..rng.random_range(0..4usize))
                .map(|_| filter(rng))
                .collect(),
            weighers: (0..rng.random_range(0..4usize))
                .map(|_| Weigher {
                    kind: kinds[rng.random_range(0..kinds.len())],
                    multiplier: multipliers[rng.random_range(0..multipliers.len())],
                })
                .collect(),
            subset_size: [1, 1, 1, 2, 3, 20][rng.random_range(0..6usize)],
            memorize: false,
            max_times_skipped: 0,
            timeshift: None,
        }
    }

    fn filter(rng: &mut Rng) -> Filter {
        let ratio = [0.5, 1.0, 1.5, 4.0][rng.random_range(0..4usize)];
        match rng.random_range(0..8u32) {
            0 => Filter::Compute,
            1 => Filter::VCpu {
                allocation_ratio: ratio,
            },
            2 => Filter::VCpuCapacity,
            3 => Filter::Ram {
                allocation_ratio: ratio,
            },
            4 => Filter::InstanceCount {
                limit: rng.random_range(1..4u32),
            },
            5 => Filter::SameHost,
            6 => Filter::DifferentHost,
            _ => Filter::VGpu {
                allocation_ratio: ratio,
            },
        }
    }
}

/// Through the JSON contract (`decide`, a decision case): the numbers of two steps, by hand.
///
/// Step 1, a task of 3072 MiB: C has 2048 MiB (rejected). Ram x -1 over A 8192, B 4096: span
/// 4096, A (-1 * 4096) / 4096 = -1, B -0. InstanceCount x 2 over A 0, B 1: A 0, B 2. Totals
/// A -1, B 2: B is chosen. Step 2: B now has 4096 - (4096 - 1024) = 1024 MiB free (rejected);
/// A alone: both weighers all-equal, total 0, A is chosen.
#[test]
fn decide_reports_the_numbers_in_json() {
    let case = r#"{
        "policy": {"type": "filter", "filters": [{"type": "Ram", "allocationRatio": 1.0}],
                   "weighers": [{"type": "Ram", "multiplier": -1.0},
                                {"type": "InstanceCount", "multiplier": 2.0}]},
        "hosts": [{"name": "A", "cores": 4, "coreSpeed": 1000, "memory": 8192},
                  {"name": "B", "cores": 4, "coreSpeed": 1000, "memory": 4096, "instanceCount": 1},
                  {"name": "C", "cores": 4, "coreSpeed": 1000, "memory": 2048}],
        "steps": [{"task": {"cpuCount": 1, "memory": 3072}, "expect": "B"},
                  {"task": {"cpuCount": 1, "memory": 3072}, "expect": "A"}]
    }"#;
    let answer: serde_json::Value =
        serde_json::from_str(&policy_playground::api::decide_json_str(case)).unwrap();
    assert_eq!(answer["type"], "success", "{answer}");
    let steps = &answer["value"]["steps"];
    let one = &steps[0]["explanation"]["placement"];
    assert_eq!(
        json_row(one, 0),
        (
            vec![(8192.0, 1.0, -1.0, -1.0), (0.0, 0.0, 2.0, 0.0)],
            -1.0,
            2
        )
    );
    assert_eq!(
        json_row(one, 1),
        (vec![(4096.0, 0.0, -1.0, 0.0), (1.0, 1.0, 2.0, 2.0)], 2.0, 1)
    );
    assert_eq!(
        one["hosts"][2]["reason"],
        "needs 3072 MiB, host has 2048 MiB"
    );
    assert_eq!(one["weighers"][0]["min"], 4096.0);
    assert_eq!(one["summary"], "3 hosts: 1 rejected by Ram; chose B");
    let two = &steps[1]["explanation"]["placement"];
    assert_eq!(
        json_row(two, 0),
        (vec![(8192.0, 0.0, -1.0, 0.0), (0.0, 0.0, 2.0, 0.0)], 0.0, 1)
    );
    assert_eq!(two["hosts"][1]["reason"], "needs 3072 MiB, 1024 MiB free");
    assert_eq!(two["weighers"][1]["active"], false);
    assert_eq!(answer["value"]["ok"], true);
}

/// A host row of a JSON placement: per score `(raw, normalized, multiplier, contribution)`,
/// the total and the rank.
type JsonRow = (Vec<(f64, f64, f64, f64)>, f64, u64);

/// The [`JsonRow`] of host `i` of a JSON placement.
fn json_row(placement: &serde_json::Value, i: usize) -> JsonRow {
    let h = &placement["hosts"][i];
    let f = |v: &serde_json::Value| v.as_f64().expect("a number");
    let scores = h["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|s| {
            (
                f(&s["raw"]),
                f(&s["normalized"]),
                f(&s["multiplier"]),
                f(&s["contribution"]),
            )
        })
        .collect();
    (scores, f(&h["total"]), h["rank"].as_u64().expect("a rank"))
}

/// A run records the explained task's placement with the engine's table, and only that task's.
///
/// Hosts A, B, C of 4 cores; VCpu(1) filter, VCpu x 1 weigher. At 0 task 0 (1 core) goes to A
/// (all raw -0: inactive, first host), then task 1 (2 cores): raw A -1, B -0, C -0, span 1,
/// totals A 0, B 1, C 1: B (tie with C, topology order). At 60 s task 2 (3 cores): B has
/// 4 - 2 = 2 free (rejected); raw A -1, C -0: totals A 0, C 1: C.
#[test]
fn a_run_records_the_explained_tasks_placement() {
    let (explanation, result) = sim_run("1");
    let e = only_placement(&explanation, 0);
    assert_eq!(ranks(&e), vec![Some(3), Some(1), Some(2)]);
    assert_eq!(totals(&e), vec![Some(0.0), Some(1.0), Some(1.0)]);
    assert_eq!(result.tasks[1].host.as_deref(), Some("B"));
    let (explanation, result) = sim_run("2");
    let e = only_placement(&explanation, 60_000);
    assert_scores(&e, "A", &[(-1.0, 0.0, 0.0)], 0.0, 2);
    assert_scores(&e, "C", &[(0.0, 1.0, 1.0)], 1.0, 1);
    assert_rejected(&e, "B", "VCpu", "needs 3 cores, 2 free");
    assert_eq!(e.chosen.as_deref(), Some("C"));
    assert_eq!(result.tasks[2].host.as_deref(), Some("C"));
}

/// The one decision of an explanation, a placement at `time`.
fn only_placement(explanation: &policy_playground::sim::TaskExplanation, time: i64) -> Placement {
    use policy_playground::sim::explain::Decision;
    match explanation.decisions.as_slice() {
        [Decision::Placement { time_ms, placement }] if *time_ms == time => placement.clone(),
        other => panic!("expected one placement at {time}: {other:?}"),
    }
}

/// The run of [`a_run_records_the_explained_tasks_placement`], explaining task `id`.
fn sim_run(
    id: &str,
) -> (
    policy_playground::sim::TaskExplanation,
    policy_playground::sim::SimResult,
) {
    use explanations::runs::{task, with_simulation};
    let p = policy(
        vec![Filter::VCpu {
            allocation_ratio: 1.0,
        }],
        vec![(WeigherKind::VCpu, 1.0)],
        1,
    );
    let tasks = [
        task(0, 600_000, 1),
        task(0, 600_000, 2),
        task(60_000, 600_000, 3),
    ];
    let options = policy_playground::sim::Options {
        explain_task: Some(id.into()),
        ..Default::default()
    };
    let hosts = [("A", 4), ("B", 4), ("C", 4)];
    with_simulation(&hosts, &tasks, None, &p, options, |mut sim| {
        while !sim.step(1 << 16) {}
        let explanation = sim.explanation().expect("an explained task").clone();
        (explanation, sim.finish())
    })
}

/// The recorder keeps the first 200 decisions about its task and counts the rest; decisions
/// about other tasks are not recorded (203 pauses of task 7 and one of task 8: 200 kept, the
/// last at 199 ms, 3 omitted).
#[test]
fn the_recorder_keeps_200_decisions_and_counts_the_rest() {
    use policy_playground::sim::explain::{Decision, ExplanationRecorder, MAX_DECISIONS};
    assert_eq!(MAX_DECISIONS, 200);
    let mut r = ExplanationRecorder::new(7);
    r.paused(8, 0, 0);
    for t in 0..203 {
        r.paused(7, t, 1000 - t);
    }
    let kept = &r.explanation.decisions;
    assert_eq!((kept.len(), r.explanation.omitted), (200, 3));
    assert_eq!(
        kept.last(),
        Some(&Decision::Pause {
            time_ms: 199,
            remaining_ms: 801
        })
    );
}

/// Deferrals, pauses and rejections are recorded for the recorder's task only; placements
/// are recorded as given (the simulator asks only for the explained task's).
#[test]
fn the_recorder_keeps_only_its_tasks_decisions() {
    use policy_playground::engine::timeshift;
    use policy_playground::sim::explain::{Decision, ExplanationRecorder};
    let mut r = ExplanationRecorder::new(3);
    let deferral = timeshift::deferral(None, 0, 10, 10, true, Some(50));
    let (_, placement) = decide(
        &policy(vec![], vec![], 1),
        &[host(1, 1.0, 1)],
        &demand(1, 0.0, 0),
    );
    for task in [2, 3, 4] {
        r.deferral(task, deferral.clone());
        r.paused(task, 5, 6);
        r.rejected(task, 7, format!("task {task}"));
    }
    r.placement(9, placement.clone());
    assert_eq!(
        r.explanation.decisions,
        vec![
            Decision::Deferral(deferral),
            Decision::Pause {
                time_ms: 5,
                remaining_ms: 6
            },
            Decision::Rejection {
                time_ms: 7,
                reason: "task 3".into()
            },
            Decision::Placement {
                time_ms: 9,
                placement
            },
        ]
    );
    assert_eq!(r.explanation.omitted, 0);
}
