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

/// Runs `f` with a panic hook that counts panics (caught or not): the number of panics, and
/// what `f` gave. The previous hook is restored after.
fn counting_panics<T>(f: impl FnOnce() -> T) -> (usize, T) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    // The hook is global: tests that swap it run one at a time.
    static HOOK: Mutex<()> = Mutex::new(());
    let _one = HOOK.lock().unwrap_or_else(|e| e.into_inner());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |_| {
        seen.fetch_add(1, Ordering::SeqCst);
    }));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    let out = out.unwrap_or_else(|p| std::panic::resume_unwind(p));
    (count.load(Ordering::SeqCst), out)
}

/// The parquet workload reader on a fuzz input: a little-endian u16 length, then that many
/// bytes of tasks.parquet, then fragments.parquet (the fuzz target's split).
fn read_parquet_fuzz_input(
    data: &[u8],
) -> Result<policy_playground::model::Workload, Vec<policy_playground::diag::Diagnostic>> {
    let n = (u16::from_le_bytes([data[0], data[1]]) as usize).min(data.len() - 2);
    let (tasks, fragments) = data[2..].split_at(n);
    policy_playground::input::workload::read_parquet_workload(tasks, fragments)
}

/// Forged parquet files on which the parquet crate itself panicked (natively caught by the
/// reader's `catch_unwind`; in wasm, panic = abort, a trap): a column chunk whose start is
/// negative (`ColumnChunkMetaData::byte_range` asserts), and a dictionary-encoded data page with
/// no dictionary page before it ("Decoder for dict should have been set"). The reader checks
/// both before the crate gets there: one error naming the file, the column and what is wrong,
/// and no panic at all. (The first input's fragments file is `tests/bad-inputs/workload-ok`'s:
/// the fuzzer's own also declared a field of the footer with another type, which the reader now
/// refuses before the tasks file's column is reached.)
#[test]
fn forged_parquet_files_that_panic_inside_the_parquet_crate_give_an_error() {
    for (name, message) in [
        (
            "parquet-negative-column-start",
            "tasks.parquet: cannot decode the column `submission_time`: row group 0: the column \
             chunk starts at -19, outside the file's 2312 bytes",
        ),
        (
            "parquet-dict-decoder-unset",
            "tasks.parquet: cannot decode the column `cpu_capacity`: row group 0: a data page is \
             dictionary-encoded (RLE_DICTIONARY) but no dictionary page comes before it",
        ),
    ] {
        let data = bytes(name);
        let (panics, read) = counting_panics(|| read_parquet_fuzz_input(&data));
        assert_eq!(panics, 0, "{name}: the parquet crate panicked");
        let ds = read.expect_err("a forged file is not a workload");
        let messages: Vec<&str> = ds.iter().map(|d| d.message.as_str()).collect();
        assert!(
            ds.iter().any(|d| d.is_error() && d.message == message),
            "{name}: {messages:#?}"
        );
        assert!(
            !messages.iter().any(|m| m.contains("decoder failed")),
            "{name}: a panic was caught: {messages:#?}"
        );
    }
}

/// Forged parquet files on which the parquet crate's Thrift reader spins: an unknown field that
/// is a list of 2^31 - 1 booleans, which the crate skips without reading a byte per element
/// (seconds natively, far longer in wasm), in the footer and in a page header. The reader walks
/// both first and refuses more booleans than the metadata has bytes, with one error that says
/// where. The footer's forgery is 9 bytes put before its stop byte (the 1,069-byte fragments
/// file of `tests/bad-inputs/workload-ok` becomes 1,078: footer 297-1069, the field at 1060, the
/// list's header at 1063); the page header's overwrites 9 bytes at 10, after the first header's
/// three integer fields (the list's header at 13, its size's varint up to 18; the `id` column
/// chunk is bytes 4-85, 82 bytes). `parquet-desynced-field-type` (from the fuzzer) gives a
/// known field another type, field 6 of a column's `Statistics` (a binary) declared a list at
/// byte 515, which the crate read as the format's type and so walked the bytes after it
/// differently into such a list (5 s natively, 19 s in wasm); the walk knows the format's
/// fields and refuses the declared type.
#[test]
fn forged_parquet_files_that_hold_the_thrift_reader_give_an_error() {
    for (name, message) in [
        (
            "parquet-bool-list-in-footer",
            "fragments.parquet: not a readable parquet file (in its footer, bytes 297-1069: a \
             Thrift collection at byte 1063 brings the boolean elements to 2147483647, more \
             than the 773 bytes of this metadata could hold)",
        ),
        (
            "parquet-bool-list-in-page-header",
            "fragments.parquet: cannot decode the column `id`: row group 0: the page header at \
             byte 4: a Thrift collection at byte 13 brings the boolean elements to 2147483647, \
             more than the 82 bytes of this metadata could hold",
        ),
        (
            "parquet-desynced-field-type",
            "fragments.parquet: not a readable parquet file (in its footer, bytes 297-1069: \
             field 6 (Statistics.min_value) at byte 515: declared a list, where the parquet \
             format has a binary)",
        ),
    ] {
        let data = bytes(name);
        let (panics, read) = counting_panics(|| read_parquet_fuzz_input(&data));
        assert_eq!(panics, 0, "{name}: the parquet crate panicked");
        let ds = read.expect_err("a forged file is not a workload");
        let messages: Vec<&str> = ds.iter().map(|d| d.message.as_str()).collect();
        assert!(
            ds.iter().any(|d| d.is_error() && d.message == message),
            "{name}: {messages:#?}"
        );
    }
}

/// A forged tasks file whose schema element declares 405,800,734 children in a schema of four
/// elements (found by the fuzzer on 7 December): the parquet crate reserved room for that many
/// before reading them, 3.2 GB, and a failed allocation aborts the process (natively and in
/// wasm alike, no panic to catch). The reader's walk of the footer refuses a `num_children` past
/// the length of the list it is in, with one error.
#[test]
fn a_forged_schema_that_would_exhaust_memory_gives_an_error() {
    let data = bytes("parquet-num-children-oom");
    let (panics, read) = counting_panics(|| read_parquet_fuzz_input(&data));
    assert_eq!(panics, 0, "the parquet crate panicked");
    let ds = read.expect_err("a forged file is not a workload");
    let messages: Vec<&str> = ds.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "tasks.parquet: not a readable parquet file (in its footer, bytes 32-795: a \
          SchemaElement in the list at byte 35 gives num_children 405800734, more than the \
          list's 4 elements)"
        ]
    );
}
