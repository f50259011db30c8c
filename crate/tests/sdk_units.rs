//! OpenDC3 (SDK) quantities and inline workloads (SPEC 11.6, 11.7) through the public API.
//!
//! Every expected value is worked out by hand from the unit tables of SPEC 11.6 (a MiB is 2^20
//! bytes, a bit an eighth of a byte, a minute 60 000 ms), not by running the readers.

use policy_playground::diag::{Diagnostic, Severity};
use policy_playground::input::sdk::units::{
    accepted_units, sdk_memory_mib, sdk_quantity, sdk_time_ms,
};
use policy_playground::input::sdk::workload::inline_workload;
use policy_playground::input::units::Quantity;
use policy_playground::model::{TaskSpec, Workload};
use serde_json::{json, Value};
use std::path::PathBuf;

use Quantity::{DataSize, Duration, Frequency, Power};

#[path = "common/layout.rs"]
mod layout;
use layout::{per_task, without_ranges};

fn q(text: &str, quantity: Quantity) -> f64 {
    sdk_quantity(&json!(text), quantity).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn err(text: &str, quantity: Quantity) -> String {
    match sdk_quantity(&json!(text), quantity) {
        Ok(v) => panic!("`{text}` should be refused, read as {v}"),
        Err(e) => e,
    }
}

fn ms(text: &str) -> i64 {
    sdk_time_ms(&json!(text)).unwrap_or_else(|e| panic!("{text}: {e}"))
}

// ---- TimeDelta ----

#[test]
fn time_units_prefixed_seconds_case_insensitive() {
    // (a) n/nano + S: ns, 10^-6 ms.
    assert_eq!(q("5 ns", Duration), 5e-6);
    assert_eq!(q("3 nanoseconds", Duration), 3e-6);
    assert_eq!(q("2 NSEC", Duration), 2e-6);
    // micro + S: 10^-3 ms.
    assert_eq!(q("1500 micros", Duration), 1.5);
    assert_eq!(q("2 microsecond", Duration), 0.002);
    // m/milli + S: ms.
    assert_eq!(q("5 ms", Duration), 5.0);
    assert_eq!(q("5 MS", Duration), 5.0);
    assert_eq!(q("7 millis", Duration), 7.0);
    assert_eq!(q("3 milliseconds", Duration), 3.0);
    assert_eq!(q("2 msec", Duration), 2.0);
    // S alone: s.
    assert_eq!(q("2 s", Duration), 2000.0);
    assert_eq!(q("2 sec", Duration), 2000.0);
    assert_eq!(q("2 secs", Duration), 2000.0);
    assert_eq!(q("1.5 seconds", Duration), 1500.0);
    assert_eq!(q("2 SECONDS", Duration), 2000.0);
    assert_eq!(q("2 Second", Duration), 2000.0);
}

#[test]
fn time_units_minutes_and_hours_case_sensitive() {
    for unit in [
        "m", "min", "mins", "Min", "Mins", "minute", "minutes", "Minute", "Minutes",
    ] {
        assert_eq!(q(&format!("5 {unit}"), Duration), 300_000.0, "{unit}");
    }
    for unit in ["h", "hs", "hour", "hours", "Hour", "Hours"] {
        assert_eq!(q(&format!("2 {unit}"), Duration), 7_200_000.0, "{unit}");
    }
    // `5 m` is minutes, `5 ms` milliseconds.
    assert_eq!(ms("5 m"), 300_000);
    assert_eq!(ms("5 ms"), 5);
    assert_eq!(ms("1.5 h"), 5_400_000);
    assert_eq!(ms("0.1 min"), 6_000);
}

#[test]
fn time_iso_durations_and_instants() {
    assert_eq!(ms("PT10M"), 600_000);
    // 1 day + 2 hours = 86 400 000 + 7 200 000.
    assert_eq!(ms("P1DT2H"), 93_600_000);
    assert_eq!(ms("PT0.5S"), 500);
    assert_eq!(ms("PT1H30M"), 5_400_000);
    // 2022-01-01 is 18 993 days after 1970-01-01 (52 years, 13 of them leap).
    assert_eq!(ms("2022-01-01T00:00:00Z"), 1_640_995_200_000);
    assert_eq!(ms("2022-01-01T01:00:00+01:00"), 1_640_995_200_000);
    assert_eq!(ms("2022-01-01T00:00:00.250Z"), 1_640_995_200_250);
    // Instant.parse needs the seconds and a zone; Duration.parse takes no blanks.
    err("2022-01-01T00:00Z", Duration);
    err("2022-01-01", Duration);
    err(" PT10M", Duration);
    err("PT", Duration);
}

#[test]
fn time_forms_bare_numbers_and_blanks() {
    assert_eq!(sdk_time_ms(&json!(1500)), Ok(1500));
    assert_eq!(ms("1500"), 1500);
    assert_eq!(ms(" 42 "), 42);
    assert_eq!(ms("  30    minutes   "), 1_800_000);
    assert_eq!(ms("10minutes"), 600_000);
    assert_eq!(ms("2e3 ms"), 2000);
    assert_eq!(ms("2E-3 s"), 2);
    assert_eq!(ms("-5 s"), -5000);
    assert_eq!(
        sdk_time_ms(&json!(1_640_995_200_000i64)),
        Ok(1_640_995_200_000)
    );
}

#[test]
fn times_truncate_toward_zero() {
    assert_eq!(ms("1.5 ms"), 1);
    assert_eq!(ms("1 ns"), 0);
    assert_eq!(ms("999999 ns"), 0);
    assert_eq!(ms("-1.5 ms"), -1);
    assert_eq!(sdk_time_ms(&json!(1.9)), Ok(1));
    assert_eq!(ms("1.9999 s"), 1999);
    // Out of the range of i64 ms: an error, not a saturated value.
    let e = sdk_time_ms(&json!("1e30 s")).unwrap_err();
    assert!(
        e.starts_with("`1e30 s` is not a duration: write e.g. `10 minutes`"),
        "{e}"
    );
    assert!(sdk_time_ms(&json!("1e400 ms")).is_err());
    assert!(sdk_time_ms(&json!(1e19)).is_err());
}

// ---- Frequency ----

#[test]
fn frequency_units() {
    // `mHz` is MHz: the units are case-insensitive.
    assert_eq!(q("3 mHz", Frequency), 3.0);
    assert_eq!(q("3 MHz", Frequency), 3.0);
    assert_eq!(q("2.1 GHz", Frequency), 2100.0);
    assert_eq!(q("2.1 ghz", Frequency), 2100.0);
    assert_eq!(q("1 GHZ", Frequency), 1000.0);
    assert_eq!(q("2100000 kHz", Frequency), 2100.0);
    assert_eq!(q("2.1e9 Hz", Frequency), 2100.0);
    assert_eq!(q("5 hertz", Frequency), 5e-6);
    assert_eq!(q("2 kilohertz", Frequency), 0.002);
    assert_eq!(q("2 megahertz", Frequency), 2.0);
    assert_eq!(q("3 gigahertz", Frequency), 3000.0);
    assert_eq!(q("2800", Frequency), 2800.0);
    assert_eq!(sdk_quantity(&json!(2800.5), Frequency), Ok(2800.5));
    // Powers of ten on the decimal text: exactly 2300, not 2.3 * 1000 rounded twice.
    assert_eq!(q("2.3 GHz", Frequency), 2300.0);
    assert_eq!(q("0.3 kHz", Frequency), 0.0003);
}

// ---- DataSize ----

#[test]
fn data_size_units() {
    assert_eq!(q("16 GiB", DataSize), 16384.0);
    assert_eq!(q("2 GB", DataSize), 1907.3486328125);
    assert_eq!(q("2 Gb", DataSize), 238.4185791015625);
    // Bytes and bits without a prefix: 2^20 bytes or 2^23 bits are 1 MiB.
    for unit in ["B", "byte", "Byte", "bytes", "Bytes"] {
        assert_eq!(q(&format!("1048576 {unit}"), DataSize), 1.0, "{unit}");
    }
    for unit in ["b", "bit", "Bit", "bits", "Bits"] {
        assert_eq!(q(&format!("8388608 {unit}"), DataSize), 1.0, "{unit}");
    }
    // Decimal prefixes: 10^3 / 2^20 = 125 / 2^17.
    for p in ["K", "k", "Kilo", "kilo"] {
        assert_eq!(q(&format!("1 {p}B"), DataSize), 0.00095367431640625, "{p}");
        assert_eq!(q(&format!("8 {p}b"), DataSize), 0.00095367431640625, "{p}");
    }
    for p in ["M", "m", "Mega", "mega"] {
        assert_eq!(q(&format!("1 {p}B"), DataSize), 0.95367431640625, "{p}");
        assert_eq!(q(&format!("8 {p}bits"), DataSize), 0.95367431640625, "{p}");
    }
    for p in ["G", "g", "Giga", "giga"] {
        assert_eq!(q(&format!("1 {p}Bytes"), DataSize), 953.67431640625, "{p}");
        assert_eq!(q(&format!("1 {p}b"), DataSize), 119.20928955078125, "{p}");
    }
    for p in ["T", "t", "Tera", "tera"] {
        assert_eq!(q(&format!("1 {p}B"), DataSize), 953674.31640625, "{p}");
        assert_eq!(q(&format!("1 {p}b"), DataSize), 119209.28955078125, "{p}");
    }
    // Binary prefixes.
    for p in ["Ki", "ki", "Kibi", "kibi"] {
        assert_eq!(q(&format!("1024 {p}B"), DataSize), 1.0, "{p}");
        assert_eq!(q(&format!("8192 {p}b"), DataSize), 1.0, "{p}");
    }
    for p in ["Mi", "mi", "Mebi", "mebi"] {
        assert_eq!(q(&format!("3 {p}B"), DataSize), 3.0, "{p}");
        assert_eq!(q(&format!("8 {p}bit"), DataSize), 1.0, "{p}");
    }
    for p in ["Gi", "gi", "Gibi", "gibi"] {
        assert_eq!(q(&format!("1 {p}B"), DataSize), 1024.0, "{p}");
        assert_eq!(q(&format!("1 {p}b"), DataSize), 128.0, "{p}");
    }
    for p in ["Ti", "ti", "Tebi", "tebi"] {
        assert_eq!(q(&format!("1 {p}B"), DataSize), 1_048_576.0, "{p}");
        assert_eq!(q(&format!("1 {p}b"), DataSize), 131_072.0, "{p}");
    }
    // Case matters: `gib` is gibibits, 2 * 2^30 / 8 bytes.
    assert_eq!(q("2 gib", DataSize), 256.0);
    assert_eq!(q("100000", DataSize), 100_000.0);
    assert_eq!(sdk_quantity(&json!(512), DataSize), Ok(512.0));
}

#[test]
fn memory_truncates_to_whole_mib() {
    assert_eq!(sdk_memory_mib(&json!("2 GB")), Ok(1907));
    assert_eq!(sdk_memory_mib(&json!("1.9 MiB")), Ok(1));
    assert_eq!(sdk_memory_mib(&json!("16 GiB")), Ok(16384));
    assert_eq!(sdk_memory_mib(&json!("1 KB")), Ok(0));
    assert_eq!(sdk_memory_mib(&json!(2048.7)), Ok(2048));
    assert!(sdk_memory_mib(&json!("1e30 TiB")).is_err());
}

// ---- Power ----

#[test]
fn power_units() {
    for unit in ["W", "w", "watts", "Watts", "WATTS"] {
        assert_eq!(q(&format!("350 {unit}"), Power), 350.0, "{unit}");
    }
    assert_eq!(q("50 kWatts", Power), 50_000.0);
    assert_eq!(q("1.5 kW", Power), 1500.0);
    assert_eq!(q("2 KW", Power), 2000.0);
    assert_eq!(q("2 kilowatts", Power), 2000.0);
    assert_eq!(q("2 kilow", Power), 2000.0);
    assert_eq!(q("300", Power), 300.0);
    assert_eq!(sdk_quantity(&json!(80), Power), Ok(80.0));
}

// ---- Errors ----

#[test]
fn the_spec_error_cases_are_refused() {
    for (text, quantity) in [
        ("5 M", Duration),
        ("2 HOURS", Duration),
        ("2 hr", Duration),
        ("5 MINUTES", Duration),
        ("5 us", Duration),
        ("us", Duration),
        ("+5 s", Duration),
        (".5 s", Duration),
        ("5 d", Duration),
        ("2 GIB", DataSize),
        ("2 gIB", DataSize),
        ("2 GIb", DataSize),
        ("1 watt", Power),
        ("1 MW", Power),
        ("GHz", Frequency),
        ("", Frequency),
        ("   ", Frequency),
        ("2.1 GHzz", Frequency),
        ("2.1 G Hz", Frequency),
        ("1e+3 MHz", Frequency),
        ("NaN", Power),
        ("Infinity", Power),
        ("1e999 W", Power),
    ] {
        let e = err(text, quantity);
        assert!(e.starts_with(&format!("`{text}` is not ")), "{e}");
        assert!(e.contains(accepted_units(quantity)), "{e}");
    }
}

#[test]
fn error_messages_name_the_value_an_example_and_the_units() {
    let e = err("fast", Frequency);
    assert_eq!(
        e,
        format!(
            "`fast` is not a frequency: write e.g. `2.1 GHz`; accepted units: {}. Here: there is \
             no number before the unit",
            accepted_units(Frequency)
        )
    );
    assert!(err("2 GIB", DataSize)
        .starts_with("`2 GIB` is not a data size: write e.g. `16 GiB`; accepted units: "));
    assert!(err("1 watt", Power).starts_with("`1 watt` is not a power: write e.g. `350 W`;"));
    assert!(err("5 M", Duration).starts_with("`5 M` is not a duration: write e.g. `10 minutes`;"));
    // The remark says what is wrong.
    assert!(err("2 GIB", DataSize).contains("case-sensitive"));
    assert!(err("2 HOURS", Duration).contains("case-sensitive"));
    assert!(err("5 us", Duration).contains("micros"));
    assert!(err("1 watt", Power).contains("singular"));
    assert!(err("+5 s", Duration).contains("`+`"));
    assert!(err(".5 s", Duration).contains("0.5"));
}

#[test]
fn wrong_json_types_are_refused() {
    for (value, what) in [
        (json!(true), "`true`"),
        (json!(null), "`null`"),
        (json!({"value": 3}), "`{\"value\":3}`"),
        (json!([3]), "`[3]`"),
    ] {
        for quantity in [Duration, Frequency, DataSize, Power] {
            let e = sdk_quantity(&value, quantity).unwrap_err();
            assert!(e.starts_with(&format!("{what} is not ")), "{e}");
        }
    }
    assert!(sdk_time_ms(&json!(false)).is_err());
    assert!(sdk_memory_mib(&json!({})).is_err());
}

#[test]
fn accepted_units_list_each_quantity() {
    assert!(accepted_units(Duration).contains("PT10M"));
    assert!(accepted_units(Frequency).contains("mHz is MHz"));
    assert!(accepted_units(DataSize).contains("case-sensitive"));
    assert!(accepted_units(Power).contains("not watt"));
}

// ---- Inline workloads ----

fn tiny() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/opendc-samples/experiments/sdk/tiny-experiment.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let v: Value = serde_json::from_str(&text).expect("tiny-experiment.json is JSON");
    v["workloads"][0].clone()
}

fn read(w: &Value) -> (Option<Workload>, Vec<Diagnostic>) {
    inline_workload(w, "workloads[0]", false)
}

/// The errors and warnings as `(severity, path)`.
fn places(d: &[Diagnostic]) -> Vec<(Severity, &str)> {
    d.iter().map(|d| (d.severity, d.path.as_str())).collect()
}

fn only(d: &[Diagnostic], severity: Severity, path: &str) -> String {
    assert_eq!(places(d), vec![(severity, path)], "{d:#?}");
    d[0].message.clone()
}

#[test]
fn tiny_experiment_workload_reads_to_exact_tasks() {
    let (w, d) = read(&tiny());
    assert!(d.is_empty(), "{d:#?}");
    let w = w.expect("a workload");
    // The ranges of fragment runs depend on the reader's layout: the fragments are compared
    // task by task below.
    assert_eq!(
        without_ranges(&w),
        vec![
            TaskSpec {
                id: "0".into(),
                name: "task-0".into(),
                submission_ms: 0,
                duration_ms: 600_000,
                cpu_count: 2,
                cpu_capacity_mhz: 3000.0,
                memory_mib: 2048,
                gpu_count: 0,
                gpu_capacity_mhz: 0.0,
                deferrable: false,
                deadline_ms: None,
                fragments: 0..0,
            },
            TaskSpec {
                id: "1".into(),
                name: "task-1".into(),
                submission_ms: 60_000,
                duration_ms: 300_000,
                cpu_count: 1,
                cpu_capacity_mhz: 2000.0,
                memory_mib: 1024,
                gpu_count: 0,
                gpu_capacity_mhz: 0.0,
                deferrable: false,
                deadline_ms: None,
                fragments: 0..0,
            },
        ]
    );
    assert_eq!(
        per_task(&w),
        vec![
            vec![(300_000, 3000.0), (300_000, 1500.0)],
            vec![(300_000, 2000.0)]
        ]
    );
    assert_eq!(w.fragments.len(), 3);
    assert_eq!(w.dropped, 0);
    assert!(w.warnings.is_empty());
}

#[test]
fn every_optional_task_field_is_read() {
    let mut w = tiny();
    w["tasks"][1] = json!({
        "id": -7, "name": "late", "submissionTime": "2022-01-01T00:00:00Z", "duration": "PT1H",
        "cpuCoreCount": 4, "cpuCapacity": 8000, "memory": 512, "gpuCoreCount": 2,
        "gpuCapacity": "1.5 GHz", "gpuMemory": 0, "deferrable": true,
        "deadline": "2022-01-01T03:00:00Z", "parents": [], "children": [],
        "fragments": [{"duration": "30 minutes", "cpuUsage": "4 GHz", "gpuUsage": 0, "gpuMemory": "0 GiB"},
                      {"duration": 1800000, "cpuUsage": 8000}]
    });
    w["scalingPolicy"] = json!("NoDelay");
    let (w, d) = read(&w);
    assert!(d.is_empty(), "{d:#?}");
    let w = w.expect("a workload");
    let t = &w.tasks[1];
    assert_eq!(t.id, "-7");
    assert_eq!(t.name, "late");
    // Absolute times stay as written.
    assert_eq!(t.submission_ms, 1_640_995_200_000);
    assert_eq!(t.deadline_ms, Some(1_641_006_000_000));
    assert_eq!(t.duration_ms, 3_600_000);
    assert_eq!(
        (t.cpu_count, t.cpu_capacity_mhz, t.memory_mib),
        (4, 8000.0, 512)
    );
    assert_eq!((t.gpu_count, t.gpu_capacity_mhz), (2, 1500.0));
    assert!(t.deferrable);
    assert_eq!(per_task(&w)[1], [(1_800_000, 4000.0), (1_800_000, 8000.0)]);
    // A null deadline is no deadline.
    let mut v = tiny();
    v["tasks"][0]["deadline"] = Value::Null;
    assert_eq!(read(&v).0.expect("a workload").tasks[0].deadline_ms, None);
}

#[test]
fn each_missing_required_field_is_an_error_at_its_path() {
    for key in [
        "id",
        "name",
        "submissionTime",
        "duration",
        "cpuCoreCount",
        "cpuCapacity",
        "memory",
        "fragments",
    ] {
        let mut w = tiny();
        w["tasks"][1].as_object_mut().unwrap().remove(key);
        let (w, d) = read(&w);
        assert!(w.is_none(), "{key}");
        let message = only(&d, Severity::Error, &format!("workloads[0].tasks[1].{key}"));
        assert!(
            message.starts_with(&format!("missing required field `{key}`")),
            "{message}"
        );
    }
    for key in ["duration", "cpuUsage"] {
        let mut w = tiny();
        w["tasks"][0]["fragments"][1]
            .as_object_mut()
            .unwrap()
            .remove(key);
        let (w, d) = read(&w);
        assert!(w.is_none(), "{key}");
        only(
            &d,
            Severity::Error,
            &format!("workloads[0].tasks[0].fragments[1].{key}"),
        );
    }
    for key in ["type", "tasks"] {
        let mut w = tiny();
        w.as_object_mut().unwrap().remove(key);
        let (w, d) = read(&w);
        assert!(w.is_none(), "{key}");
        only(&d, Severity::Error, &format!("workloads[0].{key}"));
    }
}

#[test]
fn null_in_a_required_or_defaulted_field_is_an_error() {
    for key in ["name", "memory", "gpuCoreCount", "deferrable", "parents"] {
        let mut w = tiny();
        w["tasks"][0][key] = Value::Null;
        let (w, d) = read(&w);
        assert!(w.is_none(), "{key}");
        let message = only(&d, Severity::Error, &format!("workloads[0].tasks[0].{key}"));
        assert!(message.contains("null"), "{message}");
    }
}

#[test]
fn integers_must_be_json_integers_within_32_bits() {
    for (value, says) in [
        (json!("2"), "the string \"2\""),
        (json!(2.0), "fraction or an exponent"),
        (json!(2.5), "fraction or an exponent"),
        (json!(1e3), "fraction or an exponent"),
        (json!(2_147_483_648i64), "32-bit"),
        (json!(u64::MAX), "32-bit"),
        (json!(true), "boolean"),
    ] {
        let mut w = tiny();
        w["tasks"][0]["cpuCoreCount"] = value.clone();
        let (w, d) = read(&w);
        assert!(w.is_none(), "{value}");
        let message = only(&d, Severity::Error, "workloads[0].tasks[0].cpuCoreCount");
        assert!(message.contains(says), "{message}");
    }
    let mut w = tiny();
    w["tasks"][0]["id"] = json!("0");
    only(&read(&w).1, Severity::Error, "workloads[0].tasks[0].id");
    let mut w = tiny();
    w["tasks"][0]["parents"] = json!([1, "2"]);
    let d = read(&w).1;
    assert_eq!(
        places(&d),
        vec![
            (Severity::Error, "workloads[0].tasks[0].parents[1]"),
            (Severity::Warning, "workloads[0].tasks[0].parents"),
        ]
    );
    // The smallest and largest 32-bit ids are fine.
    let mut w = tiny();
    w["tasks"][0]["id"] = json!(-2_147_483_648i64);
    w["tasks"][1]["id"] = json!(2_147_483_647);
    let ids: Vec<String> = read(&w)
        .0
        .unwrap()
        .tasks
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(ids, ["-2147483648", "2147483647"]);
}

#[test]
fn wrong_types_are_errors() {
    for (key, value) in [
        ("name", json!(5)),
        ("deferrable", json!("true")),
        ("memory", json!(true)),
        ("cpuCapacity", json!({"value": 3})),
        ("submissionTime", json!([0])),
        ("deadline", json!("soon")),
        ("fragments", json!({"duration": "1 s"})),
        ("children", json!(3)),
    ] {
        let mut w = tiny();
        w["tasks"][0][key] = value;
        let (w, d) = read(&w);
        assert!(w.is_none(), "{key}");
        only(&d, Severity::Error, &format!("workloads[0].tasks[0].{key}"));
    }
    let mut w = tiny();
    w["tasks"][0]["fragments"][0]["cpuUsage"] = json!("3 GHzz");
    let message = only(
        &read(&w).1,
        Severity::Error,
        "workloads[0].tasks[0].fragments[0].cpuUsage",
    );
    assert!(
        message.starts_with("`cpuUsage`: `3 GHzz` is not a frequency: write e.g. `2.1 GHz`"),
        "{message}"
    );
}

#[test]
fn validation_rules_are_errors() {
    let cases = [
        ("cpuCoreCount", json!(0), "greater than zero"),
        ("cpuCoreCount", json!(-1), "greater than zero"),
        ("cpuCapacity", json!("0 GHz"), "greater than zero"),
        ("fragments", json!([]), "must not be empty"),
        ("memory", json!("-1 GiB"), "negative"),
        ("gpuCoreCount", json!(-2), "negative"),
    ];
    for (key, value, says) in cases {
        let mut w = tiny();
        w["tasks"][0][key] = value;
        let (w, d) = read(&w);
        assert!(w.is_none(), "{key}");
        let message = only(&d, Severity::Error, &format!("workloads[0].tasks[0].{key}"));
        assert!(message.contains(says), "{message}");
    }
    let mut w = tiny();
    w["tasks"] = json!([]);
    only(&read(&w).1, Severity::Error, "workloads[0].tasks");
    let mut w = tiny();
    w["tasks"][0]["fragments"][0]["duration"] = json!("-1 s");
    only(
        &read(&w).1,
        Severity::Error,
        "workloads[0].tasks[0].fragments[0].duration",
    );
}

#[test]
fn every_problem_is_reported_not_only_the_first() {
    let mut w = tiny();
    w["tasks"][0]["cpuCoreCount"] = json!("2");
    w["tasks"][0]["memory"] = json!("2 GIB");
    w["tasks"][1].as_object_mut().unwrap().remove("name");
    let (w, d) = read(&w);
    assert!(w.is_none());
    assert_eq!(
        places(&d),
        vec![
            (Severity::Error, "workloads[0].tasks[0].cpuCoreCount"),
            (Severity::Error, "workloads[0].tasks[0].memory"),
            (Severity::Error, "workloads[0].tasks[1].name"),
        ]
    );
}

#[test]
fn a_duration_that_differs_from_the_fragments_warns_and_the_fragments_win() {
    let mut w = tiny();
    w["tasks"][0]["duration"] = json!("9 minutes");
    let (w, d) = read(&w);
    let message = only(&d, Severity::Warning, "workloads[0].tasks[0].duration");
    assert!(
        message.contains("540000 ms") && message.contains("600000 ms"),
        "{message}"
    );
    assert!(message.contains("the fragments win"), "{message}");
    assert_eq!(w.expect("a workload").tasks[0].duration_ms, 600_000);
    // Once per kind, with the count of the others.
    let mut w = tiny();
    w["tasks"][0]["duration"] = json!("9 minutes");
    w["tasks"][1]["duration"] = json!(1);
    let message = only(
        &read(&w).1,
        Severity::Warning,
        "workloads[0].tasks[0].duration",
    );
    assert!(message.ends_with("... and 1 more"), "{message}");
}

#[test]
fn unknown_keys_warn_and_strict_makes_them_errors() {
    let mut w = tiny();
    w["tasks"][0]["cpuCoreCont"] = json!(2);
    w["tasks"][1]["fragments"][0]["usage"] = json!(1);
    w["comment"] = json!("x");
    let (ok, d) = read(&w);
    assert!(ok.is_some());
    assert_eq!(
        places(&d),
        vec![
            (Severity::Warning, "workloads[0].comment"),
            (Severity::Warning, "workloads[0].tasks[0].cpuCoreCont"),
            (
                Severity::Warning,
                "workloads[0].tasks[1].fragments[0].usage"
            ),
        ]
    );
    assert!(
        d[1].message.contains("did you mean `cpuCoreCount`?"),
        "{}",
        d[1].message
    );
    assert!(
        d[1].message
            .contains("valid keys: id, name, submissionTime"),
        "{}",
        d[1].message
    );
    assert!(d[2]
        .message
        .contains("valid keys: duration, cpuUsage, gpuUsage, gpuMemory"));
    let (none, d) = inline_workload(&w, "workloads[0]", true);
    assert!(none.is_none());
    assert_eq!(
        places(&d),
        vec![
            (Severity::Error, "workloads[0].comment"),
            (Severity::Error, "workloads[0].tasks[0].cpuCoreCont"),
            (Severity::Error, "workloads[0].tasks[1].fragments[0].usage"),
        ]
    );
    assert!(d[1].message.contains("--strict"), "{}", d[1].message);
}

#[test]
fn scaling_policy_is_an_exact_enum() {
    let mut w = tiny();
    w["scalingPolicy"] = json!("Perfect");
    let (ok, d) = read(&w);
    assert!(ok.is_some());
    let message = only(&d, Severity::Warning, "workloads[0].scalingPolicy");
    assert!(message.contains("not modelled"), "{message}");
    for bad in [
        json!("perfect"),
        json!("NODELAY"),
        json!(" NoDelay"),
        json!(1),
        json!(null),
    ] {
        let mut w = tiny();
        w["scalingPolicy"] = bad.clone();
        let (none, d) = read(&w);
        assert!(none.is_none(), "{bad}");
        only(&d, Severity::Error, "workloads[0].scalingPolicy");
    }
    let mut w = tiny();
    w["type"] = json!("Inline");
    only(&read(&w).1, Severity::Error, "workloads[0].type");
}

#[test]
fn out_of_scope_fields_warn_once_per_kind_with_a_count() {
    let mut w = tiny();
    w["tasks"][0]["gpuMemory"] = json!("1 GiB");
    w["tasks"][0]["fragments"][0]["gpuUsage"] = json!("1 GHz");
    w["tasks"][1]["fragments"][0]["gpuMemory"] = json!(3);
    w["tasks"][0]["children"] = json!([1]);
    w["tasks"][1]["parents"] = json!([0]);
    w["tasks"][1]["id"] = json!(0);
    let (ok, d) = read(&w);
    assert!(ok.is_some());
    assert_eq!(
        places(&d),
        vec![
            (Severity::Warning, "workloads[0].tasks[0].gpuMemory"),
            (Severity::Warning, "workloads[0].tasks[0].children"),
            (Severity::Warning, "workloads[0].tasks[1].id"),
        ]
    );
    assert!(d[0].message.contains("GPU") && d[0].message.ends_with("... and 2 more"));
    assert!(d[1].message.contains("workflows") && d[1].message.ends_with("... and 1 more"));
    assert!(
        d[2].message.contains("the id 0 is also task 0's"),
        "{}",
        d[2].message
    );
    // Zero GPU values are no occurrence.
    let mut w = tiny();
    w["tasks"][0]["gpuMemory"] = json!("0 GiB");
    w["tasks"][0]["fragments"][0]["gpuUsage"] = json!(0);
    assert!(read(&w).1.is_empty());
}

#[test]
fn a_task_of_zero_duration_is_left_out_with_a_warning() {
    let mut w = tiny();
    w["tasks"][0]["fragments"] = json!([{"duration": "1 ns", "cpuUsage": 1}]);
    let (ok, d) = read(&w);
    let w = ok.expect("a workload");
    assert_eq!(w.tasks.len(), 1);
    assert_eq!(w.tasks[0].name, "task-1");
    assert_eq!(w.fragment_count(&w.tasks[0]), 1);
    // The left-out task's fragment is not kept.
    assert_eq!(w.fragments.len(), 1);
    assert_eq!(w.fragment_columns().0, vec![300_000]);
    assert_eq!(w.dropped, 1);
    let message = only(&d, Severity::Warning, "workloads[0].tasks");
    assert!(message.contains("0 ms"), "{message}");
}

#[test]
fn a_deferrable_task_without_deadline_warns() {
    let mut w = tiny();
    w["tasks"][0]["deferrable"] = json!(true);
    let (ok, d) = read(&w);
    assert!(ok.is_some());
    only(&d, Severity::Warning, "workloads[0].tasks[0].deferrable");
}

#[test]
fn garbage_never_panics() {
    for v in [
        json!(null),
        json!(3),
        json!([]),
        json!({}),
        json!({"type": "inline", "tasks": 5}),
        json!({"type": "inline", "tasks": [1, null, "x", [], {}, {"fragments": [null, 1, {}]}]}),
        json!({"type": 7, "tasks": [{"id": {}, "fragments": {"a": 1}}], "scalingPolicy": []}),
    ] {
        let (w, d) = inline_workload(&v, "", false);
        assert!(w.is_none(), "{v}");
        assert!(d.iter().any(Diagnostic::is_error), "{v}");
    }
    // Without a prefix, paths start at the workload.
    let (_, d) = inline_workload(&json!({"type": "inline"}), "", false);
    assert_eq!(d[0].path, "tasks");
}
