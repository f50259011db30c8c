//! The input readers against OpenDC's own sample data (`shared/opendc-samples`) and against bad
//! input. The expected numbers were worked out independently of this crate (with pyarrow on the
//! parquet files, and by hand from the JSON), not by running the readers.

use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use policy_playground::diag::Diagnostic;
use policy_playground::experiment::{self, Disk, LoadError};
use policy_playground::input::carbon::{
    carbon_from_value, read_carbon_csv, read_carbon_json, read_carbon_parquet,
};
use policy_playground::input::topology::{read_topology, topology_from_value};
use policy_playground::input::workload::{
    read_csv_workload, read_json_workload, read_parquet_workload, workload_from_value,
};
use policy_playground::model::{GpuSpec, PowerModel, Topology, Workload};
use std::path::PathBuf;
use std::sync::Arc;

fn samples(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/opendc-samples")
        .join(rel)
}

fn text(rel: &str) -> String {
    std::fs::read_to_string(samples(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn bytes(rel: &str) -> Vec<u8> {
    std::fs::read(samples(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn workload(dir: &str) -> Workload {
    let w = read_parquet_workload(
        &bytes(&format!("workloads/{dir}/tasks.parquet")),
        &bytes(&format!("workloads/{dir}/fragments.parquet")),
    );
    w.unwrap_or_else(|e| panic!("{dir}: {e:#?}"))
}

fn errors(ds: &[Diagnostic]) -> Vec<&Diagnostic> {
    ds.iter().filter(|d| d.is_error()).collect()
}

/// The one error of a failed read (the tests below each break one thing).
fn one_error<T: std::fmt::Debug>(r: Result<T, Vec<Diagnostic>>) -> Diagnostic {
    let ds = r.expect_err("expected an error");
    let e = errors(&ds);
    assert_eq!(e.len(), 1, "expected exactly one error: {ds:#?}");
    e[0].clone()
}

fn warned(ws: &[Diagnostic], needle: &str) -> bool {
    ws.iter()
        .any(|w| !w.is_error() && w.message.contains(needle))
}

// ---------------------------------------------------------------------------------------------
// Topologies

/// (hosts, cores, MHz, MiB, power) of every host of a topology, checked to be all alike.
fn uniform(t: &Topology) -> (usize, u32, f64, i64, PowerModel) {
    let hosts = t.hosts();
    let h = &hosts[0];
    for other in &hosts {
        assert_eq!(
            (
                other.cores,
                other.core_speed_mhz,
                other.memory_mib,
                other.power
            ),
            (h.cores, h.core_speed_mhz, h.memory_mib, h.power)
        );
    }
    (
        hosts.len(),
        h.cores,
        h.core_speed_mhz,
        h.memory_mib,
        h.power,
    )
}

#[test]
fn legacy_topology_samples() {
    let lin = PowerModel::Linear {
        idle: 100.0,
        max: 200.0,
    };
    let big = 140_457_600_000;
    let cases = [
        ("single_1_2000.json", (1, 1, 2000.0, big, lin), None),
        (
            "single_1_2000_BE.json",
            (1, 1, 2000.0, big, lin),
            Some("src/test/resources/carbonTraces/2022-01-01_2022-12-31_BE.parquet"),
        ),
        ("single_2_2000.json", (1, 2, 2000.0, big, lin), None),
        ("single_50_big.json", (1, 64, 2000.0, big, lin), None),
        ("topology_100.json", (100, 1, 2000.0, big, lin), None),
        // No cpuPowerModel: OpenDC's default, linear 200-400 W.
        (
            "workflow_topology.json",
            (
                3,
                12,
                3300.0,
                big,
                PowerModel::Linear {
                    idle: 200.0,
                    max: 400.0,
                },
            ),
            None,
        ),
        (
            "surfsara_NL.json",
            (
                277,
                16,
                2100.0,
                100_000,
                PowerModel::Sqrt {
                    idle: 32.0,
                    max: 180.0,
                },
            ),
            Some("carbon_traces/NL_2021-2024.parquet"),
        ),
    ];
    for (file, expected, carbon) in cases {
        let t = read_topology(&text(&format!("topologies/legacy/{file}")))
            .unwrap_or_else(|e| panic!("{file}: {e:#?}"));
        assert_eq!(uniform(&t), expected, "{file}");
        assert_eq!(t.carbon_ref.as_deref(), carbon, "{file}");
        assert!(t.warnings.is_empty(), "{file}: {:#?}", t.warnings);
    }
    let t = read_topology(&text("topologies/legacy/surfsara_NL.json")).unwrap();
    let names: Vec<String> = t.hosts().iter().take(3).map(|h| h.name.clone()).collect();
    assert_eq!(names, ["H01", "H01-0", "H01-1"]);
    assert_eq!(t.hosts()[276].name, "H01-275");
}

#[test]
fn legacy_gpu_topologies_read_gpus_and_warn_that_gpu_power_is_not_modelled() {
    let t = read_topology(&text("topologies/legacy/Gpus/dual_core_gpu_host.json")).unwrap();
    let h = &t.hosts()[0];
    assert_eq!(
        (t.host_count(), h.cores, h.name.as_str()),
        (1, 4, "DualGpuHost")
    );
    assert_eq!(
        h.gpus,
        vec![GpuSpec {
            cores: 2,
            core_speed_mhz: 2000.0
        }]
    );
    assert_eq!(h.gpu_cores(), 2);
    let gpu_warnings = t
        .warnings
        .iter()
        .filter(|w| w.message.contains("GPU power"))
        .count();
    assert_eq!(gpu_warnings, 1, "{:#?}", t.warnings);

    let t = read_topology(&text("topologies/legacy/Gpus/single_gpu_hosts.json")).unwrap();
    let hosts = t.hosts();
    assert_eq!(hosts.len(), 2);
    assert_eq!(
        (hosts[0].name.as_str(), hosts[1].name.as_str()),
        ("SingleGpuHost1", "SingleGpuHost2")
    );
    assert!(hosts.iter().all(|h| h.cores == 2 && h.gpu_cores() == 1));
    // Two hosts with GPUs and GPU power models: still one warning about GPU power.
    assert_eq!(
        t.warnings
            .iter()
            .filter(|w| w.message.contains("GPU power"))
            .count(),
        1
    );
}

#[test]
fn sdk_topology_samples() {
    let sqrt = PowerModel::Sqrt {
        idle: 32.0,
        max: 180.0,
    };
    for loc in ["NL", "AT", "AU", "BE"] {
        let t = read_topology(&text(&format!("topologies/sdk/surfsara_sqrt_{loc}.json"))).unwrap();
        assert_eq!(uniform(&t), (277, 16, 2100.0, 100_000, sqrt), "{loc}");
        assert!(
            t.carbon_ref.as_deref().unwrap().contains(loc),
            "{:?}",
            t.carbon_ref
        );
        assert!(t.warnings.is_empty(), "{loc}: {:#?}", t.warnings);
    }
    let lin = PowerModel::Linear {
        idle: 32.0,
        max: 180.0,
    };
    for n in [100, 150, 200, 279] {
        let t = read_topology(&text(&format!(
            "topologies/sdk/surfsara_linear_NL_{n}.json"
        )))
        .unwrap();
        assert_eq!(uniform(&t), (n, 16, 2100.0, 100_000, lin), "{n}");
        assert_eq!(
            t.carbon_ref.as_deref(),
            Some("carbon_traces/NL_2021-2024.parquet")
        );
    }
    // The legacy and the SDK spelling of the same datacenter give the same hosts.
    let legacy = read_topology(&text("topologies/legacy/surfsara_NL.json")).unwrap();
    let sdk = read_topology(&text("topologies/sdk/surfsara_sqrt_NL.json")).unwrap();
    assert_eq!(legacy.hosts(), sdk.hosts());
}

#[test]
fn sdk_experiment_inline_topologies() {
    // timeshift-taskstopper: one cluster with count 2 of 16 hosts with 2 CPUs of 24 cores each.
    let exp: serde_json::Value =
        serde_json::from_str(&text("experiments/sdk/timeshift-taskstopper.json")).unwrap();
    let t = topology_from_value(&exp["topologies"][0]).unwrap();
    assert_eq!(
        uniform(&t),
        (
            32,
            48,
            2800.0,
            192 * 1024,
            PowerModel::Linear {
                idle: 100.0,
                max: 350.0
            }
        )
    );
    let clusters: Vec<&str> = t.clusters.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(clusters, ["green-cluster", "green-cluster-0"]);
    let hosts = t.hosts();
    assert_eq!(
        (hosts[0].name.as_str(), hosts[31].name.as_str()),
        ("host", "host-30")
    );
    assert_eq!((hosts[16].cluster, hosts[15].cluster), (1, 0));
    assert_eq!(t.carbon_ref.as_deref(), Some("de-carbon-2022"));
    // Battery, vendor + modelName, the power source's maxPower: one warning each.
    assert!(warned(&t.warnings, "batteries"), "{:#?}", t.warnings);
    assert!(warned(&t.warnings, "maxPower"), "{:#?}", t.warnings);
    assert_eq!(
        t.warnings
            .iter()
            .filter(|w| w.message.contains("vendor"))
            .count(),
        1
    );
    assert_eq!(t.warnings.len(), 3, "{:#?}", t.warnings);

    let exp: serde_json::Value =
        serde_json::from_str(&text("experiments/sdk/tiny-experiment.json")).unwrap();
    let t = topology_from_value(&exp["topologies"][0]).unwrap();
    assert_eq!(
        uniform(&t),
        (
            1,
            8,
            3000.0,
            16 * 1024,
            PowerModel::Linear {
                idle: 80.0,
                max: 300.0
            }
        )
    );
    assert_eq!(t.carbon_ref, None);
}

#[test]
fn sdk_topology_units_follow_opendc3_with_decimal_and_binary_sizes() {
    let host = |speed: &str, size: &str, power: &str| {
        let text = format!(
            r#"{{"clusters": [{{"hosts": [{{"cpu": {{"coreCount": 1, "coreSpeed": {speed}}},
                "memory": {{"size": {size}}},
                "cpuPowerModel": {{"type": "linear", "idlePower": {power}, "maxPower": "1 kW"}}}}]}}]}}"#
        );
        let h = read_topology(&text)
            .unwrap_or_else(|e| panic!("{e:#?}"))
            .hosts()[0]
            .clone();
        let PowerModel::Linear { idle, max } = h.power else {
            panic!()
        };
        assert_eq!(max, 1000.0);
        (h.core_speed_mhz, h.memory_mib, idle)
    };
    assert_eq!(
        host("\"2.1 GHz\"", "\"100000 MiB\"", "\"350 Watts\""),
        (2100.0, 100_000, 350.0)
    );
    // An SDK file (it has `memory.size`) takes OpenDC3's units (SPEC 11.6): frequencies and
    // powers ignore case, data sizes do not, so `gib` is a gibibit: 2^30 / 8 bytes = 128 MiB.
    assert_eq!(
        host("\"2100 mhz\"", "\"1 gib\"", "\"0.05 kWatts\""),
        (2100.0, 128, 50.0)
    );
    assert_eq!(
        host("\"2100 mhz\"", "\"1 GiB\"", "\"0.05 kWatts\""),
        (2100.0, 1024, 50.0)
    );
    assert_eq!(
        host("\"2100000 kHz\"", "\"1 TiB\"", "\"32 W\""),
        (2100.0, 1_048_576, 32.0)
    );
    assert_eq!(
        host("\"2.1e9 Hz\"", "\"2048 KiB\"", "32"),
        (2100.0, 2, 32.0)
    );
    // Powers of 1000: 16 GB = 15258.79 MiB, truncated to whole MiB as OpenDC3 does (SPEC 11.5).
    assert_eq!(host("2100", "\"16 GB\"", "32"), (2100.0, 15_258, 32.0));
    assert_eq!(host("2100", "\"1 TB\"", "32"), (2100.0, 953_674, 32.0));
    assert_eq!(host("2100", "\"1048576 B\"", "32"), (2100.0, 1, 32.0));
}

#[test]
fn bad_topologies_give_one_clear_error_each() {
    let base = text("topologies/legacy/single_1_2000.json");

    let e = one_error(read_topology(
        &base.replace("\"coreCount\": 1", "\"coreCount\": 0"),
    ));
    assert_eq!(e.path, "clusters[0].hosts[0].cpu.coreCount");
    assert!(
        e.message.contains(">= 1") && e.message.contains('0'),
        "{}",
        e.message
    );
    assert_eq!((e.line, e.column), (Some(12), Some(38)));

    let e = one_error(read_topology(
        &base.replace("\"coreSpeed\": 2000", "\"coreSpeed\": \"2 GHzz\""),
    ));
    assert_eq!(e.path, "clusters[0].hosts[0].cpu.coreSpeed");
    assert!(
        e.message.contains("unknown unit \"GHzz\"") && e.message.contains("MHz"),
        "{}",
        e.message
    );
    assert_eq!(e.line, Some(13));

    let e = one_error(read_topology(
        r#"{"clusters": [{"name": "C01", "hosts": []}]}"#,
    ));
    assert!(e.message.contains("no hosts"), "{}", e.message);
    let e = one_error(read_topology(r#"{"clusters": []}"#));
    assert!(e.message.contains("no hosts"), "{}", e.message);

    let two = format!(
        r#"{{"clusters": [{}, {}]}}"#,
        cluster_with_carbon("a.parquet"),
        cluster_with_carbon("b.parquet")
    );
    let e = one_error(read_topology(&two));
    assert_eq!(e.path, "clusters[1].powerSource.carbonTracePath");
    assert!(
        e.message.contains("a.parquet") && e.message.contains("b.parquet"),
        "{}",
        e.message
    );

    let e = one_error(read_topology("{\"clusters\": [\n  {\"hosts\": [}\n]}"));
    assert!(e.message.contains("not valid JSON"), "{}", e.message);
    assert_eq!(e.line, Some(2));

    let e = one_error(read_topology(
        &base.replace("\"memorySize\": 140457600000", "\"memorySize\": -1"),
    ));
    assert_eq!(e.path, "clusters[0].hosts[0].memory.memorySize");
}

fn cluster_with_carbon(path: &str) -> String {
    format!(
        r#"{{"hosts": [{{"cpu": {{"coreCount": 1, "coreSpeed": 1}}, "memory": {{"memorySize": 1}}}}],
            "powerSource": {{"carbonTracePath": "{path}"}}}}"#
    )
}

#[test]
fn every_prefix_of_a_topology_is_an_error_not_a_panic() {
    let full = text("topologies/sdk/surfsara_sqrt_NL.json");
    let mut cut = 0;
    for end in (0..full.len()).filter(|&i| full.is_char_boundary(i)) {
        if read_topology(&full[..end]).is_err() {
            cut += 1;
        }
    }
    assert!(cut > full.len() / 2);
}

// ---------------------------------------------------------------------------------------------
// Parquet workloads

#[test]
fn surf_week() {
    let w = workload("surf_week");
    assert_eq!(w.tasks.len(), 6295);
    assert_eq!(w.fragments.len(), 2_323_475);
    let (durations, usages) = w.fragment_columns();
    assert_eq!((durations.len(), usages.len()), (2_323_475, 2_323_475));
    // Runs of equal consecutive fragments of one task, counted with pyarrow: 1,166,906, just
    // over half the fragments (2 x 1,166,906 = 2,333,812).
    assert_eq!(w.fragments.run_count(), 1_166_906);
    assert_eq!(w.dropped, 0);
    assert!(w.warnings.is_empty(), "{:#?}", w.warnings);
    assert!(w
        .tasks
        .iter()
        .all(|t| t.cpu_count == 16 && t.cpu_capacity_mhz == 33_600.0 && t.memory_mib == 100));
    let t = &w.tasks[0];
    assert_eq!(
        (t.id.as_str(), t.submission_ms, t.duration_ms),
        ("2133099", 1_665_093_600_000, 27_930_000)
    );
    assert_eq!(w.fragment_count(t), 931);
    assert_eq!(w.tasks[6294].id, "2138225");
    assert_eq!(w.fragment_count(&w.tasks[6294]), 9153);
    assert_eq!(durations.iter().sum::<i64>(), 69_704_250_000);
    assert_eq!(usages.iter().sum::<f64>(), 50_800_322_055.0);
    // Every task's duration is the sum of its fragments, and the tasks' ranges of runs, in
    // whatever order the reader laid them out, tile the store: every run is one task's.
    let mut ranges: Vec<_> = w.tasks.iter().map(|t| t.fragments.clone()).collect();
    ranges.sort_by_key(|r| (r.start, r.end));
    let mut next = 0;
    for r in &ranges {
        assert_eq!(r.start, next);
        next = r.end;
    }
    // Ranges count words: a run of more than 4,095 fragments takes three (SURF has 75).
    assert_eq!(next, w.fragments.end());
    assert_eq!(w.fragments.end() as usize, 1_166_906 + 2 * 75);
    for t in &w.tasks {
        assert_eq!(t.duration_ms, w.fragments.duration(&t.fragments));
    }
    // Task 2152367 (row 6104) has fragments in two places of the file; they are grouped in
    // file order.
    let t = &w.tasks[6104];
    assert_eq!(t.id, "2152367");
    let usage: Vec<f64> = w.task_fragments(t).map(|f| f.1).collect();
    assert_eq!((usage.len(), t.duration_ms), (5519, 165_570_000));
    assert_eq!(usage.iter().sum::<f64>(), 135_858_849.0);
    assert_eq!(&usage[..3], &[24192.0, 25935.0, 28959.0]);
    assert_eq!(&usage[usage.len() - 3..], &[26607.0, 27132.0, 24570.0]);
}

#[test]
fn bitbrains_small_durations_come_from_the_fragments() {
    let w = workload("bitbrains-small");
    assert_eq!((w.tasks.len(), w.fragments.len()), (50, 276_979));
    let t = &w.tasks[0];
    assert_eq!(
        (t.id.as_str(), t.cpu_count, t.cpu_capacity_mhz),
        ("1019", 1, 2926.000135)
    );
    // mem_capacity 181352 KB -> round(181.352) MiB.
    assert_eq!(
        (t.memory_mib, w.fragment_count(t), t.duration_ms),
        (181, 6148, 2_590_786_000)
    );
    assert_eq!(
        (w.tasks[1].id.as_str(), w.tasks[1].memory_mib),
        ("1023", 260)
    );
    // All 50 `duration` values differ from their fragments: one warning that counts them.
    let differ: Vec<_> = w
        .warnings
        .iter()
        .filter(|d| d.message.contains("differ"))
        .collect();
    assert_eq!(differ.len(), 1);
    assert!(differ[0].message.contains("50"), "{}", differ[0].message);
}

#[test]
fn legacy_trace_with_string_ids_and_nature_deferrable() {
    let w = workload("legacy_trace-v2.1");
    let rows: Vec<(&str, bool, Option<i64>, u64)> = w
        .tasks
        .iter()
        .map(|t| {
            (
                t.id.as_str(),
                t.deferrable,
                t.deadline_ms,
                w.fragment_count(t),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("1019", true, Some(1_381_499_050_000), 6148),
            ("1023", true, Some(1_381_499_050_000), 5106),
            ("1052", true, Some(1_378_942_802_000), 839),
            ("1073", true, Some(1_380_730_364_000), 4574),
        ]
    );
    assert_eq!(w.tasks[3].duration_ms, 1_821_896_000);
}

#[test]
fn workflow_columns_are_read_with_one_warning() {
    let w = workload("workflow_example");
    assert_eq!(w.tasks.len(), 4);
    assert!(w
        .tasks
        .iter()
        .all(|t| t.duration_ms == 3_600_000 && t.submission_ms == 1_704_067_200_000));
    let n = w
        .warnings
        .iter()
        .filter(|d| d.message.contains("parents"))
        .count();
    assert_eq!(n, 1, "{:#?}", w.warnings);
}

#[test]
fn small_gpu_interleaved_fragments_and_a_gpu_usage_warning() {
    let w = workload("small_gpu");
    assert_eq!((w.tasks.len(), w.fragments.len()), (25, 504_000));
    assert!(w
        .tasks
        .iter()
        .all(|t| t.gpu_count == 50 && t.gpu_capacity_mhz == 1_008_000.0));
    // The fragments are interleaved (row k belongs to task k mod 25); each task gets its 20160.
    assert!(w
        .tasks
        .iter()
        .all(|t| w.fragment_count(t) == 20_160 && t.duration_ms == 1_209_600));
    assert!(w.fragment_columns().0.iter().all(|&d| d == 60));
    assert_eq!(
        w.warnings
            .iter()
            .filter(|d| d.message.contains("GPU usage"))
            .count(),
        1
    );
}

#[test]
fn single_task_and_task_scaling() {
    let w = workload("single_task");
    let t = &w.tasks[0];
    assert_eq!(
        (t.duration_ms, t.cpu_capacity_mhz, t.memory_mib),
        (3_000_000, 39_600.0, 100)
    );
    assert_eq!(w.fragments.len(), 1);
    assert_eq!(w.fragment_columns().1, [39_600.0]);
    let w = workload("taskScaling_1K_tasks");
    assert_eq!(w.tasks.len(), 1000);
    assert!(w
        .tasks
        .iter()
        .all(|t| t.memory_mib == 10 && w.fragment_count(t) == 1 && t.duration_ms == 3_600_000));
    assert!(w.warnings.is_empty(), "{:#?}", w.warnings);
}

/// A column of a parquet file written by the tests.
enum Col {
    I32(Vec<i32>),
    I64(Vec<i64>),
    F64(Vec<f64>),
    Str(Vec<&'static str>),
    Bool(Vec<bool>),
    /// An optional int64 column, `None` as null.
    OptI64(Vec<Option<i64>>),
}

/// Writes a small parquet file (uncompressed) with the given columns.
fn parquet(columns: Vec<(&str, Col)>) -> Vec<u8> {
    let fields: Vec<String> = columns
        .iter()
        .map(|(name, c)| match c {
            Col::I32(_) => format!("required int32 {name};"),
            Col::I64(_) => format!("required int64 {name};"),
            Col::F64(_) => format!("required double {name};"),
            Col::Str(_) => format!("required binary {name} (UTF8);"),
            Col::Bool(_) => format!("required boolean {name};"),
            Col::OptI64(_) => format!("optional int64 {name};"),
        })
        .collect();
    let schema =
        Arc::new(parse_message_type(&format!("message m {{ {} }}", fields.join(" "))).unwrap());
    let mut out = Vec::new();
    let mut writer = SerializedFileWriter::new(
        &mut out,
        schema,
        Arc::new(WriterProperties::builder().build()),
    )
    .unwrap();
    let mut group = writer.next_row_group().unwrap();
    for (_, c) in &columns {
        let mut col = group.next_column().unwrap().unwrap();
        match c {
            Col::I32(v) => col.typed::<Int32Type>().write_batch(v, None, None),
            Col::I64(v) => col.typed::<Int64Type>().write_batch(v, None, None),
            Col::F64(v) => col.typed::<DoubleType>().write_batch(v, None, None),
            Col::Bool(v) => col.typed::<BoolType>().write_batch(v, None, None),
            Col::Str(v) => {
                let v: Vec<ByteArray> = v.iter().map(|s| ByteArray::from(*s)).collect();
                col.typed::<ByteArrayType>().write_batch(&v, None, None)
            }
            Col::OptI64(v) => {
                let values: Vec<i64> = v.iter().flatten().copied().collect();
                let defs: Vec<i16> = v.iter().map(|x| x.is_some() as i16).collect();
                col.typed::<Int64Type>()
                    .write_batch(&values, Some(&defs), None)
            }
        }
        .unwrap();
        col.close().unwrap();
    }
    group.close().unwrap();
    writer.close().unwrap();
    out
}

/// A valid two-task workload; `edit` changes its columns before they are written.
fn two_tasks(
    edit: impl FnOnce(&mut Vec<(&'static str, Col)>, &mut Vec<(&'static str, Col)>),
) -> Result<Workload, Vec<Diagnostic>> {
    let mut tasks = vec![
        ("id", Col::I32(vec![1, 2])),
        ("submission_time", Col::I64(vec![1_000, 2_000])),
        ("duration", Col::I64(vec![10, 20])),
        ("cpu_count", Col::I32(vec![1, 2])),
        ("cpu_capacity", Col::F64(vec![1000.0, 2000.0])),
        ("mem_capacity", Col::I64(vec![1_499, 1_500])),
    ];
    let mut fragments = vec![
        ("id", Col::I32(vec![1, 2, 1])),
        ("duration", Col::I64(vec![4, 20, 6])),
        ("cpu_usage", Col::F64(vec![500.0, 2000.0, 250.0])),
    ];
    edit(&mut tasks, &mut fragments);
    read_parquet_workload(&parquet(tasks), &parquet(fragments))
}

fn set(cols: &mut [(&'static str, Col)], name: &str, col: Col) {
    cols.iter_mut().find(|(n, _)| *n == name).unwrap().1 = col;
}

#[test]
fn a_written_parquet_workload_reads_back() {
    let w = two_tasks(|_, _| {}).unwrap();
    // Memory rounds half up: 1499 KB -> 1 MiB, 1500 KB -> 2 MiB. Task 1's fragments are rows 0
    // and 2 of the file.
    let t = &w.tasks;
    assert_eq!((t[0].memory_mib, t[1].memory_mib), (1, 2));
    assert_eq!((t[0].duration_ms, t[1].duration_ms), (10, 20));
    assert_eq!(w.fragments.len(), 3);
    assert_eq!(
        w.fragment_columns(),
        (vec![4, 6, 20], vec![500.0, 250.0, 2000.0])
    );
    assert!(w.warnings.is_empty(), "{:#?}", w.warnings);

    let w = two_tasks(|t, _| {
        t.push(("deadline", Col::OptI64(vec![Some(-1), Some(5_000)])));
        t.push(("deferrable", Col::Bool(vec![true, false])));
        t.push(("nature", Col::Str(vec!["", "deferrable"])));
    })
    .unwrap();
    assert_eq!(
        (w.tasks[0].deadline_ms, w.tasks[1].deadline_ms),
        (None, Some(5_000))
    );
    assert!(w.tasks[0].deferrable && w.tasks[1].deferrable);
}

#[test]
fn parquet_tasks_without_fragments_and_fragments_without_tasks_are_counted() {
    let w = two_tasks(|_, f| {
        set(f, "id", Col::I32(vec![1, 7, 1]));
    })
    .unwrap();
    assert_eq!((w.tasks.len(), w.dropped), (1, 1));
    assert!(warned(&w.warnings, "1 tasks"), "{:#?}", w.warnings);
    assert!(warned(&w.warnings, "1 fragments"), "{:#?}", w.warnings);
}

#[test]
fn bad_parquet_workloads_give_one_clear_error_each() {
    let e = one_error(two_tasks(|t, _| {
        t.retain(|(n, _)| *n != "cpu_count");
    }));
    assert!(
        e.message.contains("tasks.parquet") && e.message.contains("cpu_count"),
        "{}",
        e.message
    );
    assert!(
        e.message
            .contains("submission_time, duration, cpu_capacity"),
        "lists the columns: {}",
        e.message
    );

    let e = one_error(two_tasks(|t, _| {
        set(t, "cpu_count", Col::F64(vec![1.0, 2.0]))
    }));
    assert!(
        e.message.contains("cpu_count")
            && e.message.contains("DOUBLE")
            && e.message.contains("int"),
        "{}",
        e.message
    );

    let e = one_error(two_tasks(|_, f| {
        set(f, "duration", Col::Str(vec!["4", "20", "6"]))
    }));
    assert!(
        e.message.contains("fragments.parquet") && e.message.contains("BYTE_ARRAY"),
        "{}",
        e.message
    );

    let e = one_error(two_tasks(|t, _| set(t, "cpu_count", Col::I32(vec![1, 0]))));
    assert_eq!(e.path, "tasks[1].cpu_count");
    assert!(
        e.message.contains("tasks.parquet row 1") && e.message.contains(">= 1"),
        "{}",
        e.message
    );

    let e = one_error(two_tasks(|t, _| set(t, "id", Col::I32(vec![1, 1]))));
    assert!(e.message.contains("twice"), "{}", e.message);

    let e = one_error(two_tasks(|t, _| {
        t.push(("deadline", Col::OptI64(vec![None, Some(1_999)])))
    }));
    assert_eq!(e.path, "tasks[1].deadline");
    assert!(e.message.contains("before the submission"), "{}", e.message);

    for bad in [f64::NAN, f64::INFINITY, -1.0] {
        let e = one_error(two_tasks(|_, f| {
            set(f, "cpu_usage", Col::F64(vec![500.0, 2000.0, bad]))
        }));
        assert_eq!(e.path, "fragments[2].cpu_usage");
        assert!(
            e.message.contains("fragments.parquet row 2") && e.message.contains("finite"),
            "{}",
            e.message
        );
    }
    let e = one_error(two_tasks(|t, _| {
        set(t, "cpu_capacity", Col::F64(vec![f64::NAN, 1.0]))
    }));
    assert_eq!(e.path, "tasks[0].cpu_capacity");

    let e = one_error(two_tasks(|_, f| {
        set(f, "duration", Col::I64(vec![4, -20, 6]))
    }));
    assert_eq!(e.path, "fragments[1].duration");
}

#[test]
fn a_mistyped_optional_parquet_column_is_an_error_too() {
    let e = one_error(two_tasks(|t, _| {
        t.push(("deadline", Col::Str(vec!["soon", "later"])))
    }));
    assert!(
        e.message.contains("deadline") && e.message.contains("BYTE_ARRAY"),
        "{}",
        e.message
    );
}

#[test]
fn garbage_and_truncated_parquet_are_errors_not_panics() {
    let tasks = bytes("workloads/surf_week/tasks.parquet");
    let fragments = bytes("workloads/surf_week/fragments.parquet");

    let e = one_error(read_parquet_workload(b"this is not parquet", &fragments));
    assert!(
        e.message.contains("tasks.parquet") && e.message.contains("not a readable parquet"),
        "{}",
        e.message
    );
    let e = one_error(read_parquet_workload(&tasks, &[]));
    assert!(e.message.contains("fragments.parquet"), "{}", e.message);
    let e = one_error(read_parquet_workload(
        &tasks,
        &fragments[..fragments.len() / 2],
    ));
    assert!(e.message.contains("fragments.parquet"), "{}", e.message);
    // Both files given the wrong way round: required columns are missing.
    assert!(read_parquet_workload(&fragments, &tasks).is_err());

    // Every cut of a small file, and corrupted bytes inside its pages: errors (or, for bytes
    // that happen to decode, a result), never a panic.
    let small_tasks = bytes("workloads/single_task/tasks.parquet");
    let small_fragments = bytes("workloads/single_task/fragments.parquet");
    for end in 0..small_tasks.len() {
        assert!(
            read_parquet_workload(&small_tasks[..end], &small_fragments).is_err(),
            "cut at {end}"
        );
    }
    for i in 4..small_fragments.len().saturating_sub(8) {
        let mut b = small_fragments.clone();
        b[i] ^= 0x5a;
        let _ = read_parquet_workload(&small_tasks, &b);
    }
}

// ---------------------------------------------------------------------------------------------
// JSON and CSV workloads

const JSON_WORKLOAD: &str = r#"{"tasks": [
  {"id": 1, "name": "a", "submissionTime": "2024-01-01T00:00:00", "duration": 10,
   "cpuCount": 2, "cpuCapacity": 4000, "memory": 512,
   "fragments": [{"duration": 4, "cpuUsage": 4000}, {"duration": 6, "cpuUsage": 1000}]},
  {"id": "b", "submissionTime": 1704067260000, "duration": 99, "cpuCount": 1, "cpuCapacity": 1000,
   "memory": 0, "deferrable": true, "deadline": "2024-01-01T01:00:00Z", "gpuCount": 1, "gpuCapacity": 5,
   "fragments": {"duration": [30, 30], "cpuUsage": [500, 0]}},
  {"id": 3, "submissionTime": "2024-01-01T02:00:00+02:00", "duration": 60000, "cpuCount": 1,
   "cpuCapacity": 1500.5, "memory": 10}
]}"#;

#[test]
fn json_workload_with_both_fragment_forms() {
    let w = read_json_workload(JSON_WORKLOAD).unwrap_or_else(|e| panic!("{e:#?}"));
    let t = &w.tasks;
    assert_eq!(t.len(), 3);
    assert_eq!(
        (t[0].id.as_str(), t[0].name.as_str(), t[1].name.as_str()),
        ("1", "a", "b")
    );
    assert_eq!(t[0].submission_ms, 1_704_067_200_000);
    assert_eq!(t[2].submission_ms, 1_704_067_200_000);
    assert_eq!(
        (t[0].duration_ms, t[1].duration_ms, t[2].duration_ms),
        (10, 60, 60_000)
    );
    assert_eq!(
        (
            w.fragment_count(&t[0]),
            w.fragment_count(&t[1]),
            w.fragment_count(&t[2])
        ),
        (2, 2, 0)
    );
    assert_eq!(w.fragments.len(), 4);
    assert_eq!(
        w.fragment_columns(),
        (vec![4, 6, 30, 30], vec![4000.0, 1000.0, 500.0, 0.0])
    );
    assert_eq!(
        (t[1].deferrable, t[1].deadline_ms),
        (true, Some(1_704_070_800_000))
    );
    assert_eq!(
        (t[1].gpu_count, t[1].gpu_capacity_mhz, t[2].cpu_capacity_mhz),
        (1, 5.0, 1500.5)
    );
    // Task "b" says 99 ms but its fragments last 60: one warning counting such tasks.
    let differ: Vec<_> = w
        .warnings
        .iter()
        .filter(|d| d.message.contains("differ"))
        .collect();
    assert_eq!(differ.len(), 1);
    assert!(differ[0].message.starts_with('1'), "{}", differ[0].message);

    let value: serde_json::Value = serde_json::from_str(JSON_WORKLOAD).unwrap();
    let from_value = workload_from_value(&value).unwrap();
    assert_eq!(from_value.tasks, w.tasks);
    assert_eq!(from_value.fragment_columns().0, w.fragment_columns().0);
}

#[test]
fn bad_json_workloads_give_one_clear_error_each() {
    let e = one_error(read_json_workload(
        &JSON_WORKLOAD.replace("\"cpuCount\": 2", "\"cpucount\": 2, \"cpuCount\": 2"),
    ));
    assert_eq!(e.path, "tasks[0].cpucount");
    assert!(
        e.message.contains("did you mean") && e.message.contains("cpuCount"),
        "{}",
        e.message
    );
    assert_eq!((e.line, e.column), (Some(3), Some(4)));

    let e = one_error(read_json_workload("{\"tasks\": [\n  {\"id\": 1,, }]}"));
    assert!(e.message.contains("not valid JSON"), "{}", e.message);
    assert_eq!(e.line, Some(2));

    for number in ["1e999", "NaN", "Infinity"] {
        let e = one_error(read_json_workload(&JSON_WORKLOAD.replace(
            "\"cpuCapacity\": 4000",
            &format!("\"cpuCapacity\": {number}"),
        )));
        assert!(
            e.message.contains("not valid JSON"),
            "{number}: {}",
            e.message
        );
    }
    let e = one_error(read_json_workload(
        &JSON_WORKLOAD.replace("\"cpuCount\": 2", "\"cpuCount\": 0"),
    ));
    assert_eq!(e.path, "tasks[0].cpuCount");
    let e = one_error(read_json_workload(
        &JSON_WORKLOAD.replace("\"id\": 3", "\"id\": 1"),
    ));
    assert_eq!(e.path, "tasks[2].id");
    let e = one_error(read_json_workload(
        &JSON_WORKLOAD.replace("01:00:00Z", "00:00:59Z"),
    ));
    assert_eq!(e.path, "tasks[1].deadline");
    assert!(e.message.contains("before the submission"), "{}", e.message);
    let e = one_error(read_json_workload(
        &JSON_WORKLOAD.replace("\"duration\": 60000,", ""),
    ));
    assert_eq!(e.path, "tasks[2].duration");
    let e = one_error(read_json_workload(
        &JSON_WORKLOAD.replace("[500, 0]", "[500]"),
    ));
    assert_eq!(e.path, "tasks[1].fragments");
    let e = one_error(read_json_workload(
        &JSON_WORKLOAD.replace("2024-01-01T02:00:00+02:00", "2024-13-01"),
    ));
    assert_eq!(e.path, "tasks[2].submissionTime");
    let e = one_error(read_json_workload(
        &JSON_WORKLOAD.replace("\"cpuUsage\": 1000", "\"cpuUsage\": -1"),
    ));
    assert!(e.path.starts_with("tasks[0].fragments[1]"), "{}", e.path);
}

const CSV_WORKLOAD: &str =
    "id,name,submissionTime,duration,cpuCount,cpuCapacity,memory,deferrable,deadline
1,first,2024-01-01T00:00:00Z,3600000,2,4000,1024,true,2024-01-01T05:00:00Z
2,,1704067260000,60000,1,1000.5,0,,
";

#[test]
fn csv_workload() {
    let w = read_csv_workload(CSV_WORKLOAD).unwrap_or_else(|e| panic!("{e:#?}"));
    let t = &w.tasks;
    assert_eq!(t.len(), 2);
    assert_eq!(
        (t[0].id.as_str(), t[0].name.as_str(), t[1].name.as_str()),
        ("1", "first", "2")
    );
    assert_eq!(
        (t[0].submission_ms, t[1].submission_ms),
        (1_704_067_200_000, 1_704_067_260_000)
    );
    assert_eq!(
        (t[0].duration_ms, t[0].cpu_count, t[0].memory_mib),
        (3_600_000, 2, 1024)
    );
    assert_eq!(
        (t[0].deferrable, t[0].deadline_ms),
        (true, Some(1_704_085_200_000))
    );
    assert_eq!(
        (t[1].deferrable, t[1].deadline_ms, t[1].cpu_capacity_mhz),
        (false, None, 1000.5)
    );
    assert!(w.fragments.is_empty() && t.iter().all(|t| w.fragment_count(t) == 0));
}

#[test]
fn bad_csv_workloads_name_the_row_and_the_column() {
    // A misspelt column is one error with a suggestion, not also a missing `cpuCount`.
    let e = one_error(read_csv_workload(
        &CSV_WORKLOAD.replace("cpuCount", "cpuCont"),
    ));
    assert!(
        e.message.contains("`cpuCont`") && e.message.contains("did you mean `cpuCount`?"),
        "{e:?}"
    );
    assert_eq!(e.line, Some(1));
    // Without a close name, the valid columns are listed.
    let e = one_error(read_csv_workload(
        &CSV_WORKLOAD.replace("deferrable", "banana"),
    ));
    assert!(e.message.contains("expected some of id, name"), "{e:?}");
    let e = one_error(read_csv_workload(&CSV_WORKLOAD.replace(",memory,", ",")));
    assert!(
        e.message.contains("memory") || e.message.contains("fields"),
        "{e:?}"
    );
    let e = one_error(read_csv_workload(
        &CSV_WORKLOAD.replace(",1000.5,", ",abc,"),
    ));
    assert!(
        e.message.contains("row 3") && e.message.contains("cpuCapacity"),
        "{e:?}"
    );
    assert_eq!(e.line, Some(3));
    for bad in ["NaN", "1e999", "inf"] {
        let e = one_error(read_csv_workload(
            &CSV_WORKLOAD.replace(",4000,", &format!(",{bad},")),
        ));
        assert!(
            e.message.contains("row 2") && e.message.contains("cpuCapacity"),
            "{bad}: {e:?}"
        );
    }
    let e = one_error(read_csv_workload(
        &CSV_WORKLOAD.replace(",2,4000,", ",0,4000,"),
    ));
    assert!(
        e.message.contains("row 2") && e.message.contains("cpuCount"),
        "{e:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Carbon traces

#[test]
fn carbon_parquet_samples() {
    let t = read_carbon_parquet(&bytes("carbon/NL_2021-2024.parquet")).unwrap();
    assert_eq!(t.len(), 35_064);
    assert_eq!(
        (t.timestamps_ms[0], t.intensity[0]),
        (1_609_459_200_000, 464.62)
    );
    assert_eq!(
        (t.timestamps_ms[35_063], t.intensity[35_063]),
        (1_735_686_000_000, 132.5)
    );
    let (lo, hi) = t
        .intensity
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    assert_eq!((lo, hi), (62.8, 548.7));

    let t = read_carbon_parquet(&bytes("carbon/2022-01-01_single_100.parquet")).unwrap();
    assert_eq!(
        (t.timestamps_ms.clone(), t.intensity.clone()),
        (vec![1_640_995_200_000], vec![100.0])
    );
    let t = read_carbon_parquet(&bytes("carbon/2022-01-01_two_80_120.parquet")).unwrap();
    assert_eq!(t.timestamps_ms, [1_640_995_200_000, 1_640_995_800_000]);
    assert_eq!(t.intensity, [80.0, 120.0]);
    let t = read_carbon_parquet(&bytes("carbon/2022-01-01_2022-12-31_BE.parquet")).unwrap();
    assert_eq!(t.len(), 8736);
    assert_eq!(
        read_carbon_parquet(&bytes("carbon/2022-01-01_2022-12-31_NL.parquet"))
            .unwrap()
            .len(),
        34_944
    );
}

#[test]
fn bad_carbon_parquet() {
    let e = one_error(read_carbon_parquet(&parquet(vec![
        ("timestamp", Col::I64(vec![0, 10, 10])),
        ("carbon_intensity", Col::F64(vec![1.0, 2.0, 3.0])),
    ])));
    assert_eq!(e.path, "[2]");
    assert!(
        e.message.contains("row 2") && e.message.contains("increasing"),
        "{}",
        e.message
    );
    let e = one_error(read_carbon_parquet(&parquet(vec![
        ("timestamp", Col::I64(vec![0])),
        ("intensity", Col::F64(vec![1.0])),
    ])));
    assert!(
        e.message.contains("carbon_intensity") && e.message.contains("timestamp, intensity"),
        "{}",
        e.message
    );
    let e = one_error(read_carbon_parquet(&parquet(vec![
        ("timestamp", Col::I64(vec![])),
        ("carbon_intensity", Col::F64(vec![])),
    ])));
    assert!(e.message.contains("no rows"), "{}", e.message);
    let e = one_error(read_carbon_parquet(&parquet(vec![
        ("timestamp", Col::I64(vec![0, 1])),
        ("carbon_intensity", Col::F64(vec![1.0, f64::NAN])),
    ])));
    assert_eq!(e.path, "[1]");
    let full = bytes("carbon/NL_2021-2024.parquet");
    assert!(read_carbon_parquet(&full[..full.len() / 2]).is_err());
    assert!(read_carbon_parquet(b"PAR1 garbage PAR1").is_err());
}

#[test]
fn carbon_csv_and_json() {
    let csv = "timestamp,carbon_intensity\n2022-01-01T00:00:00,80\n1640995800000,120.5\n";
    let t = read_carbon_csv(csv).unwrap();
    assert_eq!(t.timestamps_ms, [1_640_995_200_000, 1_640_995_800_000]);
    assert_eq!(t.intensity, [80.0, 120.5]);

    let json = r#"[{"timestamp": "2022-01-01T00:00:00Z", "carbonIntensity": 80},
                   {"timestamp": 1640995800000, "carbonIntensity": 120.5}]"#;
    assert_eq!(read_carbon_json(json).unwrap(), t);
    assert_eq!(
        carbon_from_value(&serde_json::from_str(json).unwrap()).unwrap(),
        t
    );
}

#[test]
fn bad_carbon_csv_and_json() {
    let e = one_error(read_carbon_csv(
        "timestamp,carbon_intensity\n0,1\n20,2\n10,3\n",
    ));
    assert!(
        e.message.contains("row 4") && e.message.contains("increasing"),
        "{}",
        e.message
    );
    let e = one_error(read_carbon_csv("timestamp,carbon_intensity\n"));
    assert!(e.message.contains("no rows"), "{}", e.message);
    let e = one_error(read_carbon_csv("time,ci\n0,1\n"));
    assert!(
        e.message.contains("timestamp,carbon_intensity"),
        "{}",
        e.message
    );
    let e = one_error(read_carbon_csv("timestamp,carbon_intensity\n0,NaN\n"));
    assert!(e.message.contains("row 2"), "{}", e.message);
    let e = one_error(read_carbon_csv("timestamp,carbon_intensity\n0,-1\n"));
    assert!(e.message.contains("row 2"), "{}", e.message);
    let e = one_error(read_carbon_csv("timestamp,carbon_intensity\nnoon,1\n"));
    assert!(
        e.message.contains("row 2") && e.message.contains("timestamp"),
        "{}",
        e.message
    );

    let e = one_error(read_carbon_json(
        r#"[{"timestamp": 10, "carbonIntensity": 1}, {"timestamp": 5, "carbonIntensity": 1}]"#,
    ));
    assert_eq!(e.path, "[1]");
    assert!(e.line.is_some());
    let e = one_error(read_carbon_json("[]"));
    assert!(e.message.contains("no rows"), "{}", e.message);
    let ds = read_carbon_json(r#"[{"timestamp": 0, "carbonIntensty": 1}]"#).unwrap_err();
    assert!(
        ds.iter()
            .any(|d| d.message.contains("did you mean \"carbonIntensity\"")),
        "{ds:#?}"
    );
    let e = one_error(read_carbon_json(
        r#"[{"timestamp": 0, "carbonIntensity": 1e999}]"#,
    ));
    assert!(e.message.contains("not valid JSON"), "{}", e.message);
}

#[test]
fn task_scaling_100() {
    // pyarrow: 100 tasks of 1 core, 1000 MHz, mem 10000 KB, duration 3600000, one fragment each.
    let w = workload("taskScaling_100_tasks");
    assert_eq!((w.tasks.len(), w.fragments.len()), (100, 100));
    assert!(w.tasks.iter().all(
        |t| (t.cpu_count, t.cpu_capacity_mhz, t.memory_mib, t.duration_ms)
            == (1, 1000.0, 10, 3_600_000)
    ));
    assert_eq!(
        w.tasks.iter().map(|t| t.submission_ms).min(),
        Some(1_704_152_847_048)
    );
    assert!(w.warnings.is_empty(), "{:#?}", w.warnings);
}

// ---------------------------------------------------------------------------------------------
// Experiments, loaded from disk as the CLI loads them

/// A scratch folder of this test file, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "policy-playground-inputs-{}-{name}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, content).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_local_surf_week_experiment_loads_with_defer_all() {
    let path = samples("experiments/local/surf_week_policies.json");
    let exp = experiment::load(&Disk, &path).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(exp.name, "surf_week_policies");
    assert_eq!((exp.topologies.len(), exp.workloads.len()), (1, 1));
    assert_eq!(exp.policies.len(), 5);
    let kinds: Vec<&str> = exp.policies.iter().map(|p| p.type_name()).collect();
    assert_eq!(
        kinds,
        ["filter", "filter", "timeshift", "timeshift", "filter"]
    );
    assert_eq!(exp.policies[4].subset_size, 4);
    // 1 topology x 1 workload x 5 policies x 2 runs, seeds initialSeed + run.
    assert_eq!(exp.runs.len(), 10);
    for (k, r) in exp.runs.iter().enumerate() {
        assert_eq!(
            (r.topology, r.workload, r.policy, r.run, r.seed),
            (0, 0, k / 2, (k % 2) as u32, (k % 2) as u64)
        );
    }
    // The topology and the carbon trace it names, relative to the topology file.
    let (label, topology, carbon) = &exp.topologies[0];
    assert_eq!(label, "surfsara_NL_local.json");
    assert_eq!(
        uniform(topology),
        (
            277,
            16,
            2100.0,
            100_000,
            PowerModel::Sqrt {
                idle: 32.0,
                max: 180.0
            }
        )
    );
    assert_eq!(carbon.as_ref().map(|c| c.len()), Some(35_064));
    // deferAll: every task deferrable, deadline = submission + 3 x duration (the fragments').
    let (label, w) = &exp.workloads[0];
    assert_eq!(label, "../../workloads/surf_week");
    assert_eq!(w.tasks.len(), 6295);
    for t in &w.tasks {
        assert!(t.deferrable, "{}", t.id);
        assert_eq!(
            t.deadline_ms,
            Some(t.submission_ms + 3 * t.duration_ms),
            "{}",
            t.id
        );
    }
    // Task 2133099 (pyarrow): submitted 1665093600000, fragments sum to 27930000 ms.
    assert_eq!(
        w.tasks[0].deadline_ms,
        Some(1_665_093_600_000 + 3 * 27_930_000)
    );
    assert!(
        exp.warnings.iter().all(|w| !w.is_error()),
        "{:#?}",
        exp.warnings
    );
}

#[test]
fn legacy_experiments_name_every_missing_file() {
    let cases: [(&str, &[&str]); 5] = [
        (
            "experiment_1.json",
            &[
                "src/test/resources/topologies/single_50_big.json",
                "src/test/resources/topologies/single_50_big_BE.json",
                "src/test/resources/workloadTraces/bitbrains-small",
            ],
        ),
        (
            "experiment_3.json",
            &[
                "src/test/resources/topologies/workflow_topology.json",
                "src/test/resources/workloadTraces/workflow_example",
            ],
        ),
        (
            "features_experiment.json",
            &[
                "topologies/features/accelerated.json",
                "topologies/features/battery.json",
                "workload_traces/surf_week",
            ],
        ),
        (
            "jmh_taskScaling_experiment_100.json",
            &[
                "src/jmh/resources/topologies/taskScaling/topology_100.json",
                "src/jmh/resources/workloadTraces/taskScaling/100_tasks",
            ],
        ),
        (
            "location_experiment.json",
            &[
                "topologies/2.datacenter_location_answers/surfsara_AT.json",
                "topologies/2.datacenter_location_answers/surfsara_AU.json",
                "topologies/2.datacenter_location_answers/surfsara_BE.json",
                "topologies/2.datacenter_location_answers/surfsara_NL.json",
                "workload_traces/surf_week",
            ],
        ),
    ];
    for (file, missing) in cases {
        let path = samples(&format!("experiments/legacy/{file}"));
        let e = experiment::load(&Disk, &path).expect_err(file);
        assert!(matches!(e, LoadError::Unreadable(_)), "{file}: {e:#?}");
        let errors = errors(e.diagnostics());
        assert_eq!(errors.len(), missing.len(), "{file}: {errors:#?}");
        for (d, m) in errors.iter().zip(missing) {
            let named = d.file.as_deref().unwrap_or("");
            assert!(named.ends_with(m), "{file}: {named} should end with {m}");
            assert!(
                d.message.contains("cannot read the file"),
                "{file}: {}",
                d.message
            );
        }
    }
    // experiment_2's prefab uses `name` (OpenDC ignores it and runs Mem): an error here, at the
    // key, before any file is looked for.
    let path = samples("experiments/legacy/experiment_2.json");
    let e = experiment::load(&Disk, &path).unwrap_err();
    assert!(matches!(e, LoadError::Invalid(_)), "{e:#?}");
    let errors = errors(e.diagnostics());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].path, "allocationPolicies[0].name");
    assert_eq!((errors[0].line, errors[0].column), (Some(14), Some(13)));
}

#[test]
fn sdk_experiments_say_what_cannot_be_resolved() {
    let path = samples("experiments/sdk/timeshift-taskstopper.json");
    let e = experiment::load(&Disk, &path).unwrap_err();
    let errors = errors(e.diagnostics());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    // SPEC 11.8.5: the named workload is looked for beside the experiment file.
    assert_eq!(errors[0].path, "workloads[0].source");
    assert!(
        errors[0]
            .message
            .contains("the named workload `azure-deferrable` was not found at"),
        "{}",
        errors[0].message
    );
}

/// The features experiment with its paths pointed at the samples (its own files are not in
/// them): `accelerated.json` -> a GPU topology, `battery.json` -> a topology with a battery.
fn features_copy(dir: &Scratch) -> PathBuf {
    let battery = dir.file(
        "battery.json",
        r#"{"clusters": [{"name": "C01", "hosts": [{"name": "H01",
            "cpu": {"coreCount": 16, "coreSpeed": 2100}, "memory": {"memorySize": 100000}}],
            "powerSource": {"carbonTracePath": "carbon.parquet"},
            "battery": {"capacity": 10.0, "chargingSpeed": 1000.0}}]}"#,
    );
    let text = text("experiments/legacy/features_experiment.json")
        .replace(
            "topologies/features/accelerated.json",
            samples("topologies/legacy/Gpus/single_gpu_hosts.json")
                .to_str()
                .unwrap(),
        )
        .replace(
            "topologies/features/battery.json",
            battery.to_str().unwrap(),
        )
        .replace(
            "workload_traces/surf_week",
            samples("workloads/surf_week").to_str().unwrap(),
        );
    dir.file("features.json", text)
}

#[test]
fn the_features_experiment_warns_about_everything_out_of_scope() {
    let dir = Scratch::new("features");
    let path = features_copy(&dir);
    let exp = experiment::load(&Disk, &path).unwrap_or_else(|e| panic!("{e:#?}"));
    // 2 topologies x 1 workload x 3 policies x 3 runs, seeds 7, 8, 9.
    assert_eq!(exp.runs.len(), 18);
    let seeds: Vec<u64> = exp.runs.iter().take(3).map(|r| r.seed).collect();
    assert_eq!(seeds, [7, 8, 9]);
    let w = &exp.warnings;
    let count = |needle: &str| w.iter().filter(|d| d.message.contains(needle)).count();
    assert_eq!(count("`failureModels`"), 1, "{w:#?}");
    assert_eq!(count("`checkpointModels`"), 1, "{w:#?}");
    assert_eq!(count("`maxNumFailures`"), 1, "{w:#?}");
    assert_eq!(count("`sampleFraction` 0.5"), 1, "{w:#?}");
    assert_eq!(count("`scalingPolicy: Perfect`"), 1, "{w:#?}");
    assert!(w.iter().all(|d| !d.is_error()));
    // The topologies' own warnings stay with them: GPU power, the battery; the battery's
    // topology names a carbon trace that does not exist, which is a warning (SPEC 10).
    let gpu = &exp.topologies[0].1;
    assert!(warned(&gpu.warnings, "GPU power"), "{:#?}", gpu.warnings);
    let battery = &exp.topologies[1];
    assert!(
        warned(&battery.1.warnings, "batteries"),
        "{:#?}",
        battery.1.warnings
    );
    assert!(battery.2.is_none());
    assert_eq!(count("carbon.parquet"), 1, "{w:#?}");
    // submissionTime 2024-03-01T00:00:00 moves the first submission there, and deferAll's
    // deadlines follow the moved submissions.
    let tasks = &exp.workloads[0].1.tasks;
    let first = tasks.iter().map(|t| t.submission_ms).min().unwrap();
    assert_eq!(first, 1_709_251_200_000);
    assert_eq!(tasks[0].submission_ms, 1_709_251_200_000);
    assert!(tasks
        .iter()
        .all(|t| t.deadline_ms == Some(t.submission_ms + 3 * t.duration_ms)));
}

#[test]
fn experiment_3_with_its_files_runs_the_default_policy() {
    let dir = Scratch::new("experiment3");
    let text = text("experiments/legacy/experiment_3.json")
        .replace(
            "src/test/resources/topologies/workflow_topology.json",
            samples("topologies/legacy/workflow_topology.json")
                .to_str()
                .unwrap(),
        )
        .replace(
            "src/test/resources/workloadTraces/workflow_example",
            samples("workloads/workflow_example").to_str().unwrap(),
        );
    let path = dir.file("experiment_3.json", text);
    let exp = experiment::load(&Disk, &path).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!((exp.name.as_str(), exp.runs.len()), ("simple", 1));
    assert_eq!(exp.workloads[0].1.tasks.len(), 4);
    assert!(
        warned(&exp.workloads[0].1.warnings, "parents"),
        "{:#?}",
        exp.workloads[0].1.warnings
    );
}
