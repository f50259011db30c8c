//! Inputs the fuzzers (fuzz/) found, each with what it must give now.

use policy_playground::input::topology;

fn bytes(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../tests/fuzz-regressions/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `\r\r\n0\0…`: serde_json counts lines at `\n` only (it stops at line 2, byte column 2), the
/// editor also ends a line at a lone `\r`. The error was placed past the end of a line; it must
/// point at the NUL after `0`, which the editor shows on line 3, column 2.
#[test]
fn a_lone_carriage_return_before_a_json_error() {
    let data = bytes("topology-lone-cr.json");
    let text = std::str::from_utf8(&data).expect("UTF-8");
    let ds = topology::read_topology(text).expect_err("not a topology");
    assert_eq!(ds.len(), 1, "{ds:?}");
    let d = &ds[0];
    assert!(d.message.contains("trailing characters"), "{d:?}");
    assert_eq!((d.line, d.column), (Some(3), Some(2)), "{d:?}");
}

/// `\r\r\n\r''`: the same mismatch in the workload reader. serde_json stops at line 2, byte
/// column 2 (the first `'`), which the editor shows at line 4, column 1.
#[test]
fn a_lone_carriage_return_in_a_workload() {
    let data = bytes("workload-lone-cr.json");
    let text = std::str::from_utf8(&data).expect("UTF-8");
    let ds = policy_playground::input::workload::read_json_workload(text).expect_err("not JSON");
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert!(ds[0].message.contains("expected value"), "{:?}", ds[0]);
    assert_eq!(
        (ds[0].line, ds[0].column),
        (Some(4), Some(1)),
        "{:?}",
        ds[0]
    );
}
