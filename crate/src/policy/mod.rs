//! The policy language: typed policies ([`spec`]), their vocabulary ([`catalog`]), the reader
//! with diagnostics ([`parse`], [`document`]), the prefabs ([`prefab`]), the explicit form
//! ([`expand`]) and the JSON Schema for editors ([`schema`]).

pub mod catalog;
pub mod differences;
pub mod document;
pub mod expand;
pub mod parse;
pub mod prefab;
pub mod schema;
pub mod spec;

pub use document::{check_text, policy_from_text, Checked, DocumentKind, Entry};
pub use spec::{Filter, Policy, TaskStopper, Timeshift, Weigher, WeigherKind};
