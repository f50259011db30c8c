//! Files a browser user dropped or picked together, as an experiment reads them (SPEC 11.8.4):
//! each under the relative path the browser reports (`folder/sub/file`), with folders implied
//! by the paths. Absolute paths mean nothing here, so they are refused.

use super::sdk::document::normalize;
use super::Files;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Dropped files by their relative path.
#[derive(Debug, Default, Clone)]
pub struct DroppedFiles {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl DroppedFiles {
    /// The files, each at its path as the browser reports it (normalised: `a/./b` is `a/b`).
    pub fn new(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Self {
        DroppedFiles {
            files: files
                .into_iter()
                .map(|(p, b)| (normalize(Path::new(&p)), b))
                .collect(),
        }
    }

    /// The paths held, for a message when a reference is not among them.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.keys().map(PathBuf::as_path)
    }
}

impl Files for DroppedFiles {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        self.files.get(&normalize(path)).cloned().ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("`{}` is not among the dropped files", path.display()),
            )
        })
    }

    fn is_dir(&self, path: &Path) -> bool {
        let dir = normalize(path);
        self.files.keys().any(|p| p.starts_with(&dir) && *p != dir)
    }

    fn reads_absolute_paths(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_implied_by_the_dropped_paths() {
        let files = DroppedFiles::new([
            ("study/experiment.json".to_string(), b"{}".to_vec()),
            ("study/trace/tasks.parquet".to_string(), vec![1]),
        ]);
        assert!(files.is_dir(Path::new("study/trace")));
        assert!(files.is_dir(Path::new("study/./trace")));
        assert!(
            !files.is_dir(Path::new("study/tr")),
            "a prefix of a name is no folder"
        );
        assert!(!files.is_dir(Path::new("study/trace/tasks.parquet")));
        assert_eq!(
            files
                .read(Path::new("study/x/../trace/tasks.parquet"))
                .unwrap(),
            vec![1]
        );
        assert!(
            files.read(Path::new("trace/tasks.parquet")).is_err(),
            "no guessing by base name"
        );
        assert!(!files.reads_absolute_paths());
    }
}
