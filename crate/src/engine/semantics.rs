//! Which scheduler semantics a run or a decision case follows (SPEC 11.12): **Classic** (SPEC
//! 1-10, the documented OpenDC 2 behaviour) or **Current** (OpenDC 3's filter scheduler). One
//! enum, so that every entry point (CLI, scenario file, wasm options, cases) names the same two
//! values and Classic stays the default everywhere.

use serde::{Deserialize, Serialize};

/// The semantics of a run: `classic` (the default) or `current`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Semantics {
    /// SPEC 1-10: filter every host, normalise, rank, draw among the best `subsetSize`.
    #[default]
    Classic,
    /// SPEC 11.12: OpenDC 3's filter scheduler (host types, persistent weights, no draw).
    Current,
}

/// The accepted spellings, for error messages.
pub const NAMES: [&str; 2] = ["classic", "current"];

impl Semantics {
    /// True for Classic: results and explanations omit the field then, so that Classic outputs
    /// stay byte for byte what they were before Current existed.
    pub fn is_classic(&self) -> bool {
        *self == Semantics::Classic
    }

    /// `classic` or `current`.
    pub fn name(self) -> &'static str {
        match self {
            Semantics::Classic => "classic",
            Semantics::Current => "current",
        }
    }

    /// Reads `classic` or `current` (exactly these spellings, as the JSON keys take them).
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "classic" => Some(Semantics::Classic),
            "current" => Some(Semantics::Current),
            _ => None,
        }
    }

    /// The error for a value that is not one of [`NAMES`], naming the field at `path`.
    pub fn error(path: &str, found: &dyn std::fmt::Display) -> crate::diag::Diagnostic {
        crate::diag::Diagnostic::error(
            path,
            format!(
                "`{}` must be \"classic\" or \"current\", found {found}",
                path.rsplit('.').next().unwrap_or(path)
            ),
        )
    }
}

impl std::str::FromStr for Semantics {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Semantics::parse(s)
            .ok_or_else(|| format!("expected one of {}, found `{s}`", NAMES.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON spellings are the lower-camel names, Classic is the default and is the one
    /// that results omit.
    #[test]
    fn spellings_default_and_omission() {
        assert_eq!(Semantics::default(), Semantics::Classic);
        assert_eq!(
            serde_json::to_string(&Semantics::Current).ok().as_deref(),
            Some("\"current\"")
        );
        let read: Result<Semantics, _> = serde_json::from_str("\"classic\"");
        assert_eq!(read.ok(), Some(Semantics::Classic));
        assert!(serde_json::from_str::<Semantics>("\"Current\"").is_err());
        assert!(Semantics::Classic.is_classic() && !Semantics::Current.is_classic());
        assert_eq!("current".parse::<Semantics>(), Ok(Semantics::Current));
        assert!("opendc3".parse::<Semantics>().is_err());
    }
}
