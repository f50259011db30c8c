//! A workload and a carbon trace as OpenDC parquet (Snappy-compressed, one row group), in the
//! columns and physical types of OpenDC's own files: `tasks.parquet` (`id`, `submission_time`,
//! `duration`, `cpu_count`, `cpu_capacity`, `mem_capacity` in OpenDC's KB, where 1000 KB make the
//! reader's MiB; `deferrable`/`deadline` and `gpu_count`/`gpu_capacity` when any task has them),
//! `fragments.parquet` (`id`, `duration`, `cpu_usage`) and a carbon trace (`timestamp` as
//! `timestamp[ms]`, `carbon_intensity`).

use crate::model::{CarbonTrace, Workload};
use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use std::sync::Arc;

/// One column's values.
enum Column {
    I32(Vec<i32>),
    I64(Vec<i64>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
    Str(Vec<ByteArray>),
}

/// Writes `columns` (schema lines such as `REQUIRED INT32 id;`, with their values) as a parquet
/// file.
fn write(columns: Vec<(&str, Column)>) -> Result<Vec<u8>, String> {
    let schema = format!(
        "message schema {{ {} }}",
        columns
            .iter()
            .map(|(s, _)| *s)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let schema = Arc::new(parse_message_type(&schema).map_err(|e| e.to_string())?);
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build(),
    );
    let mut writer =
        SerializedFileWriter::new(Vec::new(), schema, props).map_err(|e| e.to_string())?;
    let mut group = writer.next_row_group().map_err(|e| e.to_string())?;
    for (_, values) in &columns {
        let Some(mut column) = group.next_column().map_err(|e| e.to_string())? else {
            return Err("the schema has fewer columns than values".into());
        };
        let written = match values {
            Column::I32(v) => column.typed::<Int32Type>().write_batch(v, None, None),
            Column::I64(v) => column.typed::<Int64Type>().write_batch(v, None, None),
            Column::F64(v) => column.typed::<DoubleType>().write_batch(v, None, None),
            Column::Bool(v) => column.typed::<BoolType>().write_batch(v, None, None),
            Column::Str(v) => column.typed::<ByteArrayType>().write_batch(v, None, None),
        };
        written.map_err(|e| e.to_string())?;
        column.close().map_err(|e| e.to_string())?;
    }
    group.close().map_err(|e| e.to_string())?;
    writer.into_inner().map_err(|e| e.to_string())
}

/// The ids as OpenDC's int32 when every id is one, as strings otherwise.
fn ids(ids: impl Iterator<Item = String> + Clone) -> (&'static str, Column) {
    let ints: Option<Vec<i32>> = ids.clone().map(|s| s.parse::<i32>().ok()).collect();
    match ints {
        // An id such as `007` would read back as `7`: only canonical integers are written so.
        Some(v) if v.iter().zip(ids.clone()).all(|(i, s)| i.to_string() == s) => {
            ("REQUIRED INT32 id;", Column::I32(v))
        }
        _ => (
            "REQUIRED BYTE_ARRAY id (UTF8);",
            Column::Str(ids.map(|s| ByteArray::from(s.into_bytes())).collect()),
        ),
    }
}

/// `tasks.parquet` and `fragments.parquet` of a workload.
pub fn workload(w: &Workload) -> Result<(Vec<u8>, Vec<u8>), String> {
    let t = &w.tasks;
    let mut tasks = vec![
        ids(t.iter().map(|t| t.id.clone())),
        (
            "REQUIRED INT64 submission_time;",
            Column::I64(t.iter().map(|t| t.submission_ms).collect()),
        ),
        (
            "REQUIRED INT64 duration;",
            Column::I64(t.iter().map(|t| t.duration_ms).collect()),
        ),
        (
            "REQUIRED INT32 cpu_count;",
            Column::I32(
                t.iter()
                    .map(|t| t.cpu_count.min(i32::MAX as u32) as i32)
                    .collect(),
            ),
        ),
        (
            "REQUIRED DOUBLE cpu_capacity;",
            Column::F64(t.iter().map(|t| t.cpu_capacity_mhz).collect()),
        ),
        (
            "REQUIRED INT64 mem_capacity;",
            Column::I64(
                t.iter()
                    .map(|t| t.memory_mib.saturating_mul(1000))
                    .collect(),
            ),
        ),
    ];
    if t.iter()
        .any(|t| t.gpu_count > 0 || t.gpu_capacity_mhz != 0.0)
    {
        tasks.push((
            "REQUIRED INT32 gpu_count;",
            Column::I32(
                t.iter()
                    .map(|t| t.gpu_count.min(i32::MAX as u32) as i32)
                    .collect(),
            ),
        ));
        tasks.push((
            "REQUIRED DOUBLE gpu_capacity;",
            Column::F64(t.iter().map(|t| t.gpu_capacity_mhz).collect()),
        ));
    }
    if t.iter().any(|t| t.deferrable || t.deadline_ms.is_some()) {
        tasks.push((
            "REQUIRED BOOLEAN deferrable;",
            Column::Bool(t.iter().map(|t| t.deferrable).collect()),
        ));
        tasks.push((
            "REQUIRED INT64 deadline;",
            Column::I64(t.iter().map(|t| t.deadline_ms.unwrap_or(-1)).collect()),
        ));
    }
    let owners = t
        .iter()
        .flat_map(|task| std::iter::repeat_n(task.id.clone(), w.fragment_count(task) as usize));
    let fragment_rows = || t.iter().flat_map(|task| w.task_fragments(task));
    let fragments = vec![
        ids(owners),
        (
            "REQUIRED INT64 duration;",
            Column::I64(fragment_rows().map(|(d, _)| d).collect()),
        ),
        (
            "REQUIRED DOUBLE cpu_usage;",
            Column::F64(fragment_rows().map(|(_, u)| u).collect()),
        ),
    ];
    Ok((write(tasks)?, write(fragments)?))
}

/// A carbon trace as OpenDC's carbon parquet.
pub fn carbon(c: &CarbonTrace) -> Result<Vec<u8>, String> {
    write(vec![
        (
            "REQUIRED INT64 timestamp (TIMESTAMP(MILLIS, true));",
            Column::I64(c.timestamps_ms.clone()),
        ),
        (
            "REQUIRED DOUBLE carbon_intensity;",
            Column::F64(c.intensity.clone()),
        ),
    ])
}
