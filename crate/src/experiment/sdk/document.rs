//! The JSON layer of an SDK experiment (SPEC 11.2, 11.3): the text parsed as OpenDC3's tree
//! reader does (a repeated key keeps its first position and its last value, with a warning), and
//! every `importFrom` replaced by the imported file's object, so that the readers above see one
//! tree, as OpenDC3's decoder does.
//!
//! Every file read keeps its text, and the tree's offsets are made global: file `k`'s offsets are
//! moved by the summed length of the files before it. A diagnostic found by path in the merged
//! tree is so placed at the line and column *of the file it came from*, imports included.

use super::super::{Files, LoadError};
use crate::diag::{join_path, Anchor, Diagnostic};
use crate::input::json_text;
use crate::json::{self, LineIndex, Member, Node, Value};
use std::path::{Component, Path, PathBuf};

/// Most `importFrom` resolutions in one experiment (each reads and copies a file).
pub const MAX_IMPORTS: usize = 1000;
/// Longest chain of files importing each other (each adds its nesting depth to the tree).
pub const MAX_IMPORT_DEPTH: usize = 16;
/// Most text read through imports, in bytes, so that a small file importing a large one many
/// times cannot exhaust memory.
pub const MAX_IMPORTED_BYTES: usize = 256 << 20;

/// One file of the document: its label (the path as resolved), its text and where its offsets
/// start in the merged tree.
#[derive(Debug, Clone)]
pub struct Source {
    pub label: String,
    pub text: String,
    base: usize,
}

/// An SDK experiment's JSON with its imports resolved.
#[derive(Debug, Clone)]
pub struct Document {
    /// The merged tree, with global offsets (see the module's doc).
    pub root: Node,
    /// The experiment file first, then every imported file in the order first read.
    pub sources: Vec<Source>,
    /// Repeated keys, one warning each at the later key (SPEC 11.2.2).
    pub warnings: Vec<Diagnostic>,
}

impl Document {
    /// Places diagnostics that carry only a path at the line and column of the file their
    /// value came from, and names that file.
    pub fn place(&self, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let indexes: Vec<LineIndex> = self
            .sources
            .iter()
            .map(|s| LineIndex::new(&s.text))
            .collect();
        diagnostics
            .into_iter()
            .map(|d| {
                if d.line.is_some() || d.file.is_some() {
                    return d;
                }
                let offset = json_text::locate(&self.root, &d.path, d.anchor).unwrap_or(0);
                self.place_with(&indexes, d, offset)
            })
            .collect()
    }

    /// Places one diagnostic at a global offset.
    pub fn place_at(&self, d: Diagnostic, offset: usize) -> Diagnostic {
        let k = self.source_of(offset);
        let index = LineIndex::new(&self.sources[k].text);
        self.place_with(std::slice::from_ref(&index), d, offset)
    }

    fn place_with(&self, indexes: &[LineIndex], d: Diagnostic, offset: usize) -> Diagnostic {
        let k = self.source_of(offset);
        let index = indexes.get(k).unwrap_or(&indexes[0]);
        let local = offset - self.sources[k].base;
        index.place(d, local).in_file(&self.sources[k].label)
    }

    fn source_of(&self, offset: usize) -> usize {
        self.sources
            .partition_point(|s| s.base <= offset)
            .saturating_sub(1)
    }

    /// The merged tree as a serde_json value, for the readers that walk one.
    pub fn value(&self) -> serde_json::Value {
        self.root.to_serde()
    }
}

/// Reads the SDK experiment at `path` and everything it imports.
pub fn read(files: &dyn Files, path: &Path, text: String) -> Result<Document, LoadError> {
    let mut reader = Reader {
        files,
        sources: vec![],
        warnings: vec![],
        errors: vec![],
        unreadable: false,
        imports: 0,
        imported_bytes: 0,
    };
    let label = path.display().to_string();
    let root = reader.parse(&label, text)?;
    let dir = parent(path);
    let mut chain = vec![normalize(path)];
    let root = reader.resolve(root, &dir, &mut chain, "");
    if !reader.errors.is_empty() {
        let doc = Document {
            root,
            sources: reader.sources,
            warnings: vec![],
        };
        let mut errors = doc.place(reader.errors);
        errors.extend(doc.place(reader.warnings));
        return Err(if reader.unreadable {
            LoadError::Unreadable(errors)
        } else {
            LoadError::Invalid(errors)
        });
    }
    let mut doc = Document {
        root,
        sources: reader.sources,
        warnings: vec![],
    };
    doc.warnings = doc.place(reader.warnings);
    Ok(doc)
}

struct Reader<'f> {
    files: &'f dyn Files,
    sources: Vec<Source>,
    /// Diagnostics whose offset is known: placed once the tree is whole.
    warnings: Vec<Diagnostic>,
    errors: Vec<Diagnostic>,
    unreadable: bool,
    imports: usize,
    imported_bytes: usize,
}

impl Reader<'_> {
    /// Parses one file (repeated keys kept) and moves its offsets to their global place.
    fn parse(&mut self, label: &str, text: String) -> Result<Node, LoadError> {
        let mut node = json::parse_keeping_duplicates(&text)
            .map_err(|d| LoadError::Invalid(vec![d.in_file(label)]))?;
        let base = self.sources.last().map_or(0, |s| s.base + s.text.len() + 1);
        shift(&mut node, base);
        self.sources.push(Source {
            label: label.to_string(),
            text,
            base,
        });
        Ok(node)
    }

    /// The node with its repeated keys collapsed and its imports resolved, recursively.
    /// `dir` is the folder of the file that wrote the node; `chain` the files importing it.
    fn resolve(&mut self, node: Node, dir: &Path, chain: &mut Vec<PathBuf>, path: &str) -> Node {
        let offset = node.offset;
        match node.value {
            Value::Array(items) => {
                let items = items
                    .into_iter()
                    .enumerate()
                    .map(|(i, n)| self.resolve(n, dir, chain, &format!("{path}[{i}]")))
                    .collect();
                Node {
                    value: Value::Array(items),
                    offset,
                }
            }
            Value::Object(members) => {
                let own = self.collapse(members, path);
                let mut merged: Vec<Member> = Vec::new();
                let mut rest = Vec::with_capacity(own.len());
                for m in own {
                    if m.key == "importFrom" {
                        merged = self.import(&m, dir, chain, path);
                    } else {
                        rest.push(m);
                    }
                }
                for m in rest {
                    let at = join_path(path, &m.key);
                    let value = self.resolve(m.value, dir, chain, &at);
                    let m = Member { value, ..m };
                    match merged.iter_mut().find(|x| x.key == m.key) {
                        Some(x) => *x = m,
                        None => merged.push(m),
                    }
                }
                Node {
                    value: Value::Object(merged),
                    offset,
                }
            }
            value => Node { value, offset },
        }
    }

    /// The members with each repeated key's last value at its first position; a warning at
    /// every later occurrence.
    fn collapse(&mut self, members: Vec<Member>, path: &str) -> Vec<Member> {
        let mut out: Vec<Member> = Vec::with_capacity(members.len());
        for m in members {
            match out.iter_mut().find(|x| x.key == m.key) {
                Some(first) => {
                    let message =
                        format!("duplicate key `{}`: OpenDC3 keeps this later value", m.key);
                    let d = Diagnostic::warning(join_path(path, &m.key), message);
                    self.warnings.push(self.placed(d, m.key_offset));
                    first.value = m.value;
                }
                None => out.push(m),
            }
        }
        out
    }

    /// The members of the file an `importFrom` member names, resolved in that file's folder.
    fn import(
        &mut self,
        m: &Member,
        dir: &Path,
        chain: &mut Vec<PathBuf>,
        path: &str,
    ) -> Vec<Member> {
        let at = join_path(path, "importFrom");
        let Some(name) = m.value.as_str() else {
            let message = format!(
                "`importFrom` must be a string (a path to a JSON file), found {}",
                m.value.type_name()
            );
            self.error(Diagnostic::error(&at, message), m.value.offset);
            return vec![];
        };
        let target = match self.target(name, dir) {
            Ok(t) => t,
            Err(message) => {
                self.error(Diagnostic::error(&at, message), m.value.offset);
                return vec![];
            }
        };
        if let Some(i) = chain.iter().position(|p| *p == target) {
            let mut names: Vec<String> =
                chain[i..].iter().map(|p| p.display().to_string()).collect();
            names.push(target.display().to_string());
            let message = format!("`importFrom` makes a cycle: {}", names.join(" -> "));
            self.error(Diagnostic::error(&at, message), m.value.offset);
            return vec![];
        }
        self.imports += 1;
        if self.imports > MAX_IMPORTS || chain.len() >= MAX_IMPORT_DEPTH {
            let message = format!("too many imports: at most {MAX_IMPORTS} `importFrom` in all, {MAX_IMPORT_DEPTH} files deep");
            self.error(Diagnostic::error(&at, message), m.value.offset);
            return vec![];
        }
        let text = match self.files.read(&target) {
            Ok(bytes) => {
                String::from_utf8(bytes).map_err(|_| "the file is not UTF-8 text".to_string())
            }
            Err(e) => {
                self.unreadable = true;
                Err(format!("cannot read it ({e})"))
            }
        };
        let text = match text {
            Ok(t) => t,
            Err(why) => {
                let message = format!(
                    "the imported file `{}` was not found or is unreadable: {why}",
                    target.display()
                );
                self.error(Diagnostic::error(&at, message), m.value.offset);
                return vec![];
            }
        };
        self.imported_bytes += text.len();
        if self.imported_bytes > MAX_IMPORTED_BYTES {
            let message = format!(
                "the imports read more than {} MiB of text",
                MAX_IMPORTED_BYTES >> 20
            );
            self.error(Diagnostic::error(&at, message), m.value.offset);
            return vec![];
        }
        let root = match self.parse(&target.display().to_string(), text) {
            Ok(n) => n,
            Err(e) => {
                self.errors.extend(e.diagnostics().iter().cloned());
                return vec![];
            }
        };
        if !matches!(root.value, Value::Object(_)) {
            let message = format!(
                "the imported file `{}` must hold a JSON object, found {}",
                target.display(),
                root.type_name()
            );
            self.error(Diagnostic::error(&at, message), m.value.offset);
            return vec![];
        }
        chain.push(target.clone());
        let resolved = self.resolve(root, &parent(&target), chain, path);
        chain.pop();
        match resolved.value {
            Value::Object(members) => members,
            _ => vec![],
        }
    }

    /// The file an import names: relative to the importing file's folder; an absolute path is
    /// taken as written where absolute paths can be read.
    fn target(&self, name: &str, dir: &Path) -> Result<PathBuf, String> {
        let p = Path::new(name);
        if p.is_absolute() || name.starts_with('/') {
            if !self.files.reads_absolute_paths() {
                return Err(format!("`{name}` is an absolute path: the page reads only the files you dropped; write a path relative to the file that imports it"));
            }
            return Ok(normalize(p));
        }
        Ok(normalize(&dir.join(p)))
    }

    fn placed(&self, d: Diagnostic, offset: usize) -> Diagnostic {
        let k = self
            .sources
            .partition_point(|s| s.base <= offset)
            .saturating_sub(1);
        match self.sources.get(k) {
            Some(s) => LineIndex::new(&s.text)
                .place(d, offset - s.base)
                .in_file(&s.label),
            None => d,
        }
    }

    fn error(&mut self, d: Diagnostic, offset: usize) {
        let d = self.placed(d, offset);
        self.errors.push(d);
    }
}

/// Adds `base` to every offset of the tree.
fn shift(node: &mut Node, base: usize) {
    node.offset += base;
    match &mut node.value {
        Value::Array(items) => items.iter_mut().for_each(|n| shift(n, base)),
        Value::Object(members) => members.iter_mut().for_each(|m| {
            m.key_offset += base;
            shift(&mut m.value, base);
        }),
        _ => {}
    }
}

/// The folder of a file (`.` for a bare name).
fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `a/./b/../c` as `a/c`, without touching the disk (the page has none), so that a cycle is
/// found whatever way its paths are written.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[allow(unused)]
fn _anchor_is_used(_: Anchor) {}
