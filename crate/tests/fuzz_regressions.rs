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

/// Forged parquet files that make the parquet crate itself panic (a negative column-chunk start;
/// a dictionary-encoded page without its dictionary). Natively the reader's `catch_unwind`
/// turns that into one error naming the file; the fuzzer still reports them because libFuzzer
/// aborts on any panic, and in wasm (panic = abort) the page's trap guard recovers, so the
/// files stay under `open/` until the reader validates offsets before decoding.
#[test]
fn forged_parquet_files_that_panic_inside_the_parquet_crate_give_an_error() {
    for name in [
        "open/parquet-negative-column-start",
        "open/parquet-dict-decoder-unset",
    ] {
        let data = bytes(name);
        // The fuzz target's split: a little-endian u16 length, then tasks, then fragments.
        let n = (u16::from_le_bytes([data[0], data[1]]) as usize).min(data.len() - 2);
        let (tasks, fragments) = data[2..].split_at(n);
        let ds = policy_playground::input::workload::read_parquet_workload(tasks, fragments)
            .expect_err("a forged file is not a workload");
        assert!(
            ds.iter()
                .any(|d| d.message.contains(".parquet") && d.is_error()),
            "{name}: {ds:?}"
        );
    }
}
