//! Checks shared by the fuzz targets: what every reader must give whatever its input.

use policy_playground::diag::Diagnostic;

/// A reader's failure: at least one error, and every position inside the text.
pub fn check_failure(text: Option<&str>, ds: &[Diagnostic]) {
    assert!(
        ds.iter().any(Diagnostic::is_error),
        "a failure without an error: {ds:#?}"
    );
    check_positions(text, ds);
}

/// Every diagnostic that has a line and column points into `text` (or just past its end).
pub fn check_positions(text: Option<&str>, ds: &[Diagnostic]) {
    for d in ds {
        assert!(!d.message.is_empty(), "an empty message: {d:#?}");
        let (Some(line), Some(column)) = (d.line, d.column) else {
            continue;
        };
        assert!(line >= 1 && column >= 1, "positions are 1-based: {d:#?}");
        let Some(text) = text else { continue };
        // Lines end at `\n`, `\r\n` or a lone `\r` (as in the editor); a byte order mark
        // at the start is no column.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let lines: Vec<&str> = text.split("\r\n").flat_map(|l| l.split(['\r', '\n'])).collect();
        assert!(
            (line as usize) <= lines.len(),
            "line {line} past the end ({} lines): {d:#?}",
            lines.len()
        );
        let width = lines[line as usize - 1].encode_utf16().count();
        assert!(
            (column as usize) <= width + 1,
            "column {column} past the end of line {line} ({width} units): {d:#?}"
        );
    }
}

/// The input as text, when it is UTF-8.
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Splits `data` in two: a little-endian u16 length, then that many bytes (clamped), then the rest.
pub fn split(data: &[u8]) -> (&[u8], &[u8]) {
    if data.len() < 2 {
        return (data, &[]);
    }
    let n = u16::from_le_bytes([data[0], data[1]]) as usize;
    let rest = &data[2..];
    let n = n.min(rest.len());
    rest.split_at(n)
}

/// What every result must satisfy: each task ended (completed, or terminated with a reason), its
/// runs lie between its submission and its finish and add up to its duration when it completed,
/// the makespan is the last end, and energy is finite and splits into idle + dynamic.
pub fn check_result(r: &policy_playground::sim::SimResult) {
    let m = &r.metrics;
    assert_eq!(r.tasks.len() as u64, m.tasks_total);
    assert_eq!(m.tasks_completed + m.tasks_terminated, m.tasks_total, "{m:?}");
    let mut last_end = 0;
    for t in &r.tasks {
        assert!(t.finish_ms >= t.submit_ms, "finished before its submission: {t:?}");
        last_end = last_end.max(t.finish_ms);
        let mut previous = t.submit_ms;
        for run in &t.runs {
            assert!(run.from_ms >= previous && run.to_ms >= run.from_ms, "runs out of order: {t:?}");
            previous = run.to_ms;
        }
        assert!(previous <= t.finish_ms, "ran past its finish: {t:?}");
        assert_eq!(t.start_ms, t.runs.first().map(|r| r.from_ms), "{t:?}");
        match t.state {
            "completed" => {
                let ran: i64 = t.runs.iter().map(|r| r.to_ms - r.from_ms).sum();
                assert_eq!(ran, t.duration_ms, "completed without running its duration: {t:?}");
                assert_eq!(t.runs.last().map(|r| r.to_ms), Some(t.finish_ms), "{t:?}");
                assert!(t.reason.is_none(), "{t:?}");
            }
            "terminated" => assert!(t.reason.is_some(), "terminated without a reason: {t:?}"),
            other => panic!("a task ended {other}: {t:?}"),
        }
    }
    assert_eq!(m.makespan_ms, last_end, "the makespan is not the last end");
    let scale = m.energy_j.abs().max(1.0);
    assert!(m.energy_j.is_finite() && m.idle_energy_j.is_finite() && m.dynamic_energy_j.is_finite(), "{m:?}");
    assert!(m.idle_energy_j >= 0.0, "{m:?}");
    assert!(m.dynamic_energy_j >= -1e-9 * scale, "{m:?}");
    assert!((m.idle_energy_j + m.dynamic_energy_j - m.energy_j).abs() <= 1e-9 * scale, "{m:?}");
    assert!(m.mean_utilization.is_finite() && (0.0..=1.0 + 1e-9).contains(&m.mean_utilization), "{m:?}");
    let hosts: f64 = r.hosts.iter().map(|h| h.energy_j).sum();
    assert!((hosts - m.energy_j).abs() <= 1e-6 * scale, "hosts {hosts} vs {}", m.energy_j);
    if let Some(c) = m.carbon_g {
        assert!(c.is_finite(), "{m:?}");
    }
}
