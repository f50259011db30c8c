//! Resource references of SDK files (SPEC 11.8): `{"type":"named","name":N}` and
//! `{"type":"uri","uri":U}` name a path under the experiment file's folder, as OpenDC3's
//! file-system provisioner resolves them. Nothing is fetched from a network, and nothing is
//! guessed: a reference resolves to exactly one path or is an error.

use super::super::Files;
use super::document::normalize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A reference as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// `named` or `uri`.
    pub kind: &'static str,
    /// The name or the URI.
    pub target: String,
}

impl Reference {
    /// "the named workload `x`" / "the uri `x`", for messages.
    pub fn describe(&self, what: &str) -> String {
        format!("the {} {what} `{}`", self.kind, self.target)
    }
}

/// Reads a reference object; the error says what was expected.
pub fn reference(v: &Value) -> Result<Reference, String> {
    let Some(obj) = v.as_object() else {
        return Err(format!(
            "expected a reference such as {{\"type\": \"uri\", \"uri\": \"folder\"}}, found {}",
            crate::input::units::json_type(v)
        ));
    };
    let (kind, key) = match obj.get("type").and_then(Value::as_str) {
        Some("named") => ("named", "name"),
        Some("uri") => ("uri", "uri"),
        Some(other) => {
            return Err(format!(
                "unknown reference type `{other}`: expected `named` or `uri`"
            ))
        }
        None => return Err("the reference lacks `type` (`named` or `uri`)".into()),
    };
    match obj.get(key).and_then(Value::as_str) {
        Some(t) => Ok(Reference {
            kind,
            target: t.to_string(),
        }),
        None => Err(format!("a `{kind}` reference needs `{key}`, a string")),
    }
}

/// The path a reference denotes: `<root>/N`, an absolute path as written (where the files can
/// be read by absolute path), or a `file:` URI's path.
pub fn resolve(files: &dyn Files, root: &Path, r: &Reference) -> Result<PathBuf, String> {
    let mut target = r.target.as_str();
    if r.kind == "uri" {
        if target.contains(|c: char| {
            c.is_whitespace() || matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}')
        }) {
            return Err(format!("`{target}` is not a valid URI (OpenDC3 fails to parse it): write it without spaces or quotes"));
        }
        if let Some(scheme) = scheme(target) {
            if !scheme.eq_ignore_ascii_case("file") {
                return Err(format!("the `{scheme}:` scheme is not supported: OpenDC3 (and the playground) read only local files; write a relative `uri` or a `named` reference"));
            }
            if !files.reads_absolute_paths() {
                return Err("the page reads only dropped files; write a relative `uri` or a `named` reference and drop the folder".into());
            }
            target = target[scheme.len() + 1..].trim_start_matches("//");
            if !target.starts_with('/') {
                return Err(format!(
                    "`{}` is not a file URI with an absolute path",
                    r.target
                ));
            }
        }
    }
    let p = Path::new(target);
    if p.is_absolute() || target.starts_with('/') {
        if !files.reads_absolute_paths() {
            return Err(format!("`{target}` is an absolute path: the page reads only the files you dropped; write a path relative to the experiment file"));
        }
        return Ok(normalize(p));
    }
    Ok(normalize(&root.join(p)))
}

/// The scheme of a URI (`http` in `http://...`): letters, digits, `+ - .`, starting with a
/// letter, at least two characters long so that a Windows drive letter is not one.
fn scheme(uri: &str) -> Option<&str> {
    let end = uri.find(':')?;
    let s = &uri[..end];
    let ok = s.len() >= 2
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    ok.then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoAbsolute;
    impl Files for NoAbsolute {
        fn read(&self, _: &Path) -> std::io::Result<Vec<u8>> {
            Err(std::io::ErrorKind::NotFound.into())
        }
        fn is_dir(&self, _: &Path) -> bool {
            false
        }
        fn reads_absolute_paths(&self) -> bool {
            false
        }
    }

    fn r(kind: &'static str, target: &str) -> Reference {
        Reference {
            kind,
            target: target.into(),
        }
    }

    #[test]
    fn names_and_relative_uris_are_under_the_root() {
        let root = Path::new("exp");
        let disk = super::super::super::Disk;
        assert_eq!(
            resolve(&disk, root, &r("named", "azure")).unwrap(),
            PathBuf::from("exp/azure")
        );
        assert_eq!(
            resolve(&disk, root, &r("uri", "./w/../trace")).unwrap(),
            PathBuf::from("exp/trace")
        );
        assert_eq!(
            resolve(&disk, root, &r("uri", "file:///data/t")).unwrap(),
            PathBuf::from("/data/t")
        );
    }

    #[test]
    fn schemes_spaces_and_absolute_paths_in_the_page_are_errors() {
        let root = Path::new("exp");
        let disk = super::super::super::Disk;
        assert!(resolve(&disk, root, &r("uri", "http://x/t"))
            .unwrap_err()
            .contains("`http:` scheme"));
        assert!(resolve(&disk, root, &r("uri", "s3://b/t"))
            .unwrap_err()
            .contains("`s3:`"));
        assert!(resolve(&disk, root, &r("uri", "my trace"))
            .unwrap_err()
            .contains("not a valid URI"));
        assert!(resolve(&NoAbsolute, root, &r("uri", "file:///t"))
            .unwrap_err()
            .contains("only dropped files"));
        assert!(resolve(&NoAbsolute, root, &r("named", "/t"))
            .unwrap_err()
            .contains("absolute path"));
        // A named reference is a path, not a URI: a space is allowed.
        assert_eq!(
            resolve(&disk, root, &r("named", "my trace")).unwrap(),
            PathBuf::from("exp/my trace")
        );
    }

    #[test]
    fn a_reference_needs_its_type_and_target() {
        assert_eq!(
            reference(&serde_json::json!({"type": "named", "name": "a"})).unwrap(),
            r("named", "a")
        );
        assert!(reference(&serde_json::json!({"type": "uri"}))
            .unwrap_err()
            .contains("needs `uri`"));
        assert!(reference(&serde_json::json!({"type": "http", "uri": "x"}))
            .unwrap_err()
            .contains("`named` or `uri`"));
        assert!(reference(&serde_json::json!("x"))
            .unwrap_err()
            .contains("expected a reference"));
    }
}
