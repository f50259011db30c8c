//! A task no empty host can take is terminated at its submission with the reason of the host
//! that came closest (SPEC 6.2): the one that passed the most filters, then the one with the
//! most of what the failing filter counts. Hosts are listed in every order, so that the choice
//! cannot come from their order.

use policy_playground::model::*;
use policy_playground::policy::policy_from_text;
use policy_playground::sim::{simulate, Options, Scenario};

/// A host group of one host: `(name, cores, memory MiB)`.
fn host(&(name, cores, memory_mib): &(&str, u32, i64)) -> HostGroup {
    HostGroup {
        name: name.into(),
        count: 1,
        cores,
        core_speed_mhz: 2000.0,
        memory_mib,
        gpus: vec![],
        power: PowerModel::Linear {
            idle: 100.0,
            max: 200.0,
        },
    }
}

/// The reason given to one task of `cores` cores and `memory_mib` MiB on `hosts`, under the
/// filters VCpu(1) then Ram(1).
fn reason(hosts: &[(&str, u32, i64)], cores: u32, memory_mib: i64) -> String {
    let topology = Topology {
        clusters: vec![ClusterSpec {
            name: "C".into(),
            groups: hosts.iter().map(host).collect(),
        }],
        carbon_ref: None,
        warnings: vec![],
    };
    let workload = Workload {
        tasks: vec![TaskSpec {
            id: "t".into(),
            name: "t".into(),
            submission_ms: 0,
            duration_ms: 1000,
            cpu_count: cores,
            cpu_capacity_mhz: 1000.0,
            memory_mib,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: false,
            deadline_ms: None,
            fragments: 0..0,
        }],
        ..Workload::default()
    };
    let text = r#"{"type": "filter", "filters": [{"type": "VCpu", "allocationRatio": 1},
        {"type": "Ram", "allocationRatio": 1}], "weighers": []}"#;
    let policy = policy_from_text(text).expect("a valid policy").0;
    let scenario = Scenario {
        topology: &topology,
        workload: &workload,
        carbon: None,
        policy: &policy,
        seed: 0,
        quantum_ms: 1000,
    };
    let r = simulate(scenario, Options::default());
    assert_eq!(r.tasks[0].state, "terminated");
    r.tasks[0]
        .reason
        .clone()
        .expect("a terminated task has a reason")
}

/// Every order of `hosts` gives `expected`.
fn in_every_order(hosts: [(&str, u32, i64); 3], cores: u32, memory_mib: i64, expected: &str) {
    for order in [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ] {
        let listed = order.map(|i| hosts[i]);
        assert_eq!(reason(&listed, cores, memory_mib), expected, "{listed:?}");
    }
}

/// 8 cores and 16 GiB: X (4 cores) fails the first filter; Y and Z pass it and fail Ram, Z with
/// more memory (12 GiB against 8): Z came closest.
#[test]
fn the_host_that_passes_more_filters_and_has_more_of_the_failing_one_is_named() {
    let hosts = [("X", 4, 32_768), ("Y", 16, 8192), ("Z", 16, 12_288)];
    in_every_order(
        hosts,
        8,
        16_384,
        "needs 16384 MiB, the largest host has 12288 MiB",
    );
}

/// 32 cores: every host fails VCpu, and the one with the most cores (16) is named.
#[test]
fn among_hosts_failing_the_same_filter_the_largest_is_named() {
    let hosts = [("X", 4, 32_768), ("Y", 16, 8192), ("Z", 8, 12_288)];
    in_every_order(hosts, 32, 1024, "needs 32 cores, the largest host has 16");
}
